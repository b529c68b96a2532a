import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerProcesses } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// A burst of referrals (docs/referrals.md) processed by real worker processes (`svc serve --role
// worker`, the loyalty tick every second); the app serves the API only. A few advocates, FRIENDS
// friends each created by an event carrying an advocate's code, then a burst of FRIENDS qualifying
// events at once: every referral must end `rewarded` after its one-second hold with each of its
// effects exactly once, whichever worker's engine or job got there — checked in SQL.

const FRIENDS = 10_000;
const ADVOCATES = 4;
const WORKERS = 3;
/** Requests in flight while the events go in. */
const CONCURRENCY = 48;
const FRIEND_POINTS = 10;
const ADVOCATE_POINTS = 5;

let app: TestApp;
let ws: TestWorkspace;
let http: Pool;
const { start: startWorker, killAll } = workerProcesses(() => app.databaseUrl);

const q = async <T = Record<string, any>>(sql: string, params: unknown[] = []) =>
  (await app.ctx.pool.query(sql, params)).rows as T[];
const one = async (sql: string, params: unknown[] = []) =>
  Object.fromEntries(Object.entries((await q(sql, params))[0]!).map(([k, v]) => [k, Number(v)]));

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
  ws = await app.workspace();
  http = new Pool(app.url, { connections: CONCURRENCY });
  await Promise.all(Array.from({ length: WORKERS }, () => startWorker({ LOYALTY_TICK_SECONDS: '1' })));
}, 120_000);
afterAll(async () => {
  killAll();
  await http?.close();
  await app?.close();
});

/** POSTs every body to /v1/events, CONCURRENCY at a time; each must be accepted. */
async function postAll(bodies: unknown[]): Promise<void> {
  let next = 0;
  const refused: string[] = [];
  const lane = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const res = await http.request({
        path: '/v1/events',
        method: 'POST',
        headers: { authorization: `Bearer ${ws.keys.test}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.body.text();
      if (res.statusCode !== 202) refused.push(`${res.statusCode} ${text}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  expect(refused.slice(0, 3)).toEqual([]);
}

/** Polls `sql` (one row, one number `n`) until it reaches `want`; the seconds it took from `since`. */
async function reaches(sql: string, want: number, since: number, timeoutMs: number): Promise<number> {
  await eventually(async () => (Number((await q(sql, [ws.id]))[0]!.n) === want ? true : null), timeoutMs);
  return (Date.now() - since) / 1000;
}

describe('a burst of referrals over several workers', () => {
  it(`rewards ${FRIENDS} referrals qualified at once, each effect exactly once`, {
    timeout: 9 * 60_000,
  }, async () => {
    const put = await ws.api('/v1/referrals/program', {
      method: 'PUT',
      body: {
        qualifying_event_type: 'order.completed',
        qualify_within: 'P1D',
        hold: 'PT1S',
        friend_actions: [
          { type: 'award_points', points: FRIEND_POINTS, reason: 'Welcome, friend' },
          { type: 'award_badge', badge: 'referred' },
        ],
        advocate_actions: [
          { type: 'award_points', points: ADVOCATE_POINTS },
          { type: 'award_badge', badge: 'ambassador' },
        ],
      },
    });
    expect(put.status, put.text).toBe(200);

    // The advocates, made by an event of theirs, and their codes as the API gives them.
    const advocates = Array.from({ length: ADVOCATES }, (_, i) => `adv-${i}`);
    await postAll(advocates.map((id) => ({ event_type: 'signed_up', participant: id })));
    const codes: string[] = [];
    for (const id of advocates) {
      const r = await eventually(async () => {
        const res = await ws.api(`/v1/participants/${id}/referral-code`);
        return res.status === 200 ? res : null;
      });
      codes.push(r.body.code as string);
    }

    // FRIENDS friends, each made by a sign-up carrying an advocate's code (round robin).
    const friend = (i: number) => `friend-${i}`;
    const t0 = Date.now();
    await postAll(
      Array.from({ length: FRIENDS }, (_, i) => ({
        event_type: 'signed_up',
        participant: { external_id: friend(i), referral_code: codes[i % ADVOCATES] },
      })),
    );
    const signupsPosted = (Date.now() - t0) / 1000;
    const attributed = await reaches(
      `select count(*) n from referrals where workspace_id = $1 and status = 'pending'`,
      FRIENDS,
      t0,
      120_000,
    );

    // The burst: every friend's qualifying event at once.
    const t1 = Date.now();
    await postAll(
      Array.from({ length: FRIENDS }, (_, i) => ({ event_type: 'order.completed', participant: friend(i) })),
    );
    const burstPosted = (Date.now() - t1) / 1000;
    const qualified = await reaches(
      `select count(*) n from referrals where workspace_id = $1 and qualified_at is not null`,
      FRIENDS,
      t1,
      120_000,
    );
    const granted = await reaches(
      `select count(*) n from referrals where workspace_id = $1 and grant_ids is not null`,
      FRIENDS,
      t1,
      240_000,
    );
    const rewarded = await reaches(
      `select count(*) n from referrals where workspace_id = $1 and status = 'rewarded'`,
      FRIENDS,
      t1,
      240_000,
    );
    console.log(
      JSON.stringify({
        friends: FRIENDS,
        advocates: ADVOCATES,
        workers: WORKERS,
        signups_posted_s: signupsPosted,
        all_attributed_s: attributed,
        burst_posted_s: burstPosted,
        all_qualified_s: qualified,
        all_granted_s: granted,
        all_rewarded_s: rewarded,
      }),
    );

    // Every event processed; every referral rewarded, attributed to the advocate of its code.
    expect(
      await one(
        `select count(*) filter (where status <> 'processed') as not_processed, count(*) as events
             from events where workspace_id = $1`,
        [ws.id],
      ),
    ).toEqual({ not_processed: 0, events: ADVOCATES + 2 * FRIENDS });
    expect(
      await one(
        `select count(*) as referrals, count(distinct friend_id) as friends,
                  count(*) filter (where status = 'rewarded' and reason is null and qualifying_event_id is not null
                                     and rewarded_at >= reward_available_at and due_at is null) as rewarded,
                  count(*) filter (where c.participant_id is distinct from r.advocate_id) as wrong_advocate
             from referrals r left join referral_codes c on c.code = r.code and c.workspace_id = r.workspace_id
            where r.workspace_id = $1`,
        [ws.id],
      ),
    ).toEqual({ referrals: FRIENDS, friends: FRIENDS, rewarded: FRIENDS, wrong_advocate: 0 });

    // The friend's credit: one per referral, under its key, to its friend, for the points.
    expect(
      await one(
        `with c as (select l.* from ledger_entries l where l.workspace_id = $1 and l.reference like 'referral:%')
           select count(*) as credits, count(distinct c.idempotency_key) as keys,
                  count(*) filter (where r.id is null or c.participant_id <> r.friend_id or c.points <> $2
                                     or c.source <> 'flow') as not_its_referral
             from c left join referrals r on c.reference = 'referral:' || r.id
                                          and c.idempotency_key = 'referral:' || r.id || ':friend:0'`,
        [ws.id, FRIEND_POINTS],
      ),
    ).toEqual({ credits: FRIENDS, keys: FRIENDS, not_its_referral: 0 });

    // The advocate's grant: one per referral, its id in the referral's grant_ids, activated once
    // (one `pending:<grant>` credit, the one the grant names), by whichever job got there.
    expect(
      await one(
        `with g as (select g.* from pending_grants g where g.workspace_id = $1),
           e as (select l.*, substr(l.reference, 9) as gid from ledger_entries l
                  where l.workspace_id = $1 and l.reference like 'pending:%')
           select (select count(*) from g) as grants,
                  (select count(*) from referrals r join g on g.idempotency_key = 'referral:' || r.id || ':advocate'
                    where r.workspace_id = $1 and r.grant_ids = array[g.id] and g.participant_id = r.advocate_id
                      and g.points = $2 and g.available_at = r.reward_available_at and g.status = 'activated')
                    as grants_of_their_referral,
                  (select count(*) from e) as activations,
                  (select count(distinct gid) from e) as grants_activated,
                  (select count(*) from g join e on e.gid = g.id::text
                    where g.entry_id = e.id and e.participant_id = g.participant_id and e.points = g.points)
                    as activations_of_their_grant`,
        [ws.id, ADVOCATE_POINTS],
      ),
    ).toEqual({
      grants: FRIENDS,
      grants_of_their_referral: FRIENDS,
      activations: FRIENDS,
      grants_activated: FRIENDS,
      activations_of_their_grant: FRIENDS,
    });

    // Balances: each friend their points, each advocate FRIENDS / ADVOCATES × theirs, nothing
    // pending, every balance its ledger.
    const balances = await q<{
      external_id: string;
      balance: string;
      pending_points: string;
      ledger: string;
    }>(
      `select p.external_id, p.balance, p.pending_points,
                coalesce((select sum(points) from ledger_entries l where l.participant_id = p.id), 0) as ledger
           from participants p where p.workspace_id = $1 and p.external_id like 'adv-%' order by 1`,
      [ws.id],
    );
    expect(
      balances.map((b) => [b.external_id, Number(b.balance), Number(b.pending_points), Number(b.ledger)]),
    ).toEqual(
      advocates.map((id) => [
        id,
        (FRIENDS / ADVOCATES) * ADVOCATE_POINTS,
        0,
        (FRIENDS / ADVOCATES) * ADVOCATE_POINTS,
      ]),
    );
    expect(
      await one(
        `select count(*) as friends, count(*) filter (where p.balance = $2 and p.pending_points = 0
                    and p.balance = (select sum(points) from ledger_entries l where l.participant_id = p.id)) as right
             from participants p where p.workspace_id = $1 and p.external_id like 'friend-%'`,
        [ws.id, FRIEND_POINTS],
      ),
    ).toEqual({ friends: FRIENDS, right: FRIENDS });
    expect(
      await one(
        `select coalesce(sum(balance), 0) as total from participants where workspace_id = $1 and external_id like 'adv-%'`,
        [ws.id],
      ),
    ).toEqual({ total: FRIENDS * ADVOCATE_POINTS });

    // Results: exactly one `referral.qualified` and one `referral.rewarded` per referral.
    expect(
      await one(
        `with o as (select type, data->'referral'->>'id' as id, count(*) as n from outbox
                       where workspace_id = $1 and type in ('referral.qualified', 'referral.rewarded') group by 1, 2)
           select count(*) filter (where o.type = 'referral.qualified' and o.n = 1) as qualified_once,
                  count(*) filter (where o.type = 'referral.rewarded' and o.n = 1) as rewarded_once,
                  count(*) filter (where o.n <> 1) as repeated,
                  count(*) filter (where not exists (select 1 from referrals r where r.id::text = o.id)) as unknown
             from o`,
        [ws.id],
      ),
    ).toEqual({ qualified_once: FRIENDS, rewarded_once: FRIENDS, repeated: 0, unknown: 0 });

    // Badges: each friend holds `referred` once, each advocate `ambassador` once, each award with
    // its one `badge.awarded`.
    expect(
      await one(
        `select count(*) filter (where b.key = 'referred' and p.external_id like 'friend-%') as referred,
                  count(*) filter (where b.key = 'ambassador' and p.external_id like 'adv-%') as ambassador,
                  count(*) as holdings,
                  (select count(*) from outbox where workspace_id = $1 and type = 'badge.awarded') as results,
                  (select count(*) from outbox where workspace_id = $1 and type = 'badge.awarded'
                     and data->>'referral_id' is not null) as results_of_a_referral
             from participant_badges h join badges b on b.id = h.badge_id join participants p on p.id = h.participant_id
            where h.workspace_id = $1`,
        [ws.id],
      ),
    ).toEqual({
      referred: FRIENDS,
      ambassador: ADVOCATES,
      holdings: FRIENDS + ADVOCATES,
      results: FRIENDS + ADVOCATES,
      results_of_a_referral: FRIENDS + ADVOCATES,
    });
  });
});
