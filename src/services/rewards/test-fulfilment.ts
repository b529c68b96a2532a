import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { validationError } from '../../errors.ts';
import { storableJson } from '../../lib/primitives.ts';
import type { Principal } from '../keys/principal.ts';
import { callExternal } from './external-fulfilment.ts';
import { readReward } from './repository.ts';
import { parseConfig } from './reward-input.ts';
import type { FulfilmentCall } from './shapes.ts';

export const testFulfilmentInput = z.strictObject({
  config: storableJson(z.record(z.string(), z.unknown())).optional().meta({
    description: 'An unsaved external config to try instead of the saved one (the edit page’s current form).',
  }),
});
export type TestFulfilmentInput = z.output<typeof testFulfilmentInput>;

/** The sample participant whose values fill the tokens of a test call. */
export const SAMPLE_PARTICIPANT = {
  external_id: 'test-participant',
  email: 'test-participant@example.com',
  name: 'Test Participant',
};

/**
 * Fires the external reward's live request through the egress guard with a sample participant
 * and a fresh `test_…` reference. Nothing is debited or stored.
 */
export async function testFulfilment(
  ctx: AppContext,
  who: Principal,
  rewardId: string | number,
  q: TestFulfilmentInput = {},
): Promise<FulfilmentCall> {
  const reward = await readReward(ctx, who, rewardId);
  if (reward.type !== 'external')
    throw validationError([{ field: 'type', message: `a ${reward.type} reward has no fulfilment endpoint` }]);
  const config = q.config === undefined ? reward.config : parseConfig('external', q.config);
  return callExternal(ctx, config, {
    'participant.external_id': SAMPLE_PARTICIPANT.external_id,
    'participant.email': SAMPLE_PARTICIPANT.email,
    'participant.name': SAMPLE_PARTICIPANT.name,
    'reward.name': reward.name,
    reference: `test_${randomUUID()}`,
  });
}
