/**
 * Template rendering: plain token substitution, never evaluation (docs/api.md#messages). A token is
 * `{{ root.path }}`; the text is scanned once, so a `{{…}}` inside a substituted value (a
 * participant named `{{participant.email}}`) stays literal text. Unknown tokens render empty.
 */

import type { Channel } from './shapes.ts';

/** What tokens can read: the flow context of one event and participant. */
export interface RenderContext {
  participant: {
    external_id: string;
    email: string | null;
    phone: string | null;
    name: string | null;
    balance?: number | null;
    lifetime_points?: number | null;
  };
  payload: unknown;
  event: { type?: string | null; occurred_at?: string | null };
}

const TOKEN = /\{\{\s*([A-Za-z0-9_.-]{1,200})\s*\}\}/g;
const PARTICIPANT_FIELDS = new Set(['external_id', 'email', 'phone', 'name', 'balance', 'lifetime_points']);
const EVENT_FIELDS = new Set(['type', 'occurred_at']);

/** Own properties only, so `payload.constructor` or `payload.__proto__` can never reach the prototype. */
function walk(value: unknown, path: string[]): unknown {
  let cur = value;
  for (const part of path) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** The raw value of one token, or undefined for an unknown one. */
export function resolveToken(ctx: RenderContext, token: string): unknown {
  const [root, ...rest] = token.split('.');
  if (root === 'participant' && rest.length === 1 && PARTICIPANT_FIELDS.has(rest[0] as string))
    return ctx.participant[rest[0] as keyof RenderContext['participant']];
  if (root === 'event' && rest.length === 1 && EVENT_FIELDS.has(rest[0] as string))
    return ctx.event[rest[0] as keyof RenderContext['event']];
  if (root === 'payload' && rest.length >= 1) return walk(ctx.payload, rest);
  return undefined;
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value);
}

/** Text as HTML text: `&`, `<`, `>`, `"` and `'` as entities. */
export function escapeHtml(s: string): string {
  return s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Substitutes tokens in one pass; `encode` is applied to each substituted value (not to the template). */
export function renderText(
  template: string,
  ctx: RenderContext,
  encode: (s: string) => string = (s) => s,
): string {
  return template.replace(TOKEN, (_m, token: string) => encode(stringify(resolveToken(ctx, token))));
}

/**
 * Renders a template for a channel: e-mail bodies are HTML, so substituted values are escaped
 * (the template's own markup is kept); the subject is a header, so values are not escaped but
 * CR/LF are removed (no header injection); SMS bodies are plain text.
 */
export function renderMessage(
  template: { channel: Channel; subject: string | null; body: string },
  ctx: RenderContext,
): { subject: string | null; body: string } {
  if (template.channel === 'email') {
    const subject =
      template.subject == null ? null : renderText(template.subject, ctx).replace(/[\r\n]+/g, ' ');
    return { subject, body: renderText(template.body, ctx, escapeHtml) };
  }
  return { subject: null, body: renderText(template.body, ctx) };
}
