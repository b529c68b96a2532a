import { OPERATIONS } from '../src/rest/openapi.ts';
import type { Operation } from '../src/rest/operation.ts';
import { type ApiInit, type ApiResponse, request } from './helpers.ts';
import { checkResponse } from './response-check.ts';

/**
 * Shared machinery of the security sweeps (issue 15): a client that records every answer (so the
 * secret and stack-trace scans see every body a sweep provoked), and the checks every answer of
 * every sweep must pass.
 */

export interface Recorded {
  method: string;
  path: string;
  /** What was sent (a prefix), so an error that only echoes the caller's own input is told apart. */
  sent: string;
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

const matchers = OPERATIONS.map((op) => ({
  op,
  pattern: new RegExp(`^${op.path.replace(/\{\w+\}/g, '[^/]+')}$`),
}));

/** The declared operation `method path` reaches, if any. */
export function operationOf(method: string, path: string): Operation | undefined {
  const pathname = new URL(path, 'http://x').pathname;
  return matchers.find((m) => m.op.method === method.toLowerCase() && m.pattern.test(pathname))?.op;
}

/** The names of an operation's path parameters, in order. */
export const pathParams = (op: Operation) => op.path.match(/\{(\w+)\}/g)?.map((p) => p.slice(1, -1)) ?? [];

export class SweepClient {
  readonly records: Recorded[] = [];
  readonly failures: string[] = [];
  readonly base: string;
  constructor(base: string) {
    this.base = base;
  }

  fail(message: string) {
    this.failures.push(message.slice(0, 600));
  }

  /**
   * One request. The answer is checked against its operation's declaration (an undeclared status
   * or shape is a failure, not an exception, so a sweep reports every finding at once), and a 5xx
   * is always a failure.
   */
  async send(path: string, init: ApiInit & { method: string }): Promise<ApiResponse> {
    const res = await request(this.base, path, { ...init, unchecked: true });
    const sent = `${init.method} ${path} ${init.raw !== undefined ? String(init.raw).slice(0, 2000) : JSON.stringify(init.body ?? '').slice(0, 2000)}`;
    this.records.push({
      method: init.method,
      path,
      sent,
      status: res.status,
      headers: res.headers,
      text: res.text,
      body: res.body,
    });
    const where = `${init.method} ${path.slice(0, 100)} ${sent.slice(path.length + init.method.length + 2, 160)}`;
    if (res.status >= 500) this.fail(`${where} → ${res.status} ${res.text.slice(0, 300)}`);
    if (!res.headers.get('x-request-id')) this.fail(`${where} → ${res.status} without X-Request-Id`);
    try {
      checkResponse(init.method, path, {
        status: res.status,
        contentType: res.headers.get('content-type'),
        body: res.body,
        text: res.text,
      });
    } catch (err) {
      this.fail(`${where}: ${String(err).slice(0, 400)}`);
    }
    return res;
  }
}

/** A 4xx must be the CONTRACT 3 envelope; returns what is wrong, or null. */
export function envelopeProblem(res: Pick<ApiResponse, 'status' | 'body' | 'headers'>): string | null {
  if (res.status < 400 || res.status >= 500) return `status ${res.status} is not a 4xx`;
  const e = res.body?.error;
  if (!e || typeof e.type !== 'string' || typeof e.message !== 'string')
    return `no { error: { type, message } } envelope: ${JSON.stringify(res.body)?.slice(0, 200)}`;
  if (!res.headers.get('x-request-id')) return 'no X-Request-Id';
  return null;
}

/** Signs of internals in an error body: a stack frame, a dependency or source path, a file path. */
export const INTERNALS: [string, RegExp][] = [
  ['a stack frame', /\bat (?:async )?[\w$.<>[\] ]*\(?(?:file:|node:|\/)[^)\s]*:\d+/],
  ['a stack frame', /\n\s+at /],
  ['node_modules', /node_modules/],
  ['a source path', /\/src\//],
  ['a .ts location', /\.ts:\d+/],
  ['a .ts file', /\b[\w-]+\.ts\b/],
  [
    'an absolute file path',
    /(?:^|[\s"'(=:])\/(?:work|root|home|usr|opt|tmp|var|app|srv|proc|etc|mnt)\/[\w.@-]+/,
  ],
  ['a file: URL', /file:\/\/\/[\w.-]+\/[\w.-]/],
];

/** Known secrets (by label) and the operations whose responses alone may show them. */
export interface SecretRule {
  label: string;
  pattern: RegExp | string;
  /** operationIds allowed to show it (its create response). */
  allowedIn: string[];
}

/** Key plaintexts and webhook/ingest secrets by shape: no response of the REST API shows a key. */
export const SECRET_SHAPES: SecretRule[] = [
  { label: 'an API key plaintext', pattern: /svc_(?:test|live)_[A-Za-z0-9]{40}/, allowedIn: [] },
  {
    label: 'a whsec_ signing secret',
    pattern: /whsec_[A-Za-z0-9]{8,}/,
    // The document's examples show the shape (`whsec_…`), never a real secret.
    allowedIn: [
      'createWebhookSubscription',
      'rotateWebhookSecret',
      'createIngestEndpoint',
      'getOpenApiDocument',
    ],
  },
];

/**
 * Scans every recorded answer: each secret appears only in the responses of the operations that
 * create it, and no error body carries a stack trace or a file path (unless the caller sent that
 * very text, e.g. a `file:///etc/passwd` URL echoed in a validation message).
 */
export function scanRecords(records: readonly Recorded[], secrets: readonly SecretRule[]): string[] {
  const problems: string[] = [];
  for (const r of records) {
    const op = operationOf(r.method, r.path)?.operationId ?? '(no operation)';
    const where = `${r.method} ${r.path.slice(0, 80)} → ${r.status}`;
    for (const s of [...SECRET_SHAPES, ...secrets]) {
      const hit = typeof s.pattern === 'string' ? r.text.includes(s.pattern) : s.pattern.test(r.text);
      const echoed = typeof s.pattern === 'string' && r.sent.includes(s.pattern);
      if (hit && !echoed && !(s.allowedIn.includes(op) && r.status < 300))
        problems.push(`${where} (${op}) shows ${s.label}`);
    }
    if (r.status >= 400)
      for (const [what, re] of INTERNALS) {
        const m = re.exec(r.text);
        if (m && !r.sent.includes(m[0].trim()))
          problems.push(`${where}: the error body carries ${what}: ${m[0]}`);
      }
  }
  return problems;
}
