import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/lib/uuid7.ts';
import type { Mode } from '../src/services/keys/principal.ts';
import { referralCodesOfMany } from '../src/services/referrals/codes.ts';
import { CODE_PATTERN } from '../src/services/referrals/shapes.ts';
import { buildParticipant } from './factories.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// The management side of referrals (docs/referrals.md): the programme, codes, the reads and the
// hold's claw-back, through the real app. Referral rows are written here with SQL, as the engine
// would leave them, so each status can be set up directly.

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
});
afterAll(() => app?.close());

let seq = 0;
const uid = (p: string) => `${p}-${++seq}-${Date.now().toString(36)}`;

const programme = (over: Record<string, unknown> = {}) => ({
  qualifying_event_type: 'order.completed',
  qualify_within: 'P30D',
  hold: 'P14D',
  friend_actions: [{ type: 'award_points', points: 100, reason: 'Welcome' }],
  advocate_actions: [{ type: 'award_points', points: 500 }],
  ...over,
});

const put = (w: TestWorkspace, body: unknown, mode: Mode = 'test') =>
  w.api('/v1/referrals/program', { method: 'PUT', body, mode });

/** The 422's field names. */
const invalidFields = async (body: unknown) => {
  const r = await put(ws, body);
  expect(r.status, r.text).toBe(422);
  expect(r.body.error.type).toBe('validation_error');
  return (r.body.error.errors as { field: string }[]).map((e) => e.field);
};

describe('the programme: PUT and GET /v1/referrals/program', () => {
  it('is a 404 before the first PUT, then answers what was put with its defaults, per mode', async () => {
    const w = await app.workspace();
    const none = await w.api('/v1/referrals/program');
    expect(none.status).toBe(404);
    expect(none.body.error.type).toBe('not_found');

    const before = Date.now();
    const saved = await put(w, programme());
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual({
      ...programme(),
      advocate_limit: null,
      active: true,
      updated_at: expect.any(String),
    });
    expect(Date.parse(saved.body.updated_at)).toBeGreaterThanOrEqual(before - 1000);
    const read = await w.api('/v1/referrals/program');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(saved.body);
    // The live programme is another one.
    expect((await w.api('/v1/referrals/program', { mode: 'live' })).status).toBe(404);
  });

  it('replaces the programme whole: fields left out go back to their defaults', async () => {
    const w = await app.workspace();
    const full = programme({ hold: 'PT0S', advocate_limit: { period: 'month', max: 3 }, active: false });
    expect((await put(w, full)).body).toMatchObject({
      hold: 'PT0S',
      advocate_limit: { period: 'month', max: 3 },
    });
    const replaced = await put(w, programme({ friend_actions: [], qualifying_event_type: 'signup.done' }));
    expect(replaced.body).toMatchObject({
      qualifying_event_type: 'signup.done',
      hold: 'P14D',
      friend_actions: [],
      advocate_limit: null,
      active: true,
    });
    expect((await w.api('/v1/referrals/program')).body).toEqual(replaced.body);
  });

  it('defines the badges its actions award, as a flow does', async () => {
    const w = await app.workspace();
    const r = await put(
      w,
      programme({
        friend_actions: [{ type: 'award_badge', badge: 'welcomed' }],
        advocate_actions: [
          { type: 'award_points', points: 50 },
          { type: 'award_badge', badge: 'ambassador', tier: 'gold' },
        ],
      }),
    );
    expect(r.status, r.text).toBe(200);
    const badges = await w.api('/v1/badges');
    expect(badges.status, badges.text).toBe(200);
    expect(badges.body.data.map((b: { key: string }) => b.key).sort()).toEqual(['ambassador', 'welcomed']);
    // Defined again by a second PUT: nothing doubles.
    await put(w, programme({ advocate_actions: [{ type: 'award_badge', badge: 'ambassador' }] }));
    expect((await w.api('/v1/badges')).body.data).toHaveLength(2);
  });

  it('refuses an invalid programme with a 422 naming the field', async () => {
    expect(await invalidFields(programme({ qualify_within: 'soon' }))).toEqual(['qualify_within']);
    expect(await invalidFields(programme({ qualify_within: 'PT0S' }))).toEqual(['qualify_within']);
    expect(await invalidFields(programme({ hold: '-P1D' }))).toEqual(['hold']);
    expect(await invalidFields(programme({ hold: 'two weeks' }))).toEqual(['hold']);
    expect(await invalidFields(programme({ friend_actions: [{ type: 'award_points', points: 0 }] }))).toEqual(
      ['friend_actions.0.points'],
    );
    expect(
      await invalidFields(programme({ advocate_actions: [{ type: 'award_points', points: -5 }] })),
    ).toEqual(['advocate_actions.0.points']);
    expect(
      await invalidFields(programme({ advocate_actions: [{ type: 'award_points', points: 1.5 }] })),
    ).toEqual(['advocate_actions.0.points']);
    expect(
      (await invalidFields(programme({ advocate_actions: [{ type: 'send_message', template: 't' }] })))[0],
    ).toMatch(/^advocate_actions\.0/);
    expect(await invalidFields(programme({ friend_actions: [{ type: 'award_badge', badge: '' }] }))).toEqual([
      'friend_actions.0.badge',
    ]);
    expect(await invalidFields(programme({ advocate_limit: { period: 'decade', max: 1 } }))).toEqual([
      'advocate_limit.period',
    ]);
    expect(await invalidFields(programme({ advocate_limit: { period: 'week', max: 0 } }))).toEqual([
      'advocate_limit.max',
    ]);
    expect(await invalidFields(programme({ advocate_limit: 5 }))).toEqual(['advocate_limit']);
    expect(await invalidFields(programme({ active: 'yes' }))).toEqual(['active']);
    expect(await invalidFields(programme({ qualifying_event_type: '' }))).toEqual(['qualifying_event_type']);
    const { hold: _, ...noHold } = programme();
    expect(await invalidFields(noHold)).toEqual(['hold']);
    expect(await invalidFields({ ...programme(), bonus: 1 })).toEqual(['(body)']);
    // Nothing was stored by any of them.
    expect((await ws.api('/v1/referrals/program')).status).toBe(404);
  });

  it('needs flows:write to change it and any key to read it', async () => {
    const reader = await app.workspace({ abilities: ['flows:read', 'participants:read'] });
    const denied = await put(reader, programme());
    expect(denied.status).toBe(403);
    expect(denied.body.error.type).toBe('permission_error');
    expect((await reader.api('/v1/referrals/program')).status).toBe(404);
    const writer = await app.workspace({ abilities: ['flows:write'] });
    expect((await put(writer, programme())).status).toBe(200);
    expect((await writer.api('/v1/referrals/program')).status).toBe(200);
  });
});

describe('codes: GET /v1/participants/{external_id}/referral-code', () => {
  const codeOf = async (w: TestWorkspace, externalId: string, mode: Mode = 'test') => {
    const r = await w.api(`/v1/participants/${encodeURIComponent(externalId)}/referral-code`, { mode });
    expect(r.status, r.text).toBe(200);
    return r.body.code as string;
  };

  it('is REF- and 8 characters of the alphabet, stable across reads, and one per participant', async () => {
    const a = await buildParticipant(app, ws, { externalId: uid('code-a') });
    const b = await buildParticipant(app, ws, { externalId: uid('code-b') });
    const first = await codeOf(ws, a.externalId);
    expect(first).toMatch(CODE_PATTERN);
    expect(await codeOf(ws, a.externalId)).toBe(first);
    const other = await codeOf(ws, b.externalId);
    expect(other).toMatch(CODE_PATTERN);
    expect(other).not.toBe(first);
    const { rows } = await app.ctx.pool.query(
      `select code from referral_codes where participant_id = any($1::bigint[]) order by participant_id`,
      [[a.id, b.id]],
    );
    expect(rows.map((r) => r.code)).toEqual([first, other]);
  });

  it('answers concurrent first reads with one code', async () => {
    const p = await buildParticipant(app, ws, { externalId: uid('code-race') });
    const codes = await Promise.all(Array.from({ length: 12 }, () => codeOf(ws, p.externalId)));
    expect(new Set(codes).size).toBe(1);
    const { rows } = await app.ctx.pool.query(
      `select count(*)::int as n from referral_codes where participant_id = $1`,
      [p.id],
    );
    expect(rows[0].n).toBe(1);
  });

  it('is a 404 for an unknown participant, and each mode has its own participants and codes', async () => {
    const unknown = await ws.api('/v1/participants/nobody-here/referral-code');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.type).toBe('not_found');
    const id = uid('code-modes');
    await buildParticipant(app, ws, { externalId: id });
    const test = await codeOf(ws, id);
    expect((await ws.api(`/v1/participants/${id}/referral-code`, { mode: 'live' })).status).toBe(404);
    await buildParticipant(app, ws, { externalId: id, mode: 'live' });
    const live = await codeOf(ws, id, 'live');
    expect(live).toMatch(CODE_PATTERN);
    expect(live).not.toBe(test);
    expect(await codeOf(ws, id)).toBe(test);
    // Another workspace does not see the participant.
    const other = await app.workspace();
    expect((await other.api(`/v1/participants/${id}/referral-code`)).status).toBe(404);
  });

  it('makes many in one call, in order, with the 404 of an unknown participant in its place', async () => {
    const ids = [uid('many'), uid('many'), uid('many')];
    for (const id of ids) await buildParticipant(app, ws, { externalId: id });
    const known = await codeOf(ws, ids[1]!);
    const who = { workspaceId: ws.id, mode: 'test' as const };
    const got = await referralCodesOfMany(app.ctx, who, [ids[0]!, 'nobody', ids[1]!, ids[2]!, ids[0]!]);
    expect(got[1]).toBeInstanceOf(Error);
    const codes = [got[0], got[2], got[3], got[4]].map((c) => (c as { code: string }).code);
    expect(codes[1]).toBe(known);
    expect(codes[3]).toBe(codes[0]);
    for (const c of codes) expect(c).toMatch(CODE_PATTERN);
    expect(new Set(codes).size).toBe(3);
    expect(await codeOf(ws, ids[2]!)).toBe(codes[2]);
  });

  it('needs participants:read', async () => {
    const w = await app.workspace({ abilities: ['flows:write'] });
    const p = await buildParticipant(app, w, { externalId: uid('code-ability') });
    const r = await w.api(`/v1/participants/${p.externalId}/referral-code`);
    expect(r.status).toBe(403);
    expect(r.body.error.type).toBe('permission_error');
  });
});

// --- referral rows as the engine leaves them ---

type Status = 'pending' | 'qualified' | 'rewarded' | 'blocked' | 'expired' | 'clawed_back';

interface Made {
  id: string;
  advocate: { id: number; externalId: string };
  friend: { id: number; externalId: string };
}

const HOUR = 3600_000;

/** A referral of `advocate` (made when absent) to a new friend, in `status`, with the times that status has. */
async function referral(
  w: TestWorkspace,
  status: Status,
  opts: {
    advocate?: { id: number; externalId: string };
    mode?: Mode;
    reason?: string;
    grantIds?: string[] | null;
    rewardAvailableAt?: Date;
  } = {},
): Promise<Made> {
  const mode = opts.mode ?? 'test';
  const advocate = opts.advocate ?? (await buildParticipant(app, w, { externalId: uid('adv'), mode }));
  const friend = await buildParticipant(app, w, { externalId: uid('friend'), mode });
  const now = Date.now();
  const qualified = ['qualified', 'rewarded', 'clawed_back'].includes(status);
  const id = uuidv7();
  await app.ctx.pool.query(
    `insert into referrals (id, workspace_id, mode, code, advocate_id, friend_id, status, reason, event_id,
       qualifying_event_id, created_at, expires_at, qualified_at, reward_available_at, rewarded_at, clawed_back_at,
       grant_ids, due_at)
     values ($1, $2, $3, 'REF-ACDEFGHJ', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, null)`,
    [
      id,
      w.id,
      mode,
      advocate.id,
      friend.id,
      status,
      status === 'blocked' ? (opts.reason ?? 'same_email') : null,
      uuidv7(),
      qualified ? uuidv7() : null,
      new Date(now - 2 * HOUR),
      status === 'blocked' ? null : new Date(now + 30 * 24 * HOUR),
      qualified ? new Date(now - HOUR) : null,
      qualified ? (opts.rewardAvailableAt ?? new Date(now + 14 * 24 * HOUR)) : null,
      status === 'rewarded' ? new Date(now) : null,
      status === 'clawed_back' ? new Date(now) : null,
      opts.grantIds ?? null,
    ],
  );
  return { id, advocate, friend };
}

/** A pending grant of `points` for the participant, counted in their `pending_points`. */
async function pendingGrant(w: TestWorkspace, participantId: number, points: number, mode: Mode = 'test') {
  const id = uuidv7();
  await app.ctx.pool.query(
    `insert into pending_grants (id, workspace_id, mode, participant_id, points, available_at, status, idempotency_key)
     values ($1, $2, $3, $4, $5, now() + interval '14 days', 'pending', $6)`,
    [id, w.id, mode, participantId, points, `test:${id}`],
  );
  await app.ctx.pool.query(`update participants set pending_points = pending_points + $2 where id = $1`, [
    participantId,
    points,
  ]);
  return id;
}

const grantStatus = async (id: string) =>
  (await app.ctx.pool.query(`select status from pending_grants where id = $1`, [id])).rows[0]?.status;

const pendingPointsOf = async (w: TestWorkspace, externalId: string) => {
  const r = await w.api(`/v1/participants/${externalId}`);
  expect(r.status, r.text).toBe(200);
  return r.body.pending_points as number;
};

describe('reads: GET /v1/referrals and /v1/referrals/{id}', () => {
  let rw: TestWorkspace;
  let made: Made[];

  beforeAll(async () => {
    rw = await app.workspace();
    const first = await referral(rw, 'pending');
    const adv = first.advocate;
    made = [first];
    for (const s of ['qualified', 'rewarded', 'blocked', 'expired', 'clawed_back', 'pending'] as const)
      made.push(await referral(rw, s, { advocate: adv }));
    made.push(await referral(rw, 'qualified'));
  });

  const ids = (r: { body: { data: { id: string }[] } }) => r.body.data.map((x) => x.id);

  it('lists newest first, in the referral shape', async () => {
    const r = await rw.api('/v1/referrals');
    expect(r.status, r.text).toBe(200);
    expect(ids(r)).toEqual(made.map((m) => m.id).reverse());
    const blocked = r.body.data.find((x: { status: string }) => x.status === 'blocked');
    expect(blocked).toMatchObject({ reason: 'same_email', expires_at: null, qualified_at: null });
    const rewarded = r.body.data.find((x: { id: string }) => x.id === made[2]!.id);
    expect(rewarded).toEqual({
      id: made[2]!.id,
      code: 'REF-ACDEFGHJ',
      advocate: { external_id: made[0]!.advocate.externalId },
      friend: { external_id: made[2]!.friend.externalId },
      status: 'rewarded',
      reason: null,
      created_at: expect.stringMatching(/Z$/),
      expires_at: expect.stringMatching(/Z$/),
      qualified_at: expect.stringMatching(/Z$/),
      reward_available_at: expect.stringMatching(/Z$/),
      rewarded_at: expect.stringMatching(/Z$/),
      clawed_back_at: null,
    });
  });

  it('filters by advocate and status, and an unknown advocate has none', async () => {
    const adv = made[0]!.advocate.externalId;
    const mine = await rw.api(`/v1/referrals?advocate=${adv}`);
    expect(ids(mine)).toEqual(
      made
        .slice(0, 7)
        .map((m) => m.id)
        .reverse(),
    );
    const qualified = await rw.api('/v1/referrals?status=qualified');
    expect(ids(qualified)).toEqual([made[7]!.id, made[1]!.id]);
    const both = await rw.api(`/v1/referrals?advocate=${adv}&status=pending`);
    expect(ids(both)).toEqual([made[6]!.id, made[0]!.id]);
    const nobody = await rw.api('/v1/referrals?advocate=nobody-at-all');
    expect(nobody.status).toBe(200);
    expect(nobody.body.data).toEqual([]);
    expect(nobody.body.links.next).toBeNull();
  });

  it('is a 422 for an unknown status', async () => {
    const r = await rw.api('/v1/referrals?status=won');
    expect(r.status).toBe(422);
    expect(r.body.error.type).toBe('validation_error');
    expect(r.body.error.errors[0].field).toBe('status');
  });

  it('pages by keyset, carrying the filters in the links', async () => {
    const adv = made[0]!.advocate.externalId;
    const seen: string[] = [];
    let url: string | null = `/v1/referrals?advocate=${adv}&limit=3`;
    let pages = 0;
    while (url) {
      const r = await rw.api(url);
      expect(r.status, r.text).toBe(200);
      expect(r.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...ids(r));
      const next: string | null = r.body.links.next;
      if (next) expect(new URL(next).searchParams.get('advocate')).toBe(adv);
      url = next ? new URL(next).pathname + new URL(next).search : null;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(
      made
        .slice(0, 7)
        .map((m) => m.id)
        .reverse(),
    );
    // A referral made meanwhile does not shift a page already walked to.
    const first = await rw.api('/v1/referrals?limit=2');
    await referral(rw, 'pending');
    const second = await rw.api(
      new URL(first.body.links.next).pathname + new URL(first.body.links.next).search,
    );
    expect(ids(second)).toEqual([made[5]!.id, made[4]!.id]);
    const tampered = await rw.api('/v1/referrals?cursor=abc.def');
    expect(tampered.status).toBe(400);
  });

  it('shows one by id; unknown, malformed, another workspace’s or mode’s is a 404', async () => {
    const one = await rw.api(`/v1/referrals/${made[1]!.id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({
      id: made[1]!.id,
      status: 'qualified',
      friend: { external_id: made[1]!.friend.externalId },
    });
    for (const path of [`/v1/referrals/${uuidv7()}`, '/v1/referrals/not-a-uuid', '/v1/referrals/12345']) {
      const r = await rw.api(path);
      expect(r.status, path).toBe(404);
      expect(r.body.error.type).toBe('not_found');
    }
    const other = await app.workspace();
    expect((await other.api(`/v1/referrals/${made[1]!.id}`)).status).toBe(404);
    expect((await other.api('/v1/referrals')).body.data).toEqual([]);
    expect((await rw.api(`/v1/referrals/${made[1]!.id}`, { mode: 'live' })).status).toBe(404);
    const live = await referral(rw, 'pending', { mode: 'live' });
    expect(ids(await rw.api('/v1/referrals', { mode: 'live' }))).toEqual([live.id]);
    expect((await rw.api(`/v1/referrals/${live.id}`)).status).toBe(404);
  });

  it('needs participants:read', async () => {
    const w = await app.workspace({ abilities: ['flows:read'] });
    for (const path of ['/v1/referrals', `/v1/referrals/${uuidv7()}`]) {
      const r = await w.api(path);
      expect(r.status, path).toBe(403);
      expect(r.body.error.type).toBe('permission_error');
    }
  });
});

describe('cancel: POST /v1/referrals/{id}/cancel', () => {
  const cancel = (w: TestWorkspace, id: string, mode: Mode = 'test') =>
    w.api(`/v1/referrals/${id}/cancel`, { method: 'POST', mode });

  it('claws a qualified referral back: its pending grants are cancelled and leave pending_points', async () => {
    const advocate = await buildParticipant(app, ws, { externalId: uid('claw-adv') });
    const grant = await pendingGrant(ws, advocate.id, 500);
    const other = await pendingGrant(ws, advocate.id, 40); // not this referral's
    const r = await referral(ws, 'qualified', { advocate, grantIds: [grant] });
    expect(await pendingPointsOf(ws, advocate.externalId)).toBe(540);

    const before = Date.now();
    const res = await cancel(ws, r.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: r.id, status: 'clawed_back', rewarded_at: null });
    expect(Date.parse(res.body.clawed_back_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(await grantStatus(grant)).toBe('cancelled');
    expect(await grantStatus(other)).toBe('pending');
    expect(await pendingPointsOf(ws, advocate.externalId)).toBe(40);
    const { rows } = await app.ctx.pool.query(`select due_at from referrals where id = $1`, [r.id]);
    expect(rows[0].due_at).toBeNull();
    expect((await ws.api(`/v1/referrals/${r.id}`)).body).toEqual(res.body);

    // Once clawed back it cannot be again, and nothing moves.
    const again = await cancel(ws, r.id);
    expect(again.status).toBe(409);
    expect(again.body.error.type).toBe('invalid_state');
    expect(await pendingPointsOf(ws, advocate.externalId)).toBe(40);
  });

  it('cancels a qualified referral whose grants the job has not written yet', async () => {
    const r = await referral(ws, 'qualified');
    const res = await cancel(ws, r.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('clawed_back');
  });

  it('leaves a grant already settled alone', async () => {
    const advocate = await buildParticipant(app, ws, { externalId: uid('claw-settled') });
    const grant = await pendingGrant(ws, advocate.id, 30);
    const kept = await pendingGrant(ws, advocate.id, 70);
    await ws.api(`/v1/pending-points/${grant}/cancel`, { method: 'POST' });
    const r = await referral(ws, 'qualified', { advocate, grantIds: [grant, kept] });
    expect(await pendingPointsOf(ws, advocate.externalId)).toBe(70);
    expect((await cancel(ws, r.id)).status).toBe(200);
    expect(await grantStatus(grant)).toBe('cancelled');
    expect(await grantStatus(kept)).toBe('cancelled');
    expect(await pendingPointsOf(ws, advocate.externalId)).toBe(0);
  });

  it('is a 409 invalid_state for every status but qualified, and once the hold has ended', async () => {
    for (const status of ['pending', 'rewarded', 'clawed_back', 'blocked', 'expired'] as const) {
      const r = await referral(ws, status);
      const res = await cancel(ws, r.id);
      expect(res.status, status).toBe(409);
      expect(res.body.error.type).toBe('invalid_state');
      expect(res.body.error.message).toContain(status);
      expect((await ws.api(`/v1/referrals/${r.id}`)).body.status).toBe(status);
    }
    // The hold is over (the job is about to reward it): nothing pending to claw back.
    const ended = await referral(ws, 'qualified', { rewardAvailableAt: new Date(Date.now() - 1000) });
    expect((await cancel(ws, ended.id)).status).toBe(409);
    // A grant already activated (the pending-points job got there before the referral job).
    const advocate = await buildParticipant(app, ws, { externalId: uid('claw-active') });
    const grant = await pendingGrant(ws, advocate.id, 25);
    expect((await ws.api(`/v1/pending-points/${grant}/activate`, { method: 'POST' })).status).toBe(200);
    const activated = await referral(ws, 'qualified', { advocate, grantIds: [grant] });
    const res = await cancel(ws, activated.id);
    expect(res.status).toBe(409);
    expect(res.body.error.type).toBe('invalid_state');
    expect((await ws.api(`/v1/referrals/${activated.id}`)).body.status).toBe('qualified');
    expect(await grantStatus(grant)).toBe('activated');
  });

  it('is a 404 for an unknown or malformed id and for another workspace’s or mode’s referral', async () => {
    const r = await referral(ws, 'qualified');
    for (const id of [uuidv7(), 'nope']) expect((await cancel(ws, id)).status).toBe(404);
    const other = await app.workspace();
    expect((await cancel(other, r.id)).status).toBe(404);
    expect((await cancel(ws, r.id, 'live')).status).toBe(404);
    expect((await ws.api(`/v1/referrals/${r.id}`)).body.status).toBe('qualified');
  });

  it('needs points:adjust', async () => {
    const w = await app.workspace({ abilities: ['participants:read', 'flows:write'] });
    const r = await referral(w, 'qualified');
    const res = await cancel(w, r.id);
    expect(res.status).toBe(403);
    expect(res.body.error.type).toBe('permission_error');
    expect((await w.api(`/v1/referrals/${r.id}`)).body.status).toBe('qualified');
  });
});
