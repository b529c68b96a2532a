import { simulateInput, simulationShape } from '../services/simulate/shapes.ts';
import { simulateEvent } from '../services/simulate/simulate-event.ts';
import { type Operation, operation } from './operation.ts';

/** `POST /v1/events/simulate` (docs/api.md#simulation). */
export const simulateOperations: Operation[] = [
  operation({
    method: 'post',
    path: '/v1/events/simulate',
    operationId: 'simulateEvent',
    tag: 'Events',
    summary: 'Simulate an event',
    description:
      'What the event would do now — the flows that would run and each action’s points (after multipliers ' +
      'and caps, or held pending), badges and messages, the streaks, the level and the balance after it — ' +
      'evaluated by the engine itself in a transaction that is rolled back: nothing is stored, sent or ' +
      'created (not even an unknown participant). With `flow`, an unsaved flow runs after the saved ones. ' +
      'An event `POST /v1/events` would quarantine is a 422 naming the field.',
    auth: 'events:write',
    body: { schema: simulateInput },
    success: { status: '200', description: 'The simulation.', schema: simulationShape },
    handle: ({ ctx, who, body }) => simulateEvent(ctx, who, body),
  }),
];
