/**
 * The README's example, runnable: `SVC_URL=http://localhost:3000 SVC_API_KEY=svc_test_… node
 * clients/typescript/example.ts` (a sandbox key: it writes a participant, points, a reward and a
 * redemption). test/typed-client.test.ts runs `main` against a started service (twice: a rerun
 * changes nothing), so the example in the README is proven on every CI run.
 */
import { createSvcClient, ok, type Schema, type SvcClientOptions, sendEvent } from './index.ts';

export interface ExampleResult {
  eventId: string;
  participant: Schema<'Participant'>;
  redemption: Schema<'Redemption'>;
  refusal: { type: string; balance: number; cost_points: number };
  deliveries: Schema<'WebhookDelivery'>[];
}

export async function main({
  externalId = 'alice',
  ...options
}: SvcClientOptions & { externalId?: string }): Promise<ExampleResult> {
  const svc = createSvcClient(options);

  // Send an event: 202 once it is stored; flows, points and badges follow. The key makes a retry safe.
  const accepted = await sendEvent(
    svc,
    { event_type: 'signup', participant: { external_id: externalId, email: `${externalId}@example.com` } },
    `signup-${externalId}`,
  );

  // Credit points by hand (an unknown participant is created), then read the participant back.
  await ok(
    svc.POST('/v1/participants/{external_id}/points', {
      params: { path: { external_id: externalId } },
      body: { points: 500, reason: 'welcome bonus', idempotency_key: `welcome-${externalId}` },
    }),
  );
  const participant = await ok(
    svc.GET('/v1/participants/{external_id}', { params: { path: { external_id: externalId } } }),
  );
  console.log(`${participant.external_id} has ${participant.balance} points`);

  // A reward from the catalogue (made on the first run), redeemed once per participant.
  const { data: catalogue } = await ok(svc.GET('/v1/rewards'));
  const tote =
    catalogue.find((r) => r.name === 'Tote bag') ??
    (await ok(svc.POST('/v1/rewards', { body: { name: 'Tote bag', type: 'physical', cost_points: 300 } })));
  const redemption = await ok(
    svc.POST('/v1/redemptions', {
      body: { participant: externalId, reward_id: tote.id, idempotency_key: `tote-${externalId}` },
    }),
  );
  console.log(`redemption ${redemption.id} is ${redemption.status}`);

  // An error is typed by its status: a 422 here is insufficient_points (with the balance) or a validation error.
  const again = await svc.POST('/v1/redemptions', {
    body: { participant: externalId, reward_id: tote.id, idempotency_key: `tote-again-${externalId}` },
  });
  if (again.response.status !== 422 || again.error?.error.type !== 'insufficient_points')
    throw new Error(`expected insufficient_points, got ${again.response.status}`);
  const { type, balance, cost_points } = again.error.error;
  console.log(`refused: ${type} (balance ${balance}, cost ${cost_points})`);

  // The webhook deliveries of reward.redeemed results, newest first (follow links.next for more).
  const page = await ok(
    svc.GET('/v1/webhook-deliveries', { params: { query: { type: 'reward.redeemed' } } }),
  );
  for (const d of page.data) console.log(`delivery ${d.id}: ${d.status} after ${d.attempt_count} attempts`);

  return {
    eventId: accepted.event_id,
    participant,
    redemption,
    refusal: { type, balance, cost_points },
    deliveries: page.data,
  };
}

if (import.meta.main) {
  const { SVC_URL, SVC_API_KEY } = process.env;
  if (!SVC_URL || !SVC_API_KEY) throw new Error('set SVC_URL and SVC_API_KEY (a svc_test_… key)');
  await main({ baseUrl: SVC_URL, apiKey: SVC_API_KEY });
}
