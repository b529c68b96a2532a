import { readFileSync } from 'node:fs';
import { type Request, type Response, Router } from 'express';
import { escapeHtml } from './landing.ts';

/**
 * `GET /widget.js`: the `<svc-points>` custom element (web/widget, bundled with graphql-ws by
 * `npm run generate` and committed), and `GET /widget-demo?token=…`: a page that embeds it with a
 * participant token, so anyone can watch a balance change live. Both are self-contained: nothing
 * loads from another origin.
 */
const WIDGET_JS = readFileSync(new URL('../../web/widget/dist/svc-points.js', import.meta.url), 'utf8');

const demoPage = (token: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc live widget</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code,pre{font-size:.85em}pre{background:#f4f6fb;padding:1em;overflow:auto}</style>
</head>
<body>
<h1>Live points</h1>
<p>This participant's balance and latest badge, updated live over GraphQL subscriptions:</p>
<p><svc-points id="widget" endpoint="/graphql" token="${escapeHtml(token)}"></svc-points></p>
<p>${token ? 'Change the balance (an adjustment, an event that triggers a flow, a redemption) and watch it move.' : 'Add <code>?token=svc_pt_…</code>: mint one with <code>POST /v1/participants/{external_id}/tokens</code>.'}</p>
<p>Embed it on any page:</p>
<pre>&lt;script src="${'{'}your svc}/widget.js"&gt;&lt;/script&gt;
&lt;svc-points endpoint="${'{'}your svc}/graphql" token="svc_pt_…"&gt;&lt;/svc-points&gt;</pre>
<script src="/widget.js"></script>
</body>
</html>
`;

export function widgetRouter(): Router {
  const r = Router();
  r.get('/widget.js', (_req: Request, res: Response) => {
    res.type('text/javascript').setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.send(WIDGET_JS);
  });
  r.get('/widget-demo', (req: Request, res: Response) => {
    const token =
      typeof req.query.token === 'string' && /^svc_pt_[\w.-]{1,2000}$/.test(req.query.token)
        ? req.query.token
        : '';
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:",
    );
    res.type('html').send(demoPage(token));
  });
  return r;
}
