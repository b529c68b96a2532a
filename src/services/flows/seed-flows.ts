import type { AppContext } from '../../context.ts';
import { defineBadge, listBadges } from '../badges/manage-badges.ts';
import type { Mode } from '../keys/principal.ts';
import type { CreateFlowInput } from './flow-schemas.ts';
import { createFlow } from './manage-flows.ts';
import { flowNames } from './repository.ts';

const BADGES = [
  { key: 'regular', name: 'Regular', description: 'Placed a third order.', tiers: [] },
  { key: 'reviewer', name: 'Reviewer', description: 'Posted a review.', tiers: [] },
];

const FLOWS: CreateFlowInput[] = [
  {
    name: 'Welcome bonus',
    event_type: 'app.opened',
    max_runs_per_participant: 1,
    actions: [{ type: 'award_points', points: 100, reason: 'Welcome bonus' }],
  },
  {
    name: '1 point per currency unit',
    event_type: 'order.completed',
    conditions: { '>': [{ var: 'payload.total' }, 0] },
    actions: [{ type: 'award_points', points: { '*': [{ var: 'payload.total' }, 1] }, reason: 'Order' }],
  },
  {
    name: 'Third order badge',
    event_type: 'order.completed',
    conditions: { '==': [{ event_count: 'order.completed' }, 3] },
    actions: [{ type: 'award_badge', badge: 'regular' }],
  },
  {
    name: 'Review badge',
    event_type: 'review.posted',
    max_runs_per_participant: 1,
    actions: [
      { type: 'award_badge', badge: 'reviewer' },
      { type: 'award_points', points: 20, reason: 'Review' },
    ],
  },
];

/** The demo workspace's badges and flows, in both modes; each is created once (by key, by name) and then left as edited. */
export async function seedDemoFlows(ctx: AppContext, workspace: { id: string; slug: string }): Promise<void> {
  for (const mode of ['test', 'live'] as Mode[]) {
    const who = {
      workspaceId: workspace.id,
      workspaceSlug: workspace.slug,
      mode,
      keyId: 'demo',
      abilities: ['*'],
    };
    const badges = new Set((await listBadges(ctx, who)).map((b) => b.key));
    for (const b of BADGES) if (!badges.has(b.key)) await defineBadge(ctx, who, b);
    const existing = await flowNames(ctx.orm, who);
    for (const f of FLOWS) if (!existing.has(f.name)) await createFlow(ctx, who, f);
  }
}
