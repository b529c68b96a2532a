import { readFileSync } from 'node:fs';
import { type NextFunction, type Request, type Response, Router } from 'express';
import type { AppContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { memoryAsset, sendMemoryAsset } from '../lib/compression.ts';
import type { ParticipantClaims } from '../services/keys/participant-token.ts';
import { escapeHtml, FAVICON_LINK } from './landing.ts';

/**
 * `GET /widget.js`: the `<svc-points>` custom element (web/widget, bundled with graphql-ws by
 * `npm run generate` and committed), and `GET /widget-demo?token=…`: a page that embeds it with a
 * participant token, so anyone can watch a balance, a tier level and streaks change live. Both are
 * self-contained: nothing loads from another origin.
 *
 * The bundle is sent brotli- or gzip-compressed as the request accepts (compressed once, on
 * first demand): pages embedding it load it from here on every visit after its 5 minutes.
 */
const WIDGET_JS = memoryAsset(
  readFileSync(new URL('../../web/widget/dist/svc-points.js', import.meta.url)),
  'text/javascript; charset=utf-8',
);

/** Who the demo's token speaks for, or why it speaks for no one, in a sentence of HTML. */
function tokenLine(token: string, claims: ParticipantClaims | Error | null): string {
  if (!token)
    return '<p>Add <code>?token=svc_pt_…</code>: mint one with <code>POST /v1/participants/{external_id}/tokens</code>.</p>';
  if (claims instanceof Error || !claims)
    return `<p role="alert"><strong>This token shows no one:</strong> ${escapeHtml(claims?.message ?? 'unreadable')}. Mint another with <code>POST /v1/participants/{external_id}/tokens</code>.</p>`;
  const mode =
    claims.mode === 'live'
      ? '<strong>live</strong> mode (real data)'
      : '<strong>test</strong> mode (sandbox data, apart from live)';
  const expires = new Date(claims.expiresAt * 1000).toISOString().replace('T', ' ').slice(0, 16);
  return `<p data-testid="widget-subject">Showing participant <code>${escapeHtml(claims.externalId)}</code> of workspace <code>${escapeHtml(claims.workspaceSlug)}</code>, in ${mode}. The token expires at ${expires} UTC.</p>`;
}

const demoPage = (token: string, claims: ParticipantClaims | Error | null) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc live widget</title>
${FAVICON_LINK}
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code,pre{font-size:.85em}pre{background:#f4f6fb;padding:1em;overflow:auto}</style>
</head>
<body>
<h1>Live points</h1>
${tokenLine(token, claims)}
<p>The balance, the tier level with the points the next level needs, the streaks, and the latest badge, updated live over GraphQL subscriptions, and the referral code to share, with a copy button:</p>
<p><svc-points id="widget" endpoint="/graphql" token="${escapeHtml(claims && !(claims instanceof Error) ? token : '')}"></svc-points></p>
${claims && !(claims instanceof Error) ? '<p>Change the balance (an adjustment, an event that triggers a flow, a redemption) or the level (<code>PUT /v1/participants/{external_id}/tier</code>) and watch it move.</p>' : ''}
<p>Embed it on any page:</p>
<pre>&lt;script src="${'{'}your svc}/widget.js"&gt;&lt;/script&gt;
&lt;svc-points endpoint="${'{'}your svc}/graphql" token="svc_pt_…"&gt;&lt;/svc-points&gt;</pre>
<script src="/widget.js"></script>
</body>
</html>
`;

export function widgetRouter(ctx: AppContext): Router {
  const r = Router();
  r.get('/widget.js', (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('Access-Control-Allow-Origin', '*');
    sendMemoryAsset(req, res, WIDGET_JS).catch(next);
  });
  r.get('/widget-demo', async (req: Request, res: Response) => {
    const token =
      typeof req.query.token === 'string' && /^svc_pt_[\w.-]{1,2000}$/.test(req.query.token)
        ? req.query.token
        : '';
    // The same check a widget's request gets (signature, expiry, the minting key still live), so
    // the page names whose balance it shows and in which mode, or why the token shows nothing.
    const claims = token
      ? await ctx.keys.authenticateParticipant(`Bearer ${token}`).catch((err: unknown) => {
          if (err instanceof DomainError) return err;
          throw err;
        })
      : null;
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:",
    );
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(demoPage(token, claims));
  });
  return r;
}
