import { parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_QUERY } from '../src/schema/index.ts';
import { schema } from '../src/schema/schema.ts';
import { startTestApp, type TestApp } from './helpers.ts';

/**
 * GraphiQL's page (src/schema/index.ts): a small page naming its bundle, stylesheet and Monaco
 * workers as separate files (content-hashed, cached for a year, compressed), never the 9 MB of
 * inline HTML the package renders; and a first query of our own that the schema accepts.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
});
afterAll(() => app?.close());

const HTML = { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' };

describe('GraphiQL', () => {
  it('is a page of a few KB naming its files, with no inline script', async () => {
    const res = await fetch(`${app.url}/graphql`, { headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html.length).toBeLessThan(10_000);
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    // Two JSON islands (options, worker URLs) and two script files.
    expect(scripts.filter(([, attrs]) => /type="application\/json"/.test(attrs!))).toHaveLength(2);
    const external = scripts.filter(([, attrs]) => /src=/.test(attrs!));
    expect(external).toHaveLength(2);
    expect(external.every(([, , body]) => body === '')).toBe(true);
    expect(html).toContain('<link rel="icon" href="/favicon.svg"');
    expect(html).toMatch(/<link rel="stylesheet" href="\/graphql\/assets\/graphiql-[0-9a-f]{12}\.css">/);
    // The options carry our first query, escaped so nothing in them can close the element.
    const options = JSON.parse(
      /<script id="graphiql-options" type="application\/json">(.*?)<\/script>/.exec(html)![1]!,
    );
    expect(options.defaultQuery).toBe(SAMPLE_QUERY);
    expect(options.defaultTabs[0].variables).toContain('externalId');
    expect(options.headers).toContain('YOUR_API_KEY_OR_PARTICIPANT_TOKEN');
  });

  it('serves every file the page names, immutable and compressed', async () => {
    const html = await (await fetch(`${app.url}/graphql`, { headers: HTML })).text();
    const workers = JSON.parse(
      /<script id="graphiql-workers" type="application\/json">(.*?)<\/script>/.exec(html)![1]!,
    );
    const urls = [
      ...[...html.matchAll(/(?:src|href)="(\/graphql\/assets\/[^"]+)"/g)].map((m) => m[1]!),
      ...Object.values(workers as Record<string, string>),
    ];
    expect(urls).toHaveLength(6);
    let total = 0;
    for (const url of urls) {
      const res = await fetch(app.url + url, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.status, url).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-type')).toMatch(
        url.endsWith('.css') ? /^text\/css/ : /^text\/javascript/,
      );
      expect(res.headers.get('vary')).toMatch(/Accept-Encoding/i);
      // fetch decodes the body; the header says how it travelled.
      const body = await res.text();
      if (body.length >= 1024) expect(res.headers.get('content-encoding'), url).toBe('br');
      total += Number(res.headers.get('content-length'));
    }
    console.log(`GraphiQL's files: ${(total / 1024).toFixed(0)} KB on the wire (brotli)`);
    expect(total).toBeLessThan(3 * 1024 * 1024);
    const unknown = await fetch(`${app.url}/graphql/assets/graphiql-000000000000.js`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.type).toBe('not_found');
  });

  it('starts with a query of ours that the schema accepts', () => {
    expect(SAMPLE_QUERY).toMatch(/participant\(externalId: \$externalId\)[\s\S]*summary[\s\S]*badges/);
    expect(validate(schema, parse(SAMPLE_QUERY))).toEqual([]);
  });

  it('still answers queries at /graphql', async () => {
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { __typename: 'Query' } });
  });
});
