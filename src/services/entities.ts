import { Badge, ParticipantBadge } from './badges/entities.ts';
import { Event, EventType, EventTypeCount, IngestEndpoint } from './events/entities.ts';
import { Export, ExportChunk } from './exports/entities.ts';
import { Flow, FlowRun, ParticipantEventCount } from './flows/entities.ts';
import {
  Leaderboard,
  LeaderboardCount,
  LeaderboardCountDelta,
  LeaderboardScore,
} from './leaderboards/entities.ts';
import { LedgerEntry } from './ledger/entities.ts';
import { LiveWatch } from './live/entities.ts';
import { Message, MessageTemplate } from './messages/entities.ts';
import { OutboxEvent } from './outbox/entities.ts';
import { DailyStat, DailyStatWatermark } from './overview/entities.ts';
import { Participant } from './participants/entities.ts';
import {
  EarningCount,
  LotAllocation,
  PendingGrant,
  PointLot,
  ProgramSettingsRow,
} from './points/entities.ts';
import { Referral, ReferralCode, ReferralProgram } from './referrals/entities.ts';
import { ParticipantMultiplier, Redemption, Reward, RewardCode } from './rewards/entities.ts';
import { ParticipantStreak, Streak, StreakChange } from './streaks/entities.ts';
import { TierCredit, TierMove, TierProgramRow } from './tiers/entities.ts';
import { WebhookAttempt, WebhookDelivery, WebhookSubscription } from './webhooks/entities.ts';
import { ApiKey, DashboardSession, User, Workspace } from './workspaces/entities.ts';

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
  TierProgramRow,
  TierMove,
  TierCredit,
  ExportChunk,
  DailyStat,
  DailyStatWatermark,
  ProgramSettingsRow,
  PointLot,
  LotAllocation,
  PendingGrant,
  EarningCount,
  Streak,
  ParticipantStreak,
  StreakChange,
  ReferralProgram,
  ReferralCode,
  Referral,
];
