import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { adjustPoints } from '../services/participants/adjust-points.ts';
import { eraseParticipant } from '../services/participants/erase-participant.ts';
import { listParticipants } from '../services/participants/list-participants.ts';
import { participantBadges } from '../services/participants/participant-badges.ts';
import { participantLedger } from '../services/participants/participant-ledger.ts';
import { participantSummary } from '../services/participants/participant-summary.ts';
import { reverseEntry } from '../services/participants/reverse-entry.ts';
import { showParticipant } from '../services/participants/show-participant.ts';
import { updateParticipant } from '../services/participants/update-participant.ts';
import { presentPage, principal, requireKey, route } from './http.ts';

/** CONTRACT 7: participants, their ledger and badges, point adjustments and reversals, erasure. */
export function participantsRouter(ctx: AppContext): Router {
  const r = Router();
  const read = requireKey(ctx, 'participants:read');
  const id = (p: unknown) => String(p);

  r.get(
    '/participants',
    read,
    route(async (req, res) => {
      const page = await listParticipants(ctx, principal(req), req.query);
      res.json(presentPage(req, page, { search: req.query.search }));
    }),
  );

  r.get(
    '/participants/:external_id',
    read,
    route(async (req, res) => {
      res.json(await showParticipant(ctx, principal(req), id(req.params.external_id)));
    }),
  );

  r.patch(
    '/participants/:external_id',
    requireKey(ctx, 'participants:write'),
    route(async (req, res) => {
      res.json(await updateParticipant(ctx, principal(req), id(req.params.external_id), req.body ?? {}));
    }),
  );

  r.delete(
    '/participants/:external_id',
    requireKey(ctx, 'participants:erase'),
    route(async (req, res) => {
      res.json(await eraseParticipant(ctx, principal(req), id(req.params.external_id)));
    }),
  );

  r.get(
    '/participants/:external_id/summary',
    read,
    route(async (req, res) => {
      res.json(await participantSummary(ctx, principal(req), id(req.params.external_id)));
    }),
  );

  r.get(
    '/participants/:external_id/ledger',
    read,
    route(async (req, res) => {
      const page = await participantLedger(ctx, principal(req), id(req.params.external_id), req.query);
      res.json(presentPage(req, page));
    }),
  );

  r.get(
    '/participants/:external_id/badges',
    read,
    route(async (req, res) => {
      res.json(await participantBadges(ctx, principal(req), id(req.params.external_id)));
    }),
  );

  r.post(
    '/participants/:external_id/points',
    requireKey(ctx, 'points:adjust'),
    route(async (req, res) => {
      const result = await adjustPoints(
        ctx,
        principal(req),
        id(req.params.external_id),
        req.body ?? {},
        req.get('idempotency-key'),
      );
      if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.status(result.replayed ? 200 : 201).json(result.entry);
    }),
  );

  r.post(
    '/participants/:external_id/ledger/:entry_id/reversal',
    requireKey(ctx, 'points:adjust'),
    route(async (req, res) => {
      const entry = await reverseEntry(
        ctx,
        principal(req),
        id(req.params.external_id),
        id(req.params.entry_id),
        req.body ?? {},
      );
      res.status(201).json(entry);
    }),
  );

  return r;
}
