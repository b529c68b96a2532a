import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { DomainError, notFound } from '../../errors.ts';
import { keysetFind, type Page, pageInput } from '../../lib/pagination.ts';
import { decryptSecret, encryptSecret, verifySignature } from '../../lib/secrets.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { randomToken } from '../keys/key-format.ts';
import type { Principal } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import { IngestEndpoint } from './entities.ts';
import { eventTypeKey } from './event-types.ts';
import type { IngestSource } from './ingest-event.ts';
import { type IngestEndpointDto, presentIngestEndpoint } from './presenters.ts';

export const createIngestEndpointInput = z.strictObject({
  name: z.string().min(1).max(200),
  default_event_type: eventTypeKey.nullish(),
});

/** Creates an ingest endpoint in the caller's mode; the signing secret is returned only here. */
export async function createIngestEndpoint(
  ctx: AppContext,
  who: Principal,
  input: unknown,
): Promise<IngestEndpointDto & { secret: string }> {
  const data = parseInput(createIngestEndpointInput, input);
  const secret = `whsec_${randomToken(32)}`;
  const em = ctx.orm.em.fork();
  const endpoint = em.create(IngestEndpoint, {
    id: uuidv7(),
    workspace: who.workspaceId,
    mode: who.mode,
    name: data.name,
    key: `ing_${randomToken(32)}`,
    secretEnc: encryptSecret(secret, ctx.config.secret),
    defaultEventType: data.default_event_type ?? null,
  });
  await em.flush();
  return { ...presentIngestEndpoint(endpoint), secret };
}

export async function listIngestEndpoints(
  ctx: AppContext,
  who: Principal,
  input: unknown,
): Promise<Page<IngestEndpointDto>> {
  const q = parseInput(pageInput, input);
  const em = ctx.orm.em.fork();
  const where = { workspace: who.workspaceId, mode: who.mode, deletedAt: null };
  return ctx.paginator.page(
    q,
    (e: IngestEndpoint) => e.id,
    (range) => em.find(IngestEndpoint, ...keysetFind(range, where)),
    presentIngestEndpoint,
  );
}

async function findOwned(ctx: AppContext, who: Principal, id: string): Promise<IngestEndpoint> {
  const endpoint = z.uuid().safeParse(id).success
    ? await ctx.orm.em
        .fork()
        .findOne(IngestEndpoint, { id, workspace: who.workspaceId, mode: who.mode, deletedAt: null })
    : null;
  if (!endpoint) throw notFound('ingest endpoint');
  return endpoint;
}

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
  await ctx.orm.em.fork().nativeUpdate(IngestEndpoint, { id: endpoint.id }, { deletedAt: new Date() });
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
  const { rows } = await ctx.pool.query<{
    id: string;
    workspace_id: string;
    mode: 'live' | 'test';
    secret_enc: string;
    default_event_type: string | null;
  }>(
    'select id, workspace_id, mode, secret_enc, default_event_type from ingest_endpoints where key = $1 and deleted_at is null',
    [key],
  );
  const endpoint = rows[0];
  if (!endpoint) throw fail('unknown ingest key');
  const check = verifySignature(decryptSecret(endpoint.secret_enc, ctx.config.secret), rawBody, signature);
  if (!check.ok) throw fail(check.reason);
  return {
    workspaceId: endpoint.workspace_id,
    mode: endpoint.mode,
    source: `ingest:${endpoint.id}`,
    defaultEventType: endpoint.default_event_type,
  };
}
