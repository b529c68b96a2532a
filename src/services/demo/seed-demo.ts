import { createHash, createHmac } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stateDir } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { ingestEvent } from '../events/ingest-event.ts';
import { seedDemoFlows } from '../flows/seed-flows.ts';
import { hashKey } from '../keys/key-format.ts';
import { issueKey } from '../keys/manage-keys.ts';
import type { Mode } from '../keys/principal.ts';
import { liveKeysByHash } from '../keys/repository.ts';
import { seedDemoTemplates } from '../messages/seed-templates.ts';
import { updateProgram } from '../points/program.ts';
import { seedDemoRewards } from '../rewards/seed-rewards.ts';
import { createStreak, listStreaks } from '../streaks/definitions.ts';
import { createStreakInput } from '../streaks/shapes.ts';
import { getTiers, putTiers } from '../tiers/programme.ts';
import { tierProgrammeShape } from '../tiers/shapes.ts';
import { createUser } from '../workspaces/create-user.ts';
import { createWorkspace } from '../workspaces/create-workspace.ts';

export const DEMO_SLUG = 'demo';
export const DEMO_USER_EMAIL = 'demo@example.com';
const DEMO_EVENTS = [
  { type: 'order.completed', participant: 'alice', payload: { total: 42.5, currency: 'EUR' } },
  { type: 'order.completed', participant: 'bob', payload: { total: 12, currency: 'EUR' } },
  { type: 'review.posted', participant: 'alice', payload: { stars: 5 } },
  { type: 'app.opened', participant: 'carol', payload: {} },
];

export interface DemoLogin {
  workspace: string;
  test_key: string;
  live_key: string;
  dashboard: { email: string; password: string };
}

/**
 * The demo dashboard user's password: derived from SVC_SECRET, so every run of `svc demo` prints
 * the same one (and sets it again, so the printed login works even if someone changed it).
 */
const demoPassword = (secret: string) =>
  createHmac('sha256', secret).update('svc demo dashboard password').digest('base64url').slice(0, 16);

/** The demo's programme: points expire after 12 months, at the end of that month. */
export const DEMO_PROGRAM = {
  points_expiry: { mode: 'fixed', after: 'P12M', round_to: 'month' },
} as const;

/** The demo's tier programme: points earned over the last 12 months, one level down after a 30-day grace. */
export const DEMO_TIERS = tierProgrammeShape.parse({
  qualification: { window: 'rolling', duration: 'P12M' },
  downgrade: { policy: 'one_down', grace: 'P30D' },
  levels: [
    { key: 'bronze', name: 'Bronze', threshold: 0 },
    { key: 'silver', name: 'Silver', threshold: 40, description: 'Early access to sales' },
    { key: 'gold', name: 'Gold', threshold: 500, earn_multiplier: 1.5, description: 'Free shipping' },
  ],
});

/** The demo's streak: an order every ISO week, with a freeze to start and one more every 4 weeks. */
export const DEMO_STREAK = createStreakInput.parse({
  key: 'weekly-order',
  name: 'Weekly order',
  event_types: ['order.completed'],
  frequency: 'weekly',
  freezes: { initial: 1, max: 2, earn_every: 4 },
});

/**
 * `svc demo`: an idempotent demo workspace with sample data, a test and a live key, and a
 * dashboard user. The keys' plaintext is kept in ./.svc/demo-keys.json (mode 600) so `npm start`
 * can print them on every start; keys that file names are reused while they still work,
 * otherwise minted anew.
 */
export async function seedDemo(ctx: AppContext, databaseUrl: string): Promise<DemoLogin> {
  const ws = await createWorkspace(ctx, { slug: DEMO_SLUG, name: 'Demo workspace' });
  const file = path.join(stateDir, 'demo-keys.json');
  const dbTag = createHash('sha256').update(databaseUrl).digest('hex').slice(0, 16);
  const saved = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, { test_key: string; live_key: string }>)
    : {};
  const keys = { test_key: '', live_key: '' };
  for (const mode of ['test', 'live'] as Mode[]) {
    const prior = saved[dbTag]?.[`${mode}_key`];
    const stillValid = prior && (await liveKeysByHash(ctx.pool, [hashKey(prior)])).length > 0;
    keys[`${mode}_key`] = stillValid
      ? prior
      : (await issueKey(ctx, { workspace: ws.slug, mode, abilities: [], name: `demo ${mode} key` })).key;
  }
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(file, JSON.stringify({ ...saved, [dbTag]: keys }, null, 2), { mode: 0o600 });

  // Points expire 12 months after they are earned, at the end of that month (docs/points.md).
  for (const mode of ['test', 'live'] as Mode[])
    await updateProgram(ctx, { workspaceId: ws.id, mode }, DEMO_PROGRAM);
  // Tiers (docs/tiers.md), unless someone already runs a programme of their own.
  for (const mode of ['test', 'live'] as Mode[])
    if (!(await getTiers(ctx, { workspaceId: ws.id, mode })))
      await putTiers(ctx, { workspaceId: ws.id, mode }, DEMO_TIERS);
  // A weekly streak (docs/engagement.md#streaks), unless its key is already taken.
  for (const mode of ['test', 'live'] as Mode[]) {
    const who = { workspaceId: ws.id, mode };
    const taken = (await listStreaks(ctx, who, true)).data.some((s) => s.key === DEMO_STREAK.key);
    if (!taken) await createStreak(ctx, who, DEMO_STREAK);
  }
  await seedDemoTemplates(ctx, ws.id);
  await seedDemoRewards(ctx, ws);
  // Flows before the sample events, so the events earn points and badges when processed.
  await seedDemoFlows(ctx, ws);
  for (const [i, e] of DEMO_EVENTS.entries()) {
    for (const mode of ['test', 'live'] as Mode[]) {
      await ingestEvent(
        ctx.events,
        { workspaceId: ws.id, mode, source: 'api' },
        { ...e, idempotency_key: `demo-seed-${i}` },
      );
    }
  }
  const dashboard = { email: DEMO_USER_EMAIL, password: demoPassword(ctx.config.secret) };
  await createUser(ctx, { workspace: ws.slug, ...dashboard });
  return { workspace: ws.slug, ...keys, dashboard };
}
