import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The chaos run (docs/chaos.md) as part of CI: a fixed seed, two minutes of seeded load and faults
// against real `svc serve` processes on a Postgres of its own (SIGKILLs, a Postgres restart,
// dropped client sockets; events one by one and in batches, replays of quarantined events), then
// every invariant checked. The run is its own process: this test
// asserts its exit code and that every invariant line it printed says held.

const ROOT = path.resolve(import.meta.dirname, '..');
const SEED = 20261125;
const DURATION_S = 120;

let child = null as ChildProcess | null;
// A run cut short by the timeout stops its own processes and Postgres on SIGTERM.
afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
});

describe('chaos run', () => {
  it(`seed ${SEED}, ${DURATION_S} s: every invariant holds`, { timeout: 9 * 60_000 }, async () => {
    const run = spawn(
      process.execPath,
      ['scripts/chaos.ts', '--seed', String(SEED), '--duration', String(DURATION_S)],
      {
        cwd: ROOT,
        env: process.env, // the run starts a Postgres of its own, whatever DATABASE_URL says
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child = run;
    run.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    run.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr = (stderr + c).slice(-20_000);
    });
    const code = await new Promise<number | null>((resolve) => run.once('exit', (c) => resolve(c)));
    const lines = stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const invariants = lines.filter((l) => 'invariant' in l);
    const summary = lines.find((l) => l.chaos === 'summary');
    const context = `exit ${code}\n${stdout}\n--- stderr (tail) ---\n${stderr}`;
    expect(lines[0]?.chaos, context).toBe('start');
    expect(invariants.map((l) => l.invariant).sort(), context).toEqual([
      'balance_is_ledger_sum_and_lifetime_is_credits_minus_reversed',
      'balance_is_ledger_sum_and_open_lots',
      'batch_events_processed_exactly_once',
      'each_achievement_awarded_once',
      'each_idle_spell_run_once',
      'each_lot_expired_at_most_once',
      'each_pending_grant_activated_at_most_once',
      'each_quarantined_event_replayed_at_most_once',
      'each_referral_effect_once',
      'each_tier_move_recorded_once',
      'events_processed_exactly_once',
      'external_redemptions_settled',
      'no_5xx_outside_postgres_restart',
      'no_clawed_back_reward_credited',
      'no_code_twice_and_stock_matches',
      'no_earning_cap_exceeded',
      'no_idempotency_key_charged_twice',
      'no_message_sent_twice',
      'processes_die_only_when_killed',
      'referral_guards_hold',
      'results_delivered_signed_or_on_ladder',
      'streaks_are_their_history',
      'tier_history_chains',
      'tier_level_is_what_the_rules_allow',
      'tier_points_are_the_window_credits',
    ]);
    expect(
      invariants.filter((l) => l.held !== true),
      context,
    ).toEqual([]);
    expect(summary?.failed, context).toEqual([]);
    // The faults really happened.
    const faults = summary?.faults as Record<string, number>;
    expect(faults.kills, context).toBeGreaterThan(10);
    expect(faults.postgres_restarts, context).toBe(1);
    expect(faults.dropped_sockets, context).toBeGreaterThan(10);
    // Batches and replays were part of the load.
    const batches = summary?.batches as Record<string, number>;
    const replays = summary?.replays as Record<string, number>;
    expect(batches.answered_202, context).toBeGreaterThan(10);
    expect(replays.single_replayed, context).toBeGreaterThan(3);
    expect(replays.bulk_replayed, context).toBeGreaterThan(3);
    expect(code, context).toBe(0);
  });
});
