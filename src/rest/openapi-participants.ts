import { z } from 'zod';
import { pageInput } from '../lib/pagination.ts';
import { createLeaderboardInput } from '../services/leaderboards/create-leaderboard.ts';
import { leaderboardTopInput } from '../services/leaderboards/read-leaderboard.ts';
import { adjustPointsInput } from '../services/participants/adjust-points.ts';
import { listParticipantsInput } from '../services/participants/list-participants.ts';
import { reverseEntryInput } from '../services/participants/reverse-entry.ts';
import { updateParticipantInput } from '../services/participants/update-participant.ts';
import type { OperationDoc } from './openapi.ts';
import { idempotentReplayedHeader, paginated, rateLimitHeaders, requestIdHeader } from './openapi-schemas.ts';

const timestamp = (description: string) =>
  z.string().meta({ format: 'date-time', description, examples: ['2026-11-22T10:00:00.000Z'] });

export const participant = z
  .object({
    external_id: z.string().meta({ description: 'The caller’s own identifier.' }),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    name: z.string().nullable(),
    balance: z.int().min(0).meta({ description: 'Spendable points; never negative.' }),
    lifetime_points: z
      .int()
      .min(0)
      .meta({ description: 'Points ever earned (flows and credits), minus reversed ones.' }),
    created_at: timestamp('Created by its first event or adjustment.'),
    updated_at: timestamp('Last change.'),
  })
  .meta({ id: 'Participant' });

export const ledgerEntry = z
  .object({
    id: z.int(),
    points: z.int().meta({ description: 'Signed: credits positive, debits negative.' }),
    balance_after: z.int().min(0),
    reason: z.string().nullable(),
    source: z.enum(['flow', 'adjustment', 'redemption', 'reversal']),
    reference: z.string().nullable().meta({ description: 'What caused it (flow run, redemption, …).' }),
    reverses_entry_id: z.int().nullable().meta({ description: 'Set on a reversal: the entry it reverses.' }),
    idempotency_key: z.string().nullable(),
    created_at: timestamp('When it was posted.'),
  })
  .meta({
    id: 'LedgerEntry',
    description: 'Immutable: entries are never updated or deleted (the database refuses).',
  });

const multiplier = z
  .object({ factor: z.number(), expires_at: timestamp('When it ends.') })
  .meta({ id: 'ActiveMultiplier' });

export const participantSummary = z
  .object({
    external_id: z.string(),
    balance: z.int(),
    lifetime_points: z.int(),
    badges_count: z.int(),
    redemptions_count: z.int(),
    events_count: z.int(),
    rank: z.int().meta({ description: 'Competition rank on the all-time `points` leaderboard.' }),
    active_multiplier: multiplier.nullable().meta({ description: 'The highest active points multiplier.' }),
  })
  .meta({ id: 'ParticipantSummary' });

const participantBadge = z
  .object({
    key: z.string(),
    tier: z.string().nullable().meta({ description: 'Null for a badge without tiers.' }),
    name: z.string(),
    awarded_at: timestamp('When it was awarded.'),
    flow_run_id: z.string().nullable().meta({ description: 'The flow run that awarded it.' }),
  })
  .meta({ id: 'ParticipantBadge' });

const period = z.enum(['all_time', 'weekly', 'monthly']);

export const leaderboard = z
  .object({
    key: z.string(),
    name: z.string(),
    period,
    created_at: timestamp('Null for the built-in `points` board.').nullable(),
  })
  .meta({ id: 'Leaderboard' });

const standing = z
  .object({ rank: z.int().min(1), score: z.int().min(0) })
  .meta({ id: 'LeaderboardStanding' });

const leaderboardPage = z
  .object({
    data: z.array(z.object({ rank: z.int().min(1), external_id: z.string(), score: z.int().min(1) })),
    meta: z.object({
      key: z.string(),
      period,
      period_start: timestamp('Start of the current period (UTC); null for all time.').nullable(),
      period_end: timestamp('End of the current period (exclusive); null for all time.').nullable(),
    }),
  })
  .meta({ id: 'LeaderboardPage' });

const externalIdParam = z.object({
  external_id: z.string().meta({ param: { description: 'The participant’s external id. Unknown: 404.' } }),
});
const boardKeyParam = z.object({
  key: z
    .string()
    .meta({ param: { description: 'The leaderboard key (`points` always exists). Unknown: 404.' } }),
});

const idempotencyHeader = z.object({
  'Idempotency-Key': adjustPointsInput.shape.idempotency_key
    .unwrap()
    .unwrap()
    .optional()
    .meta({
      param: {
        description:
          'Makes retries safe; wins over the body `idempotency_key`. Scoped to workspace + mode. A retry ' +
          'answers 200 with the original entry and `Idempotent-Replayed: true`; the same key with a ' +
          'different request is a 409.',
      },
    }),
});

const P = 'Participants';
const L = 'Leaderboards';

export const participantsOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/v1/participants',
    operationId: 'listParticipants',
    tag: P,
    summary: 'List participants',
    description:
      'Newest first. `search` matches the external id, e-mail or name, case-insensitively, anywhere in ' +
      'the value (a trigram index answers it).',
    auth: 'participants:read',
    params: { query: listParticipantsInput },
    success: {
      status: '200',
      description: 'A page of participants.',
      schema: paginated(participant, 'Participant'),
    },
  },
  {
    method: 'get',
    path: '/v1/participants/{external_id}',
    operationId: 'getParticipant',
    tag: P,
    summary: 'Show a participant',
    auth: 'participants:read',
    params: { path: externalIdParam },
    success: { status: '200', description: 'The participant.', schema: participant },
    errors: ['not_found'],
  },
  {
    method: 'patch',
    path: '/v1/participants/{external_id}',
    operationId: 'updateParticipant',
    tag: P,
    summary: 'Replace a participant’s PII',
    description:
      'Each given field replaces the stored value; `null` clears it; absent fields stay. (Events only ' +
      'ever fill empty fields.)',
    auth: 'participants:write',
    params: { path: externalIdParam },
    body: { schema: updateParticipantInput },
    success: { status: '200', description: 'The updated participant.', schema: participant },
    errors: ['not_found'],
  },
  {
    method: 'delete',
    path: '/v1/participants/{external_id}',
    operationId: 'eraseParticipant',
    tag: P,
    summary: 'Erase a participant',
    description:
      'PII cleared, the external id replaced by a random pseudonym, event payloads and message ' +
      'recipients scrubbed; ledger amounts, badges and redemptions kept. The old id then answers 404, ' +
      'and a new event with it creates a fresh participant.',
    auth: 'participants:erase',
    params: { path: externalIdParam },
    success: { status: '200', description: 'Erased.', schema: z.object({ erased: z.literal(true) }) },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/participants/{external_id}/summary',
    operationId: 'getParticipantSummary',
    tag: P,
    summary: 'A participant’s summary',
    auth: 'participants:read',
    params: { path: externalIdParam },
    success: {
      status: '200',
      description: 'Balance, counts, rank and multiplier.',
      schema: participantSummary,
    },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/participants/{external_id}/ledger',
    operationId: 'listParticipantLedger',
    tag: P,
    summary: 'A participant’s points ledger',
    description: 'Entries newest first. The balance always equals the sum of the entries.',
    auth: 'participants:read',
    params: { path: externalIdParam, query: pageInput },
    success: {
      status: '200',
      description: 'A page of ledger entries.',
      schema: paginated(ledgerEntry, 'LedgerEntry'),
    },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/participants/{external_id}/badges',
    operationId: 'listParticipantBadges',
    tag: P,
    summary: 'A participant’s badges',
    description: 'Every key+tier held (each at most once), newest award first.',
    auth: 'participants:read',
    params: { path: externalIdParam },
    success: {
      status: '200',
      description: 'The badges.',
      schema: z.object({ data: z.array(participantBadge) }),
    },
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/participants/{external_id}/points',
    operationId: 'adjustPoints',
    tag: P,
    summary: 'Adjust points',
    description:
      'A manual credit or debit, posted as a ledger entry with source `adjustment`. An unknown ' +
      'participant is created. A debit past the balance is 422 `insufficient_points` (with `balance` and ' +
      '`cost_points`). Idempotent (CONTRACT 5): concurrent duplicates are charged once.',
    auth: 'points:adjust',
    params: { path: externalIdParam, header: idempotencyHeader },
    body: { schema: adjustPointsInput },
    success: {
      status: '201',
      description: 'Posted. A replayed idempotency key answers 200 with the original entry instead.',
      schema: ledgerEntry,
      headers: { 'Idempotent-Replayed': idempotentReplayedHeader },
    },
    errors: ['idempotency_conflict', 'insufficient_points'],
    extraResponses: {
      '200': {
        description: 'A retry with the same idempotency key: the original entry, nothing written.',
        headers: z.object({
          'X-Request-Id': requestIdHeader,
          ...rateLimitHeaders,
          'Idempotent-Replayed': idempotentReplayedHeader,
        }),
        content: { 'application/json': { schema: ledgerEntry } },
      },
    },
  },
  {
    method: 'post',
    path: '/v1/participants/{external_id}/ledger/{entry_id}/reversal',
    operationId: 'reverseLedgerEntry',
    tag: P,
    summary: 'Reverse a ledger entry',
    description:
      'Posts a new entry of the opposite sign with `reverses_entry_id` set (entries are never edited). ' +
      'An entry is reversed at most once (422 `already_reversed`); a reversal that would make the ' +
      'balance negative is 422 `insufficient_points`. Reversing earned points also lowers lifetime ' +
      'points and leaderboard scores.',
    auth: 'points:adjust',
    params: {
      path: externalIdParam.extend({
        entry_id: z.string().meta({ param: { description: 'The ledger entry id (of this participant).' } }),
      }),
    },
    body: { schema: reverseEntryInput },
    success: { status: '201', description: 'The reversal entry.', schema: ledgerEntry },
    errors: ['not_found', 'already_reversed', 'insufficient_points'],
  },
  {
    method: 'get',
    path: '/v1/leaderboards',
    operationId: 'listLeaderboards',
    tag: L,
    summary: 'List leaderboards',
    description: 'The built-in all-time `points` board first, then the configured ones.',
    auth: 'key',
    success: { status: '200', description: 'The boards.', schema: z.object({ data: z.array(leaderboard) }) },
  },
  {
    method: 'post',
    path: '/v1/leaderboards',
    operationId: 'createLeaderboard',
    tag: L,
    summary: 'Define a leaderboard',
    description:
      'Scores are the points earned in the period: the UTC week (from Monday), the UTC month, or all ' +
      'time (= lifetime points). `points` is reserved; a taken key is a 422.',
    auth: 'flows:write',
    body: { schema: createLeaderboardInput },
    success: { status: '201', description: 'Created.', schema: leaderboard },
  },
  {
    method: 'get',
    path: '/v1/leaderboards/{key}',
    operationId: 'getLeaderboard',
    tag: L,
    summary: 'A leaderboard’s top places',
    description:
      'Competition ranking (1, 1, 3); ties in order of joining. Only positive scores are placed. No PII: ' +
      'external ids and scores only.',
    auth: 'key',
    params: { path: boardKeyParam, query: leaderboardTopInput },
    success: { status: '200', description: 'The top places of the current period.', schema: leaderboardPage },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/leaderboards/{key}/participants/{external_id}',
    operationId: 'getLeaderboardStanding',
    tag: L,
    summary: 'A participant’s rank and score',
    description:
      'Rank = 1 + the number of participants with a strictly higher score (a score of 0 ranks last).',
    auth: 'key',
    params: { path: boardKeyParam.extend(externalIdParam.shape) },
    success: { status: '200', description: 'The standing.', schema: standing },
    errors: ['not_found'],
  },
];
