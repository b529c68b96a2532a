import {
  MESSAGE_STATUSES,
  type MessageStatus,
  messageStatus,
} from '../../../../../src/services/messages/shapes.ts';

/** The message log's statuses: the service's own list (its response enum and `status` filter). */
export { MESSAGE_STATUSES, type MessageStatus };

/** A `Record` over the service's type: a status added there fails to compile here until it has a colour. */
export const STATUS_COLORS: Record<MessageStatus, string> = {
  pending: 'yellow',
  sent: 'teal',
  simulated: 'indigo',
  failed: 'red',
  skipped: 'gray',
};

/** A value from a select or the URL that the service's `status` filter takes. */
export const isMessageStatus = (value: string | null): value is MessageStatus =>
  messageStatus.safeParse(value).success;

export const statusLabel = (s: MessageStatus) => s[0]!.toUpperCase() + s.slice(1);
