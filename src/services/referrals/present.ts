import { isoTime } from '../../lib/iso-time.ts';
import type { BlockReason, ReferralDto, ReferralStatus } from './shapes.ts';

/** A referral as SQL reads it, with its advocate's and friend's external ids. */
export interface ReferralRow {
  id: string;
  code: string;
  advocate_external_id: string;
  friend_external_id: string;
  status: ReferralStatus;
  reason: BlockReason | null;
  created_at: Date | string;
  expires_at: Date | string | null;
  qualified_at: Date | string | null;
  reward_available_at: Date | string | null;
  rewarded_at: Date | string | null;
  clawed_back_at: Date | string | null;
}

/** The columns of a {@link ReferralRow}, for a referral `r` joined to its advocate `a` and friend `f`. */
export const referralColumns = (r = 'r', a = 'a', f = 'f') =>
  `${r}.id, ${r}.code, ${a}.external_id as advocate_external_id, ${f}.external_id as friend_external_id,
   ${r}.status, ${r}.reason, ${r}.created_at, ${r}.expires_at, ${r}.qualified_at, ${r}.reward_available_at,
   ${r}.rewarded_at, ${r}.clawed_back_at`;

const time = (d: Date | string | null) => (d === null ? null : isoTime(new Date(d)));

/** A referral as every door shows it (docs/referrals.md#reads). */
export const presentReferral = (r: ReferralRow): ReferralDto => ({
  id: r.id,
  code: r.code,
  advocate: { external_id: r.advocate_external_id },
  friend: { external_id: r.friend_external_id },
  status: r.status,
  reason: r.reason,
  created_at: time(r.created_at)!,
  expires_at: time(r.expires_at),
  qualified_at: time(r.qualified_at),
  reward_available_at: time(r.reward_available_at),
  rewarded_at: time(r.rewarded_at),
  clawed_back_at: time(r.clawed_back_at),
});
