import type { Sql } from '../../db/tx.ts';
import { tierRulesOf } from './programme.ts';
import { creditOf, standingsByIds } from './repository.ts';
import { credit, leavesWindow, type Rules, reverse } from './rules.ts';
import { noWrites, standingOf, takeOutCredit, writeStandings } from './standing.sql.ts';

/** A posted entry that moved lifetime points: a qualifying credit, or the reversal of one. */
export interface QualifyingMove {
  workspaceId: string;
  mode: string;
  participantId: number;
  externalId: string;
  entryId: number;
  /** Signed: a credit's points, or minus the reversed credit's. */
  points: number;
  at: Date;
  /** A reversal: the credit it takes back. */
  reversesEntryId?: number | null;
}

/**
 * Counts qualifying points of entries posted outside the engine (adjustments, reversals, activated
 * grants) toward tiers, in the posting transaction: a credit that crosses a threshold moves the
 * participant up at once, a reversal takes its credit out of the window (docs/tiers.md). The caller
 * holds the participants' row locks (its balance UPDATE took them). Nothing to do, and one read,
 * when no programme runs.
 */
export async function countTierCredits(sql: Sql, moves: QualifyingMove[]): Promise<void> {
  if (!moves.length) return;
  const rulesByScope = new Map<string, Rules | null>();
  for (const m of moves) {
    const scope = `${m.workspaceId}/${m.mode}`;
    if (!rulesByScope.has(scope)) rulesByScope.set(scope, await tierRulesOf(sql, m.workspaceId, m.mode));
  }
  const counted = moves.filter((m) => rulesByScope.get(`${m.workspaceId}/${m.mode}`));
  if (!counted.length) return;
  const standings = new Map(
    (await standingsByIds(sql, [...new Set(counted.map((m) => m.participantId))])).map((r) => [
      Number(r.id),
      standingOf(r),
    ]),
  );
  const writes = noWrites();
  for (const m of counted) {
    const rules = rulesByScope.get(`${m.workspaceId}/${m.mode}`)!;
    let standing = standings.get(m.participantId);
    if (!standing) continue;
    const rolling = rules.programme.qualification.window === 'rolling';
    if (m.points > 0) {
      const out = credit(standing, rules, m.at, m.points);
      standing = out.standing;
      if (out.move) writes.moves.push({ ...m, move: out.move });
      if (rolling)
        writes.credits.push({
          entryId: m.entryId,
          participantId: m.participantId,
          points: m.points,
          leavesAt: leavesWindow(rules, m.at),
        });
    } else if (m.reversesEntryId) {
      const original = await creditOf(sql, m.reversesEntryId);
      if (!original) continue;
      const inWindow = rolling ? await takeOutCredit(sql, m.reversesEntryId) : true;
      standing = reverse(standing, rules, m.at, -m.points, original.created_at, inWindow);
    }
    standings.set(m.participantId, standing);
  }
  for (const [participantId, standing] of standings) writes.standings.push({ participantId, standing });
  await writeStandings(sql, writes);
}
