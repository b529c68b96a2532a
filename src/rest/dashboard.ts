import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type NextFunction, type Request, type Response, Router } from 'express';
import type { AppContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { precompressedVariant } from '../lib/compression.ts';

/**
 * `GET /dashboard/*`: the built dashboard (web/dashboard, Vite with base `/dashboard/`), a
 * single-page app served by this process (docs/dashboard.md#building).
 *
 * - `/dashboard/assets/*`: Vite's content-hashed files, cached for a year as `immutable`; an
 *   unknown one is a 404, never the app's page (a stale tab asking for an old chunk must fail
 *   loudly, not parse HTML as JavaScript).
 * - `/dashboard/<file>.<ext>` directly under the root: the build's other files (Vite's `public/`),
 *   revalidated on every use; 404 when missing.
 * - every other path (`/dashboard`, `/dashboard/participants/alice`, …): index.html, revalidated on
 *   every use so a new build is picked up at once; the client router takes it from there.
 *
 * Every answer carries the page security headers below. No build yet: a 503 page saying how to
 * make one.
 *
 * Files are sent precompressed: the build writes `<file>.br` and `<file>.gz` beside each one
 * (scripts/build-dashboard.ts), and the answer is the variant the request's Accept-Encoding
 * takes, with its Content-Encoding, the original file's Content-Type, and `Vary:
 * Accept-Encoding`. Nothing is compressed per request.
 */
export const DEFAULT_DASHBOARD_DIST = fileURLToPath(new URL('../../web/dashboard/dist/', import.meta.url));

/**
 * The app's Content-Security-Policy: everything from this origin only, no inline or eval'd script,
 * inline styles allowed (Mantine sets style attributes and injects its CSS variables), images also
 * as data: URLs, no framing by anyone.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const DASHBOARD_HEADERS: Record<string, string> = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dashboard not built</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{font-size:.9em;background:#f4f6fb;padding:.1em .3em}</style>
</head>
<body>
<h1>The dashboard has not been built</h1>
<p>This server has no dashboard build to serve. Build it with <code>npm run build:dashboard</code>
(<code>npm ci</code> and <code>npm start</code> build it too when it is missing or stale), then reload this page.</p>
</body>
</html>
`;

/** A single path segment that names a file: `favicon.svg`, `robots.txt`. */
const ROOT_FILE = /^\/[^/]+\.[A-Za-z0-9]+$/;

export function dashboardRouter(ctx: AppContext): Router {
  const dist = path.resolve(ctx.config.DASHBOARD_DIST_DIR ?? DEFAULT_DASHBOARD_DIST);
  const r = Router();
  r.use('/dashboard', (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    res.set(DASHBOARD_HEADERS);
    if (!existsSync(path.join(dist, 'index.html'))) {
      res.status(503).set('Cache-Control', 'no-store').type('html').send(NOT_BUILT_PAGE);
      return;
    }
    const missing = (err: Error & { status?: number }) =>
      next(
        err.status === 404
          ? new DomainError('not_found', `No dashboard file at ${req.originalUrl.split('?')[0]}`)
          : err,
      );
    const file = async (relative: string, cacheControl: string) => {
      const { hasVariants, variant } = await precompressedVariant(req, dist, relative);
      const headers: Record<string, string> = { 'Cache-Control': cacheControl };
      if (hasVariants) res.vary('Accept-Encoding');
      if (variant) {
        // The type of the file it stands for (send would name a `.br` file application/octet-stream).
        res.type(path.extname(relative));
        headers['Content-Encoding'] = variant.encoding;
      }
      res.sendFile(
        variant?.file ?? relative,
        // No byte ranges of a compressed body: they would count encoded bytes, which no client wants.
        { root: dist, dotfiles: 'deny', cacheControl: false, acceptRanges: !variant, headers },
        (err) => err && missing(err),
      );
    };
    const served = req.path.startsWith('/assets/')
      ? file(req.path.slice(1), 'public, max-age=31536000, immutable')
      : ROOT_FILE.test(req.path) && req.path !== '/index.html'
        ? file(req.path.slice(1), 'no-cache')
        : file('index.html', 'no-cache');
    served.catch(next);
  });
  return r;
}
