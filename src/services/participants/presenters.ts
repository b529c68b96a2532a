import { isoTime } from '../../lib/iso-time.ts';
import type { ParticipantDto } from './shapes.ts';

/** A participant as SQL reads it (node-pg: bigints as strings). */
export interface ParticipantRow {
  id: string;
  external_id: string;
  email: string | null;
  phone: string | null;
  name: string | null;
  balance: string;
  lifetime_points: string;
  created_at: Date;
  updated_at: Date;
}

/** The columns of a {@link ParticipantRow}, for every SQL read of participants (exports too). */
export const PARTICIPANT_COLUMNS =
  'id, external_id, email, phone, name, balance, lifetime_points, created_at, updated_at';

/** A participant as every door shows it. */
export const presentParticipant = (r: ParticipantRow): ParticipantDto => ({
  external_id: r.external_id,
  email: r.email,
  phone: r.phone,
  name: r.name,
  balance: Number(r.balance),
  lifetime_points: Number(r.lifetime_points),
  created_at: isoTime(r.created_at),
  updated_at: isoTime(r.updated_at),
});
