import type { Sql } from '../../db/tx.ts';

// Raw SQL: reads on the caller's pg client inside the engine's transaction; the engine folds the same
// query into its one load (flows/engine/load.ts, bench suite `engine`).

export interface ActiveMultiplier {
  factor: number;
  expires_at: string;
}

/**
 * The multiplier rule in one place, for the single read below and the engine's batched read
 * (src/services/flows/engine/load.ts, which folds it into its one load query): per participant,
 * the perk active at `at` with the highest factor, never the product of several (CONTRACT 8).
 * `participants` and `at` are SQL expressions (parameters) for a bigint[] and a timestamptz.
 */
export const activeMultipliersSql = (participants: string, at: string) =>
  `select distinct on (participant_id) participant_id, factor, expires_at from participant_multipliers
    where participant_id = any(${participants}) and expires_at > ${at} and starts_at <= ${at}
    order by participant_id, factor desc, expires_at desc`;

/**
 * The participant's points multiplier at `at` (default now), null when none is active. The
 * engine multiplies flow awards by it inside its own transaction; manual adjustments are not
 * multiplied.
 */
export async function activeMultiplier(
  sql: Sql,
  participantId: number,
  at: Date = new Date(),
): Promise<ActiveMultiplier | null> {
  const { rows } = await sql.query<{ factor: string; expires_at: Date }>(
    activeMultipliersSql('array[$1::bigint]', '$2::timestamptz'),
    [participantId, at],
  );
  const row = rows[0];
  return row ? { factor: Number(row.factor), expires_at: new Date(row.expires_at).toISOString() } : null;
}
