import type { Request } from 'express';
import { DomainError } from '../errors.ts';

/**
 * CSRF check for dashboard routes outside tRPC (CONTRACT 13): the browser's `Origin` must name
 * this server, i.e. the request's own host (`req.host`). Browsers send `Origin` on every POST made
 * by fetch or a form, so a request without one is refused too. Throws the 403 `permission_error`.
 */
export function assertSameOrigin(req: Request): void {
  const origin = req.get('origin');
  let host: string | null = null;
  try {
    const url = origin ? new URL(origin) : null;
    if (url && (url.protocol === 'http:' || url.protocol === 'https:')) host = url.host;
  } catch {
    host = null; // `Origin: null` (sandboxed frames, file: pages) and garbage
  }
  const own = req.host;
  const same = host !== null && !!own && sameHost(host, own, origin!);
  if (!same)
    throw new DomainError(
      'permission_error',
      `Cross-site request refused (Origin '${origin ?? '(none)'}' is not this server): dashboard changes must come from the dashboard's own origin`,
    );
}

/** Compares hosts with the origin's scheme, so `example.com` and `example.com:443` agree on https. */
function sameHost(originHost: string, requestHost: string, origin: string): boolean {
  try {
    return new URL(`${new URL(origin).protocol}//${requestHost}`).host === originHost;
  } catch {
    return false;
  }
}
