import { defineEntity, p } from '@mikro-orm/core';
import { Workspace } from '../workspaces/entities.ts';

/**
 * The overview's daily rollup: one number per workspace, mode, UTC day, metric and key (a reward
 * id for `redemptions`, '' otherwise), summed by `rollUpDailyStats` from the rows its watermarks
 * have passed. Read with the rows after the watermarks (overview.ts), so the overview is exact.
 */
const DailyStatSchema = defineEntity({
  name: 'DailyStat',
  tableName: 'daily_stats',
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule('cascade'),
    mode: p.string().length(4).primary(),
    day: p.date().primary(),
    metric: p.string().length(32).primary(),
    key: p.string().length(64).primary(),
    value: p.bigint('number').default(0),
  },
});
export class DailyStat extends DailyStatSchema.class {}
DailyStatSchema.setClass(DailyStat);

/** How far the rollup has read each source table: the largest id it has counted. */
const DailyStatWatermarkSchema = defineEntity({
  name: 'DailyStatWatermark',
  tableName: 'daily_stats_watermarks',
  properties: {
    source: p.string().length(32).primary(),
    /** The last id counted (a bigint or a UUIDv7, as text); null = nothing counted yet. */
    lastId: p.text().nullable(),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class DailyStatWatermark extends DailyStatWatermarkSchema.class {}
DailyStatWatermarkSchema.setClass(DailyStatWatermark);
