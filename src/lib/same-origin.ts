import type { Request, RequestHandler } from 'express';
import { DomainError } from '../errors.ts';

/**
 * The dashboard's CSRF defence (docs/dashboard.md#security): a state-changing request is accepted only when the
 * browser says it comes from this server's own origin. `Origin` decides when present (browsers
 * send it on every POST, fetch or form); without it `Sec-Fetch-Site: same-origin`, and without
 * both a `Referer` naming this host. A request carrying none of them is refused: browsers always
 * send one, so only a non-browser client omits them all, and it can add an `Origin` itself.
 *
 * "This server" is the request's own host (`req.host`: the Host header, or X-Forwarded-Host when
 * `TRUST_PROXY` trusts the proxy). The scheme must match too when the request is known to have
 * come over TLS (`req.secure`), so a plain-HTTP page cannot act on the HTTPS dashboard.
 */
export function crossOriginReason(req: Request): string | null {
  const origin = req.get('origin');
  if (origin !== undefined) return matchesHost(req, origin) ? null : `Origin '${origin}' is not this server`;
  const site = req.get('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin' ? null : `Sec-Fetch-Site is '${site}'`;
  const referer = req.get('referer');
  if (referer !== undefined) return matchesHost(req, referer) ? null : 'the Referer is not this server';
  return 'no Origin, Sec-Fetch-Site or Referer header';
}

function matchesHost(req: Request, given: string): boolean {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return false; // includes `Origin: null` (sandboxed frames, file: pages)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (req.secure && url.protocol !== 'https:') return false;
  const host = req.host;
  if (!host) return false;
  try {
    // The request's host read with the origin's scheme, so default ports compare equal.
    return new URL(`${url.protocol}//${host}`).host === url.host;
  } catch {
    return false;
  }
}

/** Throws the 403 `permission_error` for a request that fails the same-origin check. */
export function assertSameOrigin(req: Request): void {
  const why = crossOriginReason(req);
  if (why)
    throw new DomainError(
      'permission_error',
      `Cross-site request refused (${why}): dashboard changes must come from the dashboard's own origin`,
    );
}

/** Express middleware for any other state-changing dashboard route: GET, HEAD and OPTIONS pass. */
export const requireSameOrigin: RequestHandler = (req, _res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
  try {
    assertSameOrigin(req);
    next();
  } catch (err) {
    next(err);
  }
};
