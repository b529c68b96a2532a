import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { unitOfWork } from '../src/db/unit-of-work.ts';
import { MAX_SOCKET_BUFFERED_BYTES, SOCKET_STALL_MS } from '../src/schema/socket.ts';
import { postEntry } from '../src/services/ledger/post-entry.ts';
import { type BuiltParticipant, buildParticipant } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// A socket that never reads (CONTRACT 12, docs/live-updates.md "Slow consumers"): a real
// graphql-ws client subscribes to balanceChanged, then its TCP socket is paused, so the kernel
// buffers fill and the server's writes stop completing. While thousands of balance changes
// commit, the server holds a bounded amount for it (unsent bytes on its socket, updates queued
// in the hub), drops it, and a reading subscriber on another socket still gets every frame in time.

const BURST = 3_000;
/** Subscriptions the stalled socket holds to the busy participant: every change is that many frames for it. */
const STALLED_SUBS = 10;
const PER_COMMIT = 100;
const REASON = `burst ${'x'.repeat(440)}`;

let app: TestApp;
let ws: TestWorkspace;
let hot: BuiltParticipant;
let calm: BuiltParticipant;
const clients: Client[] = [];

/** Every server-side socket, in the order each first sent a frame (its connection_ack). */
const serverSockets: WebSocket[] = [];
const send = WebSocket.prototype.send;

beforeAll(async () => {
  WebSocket.prototype.send = function (this: WebSocket, ...args: Parameters<WebSocket['send']>) {
    if ((this as unknown as { _isServer: boolean })._isServer && !serverSockets.includes(this))
      serverSockets.push(this);
    return send.apply(this, args);
  } as WebSocket['send'];
  app = await startTestApp({ role: 'api' });
  ws = await app.workspace();
  hot = await buildParticipant(app, ws, { externalId: 'hot', points: 1 });
  calm = await buildParticipant(app, ws, { externalId: 'calm', points: 1 });
});
afterAll(async () => {
  WebSocket.prototype.send = send;
  await Promise.all(clients.map((c) => c.dispose()));
  await app?.close();
});

const BALANCE = `subscription($id: String!) {
  balanceChanged(externalId: $id) { externalId balance entry { id points balanceAfter reason } }
}`;

/** A graphql-ws client whose underlying WebSocket (and so TCP socket) the test can reach. */
function connect() {
  const sockets: WebSocket[] = [];
  class Reachable extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      sockets.push(this);
    }
  }
  const client = createClient({
    url: `${app.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: Reachable,
    connectionParams: { authorization: `Bearer ${ws.keys.test}` },
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => {},
  });
  clients.push(client);
  return { client, sockets };
}

function watch(client: Client, id: string) {
  const got: { at: number; change: any }[] = [];
  const errors: unknown[] = [];
  client.subscribe(
    { query: BALANCE, variables: { id } },
    {
      next: (r) =>
        r.errors ? errors.push(...r.errors) : got.push({ at: Date.now(), change: r.data?.balanceChanged }),
      error: (e) => errors.push(e),
      complete: () => {},
    },
  );
  return { got, errors };
}

/** Commits `count` one-point credits to `p` through the ledger, PER_COMMIT per transaction. */
async function credit(p: BuiltParticipant, count: number) {
  for (let done = 0; done < count; done += PER_COMMIT)
    await unitOfWork(app.ctx, async ({ sql }) => {
      for (let i = done; i < Math.min(count, done + PER_COMMIT); i++)
        await postEntry(sql, {
          workspaceId: ws.id,
          mode: 'test',
          participantId: p.id,
          externalId: p.externalId,
          points: 1,
          source: 'adjustment',
          reason: REASON,
        });
    });
}

describe('a socket that never reads', () => {
  it('is held to a bounded buffer and dropped, while a reading subscriber gets every frame in time', async () => {
    // The socket that stops reading, subscribed to the busy participant.
    const stalled = connect();
    const stalledSubs = Array.from({ length: STALLED_SUBS }, () => watch(stalled.client, 'hot'));
    await eventually(async () => app.ctx.live.size === STALLED_SUBS);
    const server = serverSockets[0]!;
    expect(serverSockets).toHaveLength(1);
    (stalled.sockets[0] as unknown as { _socket: { pause(): void } })._socket.pause();

    // A healthy subscriber on another socket: the same participant, and a quiet one.
    const reader = connect();
    const readerHot = watch(reader.client, 'hot');
    const readerCalm = watch(reader.client, 'calm');
    await eventually(async () => app.ctx.live.size === STALLED_SUBS + 2);

    let maxUnsent = 0;
    let maxBacklog = 0;
    const sampler = setInterval(() => {
      maxUnsent = Math.max(maxUnsent, server.bufferedAmount);
      maxBacklog = Math.max(maxBacklog, app.ctx.live.backlog);
    }, 5);
    const started = Date.now();
    try {
      await credit(hot, BURST);
      // A change to another participant right after the burst reaches the reader promptly.
      const committed = Date.now();
      await credit(calm, 1);
      await eventually(async () => readerCalm.got.length === 1, 5_000);
      expect(readerCalm.got[0]!.at - committed).toBeLessThan(1_000);
      // The reader has every change of the burst, in commit order, soon after it committed.
      await eventually(async () => readerHot.got.length === BURST, 10_000);
      expect(Date.now() - committed).toBeLessThan(10_000);
      const balances = readerHot.got.map((g) => g.change.balance);
      expect(balances).toEqual(Array.from({ length: BURST }, (_, i) => 2 + i));
      expect(readerHot.errors).toEqual([]);

      // The stalled socket is closed within the stall window (checked every 2 s) and forgotten.
      await eventually(async () => server.readyState === WebSocket.CLOSED, SOCKET_STALL_MS + 6_000);
      expect(Date.now() - started).toBeLessThan(BURST * 10 + SOCKET_STALL_MS + 6_000);
      await eventually(async () => app.ctx.live.size === 2);
    } finally {
      clearInterval(sampler);
    }
    // What the server held for it stayed bounded: about one frame per subscription unsent
    // (graphql-ws sends the next once the last has left), at most the hub's 1,000 updates queued
    // per subscription.
    expect(maxUnsent).toBeGreaterThan(0);
    expect(maxUnsent).toBeLessThanOrEqual(64 * 1024);
    expect(maxUnsent).toBeLessThan(MAX_SOCKET_BUFFERED_BYTES);
    expect(maxBacklog).toBeGreaterThan(0);
    expect(maxBacklog).toBeLessThanOrEqual((STALLED_SUBS + 2) * 1_000);
    // It got part of the burst before its window shut, never all of it.
    for (const sub of stalledSubs) expect(sub.got.length).toBeLessThan(BURST);
    expect(app.ctx.live.backlog).toBe(0);

    // The reader keeps working after the drop.
    await credit(hot, 1);
    await eventually(async () => readerHot.got.length === BURST + 1, 5_000);
  }, 60_000);
});
