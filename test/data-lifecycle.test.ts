import pg from 'pg';
import { v7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { LIFECYCLE_QUEUE } from '../src/jobs/queues.ts';
import { LIFECYCLE_CRON } from '../src/jobs/run-lifecycle.ts';
import { uuidv7Floor } from '../src/lib/uuid7.ts';
import { LIFECYCLE_LOCK_KEY } from '../src/services/lifecycle/retention.sql.ts';
import { runRetention, runRetentionInput } from '../src/services/lifecycle/run-retention.ts';
import { type BuiltParticipant, buildFlow, buildParticipant } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);
const idAt = (at: Date) => v7({ msecs: at.getTime() });

/**
 * Seeds, by SQL and with back-dated UUIDv7 ids, one row of every kind the lifecycle touches:
 * old ones it must remove, and young or still-pending ones it must keep. Names each by role.
 */
async function seed(app: TestApp, ws: TestWorkspace, p: BuiltParticipant, flowId: string) {
  const sql = app.ctx.pool;
  const ids: Record<string, string> = {};
  const event = async (name: string, at: Date, status: string) => {
    ids[name] = idAt(at);
    await sql.query(
      `insert into events (id, workspace_id, mode, event_type, participant_id, external_id, payload, occurred_at,
                           received_at, status, source, processed_at)
       values ($1, $2, 'test', 'order.completed', $3, $4, '{"total":1}', $5, $5, $6::text, 'api',
               case when $6::text = 'processed' then $5::timestamptz end)`,
      [ids[name], ws.id, p.id, p.externalId, at, status],
    );
  };
  await event('oldProcessed1', ago(400), 'processed');
  await event('oldProcessed2', ago(399), 'processed');
  await event('oldProcessed3', ago(398), 'processed');
  await event('oldReceived', ago(400), 'received');
  await event('oldFailed', ago(400), 'failed');
  await event('oldQuarantined', ago(400), 'quarantined');
  await event('youngProcessed', ago(10), 'processed');
  const run = async (name: string, eventName: string, at: Date) => {
    ids[name] = idAt(at);
    await sql.query(
      `insert into flow_runs (id, workspace_id, mode, flow_id, event_id, participant_id, status, started_at)
       values ($1, $2, 'test', $3, $4, $5, 'completed', $6)`,
      [ids[name], ws.id, flowId, ids[eventName], p.id, at],
    );
  };
  await run('oldRun', 'oldProcessed1', ago(400));
  await run('youngRun', 'youngProcessed', ago(10));
  // A once-only flow's run: the engine counts it, so its event stays however old.
  const capped = (await buildFlow(ws, { max_runs_per_participant: 1 })).id as string;
  await event('oldCappedRun', ago(400), 'processed');
  ids.cappedRun = idAt(ago(400));
  await sql.query(
    `insert into flow_runs (id, workspace_id, mode, flow_id, event_id, participant_id, status, started_at)
     values ($1, $2, 'test', $3, $4, $5, 'completed', $6)`,
    [ids.cappedRun, ws.id, capped, ids.oldCappedRun, p.id, ago(400)],
  );

  const sub = idAt(ago(500));
  await sql.query(
    `insert into webhook_subscriptions (id, workspace_id, mode, url, event_types, secret_enc)
     values ($1, $2, 'test', 'https://example.com/hook', '["*"]', 'x')`,
    [sub, ws.id],
  );
  const delivery = async (name: string, at: Date, status: string, attempts = 1) => {
    const outbox = idAt(at);
    ids[`${name}Outbox`] = outbox;
    ids[name] = idAt(at);
    await sql.query(
      `insert into outbox (id, workspace_id, mode, type, data, created_at)
       values ($1, $2, 'test', 'points.changed', $3, $4)`,
      [outbox, ws.id, { participant: { external_id: p.externalId } }, at],
    );
    await sql.query(
      `insert into webhook_deliveries (id, workspace_id, mode, subscription_id, outbox_id, type, body, status,
                                       next_attempt_at, created_at, updated_at)
       values ($1, $2, 'test', $3, $4, 'points.changed', '{}', $5::text, case when $5::text = 'pending' then now() end, $6, $6)`,
      [ids[name], ws.id, sub, outbox, status, at],
    );
    for (let n = 1; n <= attempts; n++)
      await sql.query(
        `insert into webhook_attempts (delivery_id, number, attempted_at, duration_ms) values ($1, $2, $3, 5)`,
        [ids[name], n, at],
      );
  };
  await delivery('oldSucceeded', ago(40), 'succeeded', 2);
  await delivery('oldDead', ago(39), 'dead', 3);
  await delivery('oldSimulated', ago(38), 'simulated', 0);
  await delivery('oldPending', ago(40), 'pending', 1);
  await delivery('youngSucceeded', ago(5), 'succeeded');

  const message = async (name: string, at: Date, status: string) => {
    ids[name] = idAt(at);
    await sql.query(
      `insert into messages (id, workspace_id, mode, participant_id, template, channel, "to", status, subject, body,
                             idempotency_key, created_at, updated_at)
       values ($1, $2, 'test', $3, 'welcome', 'email', 'a@example.com', $4, 'Hello', 'Rendered body', $6, $5, $5)`,
      [ids[name], ws.id, p.id, status, at, `key-${name}`],
    );
  };
  await message('oldSent', ago(100), 'sent');
  await message('oldPendingMessage', ago(100), 'pending');
  await message('youngSent', ago(10), 'simulated');
  return ids;
}

const exists = async (app: TestApp, table: string, id: string) =>
  (await app.ctx.pool.query(`select 1 from ${table} where id = $1`, [id])).rowCount === 1;

/** Row counts of the tables the lifecycle must never delete from. */
const keptTables = ['ledger_entries', 'participants', 'participant_badges', 'redemptions', 'badges'];
async function keptCounts(app: TestApp) {
  const counts: Record<string, number> = {};
  for (const t of keptTables)
    counts[t] = Number((await app.ctx.pool.query(`select count(*) from ${t}`)).rows[0].count);
  return counts;
}

describe('data lifecycle', () => {
  let app: TestApp;
  let ws: TestWorkspace;
  let p: BuiltParticipant;
  let flowId: string;

  beforeAll(async () => {
    // API role: no worker, so the hourly schedule cannot run a lifecycle of its own mid-test.
    app = await startTestApp({ role: 'api' });
    ws = await app.workspace();
    p = await buildParticipant(app, ws, { points: 50 });
    // An old ledger entry, badge and redemption: never deleted whatever their age.
    await app.ctx.pool.query(
      `insert into ledger_entries (workspace_id, mode, participant_id, points, balance_after, source, created_at)
       values ($1, 'test', $2, 0, 50, 'adjustment', now() - interval '1000 days')`,
      [ws.id, p.id],
    );
    const badge = await app.ctx.pool.query(
      `insert into badges (workspace_id, mode, key, name, created_at) values ($1, 'test', 'old', 'Old', now() - interval '1000 days')
       returning id`,
      [ws.id],
    );
    await app.ctx.pool.query(
      `insert into participant_badges (workspace_id, mode, participant_id, badge_id, awarded_at)
       values ($1, 'test', $2, $3, now() - interval '1000 days')`,
      [ws.id, p.id, badge.rows[0].id],
    );
    const reward = await app.ctx.pool.query(
      `insert into rewards (workspace_id, mode, name, type, cost_points) values ($1, 'test', 'Mug', 'physical', 0) returning id`,
      [ws.id],
    );
    await app.ctx.pool.query(
      `insert into redemptions (workspace_id, mode, participant_id, reward_id, status, fulfilment, cost_points, reference,
                                created_at, updated_at)
       values ($1, 'test', $2, $3, 'fulfilled', '{"type":"physical"}', 0, 'r-old', now() - interval '1000 days',
               now() - interval '1000 days')`,
      [ws.id, p.id, reward.rows[0].id],
    );
    flowId = (await buildFlow(ws)).id;
  });
  afterAll(() => app?.close());

  it('the UUIDv7 floor sorts below every id made earlier and not above ids made later', () => {
    const t = new Date('2025-06-01T12:00:00.123Z');
    const floor = uuidv7Floor(t);
    expect(idAt(new Date(t.getTime() - 1)) < floor).toBe(true);
    expect(idAt(t) >= floor).toBe(true);
    expect(idAt(new Date(t.getTime() + 1)) > floor).toBe(true);
  });

  it('deletes old rows of each kind, keeps young and pending ones, never touches the ledger, badges or redemptions', async () => {
    const ids = await seed(app, ws, p, flowId);
    // An export file past its 7 days (with a chunk) and one still fresh (docs/exports.md#expiry).
    const exportsSeeded = await app.ctx.pool.query<{ id: string; expired: boolean }>(
      `insert into exports (id, workspace_id, mode, resource, format, status, attempt, expires_at)
       values (gen_random_uuid(), $1, 'test', 'ledger', 'csv', 'completed', 1, now() - interval '1 hour'),
              (gen_random_uuid(), $1, 'test', 'ledger', 'csv', 'completed', 1, now() + interval '6 days')
       returning id, expires_at < now() as expired`,
      [ws.id],
    );
    const expiredExport = exportsSeeded.rows.find((r) => r.expired)!.id;
    const freshExport = exportsSeeded.rows.find((r) => !r.expired)!.id;
    await app.ctx.pool.query(
      `insert into export_chunks (export_id, attempt, seq, bytes) values ($1, 1, 0, 'a'), ($2, 1, 0, 'b')`,
      [expiredExport, freshExport],
    );
    const before = await keptCounts(app);
    const metricsBefore = await retentionRows(app);

    const report = await runRetention(app.ctx, runRetentionInput.parse({ batchSize: 2, pauseMs: 0 }));
    expect(report.ran).toBe(true);
    expect(report.stoppedEarly).toBe(false);
    expect(report.rows).toEqual({
      events: 3,
      webhook_deliveries: 3,
      outbox: 3,
      message_bodies: 1,
      exports: 1,
    });
    // Bounded batches: 3 events at 2 a statement are 2 statements (a full one, then a short one).
    expect(report.batches).toEqual({
      events: 2,
      webhook_deliveries: 2,
      outbox: 2,
      message_bodies: 1,
      exports: 1,
    });
    expect(await exists(app, 'exports', expiredExport)).toBe(false);
    expect(await exists(app, 'exports', freshExport)).toBe(true);
    const chunks = await app.ctx.pool.query(
      'select export_id from export_chunks where export_id = any($1::uuid[])',
      [[expiredExport, freshExport]],
    );
    expect(chunks.rows.map((r) => r.export_id)).toEqual([freshExport]);

    for (const gone of ['oldProcessed1', 'oldProcessed2', 'oldProcessed3'])
      expect(await exists(app, 'events', ids[gone]!), gone).toBe(false);
    for (const kept of ['oldReceived', 'oldFailed', 'oldQuarantined', 'youngProcessed', 'oldCappedRun'])
      expect(await exists(app, 'events', ids[kept]!), kept).toBe(true);
    expect(await exists(app, 'flow_runs', ids.oldRun!)).toBe(false);
    expect(await exists(app, 'flow_runs', ids.youngRun!)).toBe(true);
    expect(await exists(app, 'flow_runs', ids.cappedRun!)).toBe(true);

    for (const gone of ['oldSucceeded', 'oldDead', 'oldSimulated']) {
      expect(await exists(app, 'webhook_deliveries', ids[gone]!), gone).toBe(false);
      expect(await exists(app, 'outbox', ids[`${gone}Outbox`]!), `${gone} outbox`).toBe(false);
    }
    for (const kept of ['oldPending', 'youngSucceeded']) {
      expect(await exists(app, 'webhook_deliveries', ids[kept]!), kept).toBe(true);
      expect(await exists(app, 'outbox', ids[`${kept}Outbox`]!), `${kept} outbox`).toBe(true);
    }
    const attempts = await app.ctx.pool.query(
      `select delivery_id, count(*)::int as n from webhook_attempts where delivery_id = any($1::uuid[]) group by 1`,
      [[ids.oldSucceeded, ids.oldDead, ids.oldPending]],
    );
    expect(attempts.rows).toEqual([{ delivery_id: ids.oldPending, n: 1 }]);

    const messages = await app.ctx.pool.query(
      `select id, status, "to", subject, body from messages where id = any($1::uuid[])`,
      [[ids.oldSent, ids.oldPendingMessage, ids.youngSent]],
    );
    const byId = new Map(messages.rows.map((m) => [m.id, m]));
    // The row, its status and recipient stay; only the rendered content goes.
    expect(byId.get(ids.oldSent)).toMatchObject({
      status: 'sent',
      to: 'a@example.com',
      subject: null,
      body: '',
    });
    expect(byId.get(ids.oldPendingMessage)).toMatchObject({ subject: 'Hello', body: 'Rendered body' });
    expect(byId.get(ids.youngSent)).toMatchObject({ subject: 'Hello', body: 'Rendered body' });

    expect(await keptCounts(app)).toEqual(before);

    const metricsAfter = await retentionRows(app);
    expect((metricsAfter.events ?? 0) - (metricsBefore.events ?? 0)).toBe(3);
    expect((metricsAfter.webhook_deliveries ?? 0) - (metricsBefore.webhook_deliveries ?? 0)).toBe(3);
    expect((metricsAfter.message_bodies ?? 0) - (metricsBefore.message_bodies ?? 0)).toBe(1);
    expect((metricsAfter.exports ?? 0) - (metricsBefore.exports ?? 0)).toBe(1);

    // A second run finds nothing more to do.
    const again = await runRetention(app.ctx, runRetentionInput.parse({ batchSize: 2, pauseMs: 0 }));
    expect(again.rows).toEqual({
      events: 0,
      webhook_deliveries: 0,
      outbox: 0,
      message_bodies: 0,
      exports: 0,
    });
  });

  it('follows the configured retention days', async () => {
    const id = idAt(ago(20));
    await app.ctx.pool.query(
      `insert into events (id, workspace_id, mode, event_type, payload, occurred_at, received_at, status, source)
       values ($1, $2, 'test', 'x', '{}', now() - interval '20 days', now() - interval '20 days', 'processed', 'api')`,
      [id, ws.id],
    );
    await runRetention(app.ctx, runRetentionInput.parse({ pauseMs: 0 }));
    expect(await exists(app, 'events', id)).toBe(true);
    const shorter = { ...app.ctx, config: { ...app.ctx.config, RETENTION_EVENTS_DAYS: 15 } };
    const report = await runRetention(shorter, runRetentionInput.parse({ pauseMs: 0 }));
    expect(report.rows.events).toBe(1);
    expect(await exists(app, 'events', id)).toBe(false);
  });

  it('does nothing while another process holds the advisory lock, and two runs never both work', async () => {
    const old = idAt(ago(400));
    await app.ctx.pool.query(
      `insert into events (id, workspace_id, mode, event_type, payload, occurred_at, received_at, status, source)
       values ($1, $2, 'test', 'x', '{}', now() - interval '400 days', now() - interval '400 days', 'processed', 'api')`,
      [old, ws.id],
    );
    const other = new pg.Client({ connectionString: app.databaseUrl });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock($1)', [LIFECYCLE_LOCK_KEY]);
      const blocked = await runRetention(app.ctx, runRetentionInput.parse({ pauseMs: 0 }));
      expect(blocked).toMatchObject({ ran: false, rows: {} });
      expect(await exists(app, 'events', old)).toBe(true);
    } finally {
      await other.end();
    }

    // Enough old rows that the first run is still going (batches of 5, a pause after each) when
    // the second asks for the lock.
    await app.ctx.pool.query(
      `insert into events (id, workspace_id, mode, event_type, payload, occurred_at, received_at, status, source)
       select (lpad(to_hex((extract(epoch from now() - interval '400 days') * 1000)::bigint), 12, '0')
               || lpad(to_hex(g), 20, '0'))::uuid,
              $1, 'test', 'x', '{}', now() - interval '400 days', now() - interval '400 days', 'processed', 'api'
         from generate_series(1, 60) g`,
      [ws.id],
    );
    const [a, b] = await Promise.all([
      runRetention(app.ctx, runRetentionInput.parse({ batchSize: 5, pauseMs: 20 })),
      runRetention(app.ctx, runRetentionInput.parse({ batchSize: 5, pauseMs: 20 })),
    ]);
    expect([a.ran, b.ran].sort()).toEqual([false, true]);
    expect((a.ran ? a : b).rows.events).toBe(61);
    const left = await app.ctx.pool.query(
      `select count(*)::int as n from events where workspace_id = $1 and event_type = 'x' and received_at < now() - interval '365 days' and status = 'processed'`,
      [ws.id],
    );
    expect(left.rows[0].n).toBe(0);
  });

  it('stops starting batches when its time budget is spent; the next run carries on', async () => {
    await app.ctx.pool.query(
      `insert into events (id, workspace_id, mode, event_type, payload, occurred_at, received_at, status, source)
       select (lpad(to_hex((extract(epoch from now() - interval '400 days') * 1000)::bigint), 12, '0')
               || lpad(to_hex(1000 + g), 20, '0'))::uuid,
              $1, 'test', 'x', '{}', now() - interval '400 days', now() - interval '400 days', 'processed', 'api'
         from generate_series(1, 10) g`,
      [ws.id],
    );
    const first = await runRetention(
      app.ctx,
      runRetentionInput.parse({ batchSize: 2, pauseMs: 30, budgetMs: 1 }),
    );
    expect(first.stoppedEarly).toBe(true);
    expect(first.rows.events).toBeLessThan(10);
    const rest = await runRetention(app.ctx, runRetentionInput.parse({ batchSize: 2, pauseMs: 0 }));
    expect(first.rows.events! + rest.rows.events!).toBe(10);
  });
});

describe('retention settings', () => {
  const env = { SVC_SECRET: 'x'.repeat(32) };
  it('default to 365, 30 and 90 days', () => {
    const c = loadConfig(env);
    expect([c.RETENTION_EVENTS_DAYS, c.RETENTION_WEBHOOKS_DAYS, c.RETENTION_MESSAGES_DAYS]).toEqual([
      365, 30, 90,
    ]);
  });
  it('take whole days from the environment, at least 1 (idempotency keys live 24 h)', () => {
    expect(loadConfig({ ...env, RETENTION_WEBHOOKS_DAYS: '7' }).RETENTION_WEBHOOKS_DAYS).toBe(7);
    expect(() => loadConfig({ ...env, RETENTION_EVENTS_DAYS: '0' })).toThrow(/RETENTION_EVENTS_DAYS/);
    expect(() => loadConfig({ ...env, RETENTION_MESSAGES_DAYS: '1.5' })).toThrow(/RETENTION_MESSAGES_DAYS/);
    expect(() => loadConfig({ ...env, RETENTION_WEBHOOKS_DAYS: 'forever' })).toThrow(
      /RETENTION_WEBHOOKS_DAYS/,
    );
  });
});

describe('the lifecycle job', () => {
  let app: TestApp;
  afterAll(() => app?.close());

  it('is scheduled hourly by workers and runs when its queue gets a job', async () => {
    app = await startTestApp();
    const schedules = await app.ctx.boss.getSchedules(LIFECYCLE_QUEUE);
    expect(schedules.map((s) => s.cron)).toEqual([LIFECYCLE_CRON]);
    const ws = await app.workspace();
    const old = idAt(ago(400));
    await app.ctx.pool.query(
      `insert into events (id, workspace_id, mode, event_type, payload, occurred_at, received_at, status, source)
       values ($1, $2, 'test', 'x', '{}', now() - interval '400 days', now() - interval '400 days', 'processed', 'api')`,
      [old, ws.id],
    );
    await app.ctx.boss.send(LIFECYCLE_QUEUE, { pauseMs: 0 });
    await eventually(async () => !(await exists(app, 'events', old)), 45_000);
  }, 60_000);
});

/** `svc_retention_rows_total` by task, read from the /metrics endpoint. */
async function retentionRows(app: TestApp): Promise<Record<string, number>> {
  const text = await (await fetch(`${app.url}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^svc_retention_rows_total\{task="([a-z_]+)"\} (\d+)/gm))
    out[m[1]!] = Number(m[2]);
  return out;
}
