import type { Sql } from '../../db/tx.ts';

export interface ActiveMultiplier {
  factor: number;
  expires_at: string;
}

/**
 * The participant's points multiplier at `at` (default now): the highest active factor, never
 * the product of several perks (CONTRACT 8). Null when none is active. The engine multiplies flow
 * awards by it inside its own transaction; manual adjustments are not multiplied.
 */
export async function activeMultiplier(
  sql: Sql,
  participantId: number,
  at: Date = new Date(),
): Promise<ActiveMultiplier | null> {
  const { rows } = await sql.query<{ factor: string; expires_at: Date }>(
    `select factor, expires_at from participant_multipliers
      where participant_id = $1 and expires_at > $2 and starts_at <= $2
      order by factor desc, expires_at desc
      limit 1`,
    [participantId, at],
  );
  const row = rows[0];
  return row ? { factor: Number(row.factor), expires_at: new Date(row.expires_at).toISOString() } : null;
}
