import { isoTime } from '../../lib/iso-time.ts';
import type { NextExpiryDto } from '../points/shapes.ts';
import { presentTier, type TierColumnsRow, tierColumns } from '../tiers/presenters.ts';
import type { ParticipantDto } from './shapes.ts';

/** A participant as SQL reads it (node-pg: bigints as strings). */
export interface ParticipantRow extends TierColumnsRow {
  id: string;
  external_id: string;
  email: string | null;
  phone: string | null;
  name: string | null;
  timezone: string | null;
  balance: string;
  lifetime_points: string;
  pending_points: string;
  next_expiry_at: Date | null;
  next_expiry_points: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * The columns of a {@link ParticipantRow} from the participants row `t`, for every SQL read of
 * participants (exports too). The next expiry is read from the open lots (docs/points.md#lots):
 * two lookups on their index. The tier's columns: tiers/presenters.ts.
 */
export const participantColumns = (t = 'participants') => {
  const open = (l: string) =>
    `from point_lots ${l} where ${l}.participant_id = ${t}.id and ${l}.remaining > 0`;
  return `${t}.id, ${t}.external_id, ${t}.email, ${t}.phone, ${t}.name, ${t}.timezone, ${t}.balance, ${t}.lifetime_points,
    ${t}.pending_points, (select min(l.expires_at) ${open('l')}) as next_expiry_at,
    (select sum(l.remaining) ${open('l')} and l.expires_at = (select min(m.expires_at) ${open('m')})) as next_expiry_points,
    ${tierColumns(t)}, ${t}.created_at, ${t}.updated_at`;
};
export const PARTICIPANT_COLUMNS = participantColumns();

/** A participant as every door shows it. */
export const presentParticipant = (r: ParticipantRow): ParticipantDto => ({
  external_id: r.external_id,
  email: r.email,
  phone: r.phone,
  name: r.name,
  timezone: r.timezone,
  balance: Number(r.balance),
  lifetime_points: Number(r.lifetime_points),
  pending_points: Number(r.pending_points),
  next_expiry: presentNextExpiry(r),
  tier: presentTier(r),
  created_at: isoTime(r.created_at),
  updated_at: isoTime(r.updated_at),
});

/** The soonest expiry of a participant's open points, from the columns of {@link participantColumns}. */
export const presentNextExpiry = (r: {
  next_expiry_at: Date | null;
  next_expiry_points: string | null;
}): NextExpiryDto | null =>
  r.next_expiry_at && r.next_expiry_points
    ? { points: Number(r.next_expiry_points), expires_at: isoTime(r.next_expiry_at) }
    : null;
