import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { DomainError } from '../errors.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads every /v1 body as bytes (kept on `req.rawBody` for signature checks), then decodes it as
 * strict UTF-8 and parses JSON: invalid UTF-8 or JSON → 400, over MAX_BODY_BYTES → 413.
 * Text bodies (`text/plain`, `text/csv`, for code imports) are left as strings.
 */
export function bodyParser(maxBytes: number, larger: { path: RegExp; maxBytes: number }[] = []) {
  const raw = express.raw({ type: () => true, limit: maxBytes });
  // Routes allowed a bigger body than MAX_BODY_BYTES (code pool imports of 100,000 codes).
  const exceptions = larger.map((l) => ({ ...l, raw: express.raw({ type: () => true, limit: l.maxBytes }) }));
  return (req: Request, res: Response, next: NextFunction) => {
    const exception = req.method === 'POST' ? exceptions.find((l) => l.path.test(req.path)) : undefined;
    const limit = exception?.maxBytes ?? maxBytes;
    (exception?.raw ?? raw)(req, res, (err?: unknown) => {
      if (err) return next(bodyError(err, limit));
      const buf: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      req.rawBody = buf;
      req.body = undefined;
      try {
        req.body = decodeBody(buf, req.headers['content-type']);
      } catch (e) {
        return next(e);
      }
      next();
    });
  };
}

/**
 * A body's bytes as the routes see them: strict UTF-8, then JSON (an object), or the text of a
 * `text/plain` / `text/csv` body; undefined when empty. Throws the 400 for anything else.
 */
export function decodeBody(buf: Buffer, contentType: string | undefined): unknown {
  if (buf.length === 0) return undefined;
  let text: string;
  try {
    text = decoder.decode(buf);
  } catch {
    throw new DomainError('invalid_request_error', 'Request body is not valid UTF-8');
  }
  const type = contentType ?? 'application/json';
  if (/^text\/(plain|csv)/i.test(type)) return text;
  if (!/^application\/(.+\+)?json/i.test(type))
    throw new DomainError(
      'invalid_request_error',
      `Unsupported Content-Type '${type}': send application/json`,
    );
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new DomainError('invalid_request_error', `Request body is not valid JSON: ${(e as Error).message}`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new DomainError('invalid_request_error', 'Request body must be a JSON object');
  return body;
}

/** The 413 for a body over `maxBytes`. */
export const tooLarge = (maxBytes: number) =>
  new DomainError('payload_too_large', `Request body exceeds ${maxBytes} bytes`, { limit_bytes: maxBytes });

/**
 * Reads a plain (not content-encoded) body of at most `maxBytes` for a route served on bare
 * node:http: the declared length is checked before reading, the received one as it arrives.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (Number(req.headers['content-length']) > maxBytes) return Promise.reject(tooLarge(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      // The rest is read and dropped by node once the 413 is sent.
      req.off('data', onData);
      reject(tooLarge(maxBytes));
    };
    req.on('data', onData);
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    const aborted = () => reject(new DomainError('invalid_request_error', 'request aborted'));
    req.on('error', aborted);
    req.on('close', () => {
      if (!req.complete) aborted();
    });
  });
}

function bodyError(err: unknown, maxBytes: number): unknown {
  const type = (err as { type?: string }).type;
  if (type === 'entity.too.large') return tooLarge(maxBytes);
  if (type === 'request.aborted' || type === 'request.size.invalid' || type === 'encoding.unsupported') {
    return new DomainError('invalid_request_error', (err as Error).message);
  }
  return err;
}
