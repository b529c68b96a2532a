import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { EgressError, egressRequest } from '../../lib/egress.ts';
import { presentRedemption, type RedemptionRow } from './presenters.ts';
import { type ExternalConfig, externalConfig } from './reward-input.ts';
import { externalCallInfo, externalRedemption, lockRedemption, markFulfilled } from './settle.sql.ts';
import { cancelAndRefund, emitRedeemed, fulfilmentFailed } from './settle-redemption.ts';
import type { FulfilmentCall, RedemptionDto } from './shapes.ts';

export interface TokenValues {
  'participant.external_id': string;
  'participant.email': string;
  'participant.name': string;
  'reward.name': string;
  reference: string;
}

const TOKEN =
  /\{\{\s*(participant\.external_id|participant\.email|participant\.name|reward\.name|reference)\s*\}\}/g;
const MAX_RESPONSE_BYTES = 64 * 1024;
const SNIPPET_CHARS = 1024;

/**
 * Replaces the tokens (docs/guarantees.md#external-fulfilment) in every string of `template` (deeply) in one pass per string: a
 * substituted value is never scanned again, so a participant named `{{participant.email}}` stays
 * that literal text. Nothing is evaluated; unknown `{{…}}` are left as they are.
 */
export function substituteTokens(template: unknown, values: TokenValues): unknown {
  if (typeof template === 'string')
    return template.replace(TOKEN, (_m, name: keyof TokenValues) => values[name]);
  if (Array.isArray(template)) return template.map((v) => substituteTokens(v, values));
  if (template && typeof template === 'object')
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, substituteTokens(v, values)]));
  return template;
}

/** The string at a dot path (`data.code`, `codes.0`) of a parsed JSON value, or null. */
export function codeAt(json: unknown, path: string): string | null {
  let at: unknown = json;
  for (const part of path.split('.')) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, part)) return null;
    at = (at as Record<string, unknown>)[part];
  }
  return typeof at === 'string' && at.length > 0 ? at : null;
}

/**
 * Calls the endpoint through the egress guard (no redirects, private addresses refused, pinned
 * DNS) with WEBHOOK_TIMEOUT_MS. Never throws: every failure is an outcome with `ok: false`.
 */
export async function callExternal(
  ctx: AppContext,
  rawConfig: unknown,
  values: TokenValues,
): Promise<FulfilmentCall> {
  const parsed = externalConfig.safeParse(rawConfig);
  if (!parsed.success) return failed(null, null, 'the reward has no valid external configuration');
  const config: ExternalConfig = parsed.data;
  const headers = substituteTokens(config.headers, values) as Record<string, string>;
  const hasBody = config.method !== 'GET' && config.body !== undefined;
  let res: Awaited<ReturnType<typeof egressRequest>>;
  try {
    res = await egressRequest(config.endpoint_url, {
      method: config.method,
      headers: {
        accept: 'application/json',
        ...(hasBody && { 'content-type': 'application/json' }),
        ...headers,
      },
      body: hasBody ? JSON.stringify(substituteTokens(config.body, values)) : undefined,
      timeoutMs: ctx.config.WEBHOOK_TIMEOUT_MS,
      maxBodyBytes: MAX_RESPONSE_BYTES,
      allowCidrs: ctx.config.EGRESS_ALLOW_CIDRS,
    });
  } catch (err) {
    if (err instanceof EgressError) return failed(null, null, `${err.reason}: ${err.message}`);
    return failed(null, null, `request failed: ${(err as Error).message}`);
  }
  const text = res.body.toString('utf8');
  const snippet = text.slice(0, SNIPPET_CHARS);
  if (res.status >= 300 && res.status < 400)
    return failed(
      res.status,
      snippet,
      `the endpoint answered a redirect (${res.status}); redirects are not followed`,
    );
  if (res.status < 200 || res.status >= 300)
    return failed(res.status, snippet, `the endpoint answered ${res.status}`);
  let json: unknown;
  try {
    if (res.truncated) throw new Error('too large');
    json = JSON.parse(text);
  } catch {
    return failed(res.status, snippet, 'the response is not JSON');
  }
  const code = codeAt(json, config.code_path);
  if (!code) return failed(res.status, snippet, `no string at code_path '${config.code_path}'`);
  return { ok: true, status_code: res.status, code, response_snippet: snippet, error: null };
}

const failed = (status: number | null, snippet: string | null, error: string): FulfilmentCall => ({
  ok: false,
  status_code: status,
  code: null,
  response_snippet: snippet,
  error,
});

/** How long the recovery job waits before it assumes the process making the call died. */
export const recoveryDelayMs = (ctx: AppContext) => 2 * ctx.config.WEBHOOK_TIMEOUT_MS + 5_000;

/**
 * After the debit committed (docs/guarantees.md#external-fulfilment): calls the endpoint (outside
 * any transaction), then records the outcome in a second one. Success → `fulfilled` with the code
 * and `reward.redeemed`; failure → `cancelled`, reversal entry, stock restored and 422
 * `external_fulfilment_failed`. Used by the request and, with the same `{{reference}}`, by the
 * recovery job.
 */
export async function fulfilExternal(ctx: AppContext, row: RedemptionRow): Promise<RedemptionDto> {
  const info = await externalCallInfo(ctx.pool, row.id);
  const scope = { workspaceId: info.workspace_id, mode: row.mode };
  const call = await callExternal(ctx, info.config, {
    'participant.external_id': row.external_id,
    'participant.email': info.email ?? '',
    'participant.name': info.name ?? '',
    'reward.name': info.reward_name,
    reference: info.reference,
  });
  const settled = await unitOfWork(ctx, async ({ sql }) => {
    const x = await lockRedemption(sql, scope, Number(row.id));
    // Settled meanwhile (by the recovery job, or the request while the job ran): keep that outcome.
    if (x?.status !== 'pending') return x;
    if (call.ok) {
      const fulfilled = {
        ...(await markFulfilled(sql, x.id, { type: 'external', code: call.code! })),
        external_id: x.external_id,
      };
      await emitRedeemed(sql, scope, fulfilled, {
        id: Number(x.reward_id),
        name: x.reward_name,
        type: x.reward_type,
      });
      return { ...x, ...fulfilled, failure: null };
    }
    const failure = { type: 'external_fulfilment_failed', message: call.error ?? 'unknown error' };
    ctx.log.warn({ redemptionId: Number(x.id), error: call.error }, 'external fulfilment failed; refunded');
    return { ...x, ...(await cancelAndRefund(sql, x, failure)), failure };
  });
  if (!settled) throw new Error(`redemption ${row.id} vanished`);
  if (settled.status === 'cancelled')
    throw fulfilmentFailed(settled.id, settled.failure?.message ?? 'cancelled');
  return presentRedemption(settled);
}

/**
 * The recovery job's work: a redemption of an external reward still `pending` long after its
 * debit committed means the process making the call died. Calling again with the same
 * `{{reference}}` lets an idempotent endpoint return the same code; the outcome is then recorded
 * exactly as on the request path. Anything not pending is left alone.
 */
export async function recoverRedemption(ctx: AppContext, redemptionId: number): Promise<string> {
  const row = await externalRedemption(ctx.pool, redemptionId);
  if (!row) return 'missing';
  if (row.status !== 'pending') return row.status;
  try {
    return (await fulfilExternal(ctx, row)).status;
  } catch (err) {
    if ((err as { type?: string }).type === 'external_fulfilment_failed') return 'cancelled';
    throw err;
  }
}
