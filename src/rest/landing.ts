import { type Request, type Response, Router } from 'express';
import pkg from '../../package.json' with { type: 'json' };

/** Where a newcomer goes from `GET /` or `GET /v1`: the same links as JSON or as a page. */
const LINKS = [
  { rel: 'openapi', href: '/v1/openapi.json', title: 'OpenAPI 3.1 document' },
  { rel: 'reference', href: '/docs', title: 'API reference' },
  { rel: 'graphql', href: '/graphql', title: 'GraphQL' },
  { rel: 'dashboard', href: '/dashboard', title: 'Dashboard' },
  { rel: 'health', href: '/healthz', title: 'Health' },
] as const;

export const LANDING = {
  name: pkg.name,
  description: pkg.description,
  version: pkg.version,
  api_version: 'v1',
  links: Object.fromEntries(LINKS.map((l) => [l.rel, l.href])) as Record<
    (typeof LINKS)[number]['rel'],
    string
  >,
};

/** Text or an attribute value made safe inside HTML. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The service's icon, one small SVG for every page it serves (this one, the dashboard, GraphiQL,
 * the widget demo): without one a browser asks for /favicon.ico and logs the 404 as an error.
 */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="7" fill="#3b5bdb"/>' +
  '<path fill="#fff" d="M16 5.5l3.1 6.6 7.2.9-5.3 5 1.4 7.1L16 21.6l-6.4 3.5 1.4-7.1-5.3-5 7.2-.9z"/>' +
  '</svg>\n';

export const FAVICON_LINK = '<link rel="icon" href="/favicon.svg" type="image/svg+xml">';

// Self-contained: no script, stylesheet, font or image from elsewhere (its icon is served here).
const LANDING_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(pkg.name)} ${escapeHtml(pkg.version)}</title>
${FAVICON_LINK}
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{font-size:.9em}</style>
</head>
<body>
<h1>${escapeHtml(pkg.name)} <small>${escapeHtml(pkg.version)}</small></h1>
<p>${escapeHtml(pkg.description)}</p>
<ul>
${LINKS.map((l) => `<li><a href="${l.href}">${escapeHtml(l.title)}</a> <code>${l.href}</code></li>`).join('\n')}
</ul>
<p>REST API: <code>/v1</code>, with <code>Authorization: Bearer svc_test_…</code> or <code>svc_live_…</code>.</p>
</body>
</html>
`;

/** Answers HTML to a browser (Accept: text/html first), JSON to everyone else. */
function landing(req: Request, res: Response): void {
  if (req.accepts(['json', 'html']) === 'html') res.type('html').send(LANDING_HTML);
  else res.json(LANDING);
}

/** The icon, cached for a day; `/favicon.ico` too, which browsers ask for on pages that name none. */
function favicon(_req: Request, res: Response): void {
  res.type('image/svg+xml').setHeader('Cache-Control', 'public, max-age=86400');
  res.send(FAVICON_SVG);
}

/** `GET /` and `GET /v1`: a small index of what this server serves. No key needed. */
export function landingRouter(): Router {
  const r = Router();
  r.get('/', landing);
  r.get('/v1', landing);
  r.get('/favicon.svg', favicon);
  r.get('/favicon.ico', favicon);
  return r;
}
