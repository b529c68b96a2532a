import { z } from 'zod';
import { isoTime } from '../../lib/iso-time.ts';
import { timestamp } from '../../lib/shapes.ts';

/**
 * A badge (key + tier) awarded to a participant, as a live subscription delivers it (GraphQL
 * `badgeAwarded`, docs/live-updates.md#payloads), after the award commits.
 */
export const badgeAwardShape = z.object({
  external_id: z.string(),
  badge: z.object({
    key: z.string(),
    tier: z.string().nullable().meta({ description: 'Null for a badge without tiers.' }),
    name: z.string(),
  }),
  awarded_at: timestamp('When it was awarded.'),
  flow_run_id: z.string().nullable().meta({ description: 'The flow run that awarded it.' }),
});
export type BadgeAward = z.output<typeof badgeAwardShape>;

/** An award read by SQL: `participant_badges` joined to its badge and its participant. */
export interface BadgeAwardRow {
  key: string;
  /** '' for a badge without tiers. */
  tier: string;
  name: string;
  awarded_at: Date;
  flow_run_id: string | null;
  external_id: string;
}

/** Where each column of a {@link BadgeAwardRow} comes from: the award, its badge or its participant. */
const AWARD_COLUMNS: Record<keyof BadgeAwardRow, 'award' | 'badge' | 'participant'> = {
  key: 'badge',
  tier: 'award',
  name: 'badge',
  awarded_at: 'award',
  flow_run_id: 'award',
  external_id: 'participant',
};

/** The select list of a {@link BadgeAwardRow}, given the aliases of `participant_badges`, `badges` and `participants`. */
export const badgeAwardColumns = (alias: { award: string; badge: string; participant: string }): string =>
  Object.entries(AWARD_COLUMNS)
    .map(([column, table]) => `${alias[table]}.${column}`)
    .join(', ');

export const presentBadgeAward = (r: BadgeAwardRow): BadgeAward => ({
  external_id: r.external_id,
  badge: { key: r.key, tier: r.tier === '' ? null : r.tier, name: r.name },
  awarded_at: isoTime(r.awarded_at),
  flow_run_id: r.flow_run_id,
});
