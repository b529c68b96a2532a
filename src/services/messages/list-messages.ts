import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { pageInput } from '../../lib/pagination.ts';
import { TEXT_LIMITS, text } from '../../lib/primitives.ts';
import type { Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import type { Message } from './entities.ts';
import { presentMessage } from './presenters.ts';
import { messageById, pageMessages } from './repository.ts';
import { type MessageDto, messageStatus } from './shapes.ts';
import { TEMPLATE_KEY_LENGTH } from './template-input.ts';

export const listMessagesInput = pageInput.extend({
  status: messageStatus.optional(),
  template: text(TEMPLATE_KEY_LENGTH).optional().meta({ description: 'A template key.' }),
  participant: text(TEXT_LIMITS.externalId).optional().meta({ description: "A participant's external id." }),
});
export type ListMessagesInput = z.output<typeof listMessagesInput>;

/** The messages log, newest first (docs/api.md#messages). */
export const listMessages = pagedList({
  input: listMessagesInput,
  keyOf: (m: Message) => m.id,
  fetch: (ctx: AppContext, who: Principal, q, range) => pageMessages(ctx.orm, who, q, range),
  present: presentMessage,
});

/** One message of the caller's workspace and mode, else 404 (an id that is no UUID too). */
export async function getMessage(ctx: AppContext, who: Principal, id: string): Promise<MessageDto> {
  const message = z.uuid().safeParse(id).success ? await messageById(ctx.orm, who, id) : null;
  if (!message) throw notFound('message');
  return presentMessage(message);
}
