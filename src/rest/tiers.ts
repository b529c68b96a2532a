import { z } from 'zod';
import { pageInput } from '../lib/pagination.ts';
import { setParticipantTier, tierHistory } from '../services/tiers/participant-tier.ts';
import { deleteTiers, getTiers, previewTiers, putTiers } from '../services/tiers/programme.ts';
import {
  participantTierShape,
  setTierInput,
  tierMoveShape,
  tierPreviewShape,
  tierProgrammeShape,
  tierProgrammeViewShape,
} from '../services/tiers/shapes.ts';
import { paginated } from './openapi-schemas.ts';
import { type Operation, operation } from './operation.ts';
import { byExternalId } from './participants.ts';

const T = 'Tiers';

/** The tier programme, its preview, and a participant's history and manual level (docs/tiers.md). */
export const tierOperations: Operation[] = [
  operation({
    method: 'get',
    path: '/v1/tiers',
    operationId: 'getTiers',
    tag: T,
    summary: 'The tier programme',
    description:
      'The levels, the qualification window and the downgrade policy; `null` when no programme runs.',
    auth: 'key',
    success: { status: '200', description: 'The programme, or null.', schema: tierProgrammeViewShape },
    handle: ({ ctx, who }) => getTiers(ctx, who),
  }),
  operation({
    method: 'put',
    path: '/v1/tiers',
    operationId: 'putTiers',
    tag: T,
    summary: 'Replace the tier programme',
    description:
      'Levels are ordered by `threshold`, the first at 0; keys are unique. The tier job then moves every ' +
      'participant up at once to what the new levels support; a level no longer supported is evaluated for a ' +
      'downgrade at its window’s next evaluation. A new window recounts qualifying points from the ledger.',
    auth: 'flows:write',
    body: { schema: tierProgrammeShape },
    success: { status: '200', description: 'The programme.', schema: tierProgrammeShape },
    handle: ({ ctx, who, body }) => putTiers(ctx, who, body),
  }),
  operation({
    method: 'delete',
    path: '/v1/tiers',
    operationId: 'deleteTiers',
    tag: T,
    summary: 'End the tier programme',
    description:
      'The tier job moves every participant off their level (`programme_change`, recorded in their history). ' +
      'No programme runs: 404.',
    auth: 'flows:write',
    success: { status: '200', description: 'Ended.', schema: z.object({ deleted: z.literal(true) }) },
    errors: ['not_found'],
    handle: ({ ctx, who }) => deleteTiers(ctx, who),
  }),
  operation({
    method: 'post',
    path: '/v1/tiers/preview',
    operationId: 'previewTiers',
    tag: T,
    summary: 'Preview a programme change',
    description:
      'Participants per level now and under the proposed programme once applied and evaluated, and the moves ' +
      'between them. Nothing is changed.',
    auth: 'flows:write',
    body: { schema: tierProgrammeShape },
    success: { status: '200', description: 'The counts and moves.', schema: tierPreviewShape },
    handle: ({ ctx, who, body }) => previewTiers(ctx, who, body),
  }),
  operation({
    method: 'get',
    path: '/v1/participants/{external_id}/tier-history',
    operationId: 'listParticipantTierHistory',
    tag: T,
    summary: 'A participant’s tier moves',
    description: 'Every move of their level, newest first, with its reason and qualifying points.',
    auth: 'participants:read',
    params: { path: byExternalId, query: pageInput },
    success: { status: '200', description: 'A page of moves.', schema: paginated(tierMoveShape, 'TierMove') },
    errors: ['not_found'],
    paged: true,
    handle: ({ ctx, who, params, query }) => tierHistory(ctx, who, params.external_id, query),
  }),
  operation({
    method: 'put',
    path: '/v1/participants/{external_id}/tier',
    operationId: 'setParticipantTier',
    tag: T,
    summary: 'Set a participant’s level by hand',
    description:
      'Recorded in their history as `manual` with the note in `reason`; the downgrade rules then apply to it as ' +
      'to any level. A key the programme does not have: 422.',
    auth: 'points:adjust',
    params: { path: byExternalId },
    body: { schema: setTierInput },
    success: { status: '200', description: 'The participant’s tier.', schema: participantTierShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params, body }) => setParticipantTier(ctx, who, params.external_id, body),
  }),
];
