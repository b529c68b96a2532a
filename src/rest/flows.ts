import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { defineBadge, listBadges } from '../services/badges/manage-badges.ts';
import { getFlowRun, listFlowRuns } from '../services/flows/list-flow-runs.ts';
import { createFlow, deleteFlow, getFlow, listFlows, updateFlow } from '../services/flows/manage-flows.ts';
import { presentPage, principal, requireKey, route } from './http.ts';

/** CONTRACT 9 flows and flow runs, CONTRACT 7 badge catalogue. */
export function flowsRouter(ctx: AppContext): Router {
  const r = Router();
  const read = requireKey(ctx, 'flows:read');
  const write = requireKey(ctx, 'flows:write');

  r.get(
    '/flows',
    read,
    route(async (req, res) => {
      const { event_type, active } = req.query;
      res.json(presentPage(req, await listFlows(ctx, principal(req), req.query), { event_type, active }));
    }),
  );
  r.post(
    '/flows',
    write,
    route(async (req, res) => {
      res.status(201).json(await createFlow(ctx, principal(req), req.body ?? {}));
    }),
  );
  r.get(
    '/flows/:id',
    read,
    route(async (req, res) => {
      res.json(await getFlow(ctx, principal(req), String(req.params.id)));
    }),
  );
  r.patch(
    '/flows/:id',
    write,
    route(async (req, res) => {
      res.json(await updateFlow(ctx, principal(req), String(req.params.id), req.body ?? {}));
    }),
  );
  r.delete(
    '/flows/:id',
    write,
    route(async (req, res) => {
      res.json(await deleteFlow(ctx, principal(req), String(req.params.id)));
    }),
  );

  r.get(
    '/flow-runs',
    read,
    route(async (req, res) => {
      const { flow_id, participant, event_id, status } = req.query;
      res.json(
        presentPage(req, await listFlowRuns(ctx, principal(req), req.query), {
          flow_id,
          participant,
          event_id,
          status,
        }),
      );
    }),
  );
  r.get(
    '/flow-runs/:id',
    read,
    route(async (req, res) => {
      res.json(await getFlowRun(ctx, principal(req), String(req.params.id)));
    }),
  );

  // Any valid key reads the catalogue (CONTRACT 7); defining a badge needs flows:write.
  r.get(
    '/badges',
    requireKey(ctx),
    route(async (req, res) => {
      res.json({ data: await listBadges(ctx, principal(req)) });
    }),
  );
  r.post(
    '/badges',
    write,
    route(async (req, res) => {
      const { badge, created } = await defineBadge(ctx, principal(req), req.body ?? {});
      res.status(created ? 201 : 200).json(badge);
    }),
  );
  return r;
}
