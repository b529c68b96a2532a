import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReferralTick } from '../src/services/referrals/tick.ts';
import { outboxOf } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// The referral lifecycle (docs/referrals.md) against the real Postgres: attribution by the event
// that creates the friend, the guards, qualification, the advocate's reward held as pending
// points and released by the referral job, claw-back and expiry. Holds are seconds long, with
// the app's own one-second tick; windows of days are ended by running the job with a later `now`.

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ env: { LOYALTY_TICK_SECONDS: '1' } });
});
afterAll(() => app?.close());

let seq = 0;
const uid = (p: string) => `${p}-${++seq}-${Date.now().toString(36)}`;

const PROGRAMME = {
  qualifying_event_type: 'order.completed',
  qualify_within: 'P30D',
  hold: 'PT2S',
  friend_actions: [
    { type: 'award_points', points: 50, reason: 'Welcome, friend' },
    { type: 'award_badge', badge: 'referred' },
  ],
  advocate_actions: [
    { type: 'award_points', points: 100 },
    { type: 'award_points', points: 20 },
    { type: 'award_badge', badge: 'ambassador' },
  ],
};

const setUp = async (ws: TestWorkspace, over: Record<string, unknown> = {}) => {
  const r = await ws.api('/v1/referrals/program', { method: 'PUT', body: { ...PROGRAMME, ...over } });
  expect(r.status, r.text).toBe(200);
  return r.body;
};

/** An advocate (made by an event of theirs) and their code. */
const advocate = async (ws: TestWorkspace, contact: Record<string, unknown> = {}) => {
  const id = uid('adv');
  await send(ws, { external_id: id, ...contact }, 'signed_up');
  const r = await ws.api(`/v1/participants/${id}/referral-code`);
  expect(r.status, r.text).toBe(200);
  return { id, code: r.body.code as string };
};

/** Sends one event and waits for it to be processed. */
const send = async (
  ws: TestWorkspace,
  participant: string | Record<string, unknown>,
  type: string,
  occurredAt?: string,
) => {
  const r = await ws.api('/v1/events', {
    body: { event_type: type, participant, payload: {}, ...(occurredAt && { occurred_at: occurredAt }) },
  });
  expect(r.status, r.text).toBe(202);
  const id = r.body.event_id as string;
  return eventually(async () => {
    const e = await ws.api(`/v1/events/${id}`);
    return e.body.status === 'processed' ? e.body : null;
  }, 15_000);
};

const referralsOf = async (ws: TestWorkspace, query = '') => {
  const r = await ws.api(`/v1/referrals${query}`);
  expect(r.status, r.text).toBe(200);
  return r.body.data as Record<string, any>[];
};

/** The referral whose friend is `friend` (there is at most one). */
const referralOf = async (ws: TestWorkspace, friend: string) =>
  (await referralsOf(ws)).find((r) => r.friend.external_id === friend);

const participant = async (ws: TestWorkspace, id: string) => {
  const r = await ws.api(`/v1/participants/${id}`);
  expect(r.status, r.text).toBe(200);
  return r.body as Record<string, any>;
};

const ledgerOf = async (ws: TestWorkspace, id: string) =>
  (await ws.api(`/v1/participants/${id}/ledger`)).body.data as Record<string, any>[];

const badgesOf = async (ws: TestWorkspace, id: string) =>
  ((await ws.api(`/v1/participants/${id}/badges`)).body.data as { key: string }[]).map((b) => b.key);

const grantsOf = async (ws: TestWorkspace, id: string) =>
  (await ws.api(`/v1/participants/${id}/pending-points`)).body.data as Record<string, any>[];

/** Waits until the friend's referral is in `status`. */
const settles = (ws: TestWorkspace, friend: string, status: string) =>
  eventually(async () => {
    const r = await referralOf(ws, friend);
    return r?.status === status ? r : null;
  }, 15_000);

describe('attribution', () => {
  it('links a friend the event creates to the advocate of the code: pending, with its window', async () => {
    const ws = await app.workspace();
    await setUp(ws);
    const adv = await advocate(ws);
    const friend = uid('friend');
    const before = Date.now();
    const e = await send(ws, { external_id: friend, referral_code: adv.code.toLowerCase() }, 'signed_up');
    const r = await referralOf(ws, friend);
    expect(r).toMatchObject({
      code: adv.code,
      advocate: { external_id: adv.id },
      friend: { external_id: friend },
      status: 'pending',
      reason: null,
      qualified_at: null,
      rewarded_at: null,
    });
    const window = Date.parse(r!.expires_at) - Date.parse(r!.created_at);
    expect(window).toBe(30 * 86_400_000);
    expect(Date.parse(r!.created_at)).toBeGreaterThanOrEqual(before - 1000);
    // The event is processed as any other.
    expect(e.status).toBe('processed');
    expect((await ws.api(`/v1/referrals/${r!.id}`)).body).toEqual(r);
    expect(await referralsOf(ws, `?advocate=${adv.id}`)).toEqual([r]);
  });

  it('ignores an unknown code, and every code without a programme or with an inactive one', async () => {
    const ws = await app.workspace();
    const adv = await advocate(ws);
    const none = uid('f');
    await send(ws, { external_id: none, referral_code: adv.code }, 'signed_up');
    await setUp(ws);
    const unknown = uid('f');
    const e = await send(ws, { external_id: unknown, referral_code: 'REF-XXXXXXXX' }, 'signed_up');
    expect(e.status).toBe('processed');
    await setUp(ws, { active: false });
    const inactive = uid('f');
    await send(ws, { external_id: inactive, referral_code: adv.code }, 'signed_up');
    expect(await referralsOf(ws)).toEqual([]);
    // The same participants with the code again are existing ones now: one blocked referral each.
    await setUp(ws);
    await send(ws, { external_id: none, referral_code: adv.code }, 'signed_up');
    expect((await referralOf(ws, none))?.reason).toBe('existing_participant');
  });

  it('blocks self-referral, a friend with the advocate’s e-mail or phone, an existing participant', async () => {
    const ws = await app.workspace();
    await setUp(ws);
    const adv = await advocate(ws, { email: 'Ada@Example.com', phone: '+1 (555) 010-0000' });
    await send(ws, { external_id: adv.id, referral_code: adv.code }, 'signed_up');
    const sameEmail = uid('f');
    await send(
      ws,
      { external_id: sameEmail, email: 'ada@example.COM', referral_code: adv.code },
      'signed_up',
    );
    const samePhone = uid('f');
    await send(ws, { external_id: samePhone, phone: '+15550100000', referral_code: adv.code }, 'signed_up');
    const existing = uid('f');
    await send(ws, existing, 'signed_up');
    await send(ws, { external_id: existing, referral_code: adv.code }, 'order.completed');
    const reasons = Object.fromEntries(
      (await referralsOf(ws, '?status=blocked')).map((r) => [r.friend.external_id, r.reason]),
    );
    expect(reasons).toEqual({
      [adv.id]: 'self_referral',
      [sameEmail]: 'same_email',
      [samePhone]: 'same_phone',
      [existing]: 'existing_participant',
    });
    // Blocked referrals never qualify, and give nothing.
    expect((await participant(ws, existing)).balance).toBe(0);
    expect(await referralsOf(ws, '?status=pending')).toEqual([]);
  });

  it('blocks an advocate over the limit in the programme’s calendar period; a friend is referred once', async () => {
    const ws = await app.workspace();
    await setUp(ws, { advocate_limit: { period: 'day', max: 2 } });
    const adv = await advocate(ws);
    const friends = [uid('f'), uid('f'), uid('f')];
    for (const f of friends) await send(ws, { external_id: f, referral_code: adv.code }, 'signed_up');
    const byFriend = Object.fromEntries((await referralsOf(ws)).map((r) => [r.friend.external_id, r]));
    expect(friends.map((f) => byFriend[f].status)).toEqual(['pending', 'pending', 'blocked']);
    expect(byFriend[friends[2]!].reason).toBe('limit_reached');
    // Another advocate's code on a friend already referred makes nothing.
    const other = await advocate(ws);
    await send(ws, { external_id: friends[0], referral_code: other.code }, 'signed_up');
    expect(await referralsOf(ws, `?advocate=${other.id}`)).toEqual([]);
  });

  it('counts the limit exactly when many friends of one advocate arrive at once', async () => {
    const ws = await app.workspace();
    await setUp(ws, { advocate_limit: { period: 'month', max: 5 } });
    const adv = await advocate(ws);
    const friends = Array.from({ length: 20 }, () => uid('f'));
    await Promise.all(friends.map((f) => send(ws, { external_id: f, referral_code: adv.code }, 'signed_up')));
    const all = await referralsOf(ws, '?limit=100');
    expect(all).toHaveLength(20);
    expect(all.filter((r) => r.status === 'pending')).toHaveLength(5);
    expect(all.filter((r) => r.reason === 'limit_reached')).toHaveLength(15);
  });
});

describe('qualification, hold and reward', () => {
  it('qualifies on the friend’s first qualifying event: the friend’s actions at once, the advocate’s points pending, then rewarded after the hold', async () => {
    const ws = await app.workspace();
    await setUp(ws);
    const adv = await advocate(ws);
    const friend = uid('friend');
    await send(ws, { external_id: friend, referral_code: adv.code }, 'signed_up');
    // Another type does not qualify it.
    await send(ws, friend, 'page.viewed');
    expect((await referralOf(ws, friend))!.status).toBe('pending');

    await send(ws, friend, 'order.completed');
    const q = await referralOf(ws, friend);
    expect(q!.status).toBe('qualified');
    expect(Date.parse(q!.reward_available_at) - Date.parse(q!.qualified_at)).toBe(2000);
    // The friend's actions ran at once.
    const friendLedger = await ledgerOf(ws, friend);
    expect(friendLedger).toHaveLength(1);
    expect(friendLedger[0]).toMatchObject({
      points: 50,
      source: 'flow',
      reason: 'Welcome, friend',
      reference: `referral:${q!.id}`,
    });
    expect(await badgesOf(ws, friend)).toEqual(['referred']);
    const qualifiedResults = await outboxOf(app, ws, 'referral.qualified');
    expect(qualifiedResults).toEqual([{ referral: q }]);

    // The advocate's points wait out the hold as pending points (the job writes them), one
    // grant for the points of both actions.
    const grants = await eventually(async () => {
      const g = await grantsOf(ws, adv.id);
      return g.length ? g : null;
    });
    expect(grants).toMatchObject([{ points: 120, available_at: q!.reward_available_at, status: 'pending' }]);
    const pendingNow = await participant(ws, adv.id);
    expect(pendingNow.balance).toBe(0);
    expect(pendingNow.pending_points).toBe(120);

    // After the hold: spendable, rewarded once, the advocate's badge, `referral.rewarded`.
    const rewarded = await settles(ws, friend, 'rewarded');
    expect(Date.parse(rewarded.rewarded_at)).toBeGreaterThanOrEqual(Date.parse(q!.reward_available_at));
    const after = await participant(ws, adv.id);
    expect(after).toMatchObject({ balance: 120, pending_points: 0 });
    expect(await badgesOf(ws, adv.id)).toEqual(['ambassador']);
    expect(await outboxOf(app, ws, 'referral.rewarded')).toEqual([{ referral: rewarded }]);
    // A later qualifying event of the friend changes nothing.
    await send(ws, friend, 'order.completed');
    await runReferralTick(app.ctx, new Date(Date.now() + 86_400_000));
    expect((await participant(ws, adv.id)).balance).toBe(120);
    expect(await ledgerOf(ws, friend)).toHaveLength(1);
    expect(await outboxOf(app, ws, 'referral.qualified')).toHaveLength(1);
    expect(await outboxOf(app, ws, 'referral.rewarded')).toHaveLength(1);
    const badgeResults = (await outboxOf(app, ws, 'badge.awarded')).map((d) => [
      d.participant.external_id,
      d.badge.key,
      d.referral_id,
    ]);
    expect(badgeResults).toEqual([
      [friend, 'referred', q!.id],
      [adv.id, 'ambassador', q!.id],
    ]);
  });

  it('with hold PT0S, the advocate is rewarded by the next run of the job', async () => {
    const ws = await app.workspace();
    await setUp(ws, { hold: 'PT0S' });
    const adv = await advocate(ws);
    const friend = uid('friend');
    // The event that creates the friend may itself qualify the referral.
    await send(ws, { external_id: friend, referral_code: adv.code }, 'order.completed');
    const q = await referralOf(ws, friend);
    expect(q!.status).toBe('qualified');
    expect(q!.reward_available_at).toBe(q!.qualified_at);
    await settles(ws, friend, 'rewarded');
    expect((await participant(ws, adv.id)).balance).toBe(120);
  });

  it('a qualifying event after the window does not qualify it; the job expires it', async () => {
    const ws = await app.workspace();
    await setUp(ws, { qualify_within: 'P1D' });
    const adv = await advocate(ws);
    const friend = uid('friend');
    await send(ws, { external_id: friend, referral_code: adv.code }, 'signed_up');
    const r = await referralOf(ws, friend);
    await send(ws, friend, 'order.completed', new Date(Date.parse(r!.expires_at) + 60_000).toISOString());
    expect((await referralOf(ws, friend))!.status).toBe('pending');
    expect(await ledgerOf(ws, friend)).toEqual([]);
    await runReferralTick(app.ctx, new Date(Date.parse(r!.expires_at) + 1));
    expect((await referralOf(ws, friend))!.status).toBe('expired');
    // An expired referral never qualifies.
    await send(ws, friend, 'order.completed', r!.created_at);
    expect((await referralOf(ws, friend))!.status).toBe('expired');
    expect(await ledgerOf(ws, friend)).toEqual([]);
  });

  it('the programme’s qualifying type and actions at the time of the event apply; an inactive programme still qualifies referrals already made', async () => {
    const ws = await app.workspace();
    await setUp(ws);
    const adv = await advocate(ws);
    const friend = uid('friend');
    await send(ws, { external_id: friend, referral_code: adv.code }, 'signed_up');
    await setUp(ws, {
      active: false,
      qualifying_event_type: 'subscription.started',
      friend_actions: [{ type: 'award_points', points: 7 }],
    });
    await send(ws, friend, 'order.completed');
    expect((await referralOf(ws, friend))!.status).toBe('pending');
    await send(ws, friend, 'subscription.started');
    expect((await referralOf(ws, friend))!.status).toBe('qualified');
    expect((await participant(ws, friend)).balance).toBe(7);
  });
});

describe('claw-back', () => {
  it('cancelling during the hold claws the advocate’s pending points back before they were ever spendable', async () => {
    const ws = await app.workspace();
    await setUp(ws, { hold: 'PT3S' });
    const adv = await advocate(ws);
    const friend = uid('friend');
    await send(ws, { external_id: friend, referral_code: adv.code }, 'signed_up');
    await send(ws, friend, 'order.completed');
    const q = await referralOf(ws, friend);
    await eventually(async () => ((await grantsOf(ws, adv.id)).length === 1 ? true : null));

    const res = await ws.api(`/v1/referrals/${q!.id}/cancel`, { body: {} });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: q!.id, status: 'clawed_back', rewarded_at: null });
    expect(res.body.clawed_back_at).not.toBeNull();
    expect((await grantsOf(ws, adv.id)).map((g) => g.status)).toEqual(['cancelled']);
    expect(await participant(ws, adv.id)).toMatchObject({ balance: 0, pending_points: 0 });
    // Past the hold, the job credits nothing and emits nothing.
    await runReferralTick(app.ctx, new Date(Date.now() + 60_000));
    await new Promise((r) => setTimeout(r, 1500));
    expect(await ledgerOf(ws, adv.id)).toEqual([]);
    expect(await badgesOf(ws, adv.id)).toEqual([]);
    expect(await outboxOf(app, ws, 'referral.rewarded')).toEqual([]);
    // The friend keeps what they got; a second cancel is refused.
    expect((await participant(ws, friend)).balance).toBe(50);
    const again = await ws.api(`/v1/referrals/${q!.id}/cancel`, { body: {} });
    expect(again.status).toBe(409);
    expect(again.body.error.type).toBe('invalid_state');
  });

  it('cancelling before the job wrote the grants leaves nothing for it to write', async () => {
    const ws = await app.workspace();
    // The app's job runs every second; this referral qualifies with an occurred_at the job has
    // not seen, and the cancel runs before the next tick can lock the advocate: hold it here.
    await setUp(ws, { hold: 'P1D' });
    const adv = await advocate(ws);
    const friend = uid('friend');
    await send(ws, { external_id: friend, referral_code: adv.code }, 'signed_up');
    const client = await app.ctx.pool.connect();
    try {
      // The advocate's row held: the job skips them (SKIP LOCKED) until this ends.
      await client.query('begin');
      await client.query(
        `select 1 from participants where workspace_id = $1 and external_id = $2 for update`,
        [ws.id, adv.id],
      );
      await send(ws, friend, 'order.completed');
      const q = await referralOf(ws, friend);
      expect(q!.status).toBe('qualified');
      await new Promise((r) => setTimeout(r, 1500));
      const { rows } = await app.ctx.pool.query(`select grant_ids from referrals where id = $1`, [q!.id]);
      expect(rows[0].grant_ids).toBeNull();
      await client.query('rollback');
      // Now cancel, racing the job: whichever goes first, nothing is ever credited to the advocate.
      const res = await ws.api(`/v1/referrals/${q!.id}/cancel`, { body: {} });
      expect([200, 409]).toContain(res.status);
    } finally {
      client.release();
    }
    const r = await referralOf(ws, friend);
    if (r!.status === 'clawed_back') {
      await runReferralTick(app.ctx, new Date(Date.now() + 2 * 86_400_000));
      expect((await grantsOf(ws, adv.id)).filter((g) => g.status !== 'cancelled')).toEqual([]);
      expect(await participant(ws, adv.id)).toMatchObject({ balance: 0, pending_points: 0 });
    }
  });

  it('refuses to cancel a pending, rewarded or unknown referral', async () => {
    const ws = await app.workspace();
    await setUp(ws, { hold: 'PT0S' });
    const adv = await advocate(ws);
    const pendingFriend = uid('f');
    await send(ws, { external_id: pendingFriend, referral_code: adv.code }, 'signed_up');
    const pending = await referralOf(ws, pendingFriend);
    expect((await ws.api(`/v1/referrals/${pending!.id}/cancel`, { body: {} })).status).toBe(409);
    const doneFriend = uid('f');
    await send(ws, { external_id: doneFriend, referral_code: adv.code }, 'order.completed');
    const done = await settles(ws, doneFriend, 'rewarded');
    const res = await ws.api(`/v1/referrals/${done.id}/cancel`, { body: {} });
    expect(res.status).toBe(409);
    expect(res.body.error.type).toBe('invalid_state');
    expect(
      (await ws.api(`/v1/referrals/00000000-0000-7000-8000-000000000000/cancel`, { body: {} })).status,
    ).toBe(404);
  });

  it('a cancelled pending grant of the reward claws the referral back at the hold’s end', async () => {
    const ws = await app.workspace();
    await setUp(ws, { hold: 'PT2S' });
    const adv = await advocate(ws);
    const friend = uid('friend');
    await send(ws, { external_id: friend, referral_code: adv.code }, 'order.completed');
    const grants = await eventually(async () => {
      const g = await grantsOf(ws, adv.id);
      return g.length ? g : null;
    });
    const res = await ws.api(`/v1/pending-points/${grants[0]!.id}/cancel`, { body: {} });
    expect(res.status, res.text).toBe(200);
    const r = await settles(ws, friend, 'clawed_back');
    expect(r.rewarded_at).toBeNull();
    expect((await grantsOf(ws, adv.id)).map((g) => g.status)).toEqual(['cancelled']);
    expect(await participant(ws, adv.id)).toMatchObject({ balance: 0, pending_points: 0 });
  });
});

describe('erasure', () => {
  it('renames the advocate and the friend in referral results, and an erased advocate’s code attributes no one', async () => {
    const ws = await app.workspace();
    await setUp(ws, { hold: 'PT0S' });
    const adv = await advocate(ws);
    const friend = uid('friend');
    await send(ws, { external_id: friend, referral_code: adv.code }, 'order.completed');
    await settles(ws, friend, 'rewarded');
    for (const id of [adv.id, friend])
      expect((await ws.api(`/v1/participants/${id}`, { method: 'DELETE' })).status).toBe(200);
    const results = [
      ...(await outboxOf(app, ws, 'referral.qualified')),
      ...(await outboxOf(app, ws, 'referral.rewarded')),
    ];
    expect(results).toHaveLength(2);
    for (const r of results) {
      expect([r.referral.advocate.external_id, r.referral.friend.external_id]).not.toContain(adv.id);
      expect(r.referral.friend.external_id).not.toBe(friend);
    }
    const after = uid('f');
    await send(ws, { external_id: after, referral_code: adv.code }, 'signed_up');
    expect(await referralOf(ws, after)).toBeUndefined();
  });
});

describe('exactly once', () => {
  it('racing jobs reward each referral once', async () => {
    const ws = await app.workspace();
    await setUp(ws, { hold: 'P1D' });
    const adv = await advocate(ws);
    const friends = Array.from({ length: 10 }, () => uid('f'));
    for (const f of friends) await send(ws, { external_id: f, referral_code: adv.code }, 'order.completed');
    await eventually(async () => ((await grantsOf(ws, adv.id)).length === 10 ? true : null));
    const later = new Date(Date.now() + 2 * 86_400_000);
    await Promise.all([
      runReferralTick(app.ctx, later),
      runReferralTick(app.ctx, later),
      runReferralTick(app.ctx, later),
    ]);
    await eventually(async () => ((await referralsOf(ws, '?status=rewarded')).length === 10 ? true : null));
    expect((await participant(ws, adv.id)).balance).toBe(1200);
    expect(await outboxOf(app, ws, 'referral.rewarded')).toHaveLength(10);
    const { rows } = await app.ctx.pool.query(
      `select count(*)::int n from ledger_entries where workspace_id = $1 and reference like 'pending:%'`,
      [ws.id],
    );
    expect(rows[0].n).toBe(10);
  });

  it('keeps test and live apart', async () => {
    const ws = await app.workspace();
    await setUp(ws);
    const adv = await advocate(ws);
    const friend = uid('f');
    const r = await ws.api('/v1/events', {
      mode: 'live',
      body: { event_type: 'signed_up', participant: { external_id: friend, referral_code: adv.code } },
    });
    expect(r.status, r.text).toBe(202);
    await eventually(async () =>
      (await ws.api(`/v1/events/${r.body.event_id}`, { mode: 'live' })).body.status === 'processed'
        ? true
        : null,
    );
    expect(await referralsOf(ws)).toEqual([]);
    expect((await ws.api('/v1/referrals', { mode: 'live' })).body.data).toEqual([]);
  });
});
