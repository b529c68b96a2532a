import express, { type Request, type Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { assertSameOrigin } from '../lib/same-origin.ts';
import { CODE_IMPORT_MAX_BYTES } from '../services/rewards/import-codes.ts';
import { importCodesStream } from '../services/rewards/import-codes-stream.ts';
import { parseInput } from '../services/validation.ts';
import { signedInFromRequest } from './session.ts';
import { modeShape, principalFor } from './trpc.ts';

/** Where the dashboard uploads a code file: `POST /dashboard/api/rewards/:id/codes?mode=live|test`. */
export const CODE_UPLOAD_PATH = '/dashboard/api/rewards/:id/codes';

const uploadQuery = z.object(modeShape);

/** `text/csv` → csv, `text/plain` → text; anything else is refused (a file must say what it is). */
function formatOf(req: Request): 'csv' | 'text' {
  const type = req.get('content-type') ?? '';
  if (/^text\/csv\b/i.test(type)) return 'csv';
  if (/^text\/plain\b/i.test(type)) return 'text';
  throw new DomainError(
    'invalid_request_error',
    `Unsupported Content-Type '${type || '(none)'}': send the file as text/csv or text/plain`,
  );
}

/**
 * The dashboard's code-file upload, outside tRPC because tRPC reads a whole JSON body under
 * MAX_BODY_BYTES: the raw file streams from the request through the parser into the pool
 * (`importCodesStream`), up to 200,000 codes and 16 MiB. Signed in with the session cookie (`signedInFromRequest`, the
 * lookup tRPC's context uses) and same-origin only (CSRF: `assertSameOrigin`, the rule tRPC's mutations follow). Errors use the REST envelope.
 */
export function codeUploadRouter(ctx: AppContext): Router {
  const router = express.Router();
  router.post(CODE_UPLOAD_PATH, async (req, res, next) => {
    try {
      assertSameOrigin(req);
      const user = (await signedInFromRequest(ctx, req))?.user;
      if (!user)
        throw new DomainError('authentication_error', 'Not signed in: sign in to the dashboard first');
      const { mode } = parseInput(uploadQuery, req.query);
      const format = formatOf(req);
      const encoding = req.get('content-encoding');
      if (encoding && encoding !== 'identity')
        throw new DomainError('invalid_request_error', `Unsupported Content-Encoding '${encoding}'`);
      if (Number(req.get('content-length')) > CODE_IMPORT_MAX_BYTES)
        throw new DomainError('payload_too_large', `Request body exceeds ${CODE_IMPORT_MAX_BYTES} bytes`, {
          limit_bytes: CODE_IMPORT_MAX_BYTES,
        });
      const result = await importCodesStream(ctx, principalFor(user, mode), req.params.id, {
        // Not destroyed when the import stops early, so the error response still reaches the client.
        chunks: req.iterator({ destroyOnReturn: false }),
        format,
        maxBytes: CODE_IMPORT_MAX_BYTES,
      });
      res.json(result);
    } catch (err) {
      // The rest of a refused body is read and dropped, then the connection is closed.
      if (!req.complete) {
        res.setHeader('Connection', 'close');
        req.resume();
      }
      next(err);
    }
  });
  return router;
}
