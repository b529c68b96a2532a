import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../../../src/trpc/router.ts';

type Outputs = inferRouterOutputs<AppRouter>;
type Inputs = inferRouterInputs<AppRouter>;
export type Program = NonNullable<Outputs['referrals']['program']['get']>;
export type ProgramInput = Omit<Inputs['referrals']['program']['put'], 'mode'>;
export type Referral = Outputs['referrals']['list']['data'][number];
export type ReferralStatus = Referral['status'];
export type BlockReason = NonNullable<Referral['reason']>;
export type Action = Program['friend_actions'][number];
export type LimitPeriod = NonNullable<Program['advocate_limit']>['period'];

/**
 * The labels of the router's enums, as `Record`s over its types: a value the service adds fails
 * to compile here until it is named. (Not the service's lists themselves: its shapes module
 * imports server code.) A status is drawn as a badge whose text says it; the colour only repeats it.
 */
export const STATUS_STYLES: Record<ReferralStatus, { label: string; color: string; hint: string }> = {
  pending: { label: 'pending', color: 'yellow', hint: 'Waiting for the friend’s qualifying event.' },
  qualified: {
    label: 'qualified',
    color: 'blue',
    hint: 'The friend qualified; the advocate’s points are pending until the hold ends.',
  },
  rewarded: { label: 'rewarded', color: 'teal', hint: 'The hold ended: the advocate was rewarded.' },
  blocked: { label: 'blocked', color: 'red', hint: 'Refused when it was made (see the reason).' },
  expired: { label: 'expired', color: 'gray', hint: 'The friend did not qualify in time.' },
  clawed_back: {
    label: 'clawed back',
    color: 'orange',
    hint: 'Cancelled during the hold: the advocate’s pending points were cancelled.',
  },
};

/** The statuses in their lifecycle's order, for the status filter. */
export const REFERRAL_STATUSES = Object.keys(STATUS_STYLES) as ReferralStatus[];

export const REASON_LABELS: Record<BlockReason, string> = {
  self_referral: 'Self-referral',
  same_email: 'Same e-mail as the advocate',
  same_phone: 'Same phone as the advocate',
  existing_participant: 'Already a participant',
  limit_reached: 'Advocate over their limit',
};

export const LIMIT_PERIOD_LABELS: Record<LimitPeriod, string> = {
  day: 'Per day',
  week: 'Per week (from Monday)',
  month: 'Per month',
  year: 'Per year',
};

export type ActionType = Action['type'];
export const ACTION_TYPE_LABELS: Record<ActionType, string> = {
  award_points: 'Points',
  award_badge: 'Badge',
};

/** One action row as typed: both kinds' fields, the points possibly blank; `id` keys the row. */
export interface ActionRow {
  id: number;
  type: ActionType;
  points: number | '';
  reason: string;
  badge: string;
  tier: string;
}

/** What the programme form edits: text as typed, the limit flattened into a switch and its two fields. */
export interface ProgramForm {
  qualifying_event_type: string;
  qualify_within: string;
  hold: string;
  friend_actions: ActionRow[];
  advocate_actions: ActionRow[];
  limited: boolean;
  limit_period: LimitPeriod;
  limit_max: number | '';
  active: boolean;
}

let rows = 0;
export const blankAction = (type: ActionType = 'award_points'): ActionRow => ({
  id: ++rows,
  type,
  points: '',
  reason: '',
  badge: '',
  tier: '',
});

const rowOf = (a: Action): ActionRow =>
  a.type === 'award_points'
    ? { ...blankAction('award_points'), points: a.points, reason: a.reason ?? '' }
    : { ...blankAction('award_badge'), badge: a.badge, tier: a.tier ?? '' };

/** The form of a stored programme, or of a new one (a 30-day window, a 14-day hold, no actions yet). */
export function toForm(p: Program | null): ProgramForm {
  return {
    qualifying_event_type: p?.qualifying_event_type ?? '',
    qualify_within: p?.qualify_within ?? 'P30D',
    hold: p?.hold ?? 'P14D',
    friend_actions: p?.friend_actions.map(rowOf) ?? [],
    advocate_actions: p?.advocate_actions.map(rowOf) ?? [],
    limited: !!p?.advocate_limit,
    limit_period: p?.advocate_limit?.period ?? 'month',
    limit_max: p?.advocate_limit?.max ?? '',
    active: p?.active ?? true,
  };
}

/**
 * A blank number is sent as NaN (null on the wire), so the service names the field ("expected
 * number") instead of the form guessing a value.
 */
const numberOf = (n: number | '') => (n === '' ? Number.NaN : n);

const actionOf = (r: ActionRow): Action =>
  r.type === 'award_points'
    ? {
        type: 'award_points',
        points: numberOf(r.points),
        ...(r.reason.trim() ? { reason: r.reason.trim() } : {}),
      }
    : { type: 'award_badge', badge: r.badge.trim(), ...(r.tier.trim() ? { tier: r.tier.trim() } : {}) };

/**
 * The programme the form stands for, as the service takes it (whole: the PUT replaces it). Nothing
 * is checked here: the service's own messages show beside the fields.
 */
export function fromForm(f: ProgramForm): ProgramInput {
  return {
    qualifying_event_type: f.qualifying_event_type.trim(),
    qualify_within: f.qualify_within.trim(),
    hold: f.hold.trim(),
    friend_actions: f.friend_actions.map(actionOf),
    advocate_actions: f.advocate_actions.map(actionOf),
    advocate_limit: f.limited ? { period: f.limit_period, max: numberOf(f.limit_max) } : null,
    active: f.active,
  };
}

/** Whether the form is what is stored (a new programme is never "unchanged"). */
export const sameProgram = (stored: Program | null, f: ProgramForm) =>
  stored !== null && JSON.stringify(fromForm(toForm(stored))) === JSON.stringify(fromForm(f));

/** The fields an action list's row can be refused on, for the error lookup. */
export const ACTION_FIELDS = ['type', 'points', 'reason', 'badge', 'tier'] as const;

/** Every field a save can be refused on, for `notifyUnlessShown`. */
export function shownFields(f: ProgramForm): string[] {
  const rows = (list: 'friend_actions' | 'advocate_actions', n: number) =>
    Array.from({ length: n }, (_, i) => [
      `${list}.${i}`,
      ...ACTION_FIELDS.map((k) => `${list}.${i}.${k}`),
    ]).flat();
  return [
    'qualifying_event_type',
    'qualify_within',
    'hold',
    'friend_actions',
    'advocate_actions',
    ...rows('friend_actions', f.friend_actions.length),
    ...rows('advocate_actions', f.advocate_actions.length),
    'advocate_limit',
    'advocate_limit.period',
    'advocate_limit.max',
    'active',
  ];
}

/** An action in a few words: "100 points (Welcome)", "badge recruiter (gold)". */
export function describeAction(a: Action): string {
  if (a.type === 'award_points')
    return `${new Intl.NumberFormat('en-US').format(a.points)} points${a.reason ? ` (${a.reason})` : ''}`;
  return `badge ${a.badge}${a.tier ? ` (${a.tier})` : ''}`;
}

/** The programme in one sentence, for the banner above the form. */
export function describeProgram(p: Program): string {
  const actions = (list: Action[]) => (list.length ? list.map(describeAction).join(', ') : 'nothing');
  const limit = p.advocate_limit
    ? ` At most ${p.advocate_limit.max} per advocate per ${p.advocate_limit.period}.`
    : '';
  return (
    `A friend’s first ${p.qualifying_event_type} within ${p.qualify_within} qualifies their referral: ` +
    `the friend gets ${actions(p.friend_actions)}, the advocate ${actions(p.advocate_actions)} after a hold of ${p.hold}.` +
    limit
  );
}

/** The referral list's filters as they live in the URL (`?status=&advocate=`). */
export interface ReferralFilters {
  status: ReferralStatus | '';
  advocate: string;
}

/** So the URL can only ask for a status the service knows. */
const isStatus = (s: string | null): s is ReferralStatus =>
  (REFERRAL_STATUSES as (string | null)[]).includes(s);

/** Filters from the URL; anything unknown is dropped rather than sent. */
export function filtersFromParams(params: URLSearchParams): ReferralFilters {
  const status = params.get('status');
  return {
    status: isStatus(status) ? status : '',
    advocate: (params.get('advocate') ?? '').slice(0, 255),
  };
}

/** The URL of a set of filters (empty ones left out). */
export function paramsFromFilters(f: ReferralFilters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.status) p.set('status', f.status);
  if (f.advocate.trim()) p.set('advocate', f.advocate.trim());
  return p;
}

/** The `referrals.list` input of a set of filters. */
export function listInput(f: ReferralFilters): { status?: ReferralStatus; advocate?: string } {
  return {
    ...(f.status ? { status: f.status } : {}),
    ...(f.advocate.trim() ? { advocate: f.advocate.trim() } : {}),
  };
}
