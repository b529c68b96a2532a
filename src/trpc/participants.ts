import { z } from 'zod';
import { createLeaderboard, createLeaderboardInput } from '../services/leaderboards/create-leaderboard.ts';
import { listLeaderboards } from '../services/leaderboards/list-leaderboards.ts';
import {
  leaderboardTop,
  leaderboardTopInput,
  participantStanding,
} from '../services/leaderboards/read-leaderboard.ts';
import { adjustPoints, adjustPointsInput } from '../services/participants/adjust-points.ts';
import { eraseParticipant } from '../services/participants/erase-participant.ts';
import { exportParticipant } from '../services/participants/export-participant.ts';
import { listParticipants, listParticipantsInput } from '../services/participants/list-participants.ts';
import { participantBadges } from '../services/participants/participant-badges.ts';
import { participantLedger, participantLedgerInput } from '../services/participants/participant-ledger.ts';
import { participantSummary } from '../services/participants/participant-summary.ts';
import { reverseEntry, reverseEntryInput } from '../services/participants/reverse-entry.ts';
import { showParticipant } from '../services/participants/show-participant.ts';
import { updateParticipant, updateParticipantInput } from '../services/participants/update-participant.ts';
import { listRedemptions, listRedemptionsInput } from '../services/rewards/list-redemptions.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

const externalId = { externalId: z.string().min(1).max(255) };
const byExternalId = z.strictObject(externalId);

/** The dashboard's participants page: search, show, ledger, badges, adjust, reverse. */
export const participantsRouter = router({
  list: sessionProcedure
    .input(withMode(listParticipantsInput))
    .query(({ ctx, input: { mode, ...input } }) => listParticipants(ctx.app, ctx.as(mode), input)),
  get: sessionProcedure
    .input(withMode(byExternalId))
    .query(({ ctx, input }) => showParticipant(ctx.app, ctx.as(input.mode), input.externalId)),
  summary: sessionProcedure
    .input(withMode(byExternalId))
    .query(({ ctx, input }) => participantSummary(ctx.app, ctx.as(input.mode), input.externalId)),
  ledger: sessionProcedure
    .input(withMode(participantLedgerInput.extend(externalId)))
    .query(({ ctx, input: { mode, externalId: id, ...page } }) =>
      participantLedger(ctx.app, ctx.as(mode), id, page),
    ),
  badges: sessionProcedure
    .input(withMode(byExternalId))
    .query(({ ctx, input }) => participantBadges(ctx.app, ctx.as(input.mode), input.externalId)),
  /** The subject-access export: everything held about one participant, as one document. */
  export: sessionProcedure
    .input(withMode(byExternalId))
    .query(({ ctx, input }) => exportParticipant(ctx.app, ctx.as(input.mode), input.externalId)),
  update: sessionProcedure
    .input(withMode(updateParticipantInput.extend(externalId)))
    .mutation(({ ctx, input: { mode, externalId: id, ...patch } }) =>
      updateParticipant(ctx.app, ctx.as(mode), id, patch),
    ),
  adjust: sessionProcedure
    .input(withMode(adjustPointsInput.extend(externalId)))
    .mutation(({ ctx, input: { mode, externalId: id, ...body } }) =>
      adjustPoints(ctx.app, ctx.as(mode), id, body),
    ),
  reverse: sessionProcedure
    .input(withMode(reverseEntryInput.extend({ ...externalId, entryId: z.coerce.string().min(1).max(20) })))
    .mutation(({ ctx, input: { mode, externalId: id, entryId, ...body } }) =>
      reverseEntry(ctx.app, ctx.as(mode), id, entryId, body),
    ),
  redemptions: sessionProcedure
    .input(withMode(listRedemptionsInput.omit({ participant: true }).extend(externalId)))
    .query(({ ctx, input: { mode, externalId: id, ...q } }) =>
      listRedemptions(ctx.app, ctx.as(mode), { ...q, participant: id }),
    ),
  erase: sessionProcedure
    .input(withMode(byExternalId))
    .mutation(({ ctx, input }) => eraseParticipant(ctx.app, ctx.as(input.mode), input.externalId)),
});

/** Leaderboards for the dashboard: list, define, top places, one participant's standing. */
export const leaderboardsRouter = router({
  list: sessionProcedure
    .input(withMode(z.strictObject({})))
    .query(({ ctx, input }) => listLeaderboards(ctx.app, ctx.as(input.mode))),
  create: sessionProcedure
    .input(withMode(createLeaderboardInput))
    .mutation(({ ctx, input: { mode, ...body } }) => createLeaderboard(ctx.app, ctx.as(mode), body)),
  top: sessionProcedure
    .input(withMode(leaderboardTopInput.extend({ key: z.string().min(1).max(64) })))
    .query(({ ctx, input: { mode, key, ...q } }) => leaderboardTop(ctx.app, ctx.as(mode), key, q)),
  standing: sessionProcedure
    .input(withMode(z.strictObject({ key: z.string().min(1).max(64), ...externalId })))
    .query(({ ctx, input }) => participantStanding(ctx.app, ctx.as(input.mode), input.key, input.externalId)),
});
