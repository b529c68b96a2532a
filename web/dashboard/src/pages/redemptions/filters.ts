/** The redemption list's filters as they live in the URL (`?status=&reward=&participant=`). */
export const REDEMPTION_STATUSES = ['pending', 'fulfilled', 'cancelled'] as const;
type Status = (typeof REDEMPTION_STATUSES)[number];

export interface RedemptionFilters {
  status: Status | '';
  /** A reward id, as text ('' for any). */
  reward: string;
  participant: string;
}

const isStatus = (s: string | null): s is Status =>
  (REDEMPTION_STATUSES as readonly string[]).includes(s ?? '');

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
