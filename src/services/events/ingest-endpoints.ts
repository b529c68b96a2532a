import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { DomainError, notFound } from '../../errors.ts';
import { pageInput } from '../../lib/pagination.ts';
import { TEXT_LIMITS, text } from '../../lib/primitives.ts';
import { decryptSecret, encryptSecret, verifySignature } from '../../lib/secrets.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { randomToken } from '../keys/key-format.ts';
import type { Mode, Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { IngestEndpoint } from './entities.ts';
import { eventTypeKey } from './event-types.ts';
import type { IngestSource } from './ingest-event.ts';
import { presentIngestEndpoint } from './presenters.ts';
import {
  ingestEndpointById,
  ingestEndpointByKey,
  pageIngestEndpoints,
  softDeleteIngestEndpoint,
} from './repository.ts';
import type { IngestEndpointCreatedDto, IngestEndpointDto } from './shapes.ts';

export const createIngestEndpointInput = z.strictObject({
  name: text(TEXT_LIMITS.name, { min: 1 }),
  default_event_type: eventTypeKey.nullish(),
});
export type CreateIngestEndpointInput = z.output<typeof createIngestEndpointInput>;

/** Creates an ingest endpoint in the caller's mode; the signing secret is returned only here. */
export async function createIngestEndpoint(
  ctx: AppContext,
  who: Principal,
  input: CreateIngestEndpointInput,
): Promise<IngestEndpointCreatedDto> {
  const secret = `whsec_${randomToken(32)}`;
  const endpoint = await unitOfWork(ctx, async ({ em }) =>
    em.create(IngestEndpoint, {
      id: uuidv7(),
      workspace: who.workspaceId,
      mode: who.mode,
      name: input.name,
      key: `ing_${randomToken(32)}`,
      secretEnc: encryptSecret(secret, ctx.config.secret),
      defaultEventType: input.default_event_type ?? null,
    }),
  );
  return { ...presentIngestEndpoint(endpoint), secret };
}

/** The caller's live ingest endpoints, newest first (their secrets are never shown again). */
export const listIngestEndpoints = pagedList({
  input: pageInput,
  keyOf: (e: IngestEndpoint) => e.id,
  fetch: (ctx: AppContext, who: Principal, _q, range) => pageIngestEndpoints(ctx.orm, who, range),
  present: presentIngestEndpoint,
});

async function findOwned(ctx: AppContext, who: Principal, id: string): Promise<IngestEndpoint> {
  const endpoint = z.uuid().safeParse(id).success ? await ingestEndpointById(ctx.orm, who, id) : null;
  if (!endpoint) throw notFound('ingest endpoint');
  return endpoint;
}

/** One live ingest endpoint of the caller's workspace and mode (never its secret); 404 otherwise. */
export async function getIngestEndpoint(
  ctx: AppContext,
  who: Principal,
  id: string,
): Promise<IngestEndpointDto> {
  return presentIngestEndpoint(await findOwned(ctx, who, id));
}

/** Deletes an endpoint: its key stops working at once; events it brought in are kept. */
export async function deleteIngestEndpoint(
  ctx: AppContext,
  who: Principal,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const endpoint = await findOwned(ctx, who, id);
  await softDeleteIngestEndpoint(ctx.orm, endpoint.id);
  return { id: endpoint.id, deleted: true };
}

/**
 * Authenticates `POST /v1/ingest/{key}`: a live endpoint key and a valid `X-Signature` over the
 * raw body. Every failure is the same 401, with the reason in the message.
 */
export async function authenticateIngest(
  ctx: AppContext,
  key: string,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<IngestSource> {
  const fail = (why: string) =>
    new DomainError('authentication_error', `Ingest authentication failed: ${why}`);
  if (!/^ing_[A-Za-z0-9]{32}$/.test(key)) throw fail('unknown ingest key');
  const endpoint = await ingestEndpointByKey(ctx.orm, key);
  if (!endpoint) throw fail('unknown ingest key');
  const check = verifySignature(decryptSecret(endpoint.secretEnc, ctx.config.secret), rawBody, signature);
  if (!check.ok) throw fail(check.reason);
  return {
    workspaceId: endpoint.workspace.id,
    mode: endpoint.mode as Mode,
    source: `ingest:${endpoint.id}`,
    defaultEventType: endpoint.defaultEventType ?? null,
  };
}
