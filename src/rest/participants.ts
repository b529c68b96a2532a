import { z } from 'zod';
import { pageInput } from '../lib/pagination.ts';
import { externalIdParam, intId } from '../lib/primitives.ts';
import { ledgerEntryShape } from '../services/ledger/shapes.ts';
import { adjustPoints, adjustPointsInput } from '../services/participants/adjust-points.ts';
import { eraseParticipant } from '../services/participants/erase-participant.ts';
import { EXPORT_SECTION_LIMIT, exportParticipant } from '../services/participants/export-participant.ts';
import { listParticipants, listParticipantsInput } from '../services/participants/list-participants.ts';
import { mintParticipantToken, mintTokenInput } from '../services/participants/mint-token.ts';
import { participantBadges } from '../services/participants/participant-badges.ts';
import { participantLedger } from '../services/participants/participant-ledger.ts';
import { participantSummary } from '../services/participants/participant-summary.ts';
import { reverseEntry, reverseEntryInput } from '../services/participants/reverse-entry.ts';
import {
  erasedShape,
  participantBadgeShape,
  participantExportShape,
  participantShape,
  participantSummaryShape,
  participantTokenShape,
} from '../services/participants/shapes.ts';
import { showParticipant } from '../services/participants/show-participant.ts';
import { updateParticipant, updateParticipantInput } from '../services/participants/update-participant.ts';
import { idempotentReplayedHeader, paginated } from './openapi-schemas.ts';
import { idempotentReply, type Operation, operation } from './operation.ts';

/** The participant named in the path. */
export const byExternalId = z.object({ external_id: externalIdParam() });

export const idempotencyHeader = z.object({
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

/** Participants, their ledger and badges, point adjustments and reversals, erasure. */
export const participantsOperations: Operation[] = [
  operation({
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
      schema: paginated(participantShape, 'Participant'),
    },
    paged: true,
    handle: ({ ctx, who, query }) => listParticipants(ctx, who, query),
  }),
  operation({
    method: 'get',
    path: '/v1/participants/{external_id}',
    operationId: 'getParticipant',
    tag: P,
    summary: 'Show a participant',
    auth: 'participants:read',
    params: { path: byExternalId },
    success: { status: '200', description: 'The participant.', schema: participantShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => showParticipant(ctx, who, params.external_id),
  }),
  operation({
    method: 'patch',
    path: '/v1/participants/{external_id}',
    operationId: 'updateParticipant',
    tag: P,
    summary: 'Replace a participant’s PII',
    description:
      'Each given field replaces the stored value; `null` clears it; absent fields stay. (Events only ' +
      'ever fill empty fields.)',
    auth: 'participants:write',
    params: { path: byExternalId },
    body: { schema: updateParticipantInput },
    success: { status: '200', description: 'The updated participant.', schema: participantShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params, body }) => updateParticipant(ctx, who, params.external_id, body),
  }),
  operation({
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
    params: { path: byExternalId },
    success: { status: '200', description: 'Erased.', schema: erasedShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => eraseParticipant(ctx, who, params.external_id),
  }),
  operation({
    method: 'get',
    path: '/v1/participants/{external_id}/export',
    operationId: 'exportParticipant',
    tag: P,
    summary: 'Export everything held about a participant',
    description:
      'The subject-access export (GDPR article 15): the profile (current tier included), ledger, open point ' +
      'lots, pending grants, badges, achievement progress, streaks, tier moves, referrals as advocate or ' +
      'friend, the referral code (null when none was ever made; the export makes none), redemptions (with ' +
      'their codes), events, messages and the webhook deliveries of results that name the participant, ' +
      'in one JSON document, each item in the shape of its own REST read. Each list section holds ' +
      `${EXPORT_SECTION_LIMIT.toLocaleString('en')} items at most (the newest, or the first in its read’s order); ` +
      'a section cut there is listed in `truncated`. An erased participant’s old id is a 404.',
    auth: 'participants:read',
    params: { path: byExternalId },
    success: { status: '200', description: 'The document.', schema: participantExportShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => exportParticipant(ctx, who, params.external_id),
  }),
  operation({
    method: 'get',
    path: '/v1/participants/{external_id}/summary',
    operationId: 'getParticipantSummary',
    tag: P,
    summary: 'A participant’s summary',
    auth: 'participants:read',
    params: { path: byExternalId },
    success: {
      status: '200',
      description: 'Balance, counts, rank and multiplier.',
      schema: participantSummaryShape,
    },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => participantSummary(ctx, who, params.external_id),
  }),
  operation({
    method: 'get',
    path: '/v1/participants/{external_id}/ledger',
    operationId: 'listParticipantLedger',
    tag: P,
    summary: 'A participant’s points ledger',
    description: 'Entries newest first. The balance always equals the sum of the entries.',
    auth: 'participants:read',
    params: { path: byExternalId, query: pageInput },
    success: {
      status: '200',
      description: 'A page of ledger entries.',
      schema: paginated(ledgerEntryShape, 'LedgerEntry'),
    },
    errors: ['not_found'],
    paged: true,
    handle: ({ ctx, who, params, query }) => participantLedger(ctx, who, params.external_id, query),
  }),
  operation({
    method: 'get',
    path: '/v1/participants/{external_id}/badges',
    operationId: 'listParticipantBadges',
    tag: P,
    summary: 'A participant’s badges',
    description: 'Every key+tier held (each at most once), newest award first.',
    auth: 'participants:read',
    params: { path: byExternalId },
    success: {
      status: '200',
      description: 'The badges.',
      schema: z.object({ data: z.array(participantBadgeShape) }),
    },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => participantBadges(ctx, who, params.external_id),
  }),
  operation({
    method: 'post',
    path: '/v1/participants/{external_id}/points',
    operationId: 'adjustPoints',
    tag: P,
    summary: 'Adjust points',
    description:
      'A manual credit or debit, posted as a ledger entry with source `adjustment`. An unknown ' +
      'participant is created. A debit past the balance is 422 `insufficient_points` (with `balance` and ' +
      '`cost_points`). Idempotent (see Idempotency): concurrent duplicates are charged once.',
    auth: 'points:adjust',
    params: { path: byExternalId, header: idempotencyHeader },
    body: { schema: adjustPointsInput },
    success: {
      status: '201',
      description: 'Posted. A replayed idempotency key answers 200 with the original entry instead.',
      schema: ledgerEntryShape,
      headers: { 'Idempotent-Replayed': idempotentReplayedHeader },
    },
    errors: ['idempotency_conflict', 'insufficient_points'],
    otherSuccess: {
      '200': {
        description: 'A retry with the same idempotency key: the original entry, nothing written.',
        schema: ledgerEntryShape,
        headers: { 'Idempotent-Replayed': idempotentReplayedHeader },
      },
    },
    handle: async ({ ctx, who, params, body, req }) => {
      const result = await adjustPoints(ctx, who, params.external_id, body, req.get('idempotency-key'));
      return idempotentReply(result.replayed, result.entry);
    },
  }),
  operation({
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
      path: byExternalId.extend({ entry_id: intId('The ledger entry id (of this participant).') }),
    },
    body: { schema: reverseEntryInput },
    success: { status: '201', description: 'The reversal entry.', schema: ledgerEntryShape },
    errors: ['not_found', 'already_reversed', 'insufficient_points'],
    handle: ({ ctx, who, params, body }) => reverseEntry(ctx, who, params.external_id, params.entry_id, body),
  }),
  operation({
    method: 'post',
    path: '/v1/participants/{external_id}/tokens',
    operationId: 'mintParticipantToken',
    tag: P,
    summary: 'Mint a participant token',
    description:
      'A short-lived token a browser widget may hold instead of an API key: it reads its own ' +
      'participant (balance, summary, badges, ledger), the rewards catalogue, badges and leaderboards ' +
      'over GraphQL, and subscribes to its own live updates. It is bound to the workspace, the mode ' +
      'and the key that minted it: revoking or rotating that key ends it.',
    auth: 'participants:write',
    params: { path: byExternalId },
    body: { schema: mintTokenInput },
    success: { status: '201', description: 'The token, shown once.', schema: participantTokenShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params, body }) => mintParticipantToken(ctx, who, params.external_id, body),
  }),
];
