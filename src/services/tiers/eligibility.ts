import type { Rules } from './rules.ts';

// A reward's `min_tier` (docs/tiers.md#benefits): the lowest level that may redeem it. Below it,
// or without a running programme, or naming a level the programme no longer has: not eligible.

/** Whether a participant at level `key` (null: the first) may redeem a reward needing `minTier`. */
export function tierEligible(rules: Rules | null, key: string | null, minTier: string | null): boolean {
  if (minTier === null) return true;
  if (!rules) return false;
  const keys = rules.programme.levels.map((l) => l.key);
  const needed = keys.indexOf(minTier);
  const held = key === null ? 0 : keys.indexOf(key);
  return needed >= 0 && held >= needed;
}

/**
 * {@link tierEligible} in SQL, for the redemption statement: the participant row `p` against the
 * reward row `r`'s `min_tier`, in the running programme of the workspace and mode (one
 * primary-key lookup, only for a reward that has a `min_tier`).
 */
export const tierEligibleSql = (p: string, r: string, workspaceId: string, mode: string) => `(case
  when ${r}.min_tier is null then true
  else coalesce((
    select coalesce(array_position(k.keys, coalesce(${p}.tier_key, k.keys[1])), 0) >= array_position(k.keys, ${r}.min_tier)
      from tier_programs tp
     cross join lateral (select array(select l->>'key' from jsonb_array_elements(tp.programme->'levels') l) as keys) k
     where tp.workspace_id = ${workspaceId} and tp.mode = ${mode} and tp.programme is not null), false)
end)`;
