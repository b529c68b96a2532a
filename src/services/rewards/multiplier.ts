// Raw SQL: the multiplier rule as a query both its readers run: repository.ts' `activeMultiplier`
// and the engine, which folds it into its one load (flows/engine/load.ts, bench suite `engine`).

/**
 * The multiplier rule in one place: per participant, the perk active at `at` with the highest
 * factor, never the product of several (docs/api.md#rewards-and-redemptions). `participants` and
 * `at` are SQL expressions (parameters) for a bigint[] and a timestamptz.
 */
export const activeMultipliersSql = (participants: string, at: string) =>
  `select distinct on (participant_id) participant_id, factor, expires_at from participant_multipliers
    where participant_id = any(${participants}) and expires_at > ${at} and starts_at <= ${at}
    order by participant_id, factor desc, expires_at desc`;
