import { Temporal } from 'temporal-polyfill';
import type { Sql } from '../../db/tx.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import type { EngineMechanic, MechanicBatch } from '../flows/engine/mechanics.ts';
import type { EventRow, ParticipantState } from '../flows/engine/types.ts';
import type { Mode } from '../keys/principal.ts';
import { postCredits } from '../ledger/post-credits.ts';
import type { EntryToPost } from '../ledger/post-entry.ts';
import { emitResults, type ResultToEmit } from '../outbox/emit.ts';
import type { ReferralResultData } from '../outbox/result-shapes.ts';
import { programFrom } from '../points/program.ts';
import { moveOpenLots, type PendingReferralRow } from '../points/repository.ts';
import { addDuration, dateOf, expiryOf, instantOf, periodStart } from '../points/rules.ts';
import {
  type CodeRow,
  lookupCodes,
  type NewReferral,
  type Qualification,
  writeReferrals,
} from './attribution.sql.ts';
import { awardReferralBadges, type ReferralBadge } from './award.sql.ts';
import { presentReferral } from './present.ts';
import { referralProgramFrom } from './settings.ts';
import type { BlockReason, ReferralProgramSettings } from './shapes.ts';

/** A programme as one batch uses it. */
interface Programme {
  settings: ReferralProgramSettings;
  /** The loyalty programme's time zone (the limit's calendar, durations across DST). */
  timezone: string;
  /** The lot expiry of a credit made now (docs/points.md#expiry); null: never. */
  expiresAt: Date | null;
  /** `activity` expiry: a credit moves the participant's open lots to `expiresAt`. */
  movesOpenLots: boolean;
}

/** A friend's referral still waiting for its qualifying event. */
interface Pending {
  id: string;
  code: string;
  advocateId: number;
  advocateExternalId: string;
  createdAt: Date;
  expiresAt: Date;
  /** Set when this batch made it. */
  made?: NewReferral;
}

interface ReferralsState {
  now: Date;
  programmes: Map<string, Programme>;
  /** Pending referrals by friend id. */
  pending: Map<number, Pending>;
  /** The batch's codes, keyed `workspace/mode/code`. */
  codes: Map<string, CodeRow>;
  /** Participants who are already a friend in a referral (any status). */
  referred: Set<number>;
  /** Referrals counted toward each advocate's limit in the current period. */
  counted: Map<number, number>;
  made: NewReferral[];
  qualified: Qualification[];
  results: ResultToEmit[];
  credits: EntryToPost[];
  badges: ReferralBadge[];
  /** `activity` expiry moves of the friends credited. */
  moves: Map<number, Date>;
}

const scopeKey = (x: { workspaceId: string; mode: string }) => `${x.workspaceId}/${x.mode}`;
const sameContact = (a: string | null, b: string | null) =>
  a !== null && b !== null && a.trim().toLowerCase() === b.trim().toLowerCase();
/** Phones compare on their digits (and a leading +): `+1 (555) 010-0000` is `+15550100000`. */
const phoneKey = (s: string | null) => (s === null ? null : s.replace(/(?!^\+)[^0-9]/g, ''));

/** Why a referral of `p` by `code`'s advocate is refused, or null when it is not. */
function blockReason(
  s: ReferralsState,
  programme: Programme,
  code: CodeRow,
  e: EventRow,
  p: ParticipantState,
): BlockReason | null {
  const advocateId = Number(code.advocate_id);
  if (advocateId === p.id) return 'self_referral';
  if (sameContact(code.email, p.email)) return 'same_email';
  if (sameContact(phoneKey(code.phone), phoneKey(p.phone))) return 'same_phone';
  if (!e.referral?.createsParticipant) return 'existing_participant';
  const limit = programme.settings.advocate_limit;
  if (limit && (s.counted.get(advocateId) ?? code.counted) >= limit.max) return 'limit_reached';
  return null;
}

/**
 * Referrals in the engine (docs/referrals.md): an event carrying a referral code for the
 * participant it created attributes them to the code's advocate (`pending`, or `blocked` with
 * the reason), and a friend's first event of the qualifying type within the window qualifies
 * their referral: the friend's actions run at once (credits and badges, each keyed by the
 * referral, so once) and `referral.qualified` is emitted; the advocate's reward is the referral
 * job's (tick.ts). The programmes and pending referrals come with the batch's one programme read;
 * a batch with codes reads them once (locking the code rows: the advocate limit is exact), and a
 * batch that made or qualified referrals writes them in one statement, then its credits, badges
 * and results. A batch with neither costs nothing here.
 */
export const referralsMechanic: EngineMechanic<ReferralsState> = {
  name: 'referrals',

  async load(sql: Sql, batch: MechanicBatch): Promise<ReferralsState> {
    const now = new Date();
    const programmes = new Map<string, Programme>();
    for (const [scope, stored] of batch.programme.referralPrograms) {
      const loyalty = programFrom(batch.programme.settings.get(scope));
      const expiry = expiryOf(instantOf(now), loyalty.points_expiry, loyalty.timezone);
      programmes.set(scope, {
        settings: referralProgramFrom(stored),
        timezone: loyalty.timezone,
        expiresAt: expiry ? dateOf(expiry) : null,
        movesOpenLots: expiry !== null && loyalty.points_expiry?.mode === 'activity',
      });
    }
    const state: ReferralsState = {
      now,
      programmes,
      pending: new Map(batch.programme.pendingReferrals.map((r) => [Number(r.friend_id), pendingOf(r)])),
      codes: new Map(),
      referred: new Set(),
      counted: new Map(),
      made: [],
      qualified: [],
      results: [],
      credits: [],
      badges: [],
      moves: new Map(),
    };
    const asks = new Map<string, { workspaceId: string; mode: string; code: string; since: Date | null }>();
    const friends = new Set<number>();
    for (const e of batch.events) {
      const programme = programmes.get(scopeKey(e));
      if (!e.referral || !programme?.settings.active) continue;
      const limit = programme.settings.advocate_limit;
      const since = limit ? dateOf(periodStart(limit.period, instantOf(now), programme.timezone)) : null;
      asks.set(`${scopeKey(e)}/${e.referral.code}`, { ...e, code: e.referral.code, since });
      friends.add(e.participantId);
    }
    if (asks.size) {
      const found = await lookupCodes(sql, [...asks.values()], [...friends]);
      for (const c of found.codes) state.codes.set(`${c.workspace_id}/${c.mode}/${c.code}`, c);
      for (const id of found.referred) state.referred.add(Number(id));
    }
    return state;
  },

  onEvent(s: ReferralsState, e: EventRow, p: ParticipantState): void {
    const programme = s.programmes.get(scopeKey(e));
    if (!programme) return;
    if (e.referral && programme.settings.active && !s.referred.has(p.id)) attribute(s, programme, e, p);
    const pending = s.pending.get(p.id);
    if (
      pending &&
      e.eventType === programme.settings.qualifying_event_type &&
      e.occurredAt.getTime() <= pending.expiresAt.getTime()
    )
      qualify(s, programme, pending, e, p);
  },

  async write(sql: Sql, s: ReferralsState): Promise<void> {
    await writeReferrals(sql, s.made, s.qualified, s.now);
    if (s.credits.length) {
      await postCredits(sql, s.credits);
      await moveOpenLots(
        sql,
        [...s.moves].map(([participantId, expiresAt]) => ({ participantId, expiresAt })),
      );
    }
    await awardReferralBadges(sql, s.badges);
    await emitResults(sql, s.results);
  },
};

const pendingOf = (r: PendingReferralRow): Pending => ({
  id: r.id,
  code: r.code,
  advocateId: Number(r.advocate_id),
  advocateExternalId: r.advocate_external_id,
  createdAt: new Date(r.created_at),
  expiresAt: new Date(r.expires_at),
});

/** Attributes `p` to the advocate of the event's code: a pending or a blocked referral (none for an unknown code). */
function attribute(s: ReferralsState, programme: Programme, e: EventRow, p: ParticipantState): void {
  const code = s.codes.get(`${scopeKey(e)}/${e.referral!.code}`);
  if (!code) return;
  const reason = blockReason(s, programme, code, e, p);
  const advocateId = Number(code.advocate_id);
  const made: NewReferral = {
    id: uuidv7(),
    workspaceId: e.workspaceId,
    mode: e.mode,
    code: code.code,
    advocateId,
    friendId: p.id,
    status: reason ? 'blocked' : 'pending',
    reason,
    eventId: e.id,
    expiresAt: reason
      ? null
      : dateOf(addDuration(instantOf(s.now), programme.settings.qualify_within, programme.timezone)),
    qualifyingEventId: null,
    rewardAvailableAt: null,
  };
  s.made.push(made);
  s.referred.add(p.id);
  if (reason) return;
  s.counted.set(advocateId, (s.counted.get(advocateId) ?? code.counted) + 1);
  s.pending.set(p.id, {
    id: made.id,
    code: made.code,
    advocateId,
    advocateExternalId: code.advocate_external_id,
    createdAt: s.now,
    expiresAt: made.expiresAt!,
    made,
  });
}

/** The hold's end for a referral qualified at `now` (a hold of `PT0S`: now). */
const afterHold = (now: Date, programme: Programme): Date =>
  Temporal.Duration.from(programme.settings.hold).sign === 0
    ? now
    : dateOf(addDuration(instantOf(now), programme.settings.hold, programme.timezone));

/** Qualifies the friend's pending referral: its state, the friend's actions, `referral.qualified`. */
function qualify(
  s: ReferralsState,
  programme: Programme,
  pending: Pending,
  e: EventRow,
  p: ParticipantState,
): void {
  s.pending.delete(p.id);
  const rewardAvailableAt = afterHold(s.now, programme);
  if (pending.made)
    Object.assign(pending.made, { status: 'qualified', qualifyingEventId: e.id, rewardAvailableAt });
  else s.qualified.push({ id: pending.id, eventId: e.id, rewardAvailableAt });

  programme.settings.friend_actions.forEach((action, i) => {
    if (action.type === 'award_badge') {
      s.badges.push({
        workspaceId: e.workspaceId,
        mode: e.mode,
        participantId: p.id,
        referralId: pending.id,
        key: action.badge,
        tier: action.tier ?? '',
      });
      return;
    }
    s.credits.push({
      workspaceId: e.workspaceId,
      mode: e.mode as Mode,
      participantId: p.id,
      externalId: p.externalId,
      points: action.points,
      source: 'flow',
      reason: action.reason ?? 'Referral: welcome reward',
      reference: `referral:${pending.id}`,
      idempotencyKey: `referral:${pending.id}:friend:${i}`,
      expiresAt: programme.expiresAt,
    });
    // Later events of the batch see the balance (lifetime points are the tiers mechanic's to
    // count: the credit is counted toward tiers when it is written).
    p.balance += action.points;
    if (programme.movesOpenLots && programme.expiresAt) s.moves.set(p.id, programme.expiresAt);
  });

  s.results.push({
    workspaceId: e.workspaceId,
    mode: e.mode as Mode,
    type: 'referral.qualified',
    data: {
      referral: presentReferral({
        id: pending.id,
        code: pending.code,
        advocate_external_id: pending.advocateExternalId,
        friend_external_id: p.externalId,
        status: 'qualified',
        reason: null,
        created_at: pending.createdAt,
        expires_at: pending.expiresAt,
        qualified_at: s.now,
        reward_available_at: rewardAvailableAt,
        rewarded_at: null,
        clawed_back_at: null,
      }),
    } satisfies ReferralResultData,
  });
}
