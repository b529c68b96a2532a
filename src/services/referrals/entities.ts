import { defineEntity, p } from '@mikro-orm/core';
import { Participant } from '../participants/entities.ts';
import { Workspace } from '../workspaces/entities.ts';

/** The referral programme of a workspace and mode (docs/referrals.md#the-programme), as its settings. */
const ReferralProgramSchema = defineEntity({
  name: 'ReferralProgram',
  tableName: 'referral_programs',
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule('cascade'),
    mode: p.string().length(4).primary(),
    settings: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class ReferralProgram extends ReferralProgramSchema.class {}
ReferralProgramSchema.setClass(ReferralProgram);

/** A participant's referral code (docs/referrals.md#codes): made on first read, never changed. */
const ReferralCodeSchema = defineEntity({
  name: 'ReferralCode',
  tableName: 'referral_codes',
  uniques: [{ name: 'referral_codes_code_unique', properties: ['workspaceId', 'mode', 'code'] }],
  properties: {
    participant: () => p.manyToOne(Participant).primary().deleteRule('cascade'),
    workspaceId: p.uuid(),
    mode: p.string().length(4),
    code: p.string().length(12),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class ReferralCode extends ReferralCodeSchema.class {}
ReferralCodeSchema.setClass(ReferralCode);

/**
 * A referral (docs/referrals.md): a friend attributed to an advocate by the event that
 * created the friend. A participant is a friend at most once. `due_at` is when the referral job
 * next looks at it: a pending referral's window end, a qualified one's advocate reward (at once,
 * then at the hold's end); null once it is settled.
 */
const ReferralSchema = defineEntity({
  name: 'Referral',
  tableName: 'referrals',
  uniques: [{ name: 'referrals_friend_unique', properties: ['friend'] }],
  indexes: [
    { name: 'referrals_list_idx', properties: ['workspace', 'mode', 'id'] },
    { name: 'referrals_advocate_idx', properties: ['advocate', 'createdAt'] },
    {
      name: 'referrals_due_idx',
      expression: 'create index "referrals_due_idx" on "referrals" ("due_at") where due_at is not null',
    },
  ],
  checks: [
    {
      name: 'referrals_status_check',
      expression: "status in ('pending', 'qualified', 'rewarded', 'blocked', 'expired', 'clawed_back')",
    },
  ],
  properties: {
    /** UUIDv7: time-ordered, so the primary key is also the newest-first cursor. */
    id: p.uuid().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    code: p.string().length(12),
    advocate: () => p.manyToOne(Participant).deleteRule('cascade'),
    friend: () => p.manyToOne(Participant).deleteRule('cascade'),
    status: p.string().length(16),
    reason: p.string().length(32).nullable(),
    /** The event that created the friend and carried the code. */
    eventId: p.uuid(),
    /** The friend's event that qualified it. */
    qualifyingEventId: p.uuid().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    /** When a pending referral expires (its window's end); null for a blocked one. */
    expiresAt: p.datetime().nullable(),
    qualifiedAt: p.datetime().nullable(),
    /** When the advocate's pending points become available (qualified_at + hold). */
    rewardAvailableAt: p.datetime().nullable(),
    rewardedAt: p.datetime().nullable(),
    clawedBackAt: p.datetime().nullable(),
    /** The advocate's pending grants, once written by the referral job. */
    grantIds: p.array<string>().columnType('uuid[]').nullable(),
    dueAt: p.datetime().nullable(),
  },
});
export class Referral extends ReferralSchema.class {}
ReferralSchema.setClass(Referral);
