import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const send = (w: TestWorkspace, body: object) => w.api('/v1/events', { body });

/** Follows links.next from `path` until it is null; returns every page. */
async function walk(w: TestWorkspace, path: string) {
  const pages: any[] = [];
  let next: string | null = path;
  while (next) {
    const res = await request('', next.startsWith('http') ? next : app.url + next, { key: w.keys.test });
    expect(res.status).toBe(200);
    pages.push(res.body);
    next = res.body.links.next;
  }
  return pages;
}

describe('GET /v1/events pagination (SPEC 2.10, 4.6)', () => {
  it('pages newest first with the exact envelope and walks to the end', async () => {
    const w = await app.workspace();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push((await send(w, { type: 'pg.walk', participant: `p${i}` })).body.event_id);
    const pages = await walk(w, '/v1/events?limit=3');
    expect(pages.map((p) => p.data.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap((p) => p.data.map((e: { id: string }) => e.id))).toEqual([...ids].reverse());
    const first = pages[0];
    expect(first.links).toEqual({
      first: null,
      last: null,
      prev: null,
      next: expect.stringContaining('cursor='),
    });
    expect(first.meta).toEqual({
      path: `${app.url}/v1/events`,
      per_page: 3,
      next_cursor: expect.any(String),
      prev_cursor: null,
    });
    expect(pages[2].links.next).toBeNull();
    expect(pages[2].meta.next_cursor).toBeNull();
    // prev goes back to the page before.
    const back = await request('', pages[2].links.prev, { key: w.keys.test });
    expect(back.body.data.map((e: { id: string }) => e.id)).toEqual(
      pages[1].data.map((e: { id: string }) => e.id),
    );
    const backAgain = await request('', back.body.links.prev, { key: w.keys.test });
    expect(backAgain.body.data.map((e: { id: string }) => e.id)).toEqual(
      pages[0].data.map((e: { id: string }) => e.id),
    );
    expect(backAgain.body.links.prev).toBeNull();
  });

  it('stays stable under concurrent inserts: no row shifted or repeated', async () => {
    const w = await app.workspace();
    const before: string[] = [];
    for (let i = 0; i < 10; i++)
      before.push((await send(w, { type: 'pg.stable', participant: 'x' })).body.event_id);
    const seen: string[] = [];
    let next: string | null = `${app.url}/v1/events?limit=4`;
    while (next) {
      const res: any = await request('', next, { key: w.keys.test });
      seen.push(...res.body.data.map((e: { id: string }) => e.id));
      // New events land between page reads; they are newer than the cursor, so never seen on later pages.
      await send(w, { type: 'pg.stable', participant: 'y' });
      next = res.body.links.next;
    }
    expect(seen).toEqual([...before].reverse());
  });

  it('carries every filter through the links', async () => {
    const w = await app.workspace();
    for (let i = 0; i < 5; i++) await send(w, { type: 'f.keep', participant: 'alice' });
    await send(w, { type: 'f.other', participant: 'alice' });
    await send(w, { type: 'f.keep', participant: 'bob' });
    await send(w, { participant: 'alice' }); // quarantined
    const since = new Date(Date.now() - 60_000).toISOString();
    const pages = await walk(
      w,
      `/v1/events?limit=2&event_type=f.keep&participant=alice&since=${encodeURIComponent(since)}`,
    );
    const all = pages.flatMap((p) => p.data);
    expect(all).toHaveLength(5);
    expect(all.every((e: any) => e.event_type === 'f.keep' && e.participant.external_id === 'alice')).toBe(
      true,
    );
    const link = new URL(pages[0].links.next);
    expect(Object.fromEntries(link.searchParams)).toMatchObject({
      event_type: 'f.keep',
      participant: 'alice',
      since,
      limit: '2',
    });

    const quarantined = await w.api('/v1/events?status=quarantined');
    expect(quarantined.body.data).toHaveLength(1);
    expect(quarantined.body.data[0].quarantine_reason).toMatch(/event_type/);
    const future = await w.api(
      `/v1/events?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(future.body.data).toHaveLength(0);
  });

  it('clamps limit above 200, rejects nonsense limits, statuses and tampered cursors', async () => {
    const w = await app.workspace();
    await send(w, { type: 'l.l', participant: 'l' });
    expect((await w.api('/v1/events?limit=5000')).body.meta.per_page).toBe(200);
    expect((await w.api('/v1/events')).body.meta.per_page).toBe(50);
    for (const q of ['limit=0', 'limit=-1', 'limit=abc', 'status=bogus', 'since=yesterday']) {
      const res = await w.api(`/v1/events?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
    }
    const page = await w.api('/v1/events?limit=1');
    await send(w, { type: 'l.l', participant: 'l' });
    const cursor: string = (await w.api('/v1/events?limit=1')).body.meta.next_cursor;
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const c of [
      tampered,
      'not-a-cursor',
      `${Buffer.from('{"k":"x","d":"next"}').toString('base64url')}.abc`,
    ]) {
      const res = await w.api(`/v1/events?cursor=${encodeURIComponent(c)}`);
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe('invalid_request_error');
    }
    expect(page.status).toBe(200);
  });

  it('404s an unknown or malformed event id', async () => {
    const w = await app.workspace();
    expect((await w.api('/v1/events/01890000-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await w.api('/v1/events/not-a-uuid')).body.error.type).toBe('not_found');
  });
});
