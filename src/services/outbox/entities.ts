import { defineEntity, p } from '@mikro-orm/core';
import { Workspace } from '../workspaces/entities.ts';
import type { ResultType } from './emit.ts';

/**
 * One result (docs/api.md#webhooks: badge.awarded, points.changed, reward.redeemed, flow.completed,
 * message.sent), written in the same transaction as the change that caused it. The webhook
 * engine turns each row into deliveries; a rolled-back change never leaves a row behind.
 */
const OutboxEventSchema = defineEntity({
  name: 'OutboxEvent',
  tableName: 'outbox',
  indexes: [{ properties: ['workspace', 'mode', 'id'] }],
  properties: {
    /** UUIDv7: time-ordered; becomes the delivery body's `id` prefix source and cursor key. */
    id: p.uuid().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    type: p.string().length(64).$type<ResultType>(),
    data: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class OutboxEvent extends OutboxEventSchema.class {}
OutboxEventSchema.setClass(OutboxEvent);
