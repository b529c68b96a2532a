import type { AppContext } from '../../context.ts';
import type { Mode } from '../keys/principal.ts';
import { insertTemplateIfAbsent } from './repository.ts';

/** The demo's message templates (idempotent: an existing key is left as the user edited it). */
export const DEMO_TEMPLATES = [
  {
    key: 'welcome',
    channel: 'email',
    subject: 'Welcome, {{participant.name}}!',
    body:
      '<p>Hi {{participant.name}},</p>\n' +
      '<p>Thanks for joining. You have <strong>{{participant.balance}}</strong> points so far.</p>',
  },
] as const;

/** Writes the demo templates in both modes of a workspace, leaving any key that exists alone. */
export async function seedDemoTemplates(ctx: Pick<AppContext, 'pool'>, workspaceId: string): Promise<void> {
  for (const mode of ['test', 'live'] as Mode[])
    for (const t of DEMO_TEMPLATES) await insertTemplateIfAbsent(ctx.pool, workspaceId, mode, t);
}
