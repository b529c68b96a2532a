import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linesOf } from '../src/services/rewards/import-codes-stream.ts';
import { createUser } from '../src/services/workspaces/create-user.ts';
import { buildReward } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// The dashboard's code-file upload (POST /dashboard/api/rewards/:id/codes) over real HTTP: session
// cookie, same-origin check, limits, and a body far over MAX_BODY_BYTES read as it arrives.

let app: TestApp;
let ws: TestWorkspace;
let cookie: string;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
  const login = {
    workspace: ws.slug,
    email: `owner-${ws.slug}@example.com`,
    password: 'correct horse battery staple',
  };
  await createUser(app.ctx, login);
  const res = await fetch(`${app.url}/trpc/auth.login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.url },
    body: JSON.stringify(login),
  });
  expect(res.status).toBe(200);
  cookie = res.headers.getSetCookie()[0]!.split(';')[0]!;
});
afterAll(() => app?.close());

const upload = (
  rewardId: number,
  body: BodyInit,
  opts: { cookie?: string | null; origin?: string | null; type?: string; mode?: string } = {},
) => {
  const headers: Record<string, string> = { 'content-type': opts.type ?? 'text/csv' };
  if (opts.cookie !== null) headers.cookie = opts.cookie ?? cookie;
  if (opts.origin !== null) headers.origin = opts.origin ?? app.url;
  return fetch(`${app.url}/dashboard/api/rewards/${rewardId}/codes?mode=${opts.mode ?? 'test'}`, {
    method: 'POST',
    headers,
    body,
    duplex: 'half',
  } as RequestInit);
};

const codes = (n: number, prefix = 'C') =>
  Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(7, '0')}`);

describe('the dashboard code upload route', () => {
  it('imports a CSV file: header, quoted field, a duplicate and a blank line', async () => {
    const reward = await buildReward(ws, { type: 'voucher_code' });
    const csv = 'code,batch\r\n"A-1",x\r\nA-2,x\r\n\r\nA-1,y\r\n  A-3  ,z\r\n';
    const res = await upload(reward.id, csv);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ imported: 3, skipped_duplicates: 1, stock_remaining: 3 });
    // Text: one per line, commas are part of the code, and a second import skips what is in the pool.
    const again = await upload(reward.id, 'A-3\nB,1\n', { type: 'text/plain; charset=utf-8' });
    expect(await again.json()).toEqual({ imported: 1, skipped_duplicates: 1, stock_remaining: 4 });
  });

  it('refuses a request without a session (401) and one from a foreign origin (403)', async () => {
    const reward = await buildReward(ws, { type: 'voucher_code' });
    const none = await upload(reward.id, 'X-1\n', { cookie: null });
    expect(none.status).toBe(401);
    expect((await none.json()).error.type).toBe('authentication_error');
    const forged = await upload(reward.id, 'X-1\n', { cookie: 'svc_session=forged.value' });
    expect(forged.status).toBe(401);
    const foreign = await upload(reward.id, 'X-1\n', { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error.type).toBe('permission_error');
    const noOrigin = await upload(reward.id, 'X-1\n', { origin: null });
    expect(noOrigin.status).toBe(403);
    const { rows } = await app.ctx.pool.query(
      'select count(*)::int as n from reward_codes where reward_id = $1',
      [reward.id],
    );
    expect(rows[0].n).toBe(0);
  });

  it('answers 4xx for a bad request: unknown reward, a reward without a pool, a bad mode or type, a bad code', async () => {
    const physical = await buildReward(ws, { type: 'physical' });
    const voucher = await buildReward(ws, { type: 'voucher_code' });
    expect((await upload(999_999, 'X\n')).status).toBe(404);
    const noPool = await upload(physical.id, 'X\n');
    expect(noPool.status).toBe(422);
    expect((await noPool.json()).error.errors[0].field).toBe('codes');
    expect((await upload(voucher.id, 'X\n', { mode: 'staging' })).status).toBe(422);
    expect((await upload(voucher.id, '{"codes":["X"]}', { type: 'application/json' })).status).toBe(400);
    const control = await upload(voucher.id, 'OK-1\nBAD\u0007CODE\n', { type: 'text/plain' });
    expect(control.status).toBe(422);
    expect((await control.json()).error.errors[0].field).toBe('codes.1');
    const badCsv = await upload(voucher.id, 'OK-1\n"unterminated\n');
    expect(badCsv.status).toBe(422);
    expect((await upload(voucher.id, Buffer.from([0x41, 0xff, 0x0a]), { type: 'text/plain' })).status).toBe(
      400,
    );
    // All or nothing: none of the good codes before a refused one stayed.
    const { rows } = await app.ctx.pool.query(
      'select count(*)::int as n from reward_codes where reward_id = $1',
      [voucher.id],
    );
    expect(rows[0].n).toBe(0);
  });

  it('refuses a file over 200,000 codes (422) and keeps none of it', async () => {
    const reward = await buildReward(ws, { type: 'voucher_code' });
    const res = await upload(reward.id, `${codes(200_001).join('\n')}\n`, { type: 'text/plain' });
    expect(res.status).toBe(422);
    expect((await res.json()).error.message).toContain('at most 200000 codes');
    const { rows } = await app.ctx.pool.query(
      'select count(*)::int as n from reward_codes where reward_id = $1',
      [reward.id],
    );
    expect(rows[0].n).toBe(0);
  });

  it('refuses a declared body over 16 MiB with 413', async () => {
    const reward = await buildReward(ws, { type: 'voucher_code' });
    const big = Buffer.alloc(16 * 1024 * 1024 + 1, 0x41);
    const res = await upload(reward.id, big, { type: 'text/plain' });
    expect(res.status).toBe(413);
    expect((await res.json()).error.type).toBe('payload_too_large');
  });

  it('stops reading a streamed body (no Content-Length) once it passes 16 MiB: 413, nothing kept', async () => {
    const reward = await buildReward(ws, { type: 'voucher_code' });
    // 1 MiB of 128-byte lines: 17 MiB is ~139,000 codes, under the code limit, over the byte one.
    const line = new TextEncoder().encode(`${'L'.repeat(127)}\n`);
    const chunk = new Uint8Array(line.length * 8_192);
    for (let i = 0; i < 8_192; i++) chunk.set(line, i * line.length);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 17) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await upload(reward.id, body, { type: 'text/plain' });
    expect(res.status).toBe(413);
    expect((await res.json()).error.type).toBe('payload_too_large');
    const { rows } = await app.ctx.pool.query(
      'select count(*)::int as n from reward_codes where reward_id = $1',
      [reward.id],
    );
    expect(rows[0].n).toBe(0);
  });

  it('streams 150,000 codes (far over MAX_BODY_BYTES): inserted while the body is still arriving', async () => {
    const reward = await buildReward(ws, { type: 'voucher_code' });
    const all = codes(150_000, 'S');
    const text = `code\n${all.join('\n')}\n`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(app.ctx.config.MAX_BODY_BYTES * 4);
    const half = text.lastIndexOf('\n', text.length / 2) + 1;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const enc = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(enc.encode(text.slice(0, half)));
        await gate;
        controller.enqueue(enc.encode(text.slice(half)));
        controller.close();
      },
    });
    const pending = upload(reward.id, body);
    // With half the file sent and the rest held back, the server has already inserted batches: its
    // transaction holds a row lock on reward_codes. A server buffering the whole body would not have.
    await eventually(async () => {
      const { rows } = await app.ctx.pool.query(
        `select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
          where c.relname = 'reward_codes' and l.mode = 'RowExclusiveLock' and l.pid <> pg_backend_pid()`,
      );
      return rows[0].n > 0;
    });
    release();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ imported: 150_000, skipped_duplicates: 0, stock_remaining: 150_000 });
  });
});

describe('linesOf (the text-file splitter)', () => {
  const split = async (...chunks: string[]) => {
    async function* source() {
      yield* chunks;
    }
    const out: string[] = [];
    for await (const line of linesOf(source())) out.push(line);
    return out;
  };

  it('splits on LF, CRLF and CR, a CRLF cut between chunks included', async () => {
    expect(await split('a\r', '\nb\rc\n', 'd')).toEqual(['a', 'b', 'c', 'd']);
    expect(await split('a\r')).toEqual(['a']);
    expect(await split('a\r', 'b')).toEqual(['a', 'b']);
    expect(await split('x', 'y\n\nz')).toEqual(['xy', '', 'z']);
  });

  it('refuses a line far longer than any code before buffering more of it', async () => {
    await expect(split('A'.repeat(5_000))).rejects.toMatchObject({ type: 'validation_error' });
  });
});
