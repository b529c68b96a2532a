import { z } from 'zod';
import { cancelRedemption, fulfilRedemption } from '../services/rewards/change-redemption.ts';
import { generateCodes, generateCodesInput } from '../services/rewards/generate-codes.ts';
import { importCodes, importCodesInput, importCodesTextInput } from '../services/rewards/import-codes.ts';
import {
  getRedemption,
  listRedemptions,
  listRedemptionsInput,
} from '../services/rewards/list-redemptions.ts';
import { catalogueInput, getReward, listRewards } from '../services/rewards/list-rewards.ts';
import { createRewardInput, updateRewardInput } from '../services/rewards/reward-input.ts';
import { archiveReward, createReward, updateReward } from '../services/rewards/save-reward.ts';
import { testFulfilment, testFulfilmentInput } from '../services/rewards/test-fulfilment.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

const id = { id: z.int().positive() };
const idInput = z.strictObject(id);

/**
 * The dashboard's rewards pages: editing, code import (pasted or a CSV/TXT file read in the
 * browser; larger files are sent in chunks under MAX_BODY_BYTES), batch generation, the test
 * fulfilment button, and the redemptions list with fulfil/cancel for physical rewards.
 */
export const rewardsRouter = router({
  list: sessionProcedure
    .input(withMode(catalogueInput))
    .query(({ ctx, input: { mode, ...input } }) => listRewards(ctx.app, ctx.as(mode), input)),
  get: sessionProcedure
    .input(withMode(idInput))
    .query(({ ctx, input: { mode, id } }) => getReward(ctx.app, ctx.as(mode), id)),
  create: sessionProcedure
    .input(withMode(createRewardInput))
    .mutation(({ ctx, input: { mode, ...input } }) => createReward(ctx.app, ctx.as(mode), input)),
  update: sessionProcedure
    .input(withMode(updateRewardInput.extend(id)))
    .mutation(({ ctx, input: { mode, id, ...input } }) => updateReward(ctx.app, ctx.as(mode), id, input)),
  archive: sessionProcedure
    .input(withMode(idInput))
    .mutation(({ ctx, input: { mode, id } }) => archiveReward(ctx.app, ctx.as(mode), id)),
  importCodes: sessionProcedure
    .input(withMode(importCodesInput.extend(id)))
    .mutation(({ ctx, input: { mode, id, ...input } }) => importCodes(ctx.app, ctx.as(mode), id, input)),
  importCodesText: sessionProcedure
    .input(withMode(importCodesTextInput.extend(id)))
    .mutation(({ ctx, input: { mode, id, ...input } }) => importCodes(ctx.app, ctx.as(mode), id, input)),
  generateCodes: sessionProcedure
    .input(withMode(generateCodesInput.extend(id)))
    .mutation(({ ctx, input: { mode, id, ...input } }) => generateCodes(ctx.app, ctx.as(mode), id, input)),
  testFulfilment: sessionProcedure
    .input(withMode(testFulfilmentInput.extend(id)))
    .mutation(({ ctx, input: { mode, id, ...input } }) => testFulfilment(ctx.app, ctx.as(mode), id, input)),
  redemptions: router({
    list: sessionProcedure
      .input(withMode(listRedemptionsInput))
      .query(({ ctx, input: { mode, ...input } }) => listRedemptions(ctx.app, ctx.as(mode), input)),
    get: sessionProcedure
      .input(withMode(idInput))
      .query(({ ctx, input: { mode, id } }) => getRedemption(ctx.app, ctx.as(mode), id)),
    fulfil: sessionProcedure
      .input(withMode(idInput))
      .mutation(({ ctx, input: { mode, id } }) => fulfilRedemption(ctx.app, ctx.as(mode), id)),
    cancel: sessionProcedure
      .input(withMode(idInput))
      .mutation(({ ctx, input: { mode, id } }) => cancelRedemption(ctx.app, ctx.as(mode), id)),
  }),
});
