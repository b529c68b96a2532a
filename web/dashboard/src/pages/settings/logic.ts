import type { inferRouterOutputs } from '@trpc/server';
import { ABILITIES, type Ability } from '../../../../../src/services/keys/abilities.ts';
import type { AppRouter } from '../../../../../src/trpc/router.ts';

type Outputs = inferRouterOutputs<AppRouter>;
export type ApiKey = Outputs['keys']['list']['data'][number];
export type NewKey = Outputs['keys']['create'];
export type IngestEndpoint = Outputs['ingestEndpoints']['list']['data'][number];
export type EventType = Outputs['eventTypes']['list']['data'][number];
export type DashboardUser = Outputs['users']['list']['data'][number];

export { ABILITIES, type Ability };

/** What each ability unlocks (docs/api.md#keys-modes-and-abilities), for the key form's checkboxes. */
export const ABILITY_HELP: Record<Ability, string> = {
  'events:write': 'Send events (POST /v1/events)',
  'events:read': 'Read the event log',
  'participants:read': 'Read participants, ledgers, badges and redemptions',
  'participants:write': 'Change participants, mint participant tokens',
  'points:adjust': 'Adjust and reverse points',
  'redemptions:write': 'Redeem rewards',
  'participants:erase': 'Erase participants (GDPR)',
  'exports:write': 'Request and download exports',
  'rewards:write': 'Manage rewards, code pools and fulfilment',
  'flows:read': 'Read flows, event types, badges, templates, messages',
  'flows:write': 'Manage flows, event types, badges, templates, ingest endpoints',
  'webhooks:read': 'Read webhook subscriptions and deliveries',
  'webhooks:write': 'Manage webhook subscriptions, replay deliveries',
};

/**
 * The abilities a new key gets from the form, or null when nothing is ticked (the service reads
 * an empty list as `*`, so an empty form must never be sent as one).
 */
export function abilitiesToSend(all: boolean, picked: readonly string[]): string[] | null {
  if (all) return ['*'];
  const known = ABILITIES.filter((a) => picked.includes(a));
  if (!known.length) return null;
  return known.length === ABILITIES.length ? ['*'] : known;
}

/** How a key's abilities read in the list. */
export const abilitiesLabel = (abilities: readonly string[]) =>
  abilities.includes('*') ? 'All abilities' : abilities.join(', ');

/** The password rules of `svc users create` (src/services/workspaces/create-user.ts), checked before sending. */
export function passwordProblem(password: string): string | null {
  if (password.length < 8) return 'At least 8 characters';
  if (password.length > 200) return 'At most 200 characters';
  return null;
}

/**
 * The JSON Schema editor's text, parsed: the service takes a JSON object (a JSON Schema); an empty
 * editor, invalid JSON, an array or a scalar is told here before anything is sent.
 */
export function parseSchemaText(
  text: string,
): { ok: true; schema: Record<string, unknown> } | { ok: false; error: string } {
  if (!text.trim()) return { ok: false, error: 'Enter a JSON Schema' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `Not valid JSON: ${(err as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, error: 'A JSON Schema is a JSON object ({ … })' };
  return { ok: true, schema: value as Record<string, unknown> };
}

/** A starting point for a new schema. */
export const SCHEMA_TEMPLATE = `{
  "type": "object",
  "properties": {
    "order_id": { "type": "string" },
    "amount": { "type": "number", "minimum": 0 }
  },
  "required": ["order_id"]
}`;
