import { expect } from 'vitest';
import { withTransaction } from '../src/db/tx.ts';
import type { Mode } from '../src/services/keys/principal.ts';
import { postEntry } from '../src/services/ledger/post-entry.ts';
import { ensureParticipant } from '../src/services/participants/ensure-participant.ts';
import type { TestApp, TestWorkspace } from './helpers.ts';

/** A participant holding `points` (credited through the ledger, like an adjustment would). */
export async function fundedParticipant(
  app: TestApp,
  ws: TestWorkspace,
  externalId: string,
  points: number,
  opts: { mode?: Mode; name?: string; email?: string } = {},
): Promise<number> {
  const mode = opts.mode ?? 'test';
  return withTransaction(app.ctx.pool, async (sql) => {
    const p = await ensureParticipant(sql, { workspaceId: ws.id, mode, externalId });
    if (opts.name !== undefined || opts.email !== undefined)
      await sql.query('update participants set name = $2, email = $3 where id = $1', [
        p.id,
        opts.name ?? null,
        opts.email ?? null,
      ]);
    if (points > 0)
      await postEntry(sql, {
        workspaceId: ws.id,
        mode,
        participantId: p.id,
        externalId,
        points,
        source: 'adjustment',
        reason: 'test funding',
      });
    return p.id;
  });
}

export async function makeReward(ws: TestWorkspace, body: Record<string, unknown>, mode: Mode = 'test') {
  const res = await ws.api('/v1/rewards', { body, mode });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; name: string; [k: string]: unknown };
}

export async function balanceOf(app: TestApp, ws: TestWorkspace, externalId: string, mode: Mode = 'test') {
  const { rows } = await app.ctx.pool.query(
    `select p.balance, coalesce((select sum(points) from ledger_entries l where l.participant_id = p.id), 0) as ledger
       from participants p where workspace_id = $1 and mode = $2 and external_id = $3`,
    [ws.id, mode, externalId],
  );
  if (!rows[0]) return null;
  return { balance: Number(rows[0].balance), ledger: Number(rows[0].ledger) };
}

/** Every participant of the workspace whose balance differs from the sum of its ledger entries. */
export async function ledgerMismatches(app: TestApp, ws: TestWorkspace) {
  const { rows } = await app.ctx.pool.query(
    `select p.external_id, p.balance, coalesce(sum(l.points), 0) as ledger
       from participants p left join ledger_entries l on l.participant_id = p.id
      where p.workspace_id = $1
      group by p.id having p.balance <> coalesce(sum(l.points), 0)`,
    [ws.id],
  );
  return rows;
}

export async function outboxOf(app: TestApp, ws: TestWorkspace, type: string) {
  const { rows } = await app.ctx.pool.query(
    `select data from outbox where workspace_id = $1 and type = $2 order by id`,
    [ws.id, type],
  );
  return rows.map((r) => r.data as Record<string, any>);
}
