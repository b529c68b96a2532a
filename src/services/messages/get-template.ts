import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { pageInput } from '../../lib/pagination.ts';
import type { Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import type { MessageTemplate } from './entities.ts';
import { type MessageTemplateDto, presentTemplate } from './presenters.ts';
import { pageTemplates, readTemplate } from './repository.ts';

/** Templates of the caller's workspace and mode, newest first. */
export const listTemplates = pagedList({
  input: pageInput,
  keyOf: (t: MessageTemplate) => Number(t.id),
  fetch: (ctx: AppContext, who: Principal, _q, range) => pageTemplates(ctx.orm, who, range),
  present: presentTemplate,
});

/** One template of the caller's workspace and mode by key, else 404. */
export async function getTemplate(ctx: AppContext, who: Principal, key: string): Promise<MessageTemplateDto> {
  const template = await readTemplate(ctx.orm, who, key);
  if (!template) throw notFound('message template');
  return presentTemplate(template);
}
