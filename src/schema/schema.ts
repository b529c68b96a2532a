import { builder } from './builder.ts';
import './achievements.ts';
import './badge.ts';
import './event.ts';
import './event-batch.ts';
import './event-replay.ts';
import './event-type.ts';
import './export.ts';
import './flow.ts';
import './ingest-endpoint.ts';
import './ingest-event-payload.ts';
import './leaderboard.ts';
import './live.ts';
import './message.ts';
import './participant.ts';
import './program.ts';
import './redemption.ts';
import './referrals.ts';
import './reward.ts';
import './simulation.ts';
import './streaks.ts';
import './tiers.ts';
import './webhook-delivery.ts';
import './webhook-event-type.ts';
import './webhook-recovery.ts';
import './webhook-subscription.ts';

/** The whole GraphQL schema, built without a database (scripts/generate.ts prints it). */
export const schema = builder.toSchema();
