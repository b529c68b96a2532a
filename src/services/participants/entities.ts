import { defineEntity, p } from '@mikro-orm/core';
import { Workspace } from '../workspaces/entities.ts';

const ParticipantSchema = defineEntity({
  name: 'Participant',
  tableName: 'participants',
  uniques: [{ properties: ['workspace', 'mode', 'externalId'] }],
  indexes: [{ properties: ['workspace', 'mode', 'id'] }],
  // A spendable balance never goes below zero, even if a caller forgot the conditional UPDATE.
  checks: [{ name: 'participants_balance_non_negative', expression: 'balance >= 0' }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    externalId: p.string().length(255),
    email: p.string().length(320).nullable(),
    phone: p.string().length(64).nullable(),
    name: p.string().length(200).nullable(),
    balance: p.bigint('number').default(0),
    lifetimePoints: p.bigint('number').default(0),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class Participant extends ParticipantSchema.class {}
ParticipantSchema.setClass(Participant);
