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
      if (buf.length === 0) return next();
      let text: string;
      try {
        text = decoder.decode(buf);
      } catch {
        return next(new DomainError('invalid_request_error', 'Request body is not valid UTF-8'));
      }
      const type = req.headers['content-type'] ?? 'application/json';
      if (/^text\/(plain|csv)/i.test(type)) {
        req.body = text;
        return next();
      }
      if (!/^application\/(.+\+)?json/i.test(type)) {
        return next(
          new DomainError(
            'invalid_request_error',
            `Unsupported Content-Type '${type}': send application/json`,
          ),
        );
      }
      try {
        req.body = JSON.parse(text);
      } catch (e) {
        return next(
          new DomainError('invalid_request_error', `Request body is not valid JSON: ${(e as Error).message}`),
        );
      }
      if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
        return next(new DomainError('invalid_request_error', 'Request body must be a JSON object'));
      }
      next();
    });
  };
}

function bodyError(err: unknown, maxBytes: number): unknown {
  const type = (err as { type?: string }).type;
  if (type === 'entity.too.large') {
    return new DomainError('payload_too_large', `Request body exceeds ${maxBytes} bytes`, {
      limit_bytes: maxBytes,
    });
  }
  if (type === 'request.aborted' || type === 'request.size.invalid' || type === 'encoding.unsupported') {
    return new DomainError('invalid_request_error', (err as Error).message);
  }
  return err;
}
