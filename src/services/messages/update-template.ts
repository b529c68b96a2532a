import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { notFound, validationError } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { type MessageTemplateDto, presentTemplate } from './presenters.ts';
import { templateByKey } from './repository.ts';
import { subjectProblem, type UpdateTemplateInput } from './template-input.ts';

/**
 * Replaces the given fields of a template. Messages already queued keep the text they were
 * rendered with; later sends use the new one.
 */
export function updateTemplate(
  ctx: AppContext,
  who: Principal,
  key: string,
  data: UpdateTemplateInput,
): Promise<MessageTemplateDto> {
  return unitOfWork(ctx, async ({ em }) => {
    const template = await templateByKey(em, who, key);
    if (!template) throw notFound('message template');
    const next = {
      channel: data.channel ?? template.channel,
      subject: data.subject === undefined ? template.subject : data.subject,
      body: data.body ?? template.body,
    };
    // Switching an e-mail template to SMS drops its subject only when the caller says so.
    const problem = subjectProblem(next);
    if (problem) throw validationError([{ field: 'subject', message: problem }]);
    em.assign(template, { ...next, subject: next.subject ?? null, updatedAt: new Date() });
    await em.flush();
    return presentTemplate(template);
  });
}
