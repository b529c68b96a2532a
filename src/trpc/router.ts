import { achievementsRouter } from './achievements.ts';
import { authRouter } from './auth.ts';
import { eventTypesRouter } from './event-types.ts';
import { eventsRouter } from './events.ts';
import { exportsRouter } from './exports.ts';
import { flowsRouter } from './flows.ts';
import { ingestEndpointsRouter } from './ingest-endpoints.ts';
import { keysRouter } from './keys.ts';
import { messagesRouter } from './messages.ts';
import { overviewRouter } from './overview.ts';
import { leaderboardsRouter, participantsRouter } from './participants.ts';
import { pointsRouter } from './points.ts';
import { referralsRouter } from './referrals.ts';
import { rewardsRouter } from './rewards.ts';
import { streaksRouter } from './streaks.ts';
import { tiersRouter } from './tiers.ts';
import { router } from './trpc.ts';
import { usersRouter } from './users.ts';
import { webhooksRouter } from './webhooks.ts';

/** The dashboard's API. */
export const appRouter = router({
  auth: authRouter,
  events: eventsRouter,
  eventTypes: eventTypesRouter,
  flows: flowsRouter,
  ingestEndpoints: ingestEndpointsRouter,
  messages: messagesRouter,
  participants: participantsRouter,
  points: pointsRouter,
  tiers: tiersRouter,
  streaks: streaksRouter,
  achievements: achievementsRouter,
  referrals: referralsRouter,
  leaderboards: leaderboardsRouter,
  webhooks: webhooksRouter,
  rewards: rewardsRouter,
  overview: overviewRouter,
  keys: keysRouter,
  users: usersRouter,
  exports: exportsRouter,
});

/** For the dashboard's typed client (`createTRPCClient<AppRouter>`). */
export type AppRouter = typeof appRouter;
