import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { uuidv7 } from '../src/lib/uuid7.ts';
import { deleteExpiredExports } from '../src/services/exports/delete-expired.ts';
import { signDownloadToken } from '../src/services/exports/download-token.ts';
import { csvColumns, encoder } from '../src/services/exports/encode.ts';
import { RESOURCES } from '../src/services/exports/resources.ts';
import { EXPORT_RESOURCES, type ExportResource } from '../src/services/exports/shapes.ts';
import type { Mode } from '../src/services/keys/principal.ts';
import {
  buildFlow,
  buildParticipant,
  buildReward,
  buildSubscription,
  buildTemplate,
  closeReceivers,
  graphqlClient,
  trpcClient,
} from './factories.ts';
import {
  type ApiResponse,
  eventually,
  request,
  startTestApp,
  TEST_SECRET,
  type TestApp,
  type TestWorkspace,
} from './helpers.ts';

let app: TestApp;
let ws: TestWorkspace;

type Json = Record<string, any>;

const q = async <T = Json>(sql: string, params: unknown[] = []) =>
  (await app.ctx.pool.query(sql, params)).rows as T[];

/** POST /v1/exports, then polls until the export is completed; the export as GET shows it. */
async function exported(w: TestWorkspace, body: Json, mode: Mode = 'test'): Promise<Json> {
  const created = await w.api('/v1/exports', { body, mode });
  expect(created.status, created.text).toBe(202);
  expect(created.body).toMatchObject({ resource: body.resource, format: body.format, status: 'pending' });
  return eventually(async () => {
    const res = await w.api(`/v1/exports/${created.body.id}`, { mode });
    expect(res.body.status).not.toBe('failed');
    return res.body.status === 'completed' ? (res.body as Json) : null;
  }, 20_000);
}

/** The file of an export, fetched with the workspace's key. */
async function file(w: TestWorkspace, id: string, mode: Mode = 'test'): Promise<ApiResponse> {
  const res = await w.api(`/v1/exports/${id}/download`, { mode });
  expect(res.status, res.text).toBe(200);
  return res;
}

const jsonLines = (text: string) => {
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text
    .split('\n')
    .slice(0, -1)
    .map((l) => JSON.parse(l) as Json);
};

/** The REST list of `path`, every page, oldest first (the export's order). */
async function restList(path: string, key = 'data'): Promise<Json[]> {
  const out: Json[] = [];
  let next: string | null = `${path}${path.includes('?') ? '&' : '?'}limit=200`;
  while (next) {
    const res = await ws.api(next.replace(app.url, ''));
    expect(res.status, res.text).toBe(200);
    out.push(...res.body[key]);
    next = res.body.links?.next ?? null;
  }
  return out.reverse();
}

/** What a CSV cell holds for a value of a JSONL object (independent of the encoder's code). */
const cellOf = (v: unknown): string =>
  v === null || v === undefined
    ? ''
    : typeof v === 'boolean'
      ? String(v)
      : typeof v === 'object'
        ? JSON.stringify(v)
        : typeof v === 'number'
          ? String(v)
          : /^[=+\-@\t\r]/.test(v as string)
            ? `'${v}`
            : (v as string);

const at = (o: Json, dotted: string) => dotted.split('.').reduce<any>((x, k) => x?.[k], o);

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
  // One of every kind of row, through the app's own doors: a flow awards points and a badge and
  // sends a (simulated, test-mode) message on every order; a test-mode subscription logs deliveries.
  await buildTemplate(ws, { key: 'thanks', subject: 'Thanks', body: 'Hi {{participant.name}}, @you' });
  await buildFlow(ws, {
    name: 'order rewards',
    actions: [
      { type: 'award_points', points: 10, reason: '=HYPERLINK("http://evil")' },
      { type: 'award_badge', badge: 'vip', tier: 'gold' },
      { type: 'send_message', template: 'thanks' },
    ],
  });
  await buildSubscription(ws, { mode: 'test' });
  // A tier programme: each order's 10 points lift its participant to silver (a `qualified` move).
  const tiers = await ws.api('/v1/tiers', {
    method: 'PUT',
    body: {
      qualification: { window: 'lifetime' },
      downgrade: { policy: 'none' },
      levels: [
        { key: 'base', name: 'Base', threshold: 0 },
        { key: 'silver', name: 'Silver', threshold: 5 },
        { key: 'gold', name: 'Gold', threshold: 1000 },
      ],
    },
  });
  expect(tiers.status, tiers.text).toBe(200);
  // A daily streak and an achievement on orders: each order extends its participant's streak and
  // awards them the achievement.
  const streak = await ws.api('/v1/streaks', {
    body: { key: 'daily-order', name: 'Daily order', event_types: ['order.completed'], frequency: 'daily' },
  });
  expect(streak.status, streak.text).toBe(201);
  const achievement = await ws.api('/v1/badges', {
    body: {
      key: 'first-order',
      name: 'First order',
      criteria: { event_type: 'order.completed', aggregate: 'count', window: 'all_time', target: 1 },
    },
  });
  expect(achievement.status, achievement.text).toBe(201);
  const alice = await buildParticipant(app, ws, {
    externalId: 'alice',
    name: '=1+1',
    email: 'alice@example.com',
  });
  const bob = await buildParticipant(app, ws, {
    externalId: 'bob',
    name: 'Zoë 🎉 "Q", x\nline two',
    email: 'bob@example.com',
    phone: '+15550100',
  });
  for (const participant of ['alice', 'bob']) {
    const res = await ws.api('/v1/events', {
      body: { event_type: 'order.completed', participant, payload: { note: 'multi\nline, "q"', total: 5 } },
    });
    expect(res.status).toBe(202);
  }
  await eventually(async () => {
    const [m] = await q(`select count(*)::int n from messages where workspace_id = $1`, [ws.id]);
    const [d] = await q(`select count(*)::int n from webhook_deliveries where workspace_id = $1`, [ws.id]);
    return m!.n === 2 && d!.n > 0;
  }, 20_000);
  const adjust = await ws.api('/v1/participants/bob/points', {
    body: { points: -2, reason: '-2 "quoted", comma' },
  });
  expect(adjust.status, adjust.text).toBe(201);
  // A manual move, with the operator's note (formula-like, quoted, with a comma).
  const manual = await ws.api('/v1/participants/alice/tier', {
    method: 'PUT',
    body: { key: 'gold', reason: '=promo "gold", by hand' },
  });
  expect(manual.status, manual.text).toBe(200);
  const reward = await buildReward(ws, { cost_points: 5 });
  const redeemed = await ws.api('/v1/redemptions', { body: { participant: 'alice', reward_id: reward.id } });
  expect(redeemed.status, redeemed.text).toBe(201);
  // bob, referred by alice: qualified, then rewarded when the hold ended (every time set).
  await referral(alice.id, bob.id, 'rewarded');
}, 60_000);

/**
 * A referral row as the engine and the referral job leave it (docs/referrals.md): written
 * with SQL, so an export sees a referral of each kind without running the lifecycle's clock.
 */
async function referral(advocateId: number, friendId: number, status: 'rewarded' | 'blocked') {
  const rewarded = status === 'rewarded';
  await q(
    `insert into referrals (id, workspace_id, mode, code, advocate_id, friend_id, status, reason, event_id,
       qualifying_event_id, created_at, expires_at, qualified_at, reward_available_at, rewarded_at)
     values ($1, $2, 'test', 'REF-ACDEFGHJ', $3, $4, $5, $6, $7, $8, now() - interval '20 days',
       $9::timestamptz, $10::timestamptz, $11::timestamptz, $12::timestamptz)`,
    [
      uuidv7(),
      ws.id,
      advocateId,
      friendId,
      status,
      rewarded ? null : 'same_email',
      uuidv7(),
      rewarded ? uuidv7() : null,
      rewarded ? new Date(Date.now() + 10 * 86_400_000) : null,
      rewarded ? new Date(Date.now() - 19 * 86_400_000) : null,
      rewarded ? new Date(Date.now() - 5 * 86_400_000) : null,
      rewarded ? new Date(Date.now() - 5 * 86_400_000) : null,
    ],
  );
}
afterAll(async () => {
  await closeReceivers();
  await app?.close();
});

/** Every row of a resource as the REST API shows it, oldest first. */
async function restRows(resource: ExportResource): Promise<Json[]> {
  const perParticipant = async (suffix: string, shape: (row: Json) => Json) => {
    const rows: Json[] = [];
    for (const p of await restList('/v1/participants'))
      for (const row of await restList(`/v1/participants/${p.external_id}/${suffix}`))
        rows.push({ ...shape(row), participant: { external_id: p.external_id } });
    return rows;
  };
  switch (resource) {
    case 'participants':
      return restList('/v1/participants');
    case 'ledger':
      return (await perParticipant('ledger', (r) => r)).sort((a, b) => a.id - b.id);
    case 'tiers':
      return (await perParticipant('tier-history', (r) => r)).sort((a, b) => Number(a.id) - Number(b.id));
    case 'badges':
      return perParticipant('badges', (r) => r);
    case 'achievements':
      return (await perParticipant('badges', (r) => r)).filter((b) => b.key === 'first-order');
    case 'streaks': {
      // REST shows each state as of now (with its period, risk and history): the export's fields
      // of it, the last extended period from the history.
      const rows: Json[] = [];
      for (const p of await restList('/v1/participants'))
        for (const st of (await ws.api(`/v1/participants/${p.external_id}/streaks`)).body.data)
          if (st.history.length)
            rows.push({
              key: st.key,
              length: st.length,
              longest: st.longest,
              freezes: st.freezes,
              last_period: st.history.findLast((h: Json) => h.status === 'extended')?.period_start,
              participant: { external_id: p.external_id },
            });
      return rows;
    }
    case 'events':
      return restList('/v1/events');
    case 'redemptions':
      return restList('/v1/redemptions');
    case 'messages':
      return restList('/v1/messages');
    case 'webhook_deliveries':
      return restList('/v1/webhook-deliveries');
    case 'referrals':
      return restList('/v1/referrals');
    case 'lots': {
      // REST shows the open lots (`GET …/points`); the export holds spent and expired ones too.
      const rows: Json[] = [];
      for (const p of await restList('/v1/participants'))
        for (const lot of (await ws.api(`/v1/participants/${p.external_id}/points`)).body.lots)
          rows.push({ ...lot, participant: { external_id: p.external_id } });
      return rows;
    }
  }
}

describe('exports: every resource, both formats', () => {
  it.each(
    EXPORT_RESOURCES,
  )('%s: JSONL lines are the REST objects and CSV holds the same cells', async (resource) => {
    let expected = await restRows(resource);
    expect(expected.length).toBeGreaterThan(0);

    const jsonl = await exported(ws, { resource, format: 'jsonl' });
    const jsonlFile = await file(ws, jsonl.id);
    expect(jsonlFile.headers.get('content-type')).toBe('application/x-ndjson');
    expect(jsonlFile.headers.get('content-disposition')).toBe(
      `attachment; filename="${resource}-${jsonl.id}.jsonl"`,
    );
    const lines = jsonLines(jsonlFile.text);
    for (const line of lines) expect(RESOURCES[resource].shape.strict().parse(line)).toEqual(line);
    if (resource === 'badges' || resource === 'achievements') {
      // REST lists awards per participant; the export in award order, which the engine decides.
      const byAward = (b: Json) => `${b.participant.external_id}/${b.key}/${b.tier}`;
      const sorted = (rows: Json[]) => [...rows].sort((a, b) => byAward(a).localeCompare(byAward(b)));
      expect(sorted(lines)).toEqual(sorted(expected));
    } else if (resource === 'streaks') {
      // Written by participant, then streak; each state the engine wrote, updated_at the last write.
      const byOwner = (r: Json) => `${r.participant.external_id}/${r.key}`;
      const states = lines.map(({ updated_at: _u, ...state }) => state);
      expect([...states].sort((a, b) => byOwner(a).localeCompare(byOwner(b)))).toEqual(
        [...expected].sort((a, b) => byOwner(a).localeCompare(byOwner(b))),
      );
      const [{ n }] = (await q(`select count(*)::int as n from participant_streaks where workspace_id = $1`, [
        ws.id,
      ])) as [{ n: number }];
      expect(lines).toHaveLength(n);
      expected = lines;
    } else if (resource === 'lots') {
      const open = lines
        .filter((l) => l.remaining > 0)
        .map(({ expired_at: _e, created_at: _c, ...lot }) => lot)
        .sort((a, b) => a.entry_id - b.entry_id || a.points - b.points);
      expect(open).toEqual([...expected].sort((a, b) => a.entry_id - b.entry_id || a.points - b.points));
      const [{ n }] = (await q(
        `select count(*)::int as n from point_lots where workspace_id = $1 and mode = 'test'`,
        [ws.id],
      )) as [{ n: number }];
      expect(lines).toHaveLength(n);
      expected = lines;
    } else expect(lines).toEqual(expected);
    expect(jsonl.row_count).toBe(expected.length);
    expect(jsonl.size_bytes).toBe(Buffer.byteLength(jsonlFile.text));

    const csv = await exported(ws, { resource, format: 'csv' });
    const csvFile = await file(ws, csv.id);
    expect(csvFile.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csvFile.headers.get('content-disposition')).toBe(
      `attachment; filename="${resource}-${csv.id}.csv"`,
    );
    const columns = csvColumns(RESOURCES[resource].shape);
    expect(csvFile.text.startsWith(`${columns.join(',')}\r\n`)).toBe(true);
    const records = parse(csvFile.text, { relax_column_count: false }) as string[][];
    expect(records[0]).toEqual(columns);
    // Both files are written in the same (id) order.
    expect(records.slice(1)).toEqual(lines.map((row) => columns.map((c) => cellOf(at(row, c)))));
    expect(csv.row_count).toBe(expected.length);
    expect(csv.size_bytes).toBe(Buffer.byteLength(csvFile.text));
  });

  it('CSV: RFC 4180 quoting, CRLF records, unicode, and formula cells guarded (numbers left as numbers)', async () => {
    const participants = (
      await file(ws, (await exported(ws, { resource: 'participants', format: 'csv' })).id)
    ).text;
    expect(participants).toContain(`\r\nalice,alice@example.com,,"'=1+1",`);
    expect(participants).toContain(`\r\nbob,bob@example.com,"'+15550100","Zoë 🎉 ""Q"", x\nline two",`);
    // Every record ends with CRLF; the bare LF above is inside a quoted field.
    expect(participants.endsWith('\r\n')).toBe(true);
    expect(participants.split('\r\n')).toHaveLength(4);

    const ledger = (await file(ws, (await exported(ws, { resource: 'ledger', format: 'csv' })).id)).text;
    expect(ledger.split('\r\n')[0]).toBe(
      'id,points,balance_after,reason,source,reference,reverses_entry_id,idempotency_key,expires_at,capped_points,created_at,participant.external_id',
    );
    expect(ledger).toMatch(/\r\n\d+,-2,8,"'-2 ""quoted"", comma",adjustment,,,,,0,[^,]+,bob\r\n/);
    expect(ledger).toContain(`,10,10,"'=HYPERLINK(""http://evil"")",flow,`);
    expect(ledger).not.toMatch(/(^|,)=/m);

    // A move's levels are dotted columns (empty for a null `from`), the operator's note guarded.
    const tiers = (await file(ws, (await exported(ws, { resource: 'tiers', format: 'csv' })).id)).text;
    expect(tiers.split('\r\n')[0]).toBe(
      'id,from.key,from.name,to.key,to.name,reason,note,qualifying_points,at,participant.external_id',
    );
    expect(tiers).toMatch(/\r\n\d+,base,Base,silver,Silver,qualified,,10,[^,]+,alice\r\n/);
    expect(tiers).toMatch(
      /\r\n\d+,silver,Silver,gold,Gold,manual,"'=promo ""gold"", by hand",10,[^,]+,alice\r\n/,
    );

    // A streak state: its key, counters and last extended period (a date) with its participant.
    const streaks = (await file(ws, (await exported(ws, { resource: 'streaks', format: 'csv' })).id)).text;
    expect(streaks.split('\r\n')[0]).toBe(
      'key,length,longest,freezes,last_period,updated_at,participant.external_id',
    );
    expect(streaks).toMatch(/\r\ndaily-order,1,1,0,\d{4}-\d{2}-\d{2},[^,]+,alice\r\n/);

    // A referral: its advocate and friend as dotted columns, each time of its lifecycle a cell
    // (clawed_back_at empty).
    const referrals = (await file(ws, (await exported(ws, { resource: 'referrals', format: 'csv' })).id))
      .text;
    expect(referrals.split('\r\n')[0]).toBe(
      'id,code,advocate.external_id,friend.external_id,status,reason,created_at,expires_at,qualified_at,' +
        'reward_available_at,rewarded_at,clawed_back_at',
    );
    expect(referrals).toMatch(/\r\n[0-9a-f-]{36},REF-ACDEFGHJ,alice,bob,rewarded,,(\d{4}-[^,]+Z,){5}\r\n/);

    const events = (await file(ws, (await exported(ws, { resource: 'events', format: 'csv' })).id)).text;
    expect(events).toContain('"{""note"":""multi\\nline, \\""q\\"""",""total"":5}"');

    const messages = (await file(ws, (await exported(ws, { resource: 'messages', format: 'jsonl' })).id))
      .text;
    // The two orders' messages may be written in either order by the engine.
    expect(
      jsonLines(messages)
        .map((m) => m.body)
        .sort(),
    ).toEqual(['Hi =1+1, @you', 'Hi Zoë 🎉 &quot;Q&quot;, x\nline two, @you']);
  });

  it('the CSV encoder guards exactly the text cells that begin with a formula-trigger character (docs/exports.md#formats)', () => {
    const encode = encoder('csv', z.object({ text: z.string(), n: z.number() }));
    const cell = (text: string, n = 1) => encode.page([{ text, n }]);
    // A guarded cell is also quoted (Papa Parse's choice; RFC 4180 allows quoting any field).
    for (const lead of ['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠'])
      expect(cell(`${lead}x`)).toBe(`"'${lead}x",1\r\n`);
    for (const safe of ['x=1', "'=1", '1', '#', '']) expect(cell(safe)).toBe(`${safe},1\r\n`);
    expect(cell(' =1')).toBe('" =1",1\r\n');
    expect(cell('say "hi", then go')).toBe('"say ""hi"", then go",1\r\n');
    expect(cell('', -10)).toBe(',-10\r\n');
    expect(cell('a\nb')).toBe('"a\nb",1\r\n');
  });

  it('an empty export is a header only (CSV) or an empty file (JSONL)', async () => {
    const since = '2099-01-01T00:00:00Z';
    const until = '2099-02-01T00:00:00Z';
    const csv = await exported(ws, { resource: 'ledger', format: 'csv', since, until });
    expect(csv).toMatchObject({
      row_count: 0,
      since: '2099-01-01T00:00:00.000Z',
      until: '2099-02-01T00:00:00.000Z',
    });
    expect((await file(ws, csv.id)).text).toBe(`${csvColumns(RESOURCES.ledger.shape).join(',')}\r\n`);
    const jsonl = await exported(ws, { resource: 'ledger', format: 'jsonl', since, until });
    expect(jsonl).toMatchObject({ row_count: 0, size_bytes: 0 });
    expect((await file(ws, jsonl.id)).text).toBe('');
  });
});

describe('exports: scope', () => {
  it('sees only the key’s workspace and mode, and another workspace or mode cannot read it', async () => {
    const other = await app.workspace();
    await buildParticipant(app, other, { externalId: 'stranger' });
    await buildParticipant(app, ws, { externalId: 'live-only', mode: 'live' });

    const mine = jsonLines(
      (await file(ws, (await exported(ws, { resource: 'participants', format: 'jsonl' })).id)).text,
    );
    expect(mine.map((p) => p.external_id)).not.toContain('stranger');
    expect(mine.map((p) => p.external_id)).not.toContain('live-only');
    const live = await exported(ws, { resource: 'participants', format: 'jsonl' }, 'live');
    expect(jsonLines((await file(ws, live.id, 'live')).text).map((p) => p.external_id)).toEqual([
      'live-only',
    ]);

    const testExport = (await ws.api('/v1/exports?limit=1')).body.data[0];
    for (const [w, mode] of [
      [other, 'test'],
      [ws, 'live'],
    ] as const) {
      expect((await w.api(`/v1/exports/${testExport.id}`, { mode })).status).toBe(404);
      expect((await w.api(`/v1/exports/${testExport.id}/download`, { mode })).status).toBe(404);
    }
    const otherList = await other.api('/v1/exports');
    expect(otherList.body.data).toEqual([]);
  });

  it('an erased participant appears only under their pseudonym', async () => {
    const carol = await buildParticipant(app, ws, {
      externalId: 'carol',
      name: 'Carol Secret',
      email: 'carol@secret.example',
      points: 7,
    });
    // Referred by alice, refused: a referral names its friend by external id.
    const [{ id: aliceId }] = (await q(
      `select id from participants where workspace_id = $1 and mode = 'test' and external_id = 'alice'`,
      [ws.id],
    )) as [{ id: string }];
    await referral(Number(aliceId), carol.id, 'blocked');
    const ev = await ws.api('/v1/events', {
      body: { event_type: 'order.completed', participant: 'carol', payload: { address: 'Carol Street 1' } },
    });
    expect(ev.status).toBe(202);
    await eventually(
      async () =>
        (
          await q(
            `select 1 from messages m join participants p on p.id = m.participant_id where p.external_id = 'carol'`,
          )
        ).length > 0,
    );
    expect((await ws.api('/v1/participants/carol', { method: 'DELETE' })).status).toBe(200);
    const [{ external_id: pseudonym }] = (await q(
      `select external_id from participants where workspace_id = $1 and mode = 'test' and external_id like 'erased_%'`,
      [ws.id],
    )) as [{ external_id: string }];

    for (const resource of [
      'participants',
      'ledger',
      'events',
      'badges',
      'messages',
      'webhook_deliveries',
      'lots',
      'tiers',
      'streaks',
      'achievements',
      'referrals',
    ] as const)
      for (const format of ['csv', 'jsonl'] as const) {
        const text = (await file(ws, (await exported(ws, { resource, format })).id)).text;
        for (const secret of ['carol', 'Carol', 'secret.example', 'Carol Street'])
          expect(text, `${resource}.${format}`).not.toContain(secret);
        if (resource !== 'webhook_deliveries') expect(text, `${resource}.${format}`).toContain(pseudonym);
      }
  });

  it('since and until bound the rows by creation time', async () => {
    const [{ t0 }] = (await q(`select now() as t0`)) as [{ t0: Date }];
    await new Promise((r) => setTimeout(r, 20));
    await buildParticipant(app, ws, { externalId: 'dave', points: 3 });
    const after = jsonLines(
      (
        await file(
          ws,
          (
            await exported(ws, { resource: 'ledger', format: 'jsonl', since: t0.toISOString() })
          ).id,
        )
      ).text,
    );
    expect(after.map((e) => e.participant.external_id)).toEqual(['dave']);
    const before = jsonLines(
      (
        await file(
          ws,
          (
            await exported(ws, { resource: 'ledger', format: 'jsonl', until: t0.toISOString() })
          ).id,
        )
      ).text,
    );
    expect(before.length).toBeGreaterThan(0);
    expect(before.map((e) => e.participant.external_id)).not.toContain('dave');

    const backwards = await ws.api('/v1/exports', {
      body: {
        resource: 'ledger',
        format: 'csv',
        since: '2026-02-01T00:00:00Z',
        until: '2026-01-01T00:00:00Z',
      },
    });
    expect(backwards.status).toBe(422);
    expect(backwards.body.error.errors).toEqual([{ field: 'until', message: 'must be after since' }]);
    for (const body of [
      { resource: 'keys', format: 'csv' },
      { resource: 'ledger', format: 'xlsx' },
      { resource: 'ledger', format: 'csv', since: 'yesterday' },
    ])
      expect((await ws.api('/v1/exports', { body })).status).toBe(422);
  });
});

describe('exports: access', () => {
  it('needs exports:write on every operation and door', async () => {
    const lacking = await app.workspace({ abilities: ['participants:read', 'events:read'] });
    const id = (await ws.api('/v1/exports?limit=1')).body.data[0].id;
    for (const [path, init] of [
      ['/v1/exports', { body: { resource: 'ledger', format: 'csv' } }],
      ['/v1/exports', {}],
      [`/v1/exports/${id}`, {}],
      [`/v1/exports/${id}/download`, {}],
    ] as const) {
      const res = await lacking.api(path, init);
      expect(res.status, path).toBe(403);
      expect(res.body.error.type).toBe('permission_error');
      expect((await request(app.url, path, init)).status, `${path} without a key`).toBe(401);
    }
    const gql = await graphqlClient(
      app,
      lacking,
    )('mutation { createExport(input: { resource: ledger, format: csv }) { id } }');
    expect(gql.body.errors[0].extensions.code).toBe('permission_error');
    const gqlList = await graphqlClient(app, lacking)('{ exports { edges { node { id } } } }');
    expect(gqlList.body.errors[0].extensions.code).toBe('permission_error');
  });

  it('download_url serves the file without a key for an hour; forged, expired or misused tokens are 404', async () => {
    const done = await exported(ws, { resource: 'participants', format: 'csv' });
    const url = new URL(done.download_url);
    expect(`${url.protocol}//${url.host}`).toBe(app.url);
    expect(url.pathname).toBe(`/v1/exports/${done.id}/download`);
    const withKey = await file(ws, done.id);
    const anonymous = await request(app.url, url.pathname + url.search, { key: null });
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).toBe(withKey.text);
    expect(anonymous.headers.get('content-disposition')).toMatch(/^attachment; /);
    // A token is the credential: a wrong key alongside it changes nothing.
    expect((await request(app.url, url.pathname + url.search, { key: 'svc_test_wrong' })).status).toBe(200);

    const token = url.searchParams.get('token')!;
    const [payload, mac] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims).toMatchObject({ x: done.id, w: ws.id, m: 'test' });
    expect(claims.e - Date.now() / 1000).toBeGreaterThan(3590);
    expect(claims.e - Date.now() / 1000).toBeLessThanOrEqual(3600);

    const other = await exported(ws, { resource: 'ledger', format: 'csv' });
    const sign = (c: Json, secret = TEST_SECRET) =>
      signDownloadToken(secret, { exportId: c.x, workspaceId: c.w, mode: c.m, expiresAt: c.e });
    const forged = [
      `${payload}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`,
      `${Buffer.from(JSON.stringify({ ...claims, e: claims.e + 86400 })).toString('base64url')}.${mac}`,
      sign({ ...claims, e: Math.floor(Date.now() / 1000) - 1 }),
      sign(claims, 'another-secret-0123456789'),
      sign({ ...claims, m: 'live' }),
      'garbage',
    ];
    for (const t of forged) {
      const res = await request(app.url, `/v1/exports/${done.id}/download?token=${encodeURIComponent(t)}`, {
        key: null,
      });
      expect(res.status, t).toBe(404);
      expect(res.body.error.type).toBe('not_found');
    }
    // A token names its export: it opens no other.
    expect(
      (await request(app.url, `/v1/exports/${other.id}/download${url.search}`, { key: null })).status,
    ).toBe(404);
    // A valid token for another export of the same workspace is fine only on its own URL.
    expect(
      (
        await request(app.url, new URL(other.download_url).pathname + new URL(other.download_url).search, {
          key: null,
        })
      ).status,
    ).toBe(200);
  });

  it('pending, expired and deleted exports', async () => {
    const [{ id: pendingId }] = (await q(
      `insert into exports (id, workspace_id, mode, resource, format, until, expires_at)
       values ($2, $1, 'test', 'ledger', 'csv', now(), now() + interval '7 days') returning id`,
      [ws.id, uuidv7()],
    )) as [{ id: string }];
    const pending = await ws.api(`/v1/exports/${pendingId}`);
    expect(pending.body).toMatchObject({ status: 'pending', download_url: null, row_count: null });
    const early = await ws.api(`/v1/exports/${pendingId}/download`);
    expect(early.status).toBe(409);
    expect(early.body.error.type).toBe('invalid_state');

    const done = await exported(ws, { resource: 'ledger', format: 'jsonl' });
    const url = new URL(done.download_url);
    await q(`update exports set expires_at = now() - interval '1 second' where id = $1`, [done.id]);
    expect((await ws.api(`/v1/exports/${done.id}`)).status).toBe(404);
    expect((await ws.api(`/v1/exports/${done.id}/download`)).status).toBe(404);
    expect((await request(app.url, url.pathname + url.search, { key: null })).status).toBe(404);
    expect((await ws.api('/v1/exports?limit=200')).body.data.map((e: Json) => e.id)).not.toContain(done.id);

    expect(
      (await q(`select count(*)::int n from export_chunks where export_id = $1`, [done.id]))[0]!.n,
    ).toBeGreaterThan(0);
    let deleted = 0;
    for (let n = await deleteExpiredExports(app.ctx, 1); n > 0; n = await deleteExpiredExports(app.ctx, 1))
      deleted += n;
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await q(`select 1 from exports where id = $1`, [done.id])).toEqual([]);
    expect(await q(`select 1 from export_chunks where export_id = $1`, [done.id])).toEqual([]);
    expect(await q(`select 1 from exports where id = $1`, [pendingId])).toHaveLength(1);

    const unknown = await ws.api('/v1/exports/00000000-0000-7000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect((await ws.api('/v1/exports/not-a-uuid/download')).status).toBe(404);
  });

  it('lists exports newest first with keyset pages', async () => {
    const first = await ws.api('/v1/exports?limit=2');
    expect(first.body.data).toHaveLength(2);
    const second = await ws.api(first.body.links.next.replace(app.url, ''));
    expect(second.body.data[0].id < first.body.data[1].id).toBe(true);
    const completed = await ws.api('/v1/exports?status=completed&limit=200');
    expect(completed.body.data.every((e: Json) => e.status === 'completed' && e.download_url)).toBe(true);
  });
});

describe('exports: GraphQL and tRPC doors', () => {
  it('GraphQL createExport, export(id) and exports over the same service', async () => {
    const gql = graphqlClient(app, ws);
    const { createExport } = await gql.data<{ createExport: Json }>(
      'mutation { createExport(input: { resource: participants, format: jsonl }) { id status resource format } }',
    );
    expect(createExport).toMatchObject({ status: 'pending', resource: 'participants', format: 'jsonl' });
    const done = await eventually(async () => {
      const { export: e } = await gql.data<{ export: Json }>(
        'query($id: ID!) { export(id: $id) { id status rowCount sizeBytes downloadUrl expiresAt completedAt } }',
        { id: createExport.id },
      );
      return e.status === 'completed' ? e : null;
    }, 20_000);
    expect(done.downloadUrl).toMatch(new RegExp(`^/v1/exports/${createExport.id}/download\\?token=`));
    const body = await request(app.url, done.downloadUrl, { key: null });
    expect(body.status).toBe(200);
    expect(jsonLines(body.text)).toHaveLength(done.rowCount);
    expect(Buffer.byteLength(body.text)).toBe(done.sizeBytes);

    const { exports } = await gql.data<{ exports: Json }>(
      '{ exports(first: 1) { edges { node { id } } pageInfo { hasNextPage } } }',
    );
    expect(exports.edges[0].node.id).toBe(createExport.id);
    expect(exports.pageInfo.hasNextPage).toBe(true);
    const bad = await gql(
      'mutation { createExport(input: { resource: ledger, format: csv, since: "nope" }) { id } }',
    );
    expect(bad.body.errors[0].extensions.code).toBe('validation_error');
  });

  it('tRPC exports.create, get and list for the dashboard', async () => {
    const trpc = await trpcClient(app, ws);
    const created = await trpc.exports.create.mutate({ mode: 'test', resource: 'badges', format: 'csv' });
    expect(created.status).toBe('pending');
    const done = await eventually(async () => {
      const e = await trpc.exports.get.query({ mode: 'test', id: created.id });
      return e.status === 'completed' ? e : null;
    }, 20_000);
    expect(done.download_url).toMatch(/^\/v1\/exports\/.+\/download\?token=/);
    const list = await trpc.exports.list.query({ mode: 'test', limit: 1 });
    expect(list.data[0]!.id).toBe(created.id);
  });
});
