import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { type Page, pageInput } from '../../lib/pagination.ts';
import { TEXT_LIMITS, text } from '../../lib/primitives.ts';
import type { Principal } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import { Message } from './entities.ts';
import { presentMessage } from './presenters.ts';
import { MESSAGE_STATUSES, type MessageDto } from './shapes.ts';
import { TEMPLATE_KEY_LENGTH } from './template-input.ts';

export const listMessagesInput = pageInput.extend({
  status: z.enum(MESSAGE_STATUSES).optional(),
  template: text(TEMPLATE_KEY_LENGTH).optional().meta({ description: 'A template key.' }),
  participant: text(TEXT_LIMITS.externalId).optional().meta({ description: "A participant's external id." }),
});

/** The messages log, newest first (CONTRACT 9). */
export async function listMessages(
  ctx: AppContext,
  who: Principal,
  input: unknown,
): Promise<Page<MessageDto>> {
  const q = parseInput(listMessagesInput, input);
  const em = ctx.orm.em.fork();
  const where: Record<string, unknown> = { workspace: who.workspaceId, mode: who.mode };
  if (q.status) where.status = q.status;
  if (q.template) where.template = q.template;
  if (q.participant) where.participant = { externalId: q.participant };
  const page = await ctx.paginator.page(
    q,
    (m: Message) => m.id,
    ({ after, take }) =>
      em.find(Message, after ? { ...where, id: { [`$${after.op}`]: after.key } } : where, {
        orderBy: { id: after?.op === 'gt' ? 'asc' : 'desc' },
        limit: take,
        populate: ['participant'],
      }),
  );
  return { ...page, data: page.data.map(presentMessage) };
}

export async function getMessage(ctx: AppContext, who: Principal, id: string): Promise<MessageDto> {
  const message = z.uuid().safeParse(id).success
    ? await ctx.orm.em
        .fork()
        .findOne(Message, { id, workspace: who.workspaceId, mode: who.mode }, { populate: ['participant'] })
    : null;
  if (!message) throw notFound('message');
  return presentMessage(message);
}
