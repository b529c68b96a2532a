import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { DomainError, notFound } from '../../errors.ts';
import { isoTime } from '../../lib/iso-time.ts';
import { type Page, type PageInput, pageInput } from '../../lib/pagination.ts';
import type { Mode, Scope } from '../keys/principal.ts';
import { postCredits } from '../ledger/post-credits.ts';
import { findParticipant } from '../participants/repository.ts';
import { type SettledGrant, setGrantEntries, settleGrants } from './activate.sql.ts';
import { creditTerms } from './credit-terms.ts';
import { type GrantRow, grantById, grantsOf, lockGrantOwner, moveOpenLots } from './repository.ts';
import type { PendingGrantDto } from './shapes.ts';

/** A pending grant as every door shows it. */
export const presentGrant = (r: GrantRow): PendingGrantDto => ({
  id: r.id,
  participant: { external_id: r.external_id },
  points: Number(r.points),
  available_at: isoTime(r.available_at),
  status: r.status,
  event_id: r.event_id,
  flow_run_id: r.flow_run_id,
  entry_id: r.entry_id === null ? null : Number(r.entry_id),
  created_at: isoTime(r.created_at),
});

export const listPendingInput = pageInput;

/** `GET /v1/participants/{external_id}/pending-points`: the participant's grants, newest first. */
export async function listPendingGrants(
  ctx: AppContext,
  who: Scope,
  externalId: string,
  q: PageInput,
): Promise<Page<PendingGrantDto>> {
  const participant = await findParticipant(ctx.pool, who, externalId);
  return ctx.paginator.page(
    q,
    (r: GrantRow) => r.id,
    (range) => grantsOf(ctx.pool, participant.id, range),
    presentGrant,
  );
}

/**
 * Credits settled grants as flow credits (`reference` and idempotency key `pending:<id>`), each
 * lot's expiry counted from now, and records each grant's entry. The caller holds the owners'
 * row locks and settled the grants in this transaction.
 */
export async function creditGrants(sql: Sql, grants: SettledGrant[], now = new Date()): Promise<void> {
  if (!grants.length) return;
  const terms = new Map<string, Awaited<ReturnType<typeof creditTerms>>>();
  for (const g of grants) {
    const scope = `${g.workspace_id}/${g.mode}`;
    if (!terms.has(scope)) terms.set(scope, await creditTerms(sql, g.workspace_id, g.mode, now));
  }
  const posted = await postCredits(
    sql,
    grants.map((g) => ({
      workspaceId: g.workspace_id,
      mode: g.mode as Mode,
      participantId: Number(g.participant_id),
      externalId: g.external_id,
      points: Number(g.points),
      source: 'flow' as const,
      reason: 'Pending points activated',
      reference: `pending:${g.id}`,
      idempotencyKey: `pending:${g.id}`,
      expiresAt: terms.get(`${g.workspace_id}/${g.mode}`)!.expiresAt,
    })),
  );
  await setGrantEntries(
    sql,
    grants.map((g, i) => ({ grantId: g.id, entryId: posted[i]!.entry.id })),
  );
  const moves = grants
    .map((g) => ({ g, t: terms.get(`${g.workspace_id}/${g.mode}`)! }))
    .filter(({ t }) => t.movesOpenLots && t.expiresAt)
    .map(({ g, t }) => ({ participantId: Number(g.participant_id), expiresAt: t.expiresAt! }));
  await moveOpenLots(sql, [...new Map(moves.map((m) => [m.participantId, m])).values()]);
}

const invalidState = (status: string, to: string) =>
  new DomainError('invalid_state', `This grant is ${status}: only a pending grant can be ${to}`);

/**
 * `POST /v1/pending-points/{id}/activate` and `…/cancel` (docs/points.md#pending-points): a
 * pending grant becomes spendable now, or is cancelled before it ever was (a returned order).
 * Any other move is 409 `invalid_state`. The owner's row lock orders it against the tick's
 * activation, so a grant is settled once.
 */
export function settlePendingGrant(
  ctx: AppContext,
  who: Scope,
  id: string,
  to: 'activated' | 'cancelled',
): Promise<PendingGrantDto> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
    return Promise.reject(notFound('pending grant'));
  return unitOfWork(ctx, async ({ sql }) => {
    if (!(await lockGrantOwner(sql, who.workspaceId, who.mode, id))) throw notFound('pending grant');
    const before = await grantById(sql, id);
    if (!before) throw notFound('pending grant');
    if (before.status !== 'pending') throw invalidState(before.status, to);
    const settled = await settleGrants(sql, to, { grantIds: [id] });
    if (to === 'activated') await creditGrants(sql, settled);
    return presentGrant((await grantById(sql, id))!);
  });
}
