import { Event, EventType, IngestEndpoint } from '../services/events/entities.ts';
import { LedgerEntry } from '../services/ledger/entities.ts';
import { OutboxEvent } from '../services/outbox/entities.ts';
import { Participant } from '../services/participants/entities.ts';
import { ApiKey, User, Workspace } from '../services/workspaces/entities.ts';

/** Every entity the ORM knows; later domains add theirs here. */
export const entities = [
  Workspace,
  ApiKey,
  User,
  Participant,
  EventType,
  Event,
  IngestEndpoint,
  LedgerEntry,
  OutboxEvent,
];
