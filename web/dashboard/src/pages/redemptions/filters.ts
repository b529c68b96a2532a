/** The redemption list's filters as they live in the URL (`?status=&reward=&participant=`). */
import {
  REDEMPTION_STATUSES,
  redemptionStatus,
  type RedemptionStatus as Status,
} from '../../../../../src/services/rewards/shapes.ts';

/** The service's own list of statuses (every door uses it), for the status select. */
export { REDEMPTION_STATUSES };

export interface RedemptionFilters {
  status: Status | '';
  /** A reward id, as text ('' for any). */
  reward: string;
  participant: string;
}

/** Checked with the service's zod enum, so the URL can only ask for a status the service knows. */
const isStatus = (s: string | null): s is Status => redemptionStatus.safeParse(s).success;

/** Filters from the URL; anything unknown or malformed is dropped rather than sent. */
export function filtersFromParams(params: URLSearchParams): RedemptionFilters {
  const status = params.get('status');
  const reward = params.get('reward') ?? '';
  return {
    status: isStatus(status) ? status : '',
    reward: /^[1-9]\d{0,15}$/.test(reward) ? reward : '',
    participant: (params.get('participant') ?? '').slice(0, 255),
  };
}

/** The URL of a set of filters (empty ones left out). */
export function paramsFromFilters(f: RedemptionFilters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.status) p.set('status', f.status);
  if (f.reward) p.set('reward', f.reward);
  if (f.participant.trim()) p.set('participant', f.participant.trim());
  return p;
}

/** The `rewards.redemptions.list` input of a set of filters. */
export function redemptionInput(f: RedemptionFilters): {
  status?: Status;
  reward_id?: number;
  participant?: string;
} {
  return {
    ...(f.status ? { status: f.status } : {}),
    ...(f.reward ? { reward_id: Number(f.reward) } : {}),
    ...(f.participant.trim() ? { participant: f.participant.trim() } : {}),
  };
}
