import { z } from 'zod';
import { uuidId } from '../lib/primitives.ts';
import { referralCodeOf } from '../services/referrals/codes.ts';
import { getReferralProgram, putReferralProgram } from '../services/referrals/program.ts';
import {
  cancelReferral,
  listReferrals,
  listReferralsInput,
  showReferral,
} from '../services/referrals/referrals.ts';
import {
  referralCodeShape,
  referralProgramInput,
  referralProgramShape,
  referralShape,
} from '../services/referrals/shapes.ts';
import { paginated } from './openapi-schemas.ts';
import { type Operation, operation } from './operation.ts';
import { byExternalId } from './participants.ts';

const T = 'Referrals';
const byReferral = z.object({ id: uuidId('The referral id (UUIDv7).') });

/** The referral programme, codes, and the referrals it made (docs/referrals.md). */
export const referralOperations: Operation[] = [
  // Before `/v1/referrals/{id}`, so `program` is not taken for an id.
  operation({
    method: 'get',
    path: '/v1/referrals/program',
    operationId: 'getReferralProgram',
    tag: T,
    summary: 'The referral programme',
    description:
      'The qualifying event type and window, the hold, the friend’s and advocate’s actions, the advocate ' +
      'limit and whether codes attribute (docs/referrals.md#the-programme). None yet: 404.',
    auth: 'key',
    success: { status: '200', description: 'The programme.', schema: referralProgramShape },
    errors: ['not_found'],
    handle: ({ ctx, who }) => getReferralProgram(ctx, who),
  }),
  operation({
    method: 'put',
    path: '/v1/referrals/program',
    operationId: 'putReferralProgram',
    tag: T,
    summary: 'Replace the referral programme',
    description:
      'Replaces it whole: `advocate_limit` left out is none, `active` left out is true. Durations are ISO 8601 ' +
      '(`P30D`, `PT1H`); `hold` may be `PT0S`. A badge an action awards that is not defined yet is created, ' +
      'named after its key, as a flow’s is. The change applies to referrals made and qualified after it ' +
      '(docs/referrals.md#the-programme).',
    auth: 'flows:write',
    body: { schema: referralProgramInput },
    success: { status: '200', description: 'The programme.', schema: referralProgramShape },
    handle: ({ ctx, who, body }) => putReferralProgram(ctx, who, body),
  }),
  operation({
    method: 'get',
    path: '/v1/referrals',
    operationId: 'listReferrals',
    tag: T,
    summary: 'Referrals',
    description:
      'Every referral of the key’s workspace and mode, newest first, by advocate and status: `pending` until ' +
      'the friend qualifies or the window ends (`expired`), `qualified` during the hold, then `rewarded` or, ' +
      'cancelled, `clawed_back`; `blocked` with its `reason` when refused at attribution ' +
      '(docs/referrals.md#reads).',
    auth: 'participants:read',
    params: { query: listReferralsInput },
    success: {
      status: '200',
      description: 'A page of referrals.',
      schema: paginated(referralShape, 'Referral'),
    },
    paged: true,
    handle: ({ ctx, who, query }) => listReferrals(ctx, who, query),
  }),
  operation({
    method: 'get',
    path: '/v1/referrals/{id}',
    operationId: 'getReferral',
    tag: T,
    summary: 'A referral',
    description:
      'Its advocate and friend, status, block reason and the times of each step (docs/referrals.md#reads).',
    auth: 'participants:read',
    params: { path: byReferral },
    success: { status: '200', description: 'The referral.', schema: referralShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => showReferral(ctx, who, params.id),
  }),
  operation({
    method: 'post',
    path: '/v1/referrals/{id}/cancel',
    operationId: 'cancelReferral',
    tag: T,
    summary: 'Claw back a referral during its hold',
    description:
      '`qualified` → `clawed_back`: the advocate’s points still pending are cancelled (they leave ' +
      '`pending_points` and are never credited) and their badges are not awarded; the friend keeps what they ' +
      'got. Any other status is 409 `invalid_state` (docs/referrals.md#hold-and-claw-back).',
    auth: 'points:adjust',
    params: { path: byReferral },
    success: { status: '200', description: 'The referral.', schema: referralShape },
    errors: ['not_found', 'invalid_state'],
    handle: ({ ctx, who, params }) => cancelReferral(ctx, who, params.id),
  }),
  operation({
    method: 'get',
    path: '/v1/participants/{external_id}/referral-code',
    operationId: 'getParticipantReferralCode',
    tag: T,
    summary: 'A participant’s referral code',
    description:
      '`REF-` and 8 characters of an alphabet without look-alikes, unique in the workspace and mode; made on ' +
      'the first read and never changed. A new participant’s first event carrying it in ' +
      '`participant.referral_code` makes a referral (docs/referrals.md#codes).',
    auth: 'participants:read',
    params: { path: byExternalId },
    success: { status: '200', description: 'The code.', schema: referralCodeShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => referralCodeOf(ctx, who, params.external_id),
  }),
];
