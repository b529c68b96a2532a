import { z } from 'zod';
import { pageInput } from '../lib/pagination.ts';
import { listPendingGrants, settlePendingGrant } from '../services/points/pending-points.ts';
import { participantPoints } from '../services/points/points-view.ts';
import { getProgram, updateProgram } from '../services/points/program.ts';
import {
  pendingGrantShape,
  pointsViewShape,
  programShape,
  updateProgramInput,
} from '../services/points/shapes.ts';
import { paginated } from './openapi-schemas.ts';
import { type Operation, operation } from './operation.ts';
import { byExternalId } from './participants.ts';

const byGrant = z.object({
  id: z.string().max(64).meta({ description: 'The pending grant’s id (UUIDv7).' }),
});

const P = 'Points lifecycle';

/** Programme settings, a participant's lots and pending points (docs/points.md). */
export const pointsOperations: Operation[] = [
  operation({
    method: 'get',
    path: '/v1/program',
    operationId: 'getProgram',
    tag: P,
    summary: 'Programme settings',
    description:
      'Time zone, points expiry, expiry notice, pending period and earning caps of the key’s workspace and mode ' +
      '(the defaults until changed).',
    auth: 'key',
    success: { status: '200', description: 'The programme settings.', schema: programShape },
    handle: ({ ctx, who }) => getProgram(ctx, who),
  }),
  operation({
    method: 'patch',
    path: '/v1/program',
    operationId: 'updateProgram',
    tag: P,
    summary: 'Change programme settings',
    description:
      'Replaces the given fields (`null` clears `points_expiry` or `pending_for`). Durations are ISO 8601 ' +
      '(`P12M`, `P30D`, `PT30S`). A change applies to credits and awards made after it; open lots keep their ' +
      'expiry.',
    auth: 'flows:write',
    body: { schema: updateProgramInput },
    success: { status: '200', description: 'The programme settings after the change.', schema: programShape },
    handle: ({ ctx, who, body }) => updateProgram(ctx, who, body),
  }),
  operation({
    method: 'get',
    path: '/v1/participants/{external_id}/points',
    operationId: 'getParticipantPoints',
    tag: P,
    summary: 'A participant’s open lots',
    description:
      'The balance, pending points, every open lot in the order debits consume them (soonest expiry first, ' +
      'never-expiring last, oldest first on ties), and open points grouped by expiry instant (the next 12). ' +
      'The balance always equals the sum of the lots’ `remaining`.',
    auth: 'participants:read',
    params: { path: byExternalId },
    success: { status: '200', description: 'The participant’s points.', schema: pointsViewShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => participantPoints(ctx, who, params.external_id),
  }),
  operation({
    method: 'get',
    path: '/v1/participants/{external_id}/pending-points',
    operationId: 'listParticipantPendingPoints',
    tag: P,
    summary: 'A participant’s pending grants',
    description:
      'Flow awards waiting for `available_at`, and those already activated or cancelled; newest first.',
    auth: 'participants:read',
    params: { path: byExternalId, query: pageInput },
    success: {
      status: '200',
      description: 'A page of pending grants.',
      schema: paginated(pendingGrantShape, 'PendingGrant'),
    },
    errors: ['not_found'],
    paged: true,
    handle: ({ ctx, who, params, query }) => listPendingGrants(ctx, who, params.external_id, query),
  }),
  operation({
    method: 'post',
    path: '/v1/pending-points/{id}/activate',
    operationId: 'activatePendingPoints',
    tag: P,
    summary: 'Activate a pending grant now',
    description:
      '`pending` → `activated`: the points are credited now (their expiry counted from now). Any other move is ' +
      '409 `invalid_state`.',
    auth: 'points:adjust',
    params: { path: byGrant },
    success: { status: '200', description: 'The grant.', schema: pendingGrantShape },
    errors: ['not_found', 'invalid_state'],
    handle: ({ ctx, who, params }) => settlePendingGrant(ctx, who, params.id, 'activated'),
  }),
  operation({
    method: 'post',
    path: '/v1/pending-points/{id}/cancel',
    operationId: 'cancelPendingPoints',
    tag: P,
    summary: 'Cancel a pending grant',
    description:
      '`pending` → `cancelled`: the points are never credited (a returned order). Any other move is 409 ' +
      '`invalid_state`.',
    auth: 'points:adjust',
    params: { path: byGrant },
    success: { status: '200', description: 'The grant.', schema: pendingGrantShape },
    errors: ['not_found', 'invalid_state'],
    handle: ({ ctx, who, params }) => settlePendingGrant(ctx, who, params.id, 'cancelled'),
  }),
];
