import http from 'node:http';
import {
  type BatchItem,
  type LoadOp,
  type Plan,
  REFERRAL_HOLD_S,
  type ScheduledOp,
  SIGNUP_PLANS,
} from './schedule.ts';

/** The `signup` type's JSON Schema (docs/api.md#event-schemas): before the fix `gold` fails it, after it passes. */
export const signupSchema = (fixed: boolean) => ({
  type: 'object',
  required: ['plan'],
  properties: {
    plan: { enum: fixed ? [...SIGNUP_PLANS.valid, ...SIGNUP_PLANS.fixed] : [...SIGNUP_PLANS.valid] },
  },
});

/** Whether a `signup` payload's plan passes the schema before its fix. */
export const validBeforeFix = (plan: unknown) => (SIGNUP_PLANS.valid as readonly unknown[]).includes(plan);

export interface Answer {
  /** answered: a status came back; unknown: the socket died after sending (we may or may not have
   * been served); refused: no API process took the connection (nothing was sent). */
  result: 'answered' | 'unknown' | 'refused';
  status: number | null;
  body: Record<string, unknown> | null;
}

/** Every 5xx the load saw, with its time, for the restart-window check. */
export interface FiveXX {
  at: number;
  status: number;
  what: string;
}

/**
 * The load's HTTP client: round robin over the live API base URLs; a connection that is refused
 * (that process is down) goes to the next one; `dropAfterMs` destroys the socket that long after
 * the request was written, so the answer (if any) is lost.
 */
export class Client {
  private rr = 0;
  readonly fivexx: FiveXX[] = [];
  requests = 0;
  drops = 0;

  private readonly urls: () => string[];
  private readonly key: string;

  constructor(urls: () => string[], key: string) {
    this.urls = urls;
    this.key = key;
  }

  async call(
    what: string,
    method: string,
    path: string,
    body?: unknown,
    opts: { headers?: Record<string, string>; dropAfterMs?: number | null } = {},
  ): Promise<Answer> {
    for (let tries = 0; tries < 4; tries++) {
      const urls = this.urls();
      if (urls.length === 0) {
        await new Promise((r) => setTimeout(r, 250));
        continue;
      }
      const base = urls[this.rr++ % urls.length]!;
      const a = await this.once(base, method, path, body, opts);
      if (a.result === 'refused') continue;
      if (a.status !== null && a.status >= 500) this.fivexx.push({ at: Date.now(), status: a.status, what });
      return a;
    }
    return { result: 'refused', status: null, body: null };
  }

  private once(
    base: string,
    method: string,
    path: string,
    body: unknown,
    opts: { headers?: Record<string, string>; dropAfterMs?: number | null },
  ): Promise<Answer> {
    this.requests++;
    return new Promise((resolve) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      let sent = false;
      let settled = false;
      const done = (a: Answer) => {
        if (settled) return;
        settled = true;
        resolve(a);
      };
      const req = http.request(`${base}${path}`, {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${this.key}`,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': String(payload.length) }
            : {}),
          ...opts.headers,
        },
        timeout: 30_000,
      });
      req.on('timeout', () => req.destroy(new Error('client timeout')));
      req.on('error', (err: NodeJS.ErrnoException) =>
        done({
          result: !sent && err.code === 'ECONNREFUSED' ? 'refused' : 'unknown',
          status: null,
          body: null,
        }),
      );
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => done({ result: 'unknown', status: null, body: null }));
        res.on('end', () => {
          let parsed: Record<string, unknown> | null = null;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            // not JSON
          }
          done({ result: 'answered', status: res.statusCode ?? null, body: parsed });
        });
      });
      req.on('socket', (s) =>
        s.once('connect', () => {
          sent = true;
        }),
      );
      req.end(payload, () => {
        sent = true;
        if (opts.dropAfterMs != null) {
          this.drops++;
          setTimeout(() => req.destroy(new Error('dropped by chaos')), opts.dropAfterMs);
        }
      });
    });
  }
}

/** What the load learnt, for the invariants: answers by idempotency key, accepted events, entries. */
export class LoadRecord {
  /** kind → outcome label (status code, `unknown`, `refused`) → count */
  readonly outcomes: Record<string, Record<string, number>> = {};
  /** Event ids answered 202, and the event ids each event key was answered with. */
  readonly acceptedEvents = new Set<string>();
  readonly eventIdsByKey = new Map<string, Set<string>>();
  readonly entryIdsByKey = new Map<string, Set<string>>();
  readonly redemptionIdsByKey = new Map<string, Set<string>>();
  /** Referral cancels: the statuses each referral's cancels were answered with. */
  readonly cancelsByReferral = new Map<string, number[]>();
  /** Batches: answered 202, their items, and each answer (or item answer) that broke a rule of docs/api.md#batch-ingest. */
  batches = 0;
  batchItems = 0;
  readonly batchEventIds = new Set<string>();
  readonly batchWrong: { seq: number; what: string }[] = [];
  /** Quarantined events the load saw (answered so), in the order seen: what `replay_event` picks from. */
  readonly quarantined: string[] = [];
  private readonly quarantinedSeen = new Set<string>();
  /** The event each `replay_event` op chose (by its seq), for its repeats and its other-fix twin. */
  readonly replayTargets = new Map<number, string>();
  /** Every new event id a replay of an original was answered with (at most one each, ever). */
  readonly replaysOf = new Map<string, Set<string>>();
  /** Replay answers that broke a rule of docs/api.md#replay (a status other than 202, 409 or a 5xx). */
  readonly replayWrong: { seq: number; what: string }[] = [];
  /** Events the bulk replays answered they replayed, in all. */
  bulkReplayed = 0;
  /**
   * When the schema fix was first sent and when it was answered 200, and when the last (final)
   * bulk replay that was answered 202 started (epoch ms).
   */
  schemaFixSentAt: number | null = null;
  schemaFixedAt: number | null = null;
  finalBulkStartedAt: number | null = null;
  /** Successful adjustments: candidates for reversals. */
  readonly adjustments: { participant: string; id: string }[] = [];
  reversals = 0;
  erasures = 0;

  sawQuarantined(id: string): void {
    if (this.quarantinedSeen.has(id)) return;
    this.quarantinedSeen.add(id);
    this.quarantined.push(id);
  }

  count(kind: string, a: Answer): void {
    this.tally(kind, a.result === 'answered' ? String(a.status) : a.result);
  }

  tally(kind: string, label: string): void {
    const k = this.outcomes[kind] ?? {};
    this.outcomes[kind] = k;
    k[label] = (k[label] ?? 0) + 1;
  }
}

const add = (m: Map<string, Set<string>>, key: string, v: string) => {
  const s = m.get(key) ?? new Set<string>();
  s.add(v);
  m.set(key, s);
};

const DAY_MS = 86_400_000;

/**
 * Runs one scheduled op through the client and records its answer; `start`: when the load started
 * (epoch ms); `codes`: the advocates' referral codes, by index.
 */
export async function runOp(
  client: Client,
  rec: LoadRecord,
  s: ScheduledOp,
  rewardIds: Record<string, number>,
  start: number,
  codes: string[],
): Promise<void> {
  const op: LoadOp = s.op;
  const drop = { dropAfterMs: s.dropAfterMs };
  const keyHeader = (o: { key: string | null; keyIn: string }) =>
    o.key && o.keyIn === 'header' ? { 'Idempotency-Key': o.key } : undefined;
  const keyBody = (o: { key: string | null; keyIn: string }) =>
    o.key && o.keyIn === 'body' ? { idempotency_key: o.key } : {};
  switch (op.kind) {
    case 'event': {
      const a = await client.call(
        'event',
        'POST',
        '/v1/events',
        {
          event_type: op.type,
          participant: {
            external_id: op.participant,
            email: op.email ?? `${op.participant}@example.com`,
            name: op.participant,
            ...(op.timezone ? { timezone: op.timezone } : {}),
            ...(op.referral ? { referral_code: codes[op.referral.advocate] } : {}),
          },
          payload: { seq: s.repeatOf ?? s.seq },
          ...(op.occurred
            ? { occurred_at: new Date(start + op.occurred.at - op.occurred.daysAgo * DAY_MS).toISOString() }
            : {}),
          ...keyBody(op),
        },
        { ...drop, headers: keyHeader(op) },
      );
      rec.count(`${op.referral ? 'event with a code' : 'event'}${s.repeatOf === null ? '' : ' (repeat)'}`, a);
      const id = a.status === 202 ? String(a.body?.event_id ?? '') : '';
      if (id) {
        rec.acceptedEvents.add(id);
        if (op.key) add(rec.eventIdsByKey, op.key, id);
      }
      return;
    }
    case 'adjust': {
      const a = await client.call(
        'adjust',
        'POST',
        `/v1/participants/${op.participant}/points`,
        { points: op.points, reason: 'chaos adjustment', ...keyBody(op) },
        { ...drop, headers: keyHeader(op) },
      );
      rec.count(s.repeatOf === null ? 'adjust' : 'adjust (repeat)', a);
      if (a.status === 201 || a.status === 200) {
        const id = String(a.body?.id ?? '');
        if (op.key) add(rec.entryIdsByKey, op.key, id);
        if (a.status === 201) rec.adjustments.push({ participant: op.participant, id });
      }
      return;
    }
    case 'reverse': {
      if (rec.adjustments.length === 0)
        return void rec.count('reverse', { result: 'refused', status: null, body: null });
      const e = rec.adjustments[op.pick % rec.adjustments.length]!;
      const a = await client.call(
        'reverse',
        'POST',
        `/v1/participants/${e.participant}/ledger/${e.id}/reversal`,
        { reason: 'chaos reversal' },
        drop,
      );
      rec.count('reverse', a);
      if (a.status === 201) rec.reversals++;
      return;
    }
    case 'redeem': {
      const a = await client.call(
        'redeem',
        'POST',
        '/v1/redemptions',
        { participant: op.participant, reward_id: rewardIds[op.reward], ...keyBody(op) },
        { ...drop, headers: keyHeader(op) },
      );
      rec.count(`redeem ${op.reward}${s.repeatOf === null ? '' : ' (repeat)'}`, a);
      const err = a.body?.error as { type?: string; redemption_id?: number } | undefined;
      const id =
        a.status === 201 || a.status === 200
          ? String(a.body?.id ?? '')
          : err?.type === 'external_fulfilment_failed'
            ? String(err.redemption_id ?? '')
            : '';
      if (id && op.key) add(rec.redemptionIdsByKey, op.key, id);
      return;
    }
    case 'cancel_referral': {
      // Its referral once it is qualified (the purchase may still be waiting for a worker): looked
      // for among the qualified ones (a handful at a time: one page) until the hold would be over.
      const deadline = Date.now() + REFERRAL_HOLD_S * 1000;
      let r: { id: string } | undefined;
      let last = 'not qualified';
      for (;;) {
        const list = await client.call('list referrals', 'GET', '/v1/referrals?status=qualified&limit=200');
        const data = (list.body?.data as { id: string; friend: { external_id: string } }[] | undefined) ?? [];
        r = data.find((x) => x.friend.external_id === op.friend);
        if (r || Date.now() > deadline) break;
        last = list.status === 200 ? 'not qualified' : `list ${list.status ?? list.result}`;
        await new Promise((ok) => setTimeout(ok, 300));
      }
      if (!r) return void rec.tally('cancel referral', last);
      const a = await client.call('cancel referral', 'POST', `/v1/referrals/${r.id}/cancel`, {}, drop);
      rec.count(`cancel referral${s.repeatOf === null ? '' : ' (repeat)'}`, a);
      if (a.status !== null) {
        const answers = rec.cancelsByReferral.get(r.id) ?? [];
        answers.push(a.status);
        rec.cancelsByReferral.set(r.id, answers);
      }
      return;
    }
    case 'batch':
      return runBatch(client, rec, s, op.items, drop);
    case 'replay_event':
      return replayEvent(client, rec, s, op, drop);
    case 'fix_schema': {
      // Must happen (the checks after it rely on it): retried until answered.
      rec.schemaFixSentAt = Date.now();
      for (let i = 0; i < 60; i++) {
        const a = await client.call('fix schema', 'PUT', '/v1/event-types/signup/schema', signupSchema(true));
        rec.count('fix schema', a);
        if (a.status === 200) {
          rec.schemaFixedAt = Date.now();
          return;
        }
        await new Promise((ok) => setTimeout(ok, 1000));
      }
      return;
    }
    case 'replay_bulk': {
      const what = op.final ? 'replay bulk (final)' : 'replay bulk';
      // The last one must be answered (the checks ask what it left): retried until it is.
      for (let i = 0; i < (op.final ? 60 : 1); i++) {
        const started = Date.now();
        const a = await client.call(
          what,
          'POST',
          '/v1/events/replay',
          { event_type: 'signup' },
          i ? {} : drop,
        );
        rec.count(what, a);
        if (a.status === 202) {
          rec.bulkReplayed += Number(a.body?.replayed ?? 0);
          if (op.final) rec.finalBulkStartedAt = started;
          return;
        }
        if (a.status !== null && a.status < 500)
          rec.replayWrong.push({ seq: s.seq, what: `${what}: ${a.status}` });
        await new Promise((ok) => setTimeout(ok, 1000));
      }
      return;
    }
    case 'erase': {
      const a = await client.call('erase', 'DELETE', `/v1/participants/${op.participant}`, undefined, drop);
      rec.count('erase', a);
      if (a.status === 200) rec.erasures++;
      return;
    }
  }
}

/** A batch item's body, as `POST /v1/events/batch` takes it (the same on every send of the item). */
function itemBody(it: BatchItem) {
  return {
    event_type: it.type,
    participant: {
      external_id: it.participant,
      email: `${it.participant}@example.com`,
      name: it.participant,
    },
    payload: { seq: it.seq, item: it.item, ...(it.plan ? { plan: it.plan } : {}) },
    ...(it.key ? { idempotency_key: it.key } : {}),
  };
}

/** What a new (not replayed) item must be answered: `gold` signups depend on the schema fix. */
function expectedStatus(it: BatchItem): 'received' | 'quarantined' | null {
  if (it.type !== 'signup') return 'received';
  if (validBeforeFix(it.plan)) return 'received';
  return it.plan === 'gold' ? null : 'quarantined';
}

/**
 * POST /v1/events/batch (docs/api.md#batch-ingest): a 202 must carry one result per item, in
 * order; an item repeating an earlier one of the batch is answered with its event id as a replay;
 * a new item is `received`, or `quarantined` exactly when its schema refuses it.
 */
async function runBatch(
  client: Client,
  rec: LoadRecord,
  s: ScheduledOp,
  items: BatchItem[],
  drop: { dropAfterMs: number | null },
): Promise<void> {
  const a = await client.call('batch', 'POST', '/v1/events/batch', { events: items.map(itemBody) }, drop);
  rec.count(s.repeatOf === null ? 'batch' : 'batch (repeat)', a);
  const wrong = (what: string) => rec.batchWrong.push({ seq: s.seq, what });
  if (a.status !== 202) {
    if (a.status !== null && a.status < 500) wrong(`answered ${a.status}`);
    return;
  }
  const data = a.body?.data as
    | { index: number; event_id: string; status: string; replayed: boolean }[]
    | undefined;
  if (!Array.isArray(data) || data.length !== items.length)
    return void wrong(`${data?.length ?? 'no'} results for ${items.length} items`);
  rec.batches++;
  rec.batchItems += items.length;
  data.forEach((d, j) => {
    const it = items[j]!;
    if (d.index !== j) wrong(`result ${j} has index ${d.index}`);
    if (it.same !== undefined) {
      if (d.event_id !== data[it.same]?.event_id || !d.replayed)
        wrong(`item ${j} repeats item ${it.same} but was answered ${d.event_id} replayed=${d.replayed}`);
    } else if (!d.replayed) {
      const want = expectedStatus(it);
      if (d.status !== 'received' && d.status !== 'quarantined') wrong(`item ${j} answered ${d.status}`);
      else if (want !== null && d.status !== want)
        wrong(`item ${j} (${it.type} ${it.plan ?? ''}) answered ${d.status}`);
    }
    rec.acceptedEvents.add(d.event_id);
    rec.batchEventIds.add(d.event_id);
    if (it.key) add(rec.eventIdsByKey, it.key, d.event_id);
    if (d.status === 'quarantined') rec.sawQuarantined(d.event_id);
  });
}

/**
 * POST /v1/events/{id}/replay (docs/api.md#replay) of a quarantined event the load saw, with a
 * fixed plan: 202 with the new event (the same one again for a retry), or 409 once the event was
 * replayed with another fix (or unchanged by a bulk replay); nothing else.
 */
async function replayEvent(
  client: Client,
  rec: LoadRecord,
  s: ScheduledOp,
  op: { pick: number; target: number | null; plan: Plan },
  drop: { dropAfterMs: number | null },
): Promise<void> {
  // Chosen before the first await: a repeat started right after finds its original's choice.
  const target =
    op.target !== null
      ? rec.replayTargets.get(op.target)
      : s.repeatOf !== null
        ? rec.replayTargets.get(s.repeatOf)
        : rec.quarantined[op.pick % Math.max(1, rec.quarantined.length)];
  const what =
    op.target !== null
      ? 'replay event (other fix)'
      : s.repeatOf === null
        ? 'replay event'
        : 'replay event (repeat)';
  if (!target) return void rec.tally(what, 'nothing quarantined yet');
  if (op.target === null && s.repeatOf === null) rec.replayTargets.set(s.seq, target);
  const a = await client.call(
    what,
    'POST',
    `/v1/events/${target}/replay`,
    { payload: { plan: op.plan, fixed_by: s.repeatOf ?? s.seq } },
    drop,
  );
  rec.count(what, a);
  if (a.status === 202) {
    const id = String(a.body?.event_id ?? '');
    const set = rec.replaysOf.get(target) ?? new Set<string>();
    set.add(id);
    rec.replaysOf.set(target, set);
    if (a.body?.status === 'quarantined') rec.sawQuarantined(id);
  } else if (a.status !== null && a.status !== 409 && a.status < 500)
    rec.replayWrong.push({ seq: s.seq, what: `${what}: ${a.status} ${JSON.stringify(a.body)}` });
}
