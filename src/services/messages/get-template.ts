import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { type Page, pageInput } from '../../lib/pagination.ts';
import type { Principal } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import { MessageTemplate } from './entities.ts';
import { type MessageTemplateDto, presentTemplate } from './presenters.ts';

/** Templates of the caller's workspace and mode, newest first. */
export async function listTemplates(
  ctx: AppContext,
  who: Principal,
  input: unknown,
): Promise<Page<MessageTemplateDto>> {
  const q = parseInput(pageInput, input);
  const em = ctx.orm.em.fork();
  const where = { workspace: who.workspaceId, mode: who.mode };
  const page = await ctx.paginator.page(
    q,
    (t: MessageTemplate) => Number(t.id),
    ({ after, take }) =>
      em.find(MessageTemplate, after ? { ...where, id: { [`$${after.op}`]: after.key } } : where, {
        orderBy: { id: after?.op === 'gt' ? 'asc' : 'desc' },
        limit: take,
      }),
  );
  return { ...page, data: page.data.map(presentTemplate) };
}

export async function findTemplate(ctx: AppContext, who: Principal, key: string): Promise<MessageTemplate> {
  const template = await ctx.orm.em
    .fork()
    .findOne(MessageTemplate, { workspace: who.workspaceId, mode: who.mode, key });
  if (!template) throw notFound('message template');
  return template;
}

export async function getTemplate(ctx: AppContext, who: Principal, key: string): Promise<MessageTemplateDto> {
  return presentTemplate(await findTemplate(ctx, who, key));
}
