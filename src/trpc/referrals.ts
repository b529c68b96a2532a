import { z } from 'zod';
import { DomainError } from '../errors.ts';
import { referralCodeOf } from '../services/referrals/codes.ts';
import { getReferralProgram, putReferralProgram } from '../services/referrals/program.ts';
import {
  cancelReferral,
  listReferrals,
  listReferralsInput,
  showReferral,
} from '../services/referrals/referrals.ts';
import { referralProgramInput } from '../services/referrals/shapes.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

const externalId = { externalId: z.string().min(1).max(255) };
// Any text: the service answers a malformed id as it answers an unknown one (404).
const byId = z.strictObject({ id: z.string().min(1).max(64) });

/**
 * The dashboard's Referrals page (the programme, the referrals with their cancel) and a
 * participant's code and referrals as advocate.
 */
export const referralsRouter = router({
  program: router({
    /** The programme of this mode, or null before the first save (the page then offers to set one up). */
    get: sessionProcedure.input(withMode(z.strictObject({}))).query(({ ctx, input }) =>
      getReferralProgram(ctx.app, ctx.as(input.mode)).catch((error: unknown) => {
        if (error instanceof DomainError && error.type === 'not_found') return null;
        throw error;
      }),
    ),
    /** Replaces the programme whole, as `PUT /v1/referrals/program` does. */
    put: sessionProcedure
      .input(withMode(referralProgramInput))
      .mutation(({ ctx, input: { mode, ...body } }) => putReferralProgram(ctx.app, ctx.as(mode), body)),
  }),
  /** Newest first, by `status` and `advocate` (an external id), paged as `GET /v1/referrals`. */
  list: sessionProcedure
    .input(withMode(listReferralsInput))
    .query(({ ctx, input: { mode, ...q } }) => listReferrals(ctx.app, ctx.as(mode), q)),
  get: sessionProcedure
    .input(withMode(byId))
    .query(({ ctx, input }) => showReferral(ctx.app, ctx.as(input.mode), input.id)),
  /** A `qualified` referral's advocate loses their pending points (`clawed_back`); any other status is refused. */
  cancel: sessionProcedure
    .input(withMode(byId))
    .mutation(({ ctx, input }) => cancelReferral(ctx.app, ctx.as(input.mode), input.id)),
  /** A participant's code, made on the first read as `GET /v1/participants/{external_id}/referral-code` makes it. */
  code: sessionProcedure
    .input(withMode(z.strictObject(externalId)))
    .query(({ ctx, input }) => referralCodeOf(ctx.app, ctx.as(input.mode), input.externalId)),
});
