import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { cancelRedemption, fulfilRedemption } from '../services/rewards/change-redemption.ts';
import { generateCodes } from '../services/rewards/generate-codes.ts';
import { importCodes } from '../services/rewards/import-codes.ts';
import { getRedemption, listRedemptions } from '../services/rewards/list-redemptions.ts';
import { getReward, listParticipantRewards, listRewards } from '../services/rewards/list-rewards.ts';
import { redeemReward } from '../services/rewards/redeem-reward.ts';
import { archiveReward, createReward, updateReward } from '../services/rewards/save-reward.ts';
import { testFulfilment } from '../services/rewards/test-fulfilment.ts';
import { presentPage, principal, requireKey, route } from './http.ts';

/** Body → the import service's input: JSON `{ codes }`, or a text/plain or text/csv body. */
function codesInput(contentType: string | undefined, body: unknown): unknown {
  if (typeof body === 'string')
    return { text: body, format: /^text\/csv/i.test(contentType ?? '') ? 'csv' : 'text' };
  return body ?? {};
}

/** SPEC 4.1, CONTRACT 8: the catalogue, reward management, code pools and redemptions. */
export function rewardsRouter(ctx: AppContext): Router {
  const r = Router();
  const anyKey = requireKey(ctx);
  const manage = requireKey(ctx, 'rewards:write');

  // First: the hot route, matched before the catalogue's (express tries routes in order).
  r.post(
    '/redemptions',
    requireKey(ctx, 'redemptions:write'),
    route(async (req, res) => {
      const result = await redeemReward(ctx, principal(req), req.body ?? {}, req.get('idempotency-key'));
      if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.status(result.replayed ? 200 : 201).json(result.redemption);
    }),
  );

  r.get(
    '/rewards',
    anyKey,
    route(async (req, res) => res.json({ data: await listRewards(ctx, principal(req), req.query) })),
  );
  r.post(
    '/rewards',
    manage,
    route(async (req, res) => res.status(201).json(await createReward(ctx, principal(req), req.body ?? {}))),
  );
  r.get(
    '/rewards/:id',
    anyKey,
    route(async (req, res) => res.json(await getReward(ctx, principal(req), String(req.params.id)))),
  );
  r.patch(
    '/rewards/:id',
    manage,
    route(async (req, res) =>
      res.json(await updateReward(ctx, principal(req), String(req.params.id), req.body ?? {})),
    ),
  );
  r.delete(
    '/rewards/:id',
    manage,
    route(async (req, res) => res.json(await archiveReward(ctx, principal(req), String(req.params.id)))),
  );
  r.post(
    '/rewards/:id/codes',
    manage,
    route(async (req, res) =>
      res.json(
        await importCodes(
          ctx,
          principal(req),
          String(req.params.id),
          codesInput(req.get('content-type'), req.body),
        ),
      ),
    ),
  );
  r.post(
    '/rewards/:id/codes/generate',
    manage,
    route(async (req, res) =>
      res.json(await generateCodes(ctx, principal(req), String(req.params.id), req.body ?? {})),
    ),
  );
  r.post(
    '/rewards/:id/test-fulfilment',
    manage,
    route(async (req, res) =>
      res.json(await testFulfilment(ctx, principal(req), String(req.params.id), req.body ?? {})),
    ),
  );
  r.get(
    '/participants/:external_id/rewards',
    anyKey,
    route(async (req, res) =>
      res.json(await listParticipantRewards(ctx, principal(req), String(req.params.external_id))),
    ),
  );

  r.get(
    '/redemptions',
    requireKey(ctx, 'participants:read'),
    route(async (req, res) => {
      const page = await listRedemptions(ctx, principal(req), req.query);
      const { participant, status, reward_id } = req.query;
      res.json(presentPage(req, page, { participant, status, reward_id }));
    }),
  );
  r.get(
    '/redemptions/:id',
    requireKey(ctx, 'participants:read'),
    route(async (req, res) => res.json(await getRedemption(ctx, principal(req), String(req.params.id)))),
  );
  r.post(
    '/redemptions/:id/fulfil',
    manage,
    route(async (req, res) => res.json(await fulfilRedemption(ctx, principal(req), String(req.params.id)))),
  );
  r.post(
    '/redemptions/:id/cancel',
    manage,
    route(async (req, res) => res.json(await cancelRedemption(ctx, principal(req), String(req.params.id)))),
  );
  return r;
}
