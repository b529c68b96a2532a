import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../../../src/trpc/router.ts';

type Outputs = inferRouterOutputs<AppRouter>;
/** The running programme (never null here: the page shows "none runs" itself). */
export type Programme = NonNullable<Outputs['tiers']['get']>;
export type ProgrammeInput = Omit<inferRouterInputs<AppRouter>['tiers']['put'], 'mode'>;
export type Preview = Outputs['tiers']['preview'];
export type TierMove = Outputs['tiers']['history']['data'][number];
export type ParticipantTier = NonNullable<Outputs['participants']['get']['tier']>;
export type TierWindow = Programme['qualification']['window'];
export type TierPeriod = NonNullable<Programme['qualification']['period']>;
export type DowngradePolicy = Programme['downgrade']['policy'];
export type TierReason = TierMove['reason'];

/**
 * The labels of the router's enums, as `Record`s over its types: a value the service adds fails
 * to compile here until it is named.
 */
export const WINDOWS: Record<TierWindow, { label: string; hint: string }> = {
  lifetime: { label: 'Lifetime', hint: 'Every qualifying point ever earned counts; levels are never lost.' },
  rolling: { label: 'Rolling', hint: 'The points earned in a sliding window, e.g. the last 12 months.' },
  calendar: {
    label: 'Calendar',
    hint: 'The points earned in the current month, quarter or year, in the programme’s time zone.',
  },
};

export const PERIOD_LABELS: Record<TierPeriod, string> = {
  month: 'Month',
  quarter: 'Quarter',
  year: 'Year',
};

export const POLICIES: Record<DowngradePolicy, { label: string; hint: string }> = {
  none: { label: 'Never', hint: 'A level once reached is kept.' },
  one_down: {
    label: 'One level down',
    hint: 'Below their level’s threshold after the grace, a participant drops one level per evaluation.',
  },
  to_qualified: {
    label: 'To the qualified level',
    hint: 'Below their level’s threshold after the grace, a participant drops to the level their points support.',
  },
};

export const REASON_LABELS: Record<TierReason, { label: string; color: string }> = {
  qualified: { label: 'qualified', color: 'teal' },
  downgrade: { label: 'downgrade', color: 'orange' },
  manual: { label: 'manual', color: 'blue' },
  programme_change: { label: 'programme change', color: 'grape' },
};

/** A level as the form edits it: numbers may be blank, `id` keys the row while levels move. */
export interface LevelForm {
  id: number;
  key: string;
  name: string;
  threshold: number | '';
  earn_multiplier: number | '';
  description: string;
}

export interface TiersForm {
  window: TierWindow;
  duration: string;
  period: TierPeriod;
  policy: DowngradePolicy;
  grace: string;
  levels: LevelForm[];
}

let nextId = 1;
export const blankLevel = (threshold: number | '' = ''): LevelForm => ({
  id: nextId++,
  key: '',
  name: '',
  threshold,
  earn_multiplier: 1,
  description: '',
});

/** The form over the running programme, or a new one with a single first level. */
export function toForm(p: Programme | null): TiersForm {
  if (!p)
    return {
      window: 'lifetime',
      duration: 'P12M',
      period: 'year',
      policy: 'none',
      grace: '',
      levels: [blankLevel(0)],
    };
  return {
    window: p.qualification.window,
    duration: p.qualification.duration ?? 'P12M',
    period: p.qualification.period ?? 'year',
    policy: p.downgrade.policy,
    grace: p.downgrade.grace ?? '',
    levels: p.levels.map((l) => ({
      id: nextId++,
      key: l.key,
      name: l.name,
      threshold: l.threshold,
      earn_multiplier: l.earn_multiplier,
      description: l.description ?? '',
    })),
  };
}

/**
 * The programme the form stands for, as the service takes it. Nothing is checked here: a blank
 * or malformed value is sent as typed (a blank threshold not at all), so the service's own
 * message shows beside the field. Only the window's own setting is sent (the service refuses a
 * duration with a calendar window), and a grace only with a policy that downgrades.
 */
export function fromForm(f: TiersForm): ProgrammeInput {
  const duration = f.duration.trim();
  const grace = f.grace.trim();
  return {
    qualification:
      f.window === 'rolling'
        ? { window: 'rolling', ...(duration && { duration }) }
        : f.window === 'calendar'
          ? { window: 'calendar', period: f.period }
          : { window: 'lifetime' },
    downgrade: { policy: f.policy, ...(f.policy !== 'none' && grace && { grace }) },
    levels: f.levels.map((l) => ({
      key: l.key.trim(),
      name: l.name.trim(),
      // Left out when blank: the service names the missing threshold on its field.
      threshold: l.threshold === '' ? (undefined as unknown as number) : l.threshold,
      ...(l.earn_multiplier !== '' && { earn_multiplier: l.earn_multiplier }),
      description: l.description.trim() || null,
    })),
  };
}

/** The same programme twice? Both sides go through the form, so defaults the form shows the same way are no change. */
export const sameProgramme = (stored: Programme | null, f: TiersForm) =>
  stored !== null && JSON.stringify(fromForm(toForm(stored))) === JSON.stringify(fromForm(f));

/** Moves the level at `from` to `to` (up or down one, or anywhere). */
export function moveLevel(levels: LevelForm[], from: number, to: number): LevelForm[] {
  if (to < 0 || to >= levels.length || from === to) return levels;
  const out = [...levels];
  const [moved] = out.splice(from, 1);
  out.splice(to, 0, moved!);
  return out;
}

/** A new level after the last: its threshold left for the user to fill (the first one's is 0). */
export const addLevel = (levels: LevelForm[]): LevelForm[] => [...levels, blankLevel(levels.length ? '' : 0)];

/** One line for the page header: the levels, the window and what happens below a threshold. */
export function describeProgramme(p: Programme): string {
  const q = p.qualification;
  const window =
    q.window === 'lifetime'
      ? 'all qualifying points ever earned'
      : q.window === 'rolling'
        ? `qualifying points of the last ${q.duration}`
        : `qualifying points of the current calendar ${q.period}`;
  const d = p.downgrade;
  const kept = d.grace ? `keeps it for ${d.grace}, then ` : '';
  const downgrade =
    d.policy === 'none'
      ? 'levels are never lost'
      : d.policy === 'one_down'
        ? `a participant below their level’s threshold ${kept}drops one level per evaluation`
        : `a participant below their level’s threshold ${kept}drops to the level their points support`;
  const n = p.levels.length;
  return `${n} level${n === 1 ? '' : 's'} by ${window}; ${downgrade}.`;
}

export interface PreviewRow {
  key: string | null;
  name: string;
  now: number;
  after: number;
  /** In the running programme only: the change removes it. */
  removed: boolean;
}

/**
 * The preview as rows, one per level: the proposed levels in order, then the running
 * programme's levels the change removes, then (when some participants have none now) "No
 * level". `names` names the keys of both programmes.
 */
export function previewRows(
  preview: Preview,
  proposed: { key: string; name: string }[],
  running: Programme | null,
) {
  const names = new Map<string, string>();
  for (const l of running?.levels ?? []) names.set(l.key, l.name);
  for (const l of proposed) names.set(l.key, l.name);
  const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
  const rows: PreviewRow[] = proposed.map((l) => ({
    key: l.key,
    name: l.name,
    now: preview.current[l.key] ?? 0,
    after: preview.proposed[l.key] ?? 0,
    removed: false,
  }));
  for (const [key, now] of Object.entries(preview.current))
    if (!proposed.some((l) => l.key === key))
      rows.push({ key, name: names.get(key) ?? key, now, after: 0, removed: true });
  const none = total(preview.proposed) - total(preview.current);
  if (none > 0) rows.push({ key: null, name: 'No level', now: none, after: 0, removed: false });
  const levelName = (key: string | null) => (key === null ? 'No level' : (names.get(key) ?? key));
  return { rows, levelName };
}
