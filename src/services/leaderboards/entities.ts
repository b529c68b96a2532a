import { defineEntity, p } from '@mikro-orm/core';
import { Participant } from '../participants/entities.ts';
import { Workspace } from '../workspaces/entities.ts';

/** A configured leaderboard (docs/api.md#participants-points-and-leaderboards). The built-in `points` board (all time) is not stored. */
const LeaderboardSchema = defineEntity({
  name: 'Leaderboard',
  tableName: 'leaderboards',
  uniques: [{ properties: ['workspace', 'mode', 'key'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    key: p.string().length(64),
    name: p.string().length(200),
    /** `all_time` | `weekly` | `monthly`. */
    period: p.string().length(16),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class Leaderboard extends LeaderboardSchema.class {}
LeaderboardSchema.setClass(Leaderboard);

/**
 * Points a participant earned in one week or month (UTC), or ever (`all_time`, period_start
 * 1970-01-01, = lifetime points), kept by `recordEarnings`. Every weekly board reads the same
 * rows (and every monthly one), whatever their number.
 */
const LeaderboardScoreSchema = defineEntity({
  name: 'LeaderboardScore',
  tableName: 'leaderboard_scores',
  indexes: [
    {
      name: 'leaderboard_scores_top_idx',
      expression:
        'create index "leaderboard_scores_top_idx" on "leaderboard_scores" ("workspace_id", "mode", "period", "period_start", "score" desc, "participant_id")',
    },
  ],
  properties: {
    participant: () => p.manyToOne(Participant).primary().deleteRule('cascade'),
    period: p.string().length(8).primary(),
    periodStart: p.date().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    score: p.bigint('number').default(0),
  },
});
export class LeaderboardScore extends LeaderboardScoreSchema.class {}
LeaderboardScoreSchema.setClass(LeaderboardScore);

/** A histogram row: one bucket of one level of one board (histogram.ts). */
const histogramRow = () => ({
  id: p.bigint('number').primary().autoincrement(),
  workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
  mode: p.string().length(4),
  period: p.string().length(8),
  periodStart: p.date(),
  level: p.smallint(),
  bucket: p.bigint('number'),
  count: p.bigint('number'),
});

/** The compacted rank histogram (src/services/leaderboards/histogram.ts): one row per bucket. */
const LeaderboardCountSchema = defineEntity({
  name: 'LeaderboardCount',
  tableName: 'leaderboard_counts',
  uniques: [
    {
      name: 'leaderboard_counts_bucket_unique',
      properties: ['workspace', 'mode', 'period', 'periodStart', 'level', 'bucket'],
    },
  ],
  properties: histogramRow(),
});
export class LeaderboardCount extends LeaderboardCountSchema.class {}
LeaderboardCountSchema.setClass(LeaderboardCount);

/** Pending histogram changes (summed per bucket and batch), appended by postings and folded in by the compactor. */
const LeaderboardCountDeltaSchema = defineEntity({
  name: 'LeaderboardCountDelta',
  tableName: 'leaderboard_count_deltas',
  indexes: [
    {
      name: 'leaderboard_count_deltas_bucket_idx',
      properties: ['workspace', 'mode', 'period', 'periodStart', 'level', 'bucket'],
    },
  ],
  properties: histogramRow(),
});
export class LeaderboardCountDelta extends LeaderboardCountDeltaSchema.class {}
LeaderboardCountDeltaSchema.setClass(LeaderboardCountDelta);
