import { dashboardSuite } from './dashboard.ts';
import { engagementSuite } from './engagement.ts';
import { engineSuite } from './engine.ts';
import { exportsSuite } from './exports.ts';
import { integratorsSuite } from './integrators.ts';
import { leaderboardsSuite } from './leaderboards.ts';
import { lifecycleSuite } from './lifecycle.ts';
import { liveSuite } from './live.ts';
import { pointsSuite } from './points.ts';
import type { BenchDatabase } from './postgres.ts';
import type { ServerProcess } from './processes.ts';
import { rewardsSuite } from './rewards.ts';
import { tiersSuite } from './tiers.ts';
import { webhooksSuite } from './webhooks.ts';

/** What a suite is handed: the running service (role all) and its database, after the HTTP scenarios. */
export interface SuiteContext {
  runId: string;
  /** A full-access test key of the bench workspace. */
  apiKey: string;
  /** A full-access live key of the same workspace. */
  liveKey: string;
  workspaceSlug: string;
  service: ServerProcess;
  db: BenchDatabase;
  /** The environment the service was started with (to start more processes like it). */
  env: Record<string, string>;
  note: (msg: string) => void;
  /** Prints one JSON result line on stdout. */
  print: (line: Record<string, unknown>) => void;
}

/**
 * A benchmark that is not a plain autocannon request loop (processing throughput, deliveries,
 * imports, leaderboards). Resolves false when a correctness check inside it failed.
 */
export interface Suite {
  name: string;
  run: (ctx: SuiteContext) => Promise<boolean>;
}

/** Every suite `npm run bench` runs after the HTTP scenarios, in order (`BENCH_ONLY=<name>` picks one). */
export const suites: Suite[] = [
  webhooksSuite,
  engineSuite,
  // Batch ingest against single events, webhooks signed with two secrets, simulation latency.
  integratorsSuite,
  leaderboardsSuite,
  rewardsSuite,
  liveSuite,
  dashboardSuite,
  lifecycleSuite,
  exportsSuite,
  // Late: its engine variant and a million expired lots would weigh on every suite after it.
  pointsSuite,
  // A million participants with their tier history, and programme walks in the tick.
  tiersSuite,
  // Last: a million participants with streaks, and a backfill over them.
  engagementSuite,
];
