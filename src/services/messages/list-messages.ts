import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { pageInput } from '../../lib/pagination.ts';
import type { Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import type { Message } from './entities.ts';
import { type MessageDto, presentMessage } from './presenters.ts';
import { messageById, pageMessages } from './repository.ts';

export const listMessagesInput = pageInput.extend({
  status: z.enum(['pending', 'sent', 'simulated', 'failed', 'skipped']).optional(),
  template: z.string().max(128).optional().meta({ description: 'A template key.' }),
  participant: z.string().max(255).optional().meta({ description: "A participant's external id." }),
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
