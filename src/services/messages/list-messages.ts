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
import { MESSAGE_STATUSES, type MessageDto } from './shapes.ts';
import { TEMPLATE_KEY_LENGTH } from './template-input.ts';

export const listMessagesInput = pageInput.extend({
  status: z.enum(MESSAGE_STATUSES).optional(),
  template: text(TEMPLATE_KEY_LENGTH).optional().meta({ description: 'A template key.' }),
  participant: text(TEXT_LIMITS.externalId).optional().meta({ description: "A participant's external id." }),
});

/** The messages log, newest first (CONTRACT 9). */
export const listMessages = pagedList({
  input: listMessagesInput,
  keyOf: (m: Message) => m.id,
  fetch: (ctx: AppContext, who: Principal, q, range) => pageMessages(ctx.orm.em.fork(), who, q, range),
  present: presentMessage,
});

export async function getMessage(ctx: AppContext, who: Principal, id: string): Promise<MessageDto> {
  const message = z.uuid().safeParse(id).success ? await messageById(ctx.orm.em.fork(), who, id) : null;
  if (!message) throw notFound('message');
  return presentMessage(message);
}
