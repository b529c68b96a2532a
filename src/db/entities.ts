import { Badge, ParticipantBadge } from '../services/badges/entities.ts';
import { Event, EventType, EventTypeCount, IngestEndpoint } from '../services/events/entities.ts';
import { Export, ExportChunk } from '../services/exports/entities.ts';
import { Flow, FlowRun, ParticipantEventCount } from '../services/flows/entities.ts';
import {
  Leaderboard,
  LeaderboardCount,
  LeaderboardCountDelta,
  LeaderboardScore,
} from '../services/leaderboards/entities.ts';
import { LedgerEntry } from '../services/ledger/entities.ts';
import { LiveWatch } from '../services/live/entities.ts';
import { Message, MessageTemplate } from '../services/messages/entities.ts';
import { OutboxEvent } from '../services/outbox/entities.ts';
import { DailyStat, DailyStatWatermark } from '../services/overview/entities.ts';
import { Participant } from '../services/participants/entities.ts';
import { ParticipantMultiplier, Redemption, Reward, RewardCode } from '../services/rewards/entities.ts';
import { WebhookAttempt, WebhookDelivery, WebhookSubscription } from '../services/webhooks/entities.ts';
import { ApiKey, DashboardSession, User, Workspace } from '../services/workspaces/entities.ts';

/** Every entity the ORM knows; later domains add theirs here. */
export const entities = [
  Workspace,
  ApiKey,
  User,
  DashboardSession,
  Participant,
  EventType,
  EventTypeCount,
  Event,
  IngestEndpoint,
  LedgerEntry,
  Leaderboard,
  LeaderboardScore,
  LeaderboardCount,
  LeaderboardCountDelta,
  OutboxEvent,
  Badge,
  ParticipantBadge,
  Flow,
  FlowRun,
  ParticipantEventCount,
  MessageTemplate,
  Message,
  Reward,
  RewardCode,
  Redemption,
  ParticipantMultiplier,
  WebhookSubscription,
  WebhookDelivery,
  WebhookAttempt,
  LiveWatch,
  Export,
  ExportChunk,
  DailyStat,
  DailyStatWatermark,
];
