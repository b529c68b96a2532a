import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
});
afterAll(() => app?.close());

const adjust = (
  w: TestWorkspace,
  id: string,
  body: Record<string, unknown>,
  headers?: Record<string, string>,
) => w.api(`/v1/participants/${encodeURIComponent(id)}/points`, { body, headers });

/** The stored balance next to the sum of the participant's ledger entries. */
async function books(w: TestWorkspace, externalId: string, mode = 'test') {
  const { rows } = await app.ctx.pool.query<{ balance: string; lifetime: string; sum: string; n: string }>(
    `select p.balance, p.lifetime_points as lifetime,
            coalesce((select sum(points) from ledger_entries e where e.participant_id = p.id), 0) as sum,
            (select count(*) from ledger_entries e where e.participant_id = p.id) as n
       from participants p where p.workspace_id = $1 and p.mode = $2 and p.external_id = $3`,
    [w.id, mode, externalId],
  );
  const r = rows[0]!;
  return {
    balance: Number(r.balance),
    lifetime: Number(r.lifetime),
    sum: Number(r.sum),
    entries: Number(r.n),
  };
}

describe('POST /v1/participants/{external_id}/points', () => {
  it('credits an unknown participant, creating it, and answers 201 with the ledger entry', async () => {
    const res = await adjust(ws, 'adj-new', { points: 120, reason: 'welcome gift' });
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(res.body).toEqual({
      id: expect.any(Number),
      points: 120,
      balance_after: 120,
      reason: 'welcome gift',
      source: 'adjustment',
      reference: null,
      reverses_entry_id: null,
      idempotency_key: null,
      expires_at: null,
      capped_points: 0,
      created_at: expect.any(String),
    });
    const show = await ws.api('/v1/participants/adj-new');
    expect(show.status).toBe(200);
    expect(show.body).toMatchObject({ external_id: 'adj-new', balance: 120, lifetime_points: 120 });
    expect(await books(ws, 'adj-new')).toMatchObject({ balance: 120, sum: 120, lifetime: 120 });
  });

  it('refuses a debit past the balance with 422 insufficient_points and moves nothing', async () => {
    await adjust(ws, 'adj-debit', { points: 30, reason: 'seed' });
    const res = await adjust(ws, 'adj-debit', { points: -31, reason: 'too much' });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ type: 'insufficient_points', balance: 30, cost_points: 31 });
    const ok = await adjust(ws, 'adj-debit', { points: -30, reason: 'all of it' });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ points: -30, balance_after: 0 });
    // A debit does not lower lifetime points.
    expect(await books(ws, 'adj-debit')).toEqual({ balance: 0, sum: 0, lifetime: 30, entries: 2 });
  });

  it('validates the body: zero, fractions and a missing reason are 422 validation_error', async () => {
    for (const body of [
      { points: 0, reason: 'x' },
      { points: 1.5, reason: 'x' },
      { points: 5 },
      { points: '5', reason: 'x' },
    ]) {
      const res = await adjust(ws, 'adj-invalid', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
    }
    expect((await ws.api('/v1/participants/adj-invalid')).status).toBe(404);
  });

  it('replays a retry with the same key: 200, Idempotent-Replayed, the original entry, nothing written', async () => {
    const first = await adjust(ws, 'adj-idem', { points: 10, reason: 'r', idempotency_key: 'k-1' });
    expect(first.status).toBe(201);
    expect(first.body.idempotency_key).toBe('k-1');
    const again = await adjust(ws, 'adj-idem', { points: 10, reason: 'r', idempotency_key: 'k-1' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await books(ws, 'adj-idem')).toMatchObject({ balance: 10, entries: 1 });
  });

  it('lets the Idempotency-Key header win over the body key', async () => {
    const first = await adjust(
      ws,
      'adj-hdr',
      { points: 7, reason: 'r', idempotency_key: 'body-key' },
      {
        'Idempotency-Key': 'header-key',
      },
    );
    expect(first.status).toBe(201);
    expect(first.body.idempotency_key).toBe('header-key');
    const replay = await adjust(
      ws,
      'adj-hdr',
      { points: 7, reason: 'r' },
      { 'Idempotency-Key': 'header-key' },
    );
    expect(replay.status).toBe(200);
    expect(replay.body.id).toBe(first.body.id);
  });

  it('answers 409 idempotency_conflict when a key is reused with a different request', async () => {
    await adjust(ws, 'adj-conf', { points: 5, reason: 'a', idempotency_key: 'k-conf' });
    for (const [id, body] of [
      ['adj-conf', { points: 6, reason: 'a', idempotency_key: 'k-conf' }],
      ['adj-conf', { points: 5, reason: 'b', idempotency_key: 'k-conf' }],
      ['adj-conf-other', { points: 5, reason: 'a', idempotency_key: 'k-conf' }],
    ] as const) {
      const res = await adjust(ws, id, body);
      expect(res.status).toBe(409);
      expect(res.body.error.type).toBe('idempotency_conflict');
    }
    expect(await books(ws, 'adj-conf')).toMatchObject({ balance: 5, entries: 1 });
    expect((await ws.api('/v1/participants/adj-conf-other')).status).toBe(404);
  });

  it('charges concurrent duplicates once: one 201, the others replay with 200', async () => {
    await adjust(ws, 'adj-race', { points: 100, reason: 'seed' });
    const results = await Promise.all(
      Array.from({ length: 16 }, () =>
        adjust(ws, 'adj-race', { points: -60, reason: 'race', idempotency_key: 'race-1' }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(15);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await books(ws, 'adj-race')).toMatchObject({ balance: 40, sum: 40, entries: 2 });
  });

  it('keeps concurrent adjustments exact: balance = sum of entries, never below zero', async () => {
    await adjust(ws, 'adj-many', { points: 25, reason: 'seed' });
    const ops = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? 2 : -1));
    const results = await Promise.all(
      ops.map((points) => adjust(ws, 'adj-many', { points, reason: 'burst' })),
    );
    for (const r of results) expect([201, 422]).toContain(r.status);
    const applied = ops.filter((_, i) => results[i]!.status === 201).reduce((a, b) => a + b, 25);
    const b = await books(ws, 'adj-many');
    expect(b.balance).toBe(applied);
    expect(b.sum).toBe(b.balance);
    expect(b.balance).toBeGreaterThanOrEqual(0);
    // Every entry's balance_after is the running sum, in id order.
    const { rows } = await app.ctx.pool.query<{ ok: boolean }>(
      `select bool_and(balance_after = running) as ok from (
         select e.balance_after, sum(e.points) over (order by e.id) as running
           from ledger_entries e join participants p on p.id = e.participant_id
          where p.workspace_id = $1 and p.mode = 'test' and p.external_id = 'adj-many') x`,
      [ws.id],
    );
    expect(rows[0]!.ok).toBe(true);
  });

  it('scopes keys to the mode: the same key in live and test are two adjustments', async () => {
    const t = await ws.api('/v1/participants/adj-mode/points', {
      body: { points: 3, reason: 'r', idempotency_key: 'same' },
    });
    const l = await ws.api('/v1/participants/adj-mode/points', {
      body: { points: 3, reason: 'r', idempotency_key: 'same' },
      mode: 'live',
    });
    expect([t.status, l.status]).toEqual([201, 201]);
  });

  it('needs points:adjust (403 otherwise)', async () => {
    const reader = await app.workspace({ abilities: ['participants:read'] });
    const res = await adjust(reader, 'x', { points: 1, reason: 'r' });
    expect(res.status).toBe(403);
    expect(res.body.error.type).toBe('permission_error');
  });
});

describe('POST /v1/participants/{external_id}/ledger/{entry_id}/reversal', () => {
  it('posts the opposite entry naming the original, and lowers lifetime points for earned points', async () => {
    const credit = await adjust(ws, 'rev-1', { points: 50, reason: 'earned' });
    const res = await ws.api(`/v1/participants/rev-1/ledger/${credit.body.id}/reversal`, {
      body: { reason: 'mistake' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      points: -50,
      balance_after: 0,
      source: 'reversal',
      reverses_entry_id: credit.body.id,
      reason: 'mistake',
    });
    expect(await books(ws, 'rev-1')).toEqual({ balance: 0, sum: 0, lifetime: 0, entries: 2 });
  });

  it('refuses a second reversal with 422 already_reversed', async () => {
    const credit = await adjust(ws, 'rev-2', { points: 5, reason: 'earned' });
    const path = `/v1/participants/rev-2/ledger/${credit.body.id}/reversal`;
    expect((await ws.api(path, { body: {} })).status).toBe(201);
    const second = await ws.api(path, { body: {} });
    expect(second.status).toBe(422);
    expect(second.body.error.type).toBe('already_reversed');
  });

  it('reverses an entry once under concurrency', async () => {
    await adjust(ws, 'rev-race', { points: 100, reason: 'seed' });
    const credit = await adjust(ws, 'rev-race', { points: 10, reason: 'earned' });
    const path = `/v1/participants/rev-race/ledger/${credit.body.id}/reversal`;
    const results = await Promise.all(Array.from({ length: 10 }, () => ws.api(path, { body: {} })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201))
      expect(r.body.error.type).toBe('already_reversed');
    expect(await books(ws, 'rev-race')).toMatchObject({ balance: 100, sum: 100, entries: 3 });
  });

  it('refuses a reversal that would make the balance negative (422 insufficient_points)', async () => {
    const credit = await adjust(ws, 'rev-spent', { points: 40, reason: 'earned' });
    await adjust(ws, 'rev-spent', { points: -30, reason: 'spent' });
    const res = await ws.api(`/v1/participants/rev-spent/ledger/${credit.body.id}/reversal`, { body: {} });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ type: 'insufficient_points', balance: 10, cost_points: 40 });
  });

  it('gives a debit back without counting it as earned', async () => {
    await adjust(ws, 'rev-debit', { points: 20, reason: 'earned' });
    const debit = await adjust(ws, 'rev-debit', { points: -15, reason: 'spent' });
    const res = await ws.api(`/v1/participants/rev-debit/ledger/${debit.body.id}/reversal`, { body: {} });
    expect(res.status).toBe(201);
    expect(res.body.points).toBe(15);
    expect(await books(ws, 'rev-debit')).toMatchObject({ balance: 20, lifetime: 20 });
  });

  it('404s an entry of another participant or an unknown one', async () => {
    const credit = await adjust(ws, 'rev-owner', { points: 5, reason: 'earned' });
    await adjust(ws, 'rev-other', { points: 5, reason: 'earned' });
    expect(
      (await ws.api(`/v1/participants/rev-other/ledger/${credit.body.id}/reversal`, { body: {} })).status,
    ).toBe(404);
    expect((await ws.api('/v1/participants/rev-owner/ledger/999999999/reversal', { body: {} })).status).toBe(
      404,
    );
    expect((await ws.api('/v1/participants/rev-owner/ledger/abc/reversal', { body: {} })).status).toBe(404);
  });
});

describe('the ledger in the database', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of ledger rows even with raw SQL', async () => {
    await adjust(ws, 'immutable', { points: 9, reason: 'earned' });
    const { rows } = await app.ctx.pool.query<{ id: string }>(
      `select e.id from ledger_entries e join participants p on p.id = e.participant_id
        where p.workspace_id = $1 and p.external_id = 'immutable'`,
      [ws.id],
    );
    const id = rows[0]!.id;
    await expect(
      app.ctx.pool.query('update ledger_entries set points = 1000 where id = $1', [id]),
    ).rejects.toThrow(/immutable/);
    await expect(app.ctx.pool.query('delete from ledger_entries where id = $1', [id])).rejects.toThrow(
      /immutable/,
    );
    await expect(app.ctx.pool.query('truncate ledger_entries cascade')).rejects.toThrow(/immutable/);
    expect(await books(ws, 'immutable')).toMatchObject({ balance: 9, sum: 9, entries: 1 });
  });

  it('keeps every balance equal to the sum of its entries', async () => {
    const { rows } = await app.ctx.pool.query<{ bad: string }>(
      `select count(*) as bad from participants p
        where p.balance <> coalesce((select sum(points) from ledger_entries e where e.participant_id = p.id), 0)`,
    );
    expect(Number(rows[0]!.bad)).toBe(0);
  });
});

describe('participant reads and PATCH', () => {
  let w: TestWorkspace;
  beforeAll(async () => {
    w = await app.workspace();
    const people = [
      { external_id: 'alice-01', email: 'Alice@Example.com', name: 'Alice Liddell' },
      { external_id: 'bob-02', email: 'bob@example.org', name: 'Robert Smith' },
      { external_id: 'carol-03', email: null, name: 'Carol 100%' },
      { external_id: 'dave_04', email: 'd@x.io', name: null },
    ];
    for (const p of people) {
      await w.api('/v1/events', { body: { type: 'signup', participant: p } });
    }
    await eventually(async () => {
      const r = await w.api('/v1/participants?limit=10');
      return r.body.data.length === 4;
    });
  });

  it('lists newest first and walks pages with stable cursors', async () => {
    const first = await w.api('/v1/participants?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.data.map((p: { external_id: string }) => p.external_id)).toEqual([
      'dave_04',
      'carol-03',
      'bob-02',
    ]);
    expect(first.body.meta.per_page).toBe(3);
    const next = await fetch(first.body.links.next, { headers: { authorization: `Bearer ${w.keys.test}` } });
    const page2 = await next.json();
    expect(page2.data.map((p: { external_id: string }) => p.external_id)).toEqual(['alice-01']);
    expect(page2.links.next).toBeNull();
  });

  it('searches external id, e-mail and name case-insensitively by substring or prefix', async () => {
    const ids = async (q: string) =>
      (await w.api(`/v1/participants?search=${encodeURIComponent(q)}`)).body.data.map(
        (p: { external_id: string }) => p.external_id,
      );
    expect(await ids('ALICE')).toEqual(['alice-01']);
    expect(await ids('example')).toEqual(['bob-02', 'alice-01']);
    expect(await ids('smith')).toEqual(['bob-02']);
    expect(await ids('ob-0')).toEqual(['bob-02']);
    expect(await ids('100%')).toEqual(['carol-03']);
    expect(await ids('b_0')).toEqual([]); // `_` is literal, not a wildcard (bob-02 would match)
    expect(await ids('_04')).toEqual(['dave_04']);
    expect(await ids('nobody')).toEqual([]);
    const paged = await w.api('/v1/participants?search=example&limit=1');
    expect(paged.body.links.next).toContain('search=example');
  });

  it('can answer substring search from the trigram index (same expression as the index)', async () => {
    await app.ctx.pool.query('analyze participants');
    const client = await app.ctx.pool.connect();
    try {
      await client.query('set enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `explain select id from participants
          where (external_id || chr(31) || coalesce(email, '') || chr(31) || coalesce(name, '')) ilike '%smith%'`,
      );
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('participants_search_trgm_idx');
    } finally {
      await client.query('reset enable_seqscan');
      client.release();
    }
  });

  it('shows a participant and 404s an unknown one', async () => {
    const res = await w.api('/v1/participants/alice-01');
    expect(res.body).toEqual({
      external_id: 'alice-01',
      email: 'Alice@Example.com',
      phone: null,
      name: 'Alice Liddell',
      timezone: null,
      balance: 0,
      lifetime_points: 0,
      pending_points: 0,
      next_expiry: null,
      tier: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const missing = await w.api('/v1/participants/nobody');
    expect(missing.status).toBe(404);
    expect(missing.body.error.type).toBe('not_found');
  });

  it('PATCH replaces the given fields, null clears, absent fields stay; 404 if unknown', async () => {
    const res = await w.api('/v1/participants/bob-02', {
      method: 'PATCH',
      body: { email: 'robert@example.net', name: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      external_id: 'bob-02',
      email: 'robert@example.net',
      name: null,
      phone: null,
    });
    const again = await w.api('/v1/participants/bob-02', { method: 'PATCH', body: { phone: '+15550100' } });
    expect(again.body).toMatchObject({ email: 'robert@example.net', phone: '+15550100', name: null });
    expect((await w.api('/v1/participants/ghost', { method: 'PATCH', body: { name: 'x' } })).status).toBe(
      404,
    );
    const bad = await w.api('/v1/participants/bob-02', { method: 'PATCH', body: { balance: 5 } });
    expect(bad.status).toBe(422);
  });

  it('needs participants:write for PATCH and participants:read for reads', async () => {
    const reader = await app.workspace({ abilities: ['participants:read'] });
    expect((await reader.api('/v1/participants/x', { method: 'PATCH', body: {} })).status).toBe(403);
    const writer = await app.workspace({ abilities: ['events:write'] });
    expect((await writer.api('/v1/participants')).status).toBe(403);
  });

  it('pages the ledger newest first', async () => {
    for (let i = 1; i <= 5; i++) await adjust(w, 'carol-03', { points: i, reason: `r${i}` });
    const first = await w.api('/v1/participants/carol-03/ledger?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((e: { points: number }) => e.points)).toEqual([5, 4]);
    const all: number[] = [];
    let url: string | null = `${app.url}/v1/participants/carol-03/ledger?limit=2`;
    while (url) {
      const page = await (await fetch(url, { headers: { authorization: `Bearer ${w.keys.test}` } })).json();
      all.push(...page.data.map((e: { points: number }) => e.points));
      url = page.links.next;
    }
    expect(all).toEqual([5, 4, 3, 2, 1]);
    expect((await w.api('/v1/participants/nobody/ledger')).status).toBe(404);
  });

  it('lists badges with key, tier, name, awarded_at and flow_run_id', async () => {
    const { rows } = await app.ctx.pool.query<{ id: string }>(
      `insert into badges (workspace_id, mode, key, name, tiers) values ($1, 'test', 'explorer', 'Explorer', '["gold"]')
       returning id`,
      [w.id],
    );
    await app.ctx.pool.query(
      `insert into participant_badges (workspace_id, mode, participant_id, badge_id, tier)
       select $1, 'test', p.id, $2, t from participants p, unnest(array['', 'gold']) t
        where p.workspace_id = $1 and p.mode = 'test' and p.external_id = 'alice-01'`,
      [w.id, rows[0]!.id],
    );
    const res = await w.api('/v1/participants/alice-01/badges');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data).toContainEqual({
      key: 'explorer',
      tier: 'gold',
      name: 'Explorer',
      awarded_at: expect.any(String),
      flow_run_id: null,
    });
    expect(res.body.data).toContainEqual(expect.objectContaining({ key: 'explorer', tier: null }));
  });

  it('summarises balance, counts, rank and multiplier', async () => {
    await adjust(w, 'alice-01', { points: 100, reason: 'top' });
    const res = await w.api('/v1/participants/alice-01/summary');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      external_id: 'alice-01',
      balance: 100,
      lifetime_points: 100,
      pending_points: 0,
      next_expiry: null,
      tier: null,
      badges_count: 2,
      redemptions_count: 0,
      events_count: 1,
      rank: 1,
      active_multiplier: null,
    });
    const carol = await w.api('/v1/participants/carol-03/summary');
    expect(carol.body).toMatchObject({ rank: 2, balance: 15, badges_count: 0 });
    // No points at all: after everyone who has some.
    expect((await w.api('/v1/participants/dave_04/summary')).body.rank).toBe(3);
  });
});

describe('DELETE /v1/participants/{external_id}', () => {
  it('sends an adjustment that waited on an erasure to a fresh participant, never naming the erased row', async () => {
    const w = await app.workspace();
    await adjust(w, 'racer', { points: 10, reason: 'first' });
    const { rows: found } = await app.ctx.pool.query(
      `select id from participants where workspace_id = $1 and external_id = 'racer'`,
      [w.id],
    );
    // Hold the row, so the erasure and then the adjustment queue behind this transaction, in order.
    const holder = await app.ctx.pool.connect();
    await holder.query('begin');
    await holder.query('select 1 from participants where id = $1 for update', [found[0].id]);
    const erasure = w.api('/v1/participants/racer', { method: 'DELETE' });
    await eventually(async () => {
      const { rows } = await app.ctx.pool.query(
        `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
      );
      return rows[0].n >= 1 ? true : null;
    });
    const adjustment = w.api('/v1/participants/racer/points', { body: { points: 5, reason: 'late' } });
    await eventually(async () => {
      const { rows } = await app.ctx.pool.query(
        `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
      );
      return rows[0].n >= 2 ? true : null;
    });
    await holder.query('commit');
    holder.release();
    expect((await erasure).status).toBe(200);
    const late = await adjustment;
    expect(late.status, late.text).toBe(201);
    // The erased row kept its 10; the late 5 went to a fresh 'racer'.
    const { rows } = await app.ctx.pool.query(
      `select external_id, balance::int from participants where workspace_id = $1 order by id`,
      [w.id],
    );
    expect(rows.map((r) => r.balance)).toEqual([10, 5]);
    expect(rows[0].external_id).toMatch(/^erased_/);
    expect(rows[1].external_id).toBe('racer');
    const { rows: results } = await app.ctx.pool.query(
      `select data->'participant'->>'external_id' as who, (data->>'balance')::int as balance
         from outbox where workspace_id = $1 and type = 'points.changed' order by id`,
      [w.id],
    );
    expect(results.at(-1)).toEqual({ who: 'racer', balance: 5 });
  });

  it('erases PII and the id, scrubs event payloads, keeps the ledger; the old id starts afresh', async () => {
    const w = await app.workspace();
    await w.api('/v1/events', {
      body: {
        type: 'order',
        participant: { external_id: 'erase-me', email: 'e@x.io', name: 'Eve' },
        payload: { address: 'Main St 1' },
      },
    });
    await eventually(async () => (await w.api('/v1/participants/erase-me')).status === 200);
    // A quarantined event (never linked to the participant) and a result delivered to a webhook
    // also carry the old id.
    const quarantined = await w.api('/v1/events', {
      body: { participant: { external_id: 'erase-me' }, payload: { address: 'Main St 1' } },
    });
    expect(quarantined.body.status).toBe('quarantined');
    const sub = await w.api('/v1/webhook-subscriptions', {
      body: { url: 'http://127.0.0.1:9/hook', event_types: ['points.changed'] },
    });
    expect(sub.status).toBe(201);
    await adjust(w, 'erase-me', { points: 70, reason: 'earned' });
    const res = await w.api('/v1/participants/erase-me', { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ erased: true });
    expect((await w.api('/v1/participants/erase-me')).status).toBe(404);

    const { rows } = await app.ctx.pool.query(
      `select p.external_id, p.email, p.name, p.balance, e.payload, e.external_id as event_external_id
         from participants p join events e on e.participant_id = p.id where p.workspace_id = $1`,
      [w.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: null, name: null, balance: '70', payload: {} });
    expect(rows[0].external_id).toMatch(/^erased_[0-9a-f]{32}$/);
    expect(rows[0].event_external_id).toBe(rows[0].external_id);
    expect(JSON.stringify(rows)).not.toContain('Main St');
    const copies = await app.ctx.pool.query(
      `select (select json_agg(e) from events e where e.workspace_id = $1) as events,
              (select json_agg(o) from outbox o where o.workspace_id = $1) as outbox,
              (select json_agg(d.body) from webhook_deliveries d where d.workspace_id = $1) as deliveries`,
      [w.id],
    );
    const { events, outbox, deliveries } = copies.rows[0];
    expect(events).toHaveLength(2);
    expect(outbox.length).toBeGreaterThan(0);
    expect(deliveries.length).toBeGreaterThan(0);
    const stored = JSON.stringify(copies.rows[0]);
    expect(stored).not.toContain('erase-me');
    expect(stored).not.toContain('Main St');
    expect(JSON.parse(deliveries[0]).data.participant.external_id).toBe(rows[0].external_id);

    await w.api('/v1/events', { body: { type: 'order', participant: 'erase-me' } });
    const fresh = await eventually(async () => {
      const r = await w.api('/v1/participants/erase-me');
      return r.status === 200 ? r.body : null;
    });
    expect(fresh).toMatchObject({ balance: 0, email: null });
    const reader = await app.workspace({ abilities: ['participants:read', 'participants:write'] });
    expect((await reader.api('/v1/participants/x', { method: 'DELETE' })).status).toBe(403);
  });
});
