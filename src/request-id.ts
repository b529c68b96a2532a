import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const newRequestId = () => `req_${randomUUID().replaceAll('-', '')}`;

/** Echoes a caller's sane X-Request-Id, else makes one: on the response, and returned. */
export function stampRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : newRequestId();
  res.setHeader('X-Request-Id', id);
  return id;
}
