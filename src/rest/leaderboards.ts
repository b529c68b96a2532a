import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { createLeaderboard } from '../services/leaderboards/create-leaderboard.ts';
import { listLeaderboards } from '../services/leaderboards/list-leaderboards.ts';
import { leaderboardTop, participantStanding } from '../services/leaderboards/read-leaderboard.ts';
import { principal, requireKey, route } from './http.ts';

/** CONTRACT 7: leaderboards (reads need any key, SPEC 5.2; defining one needs flows:write). */
export function leaderboardsRouter(ctx: AppContext): Router {
  const r = Router();
  const anyKey = requireKey(ctx);

  r.get(
    '/leaderboards',
    anyKey,
    route(async (req, res) => {
      res.json(await listLeaderboards(ctx, principal(req)));
    }),
  );

  r.post(
    '/leaderboards',
    requireKey(ctx, 'flows:write'),
    route(async (req, res) => {
      res.status(201).json(await createLeaderboard(ctx, principal(req), req.body ?? {}));
    }),
  );

  r.get(
    '/leaderboards/:key',
    anyKey,
    route(async (req, res) => {
      res.json(await leaderboardTop(ctx, principal(req), String(req.params.key), req.query));
    }),
  );

  r.get(
    '/leaderboards/:key/participants/:external_id',
    anyKey,
    route(async (req, res) => {
      res.json(
        await participantStanding(
          ctx,
          principal(req),
          String(req.params.key),
          String(req.params.external_id),
        ),
      );
    }),
  );

  return r;
}
