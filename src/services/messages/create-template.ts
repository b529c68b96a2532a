import type { AppContext } from '../../context.ts';
import { uniqueViolation } from '../../db/tx.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { validationError } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { MessageTemplate } from './entities.ts';
import { type MessageTemplateDto, presentTemplate } from './presenters.ts';
import { type CreateTemplateInput, subjectProblem } from './template-input.ts';

/** Creates a template in the caller's mode; `key` is unique per workspace and mode. */
export async function createTemplate(
  ctx: AppContext,
  who: Principal,
  data: CreateTemplateInput,
): Promise<MessageTemplateDto> {
  const problem = subjectProblem(data);
  if (problem) throw validationError([{ field: 'subject', message: problem }]);
  try {
    const template = await unitOfWork(ctx, async ({ em }) =>
      em.create(MessageTemplate, {
        workspace: who.workspaceId,
        mode: who.mode,
        key: data.key,
        channel: data.channel,
        subject: data.subject ?? null,
        body: data.body,
      }),
    );
    return presentTemplate(template);
  } catch (err) {
    if (uniqueViolation(err) !== null)
      throw validationError([{ field: 'key', message: `a template with key "${data.key}" already exists` }]);
    throw err;
  }
}
