import type { AppContext } from '../../context.ts';
import type { Mode } from '../keys/principal.ts';

// Raw SQL: the demo seed is handed only the pool (`Pick<AppContext, 'pool'>`, a signature other code
// relies on) and is one idempotent `insert … on conflict do nothing`.

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

export async function seedDemoTemplates(ctx: Pick<AppContext, 'pool'>, workspaceId: string): Promise<void> {
  for (const mode of ['test', 'live'] as Mode[])
    for (const t of DEMO_TEMPLATES)
      await ctx.pool.query(
        `insert into message_templates (workspace_id, mode, key, channel, subject, body) values ($1, $2, $3, $4, $5, $6)
         on conflict (workspace_id, mode, key) do nothing`,
        [workspaceId, mode, t.key, t.channel, t.subject, t.body],
      );
}
