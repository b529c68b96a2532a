import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { buildConnector, Client, type Dispatcher, Pool } from 'undici';
import { type AllowEntry, judgeAddress, parseAllowList } from './egress/ranges.ts';

/**
 * The one way this service calls out to URLs that users configure (docs/guarantees.md#the-egress-guard): webhooks,
 * external reward fulfilment, the SMS transport and the dashboard's test actions.
 */

/** 'too_large' is for callers that refuse a truncated answer; egressRequest itself truncates. */
export type EgressReason =
  | 'invalid_url'
  | 'scheme'
  | 'blocked_address'
  | 'dns'
  | 'timeout'
  | 'connection'
  | 'too_large';

export class EgressError extends Error {
  override readonly name = 'EgressError';
  readonly reason: EgressReason;
  constructor(reason: EgressReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

export type LookupFn = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

export interface EgressOptions {
  /** EGRESS_ALLOW_CIDRS: ranges exempt from the guard (development and tests). */
  allowCidrs: string[];
  lookup?: LookupFn;
}

export interface EgressInit extends EgressOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** One deadline for DNS, connect, headers and the whole body. */
  timeoutMs: number;
  /** Bytes of response body kept; reading stops there (default 1024). */
  maxBodyBytes?: number;
  /**
   * Keep the connection for later calls to the same origin and checked addresses (webhook
   * delivery: thousands of POSTs to a few receivers). The URL is still checked on every call.
   */
  reuse?: boolean;
}

export interface EgressResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  durationMs: number;
}

const REFUSAL = 'outbound calls to private, loopback, link-local and metadata addresses are refused';

const defaultLookup: LookupFn = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** How the operator lets this address through (a local receiver in development, say). */
const allowHint = (verdict: { address: string; label: string }) => {
  const cidr =
    verdict.label === 'unparseable'
      ? '127.0.0.1/32'
      : `${verdict.address}/${verdict.address.includes(':') ? 128 : 32}`;
  return ` (to allow a local receiver, set EGRESS_ALLOW_CIDRS, e.g. EGRESS_ALLOW_CIDRS=${cidr})`;
};

const article = (label: string) => (/^[aeiou]/i.test(label) ? 'an' : 'a');

interface Checked {
  url: URL;
  /** Every address the host resolved to, all judged allowed; the connection goes to one of these. */
  addresses: string[];
  /** The keep-alive pool key (origin and addresses), made once per check. */
  poolKey?: string;
}

/**
 * The parsed allow list, kept per list object: callers pass the same config array on every call
 * (a webhook dispatcher thousands of times a second), so it is parsed once, not per request.
 */
const parsedAllowLists = new WeakMap<readonly string[], AllowEntry[]>();
function allowListOf(cidrs: readonly string[]): AllowEntry[] {
  let parsed = parsedAllowLists.get(cidrs);
  if (!parsed) {
    parsed = parseAllowList(cidrs);
    parsedAllowLists.set(cidrs, parsed);
  }
  return parsed;
}

async function check(rawUrl: string, opts: EgressOptions): Promise<Checked> {
  let url: URL;
  try {
    // The WHATWG parser canonicalises numeric hosts (2130706433, 0177.0.0.1, 0x7f.1 → 127.0.0.1),
    // so the literal judged below is the one a socket would dial.
    url = new URL(rawUrl);
  } catch {
    throw new EgressError('invalid_url', `"${rawUrl}" is not a valid absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressError('scheme', `${url.protocol} URLs are not allowed; only http and https are`);
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!host) throw new EgressError('invalid_url', `"${rawUrl}" has no host`);
  const allow = allowListOf(opts.allowCidrs);

  if (isIP(host)) {
    return { url, addresses: [judged(host, host, allow)] };
  }
  let resolved: { address: string }[];
  try {
    resolved = await (opts.lookup ?? defaultLookup)(host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new EgressError('dns', `${host} could not be resolved${code ? ` (${code})` : ''}`, { cause: err });
  }
  if (resolved.length === 0) throw new EgressError('dns', `${host} resolved to no address`);
  return { url, addresses: resolved.map((r) => judged(host, r.address, allow)) };
}

function judged(host: string, address: string, allow: readonly AllowEntry[]): string {
  const verdict = judgeAddress(address, allow);
  if (verdict.allowed) return verdict.address;
  const what = `${article(verdict.label)} ${verdict.label} address`;
  const subject = host === address ? `${verdict.address} is` : `${host} resolves to ${verdict.address},`;
  throw new EgressError('blocked_address', `${subject} ${what}; ${REFUSAL}${allowHint(verdict)}`);
}

/**
 * Verdicts for URLs whose host is an IP literal, per allow list: no DNS is involved, so checking
 * the same URL string against the same list always gives the same answer (a webhook dispatcher
 * sends thousands of requests to a few such URLs). Only allowed URLs are kept; a refused one is
 * judged (and refused) again on every call. Hostnames are resolved and judged on every call.
 */
const literalVerdicts = new WeakMap<readonly string[], Map<string, Checked>>();
const MAX_LITERAL_VERDICTS = 1024;
async function checkCached(rawUrl: string, opts: EgressOptions): Promise<Checked> {
  let verdicts = literalVerdicts.get(opts.allowCidrs);
  const hit = verdicts?.get(rawUrl);
  if (hit) return hit;
  const checked = await check(rawUrl, opts);
  const host = checked.url.hostname;
  if (isIP(host.startsWith('[') ? host.slice(1, -1) : host)) {
    if (!verdicts) {
      verdicts = new Map();
      literalVerdicts.set(opts.allowCidrs, verdicts);
    }
    if (verdicts.size >= MAX_LITERAL_VERDICTS) verdicts.clear();
    verdicts.set(rawUrl, checked);
  }
  return checked;
}

/** Parses and checks a URL (scheme, every resolved address); throws EgressError, else returns the URL. */
export async function assertEgressAllowed(url: string, opts: EgressOptions): Promise<URL> {
  return (await check(url, opts)).url;
}

/**
 * A connector that dials only the checked addresses (in order, falling back on connection
 * errors) and never resolves the name again, so a DNS answer that changes between check and
 * connect (rebinding) cannot redirect the call. TLS still verifies the certificate against, and
 * sends SNI for, the URL's hostname.
 */
function pinnedConnector(checked: Checked, timeoutMs: number): buildConnector.connector {
  const base = buildConnector({ timeout: timeoutMs, allowH2: false });
  const host = checked.url.hostname;
  const servername =
    checked.url.protocol === 'https:' && !host.startsWith('[') && !isIP(host)
      ? host.replace(/\.$/, '')
      : undefined;
  return (opts, callback) => {
    let index = 0;
    const attempt = () => {
      base({ ...opts, hostname: checked.addresses[index] as string, servername }, (...result) => {
        if (result[0] && ++index < checked.addresses.length) return attempt();
        callback(...result);
      });
    };
    attempt();
  };
}

function basicAuth(url: URL): string | undefined {
  if (!url.username && !url.password) return undefined;
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return `Basic ${Buffer.from(pair).toString('base64')}`;
}

/**
 * Keep-alive pools, one per origin and exact set of checked addresses. The URL is still checked
 * (and the name resolved) on every call; a pool is only reached with the addresses that call
 * judged allowed, so a reused connection always goes to an address checked just now.
 */
const pools = new Map<string, { pool: Pool; lastUsed: number }>();
const MAX_POOLS = 256;
function pooledFor(checked: Checked, timeoutMs: number): Pool {
  checked.poolKey ??= `${checked.url.origin}|${checked.addresses.join(',')}`;
  const key = `${checked.poolKey}|${timeoutMs}`;
  const hit = pools.get(key);
  if (hit) {
    hit.lastUsed = Date.now();
    return hit.pool;
  }
  if (pools.size >= MAX_POOLS) {
    const oldest = [...pools].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0]!;
    pools.delete(oldest[0]);
    oldest[1].pool.close().catch(() => {});
  }
  const pool = new Pool(checked.url.origin, {
    connect: pinnedConnector(checked, timeoutMs),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 4_000,
    connections: 128,
  });
  pools.set(key, { pool, lastUsed: Date.now() });
  return pool;
}

interface Collected {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
}

/**
 * Sends one request through `dispatcher` with a plain handler (no response stream): keeps at most
 * `maxBodyBytes` of the body and, past that, aborts the request, which destroys the connection so
 * the rest of an endless body is never read. `abortOn` receives the function that gives up
 * (the overall deadline).
 */
function dispatchCollect(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  maxBodyBytes: number,
  abortOn: (abort: (reason: Error) => void) => void,
): Promise<Collected> {
  return new Promise<Collected>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | null = null;
    let abortedWith: Error | null = null;
    let settled = false;
    let status = 0;
    let headers: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err: Error | null, truncated = false) => {
      if (settled) return;
      settled = true;
      if (err) reject(err);
      else resolve({ status, headers, body: Buffer.concat(chunks, size), truncated });
    };
    abortOn((reason) => {
      abortedWith = reason;
      controller?.abort(reason);
      done(reason);
    });
    dispatcher.dispatch(options, {
      onRequestStart(c) {
        controller = c;
        if (abortedWith) c.abort(abortedWith);
      },
      onResponseStart(_c, statusCode, raw) {
        if (statusCode < 200) return; // 1xx: the final answer follows
        status = statusCode;
        headers = {};
        for (const [name, value] of Object.entries(raw)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
        }
      },
      onResponseData(c, chunk) {
        if (settled) return;
        const room = maxBodyBytes - size;
        if (chunk.length > room) {
          if (room > 0) chunks.push(chunk.subarray(0, room));
          size = maxBodyBytes;
          done(null, true);
          c.abort(new Error('response body beyond the kept bytes: not read'));
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      },
      onResponseEnd() {
        done(null);
      },
      onResponseError(_c, err) {
        done(err);
      },
    });
  });
}

/**
 * One guarded HTTP request: checks the URL, connects to exactly the checked address, never
 * follows redirects (a 3xx is returned), keeps at most `maxBodyBytes` of the body, and gives up
 * after `timeoutMs` overall. Throws EgressError.
 */
export async function egressRequest(rawUrl: string, init: EgressInit): Promise<EgressResponse> {
  const started = performance.now();
  const maxBodyBytes = init.maxBodyBytes ?? 1024;
  let timedOut = false;
  let onDeadline: ((reason: Error) => void) | null = null;
  const timer = setTimeout(() => {
    timedOut = true;
    onDeadline?.(new Error('deadline'));
  }, init.timeoutMs);
  const timeoutError = (cause?: unknown) =>
    new EgressError('timeout', `no complete response from ${rawUrl} within ${init.timeoutMs} ms`, { cause });

  let client: Client | undefined;
  let checked: Checked | undefined;
  try {
    // The DNS lookup counts against the deadline too; a lookup that hangs is abandoned.
    const checking = init.reuse ? checkCached(rawUrl, init) : check(rawUrl, init);
    checked = await Promise.race([
      checking,
      new Promise<never>((_, reject) => {
        onDeadline = reject;
      }),
    ]);
    const { url } = checked;
    if (!init.reuse) {
      client = new Client(url.origin, {
        connect: pinnedConnector(checked, init.timeoutMs),
        headersTimeout: init.timeoutMs,
        bodyTimeout: init.timeoutMs,
        keepAliveTimeout: 1,
      });
    }
    const dispatcher = client ?? pooledFor(checked, init.timeoutMs);
    let headers = init.headers ?? {};
    const auth = basicAuth(url);
    if (auth && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
      headers = { ...headers, authorization: auth };
    }
    if (timedOut) throw new Error('deadline');
    const res = await dispatchCollect(
      dispatcher,
      {
        path: `${url.pathname}${url.search}`,
        method: (init.method ?? (init.body === undefined ? 'GET' : 'POST')) as Dispatcher.HttpMethod,
        headers,
        body: init.body,
      },
      maxBodyBytes,
      (abort) => {
        onDeadline = abort;
      },
    );
    return { ...res, durationMs: Math.round(performance.now() - started) };
  } catch (err) {
    if (timedOut) throw timeoutError(err);
    if (err instanceof EgressError) throw err;
    // Before any request was made, anything else is a configuration error (a bad allow list).
    if (!checked) throw err;
    const e = err as NodeJS.ErrnoException;
    if (
      e.code === 'UND_ERR_CONNECT_TIMEOUT' ||
      e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
      e.code === 'UND_ERR_BODY_TIMEOUT'
    ) {
      throw timeoutError(err);
    }
    const detail = e.code && e.code !== e.message ? `${e.code}: ${e.message}` : e.message;
    throw new EgressError('connection', `request to ${rawUrl} failed (${detail})`, { cause: err });
  } finally {
    clearTimeout(timer);
    // No connection reuse: each call dials its own checked address, and destroying drops any
    // unread remainder of the body at once.
    await client?.destroy().catch(() => {});
  }
}
