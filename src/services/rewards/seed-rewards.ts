import type { AppContext } from '../../context.ts';
import type { Mode, Principal } from '../keys/principal.ts';
import { type GenerateCodesInput, generateCodes } from './generate-codes.ts';
import { importCodes } from './import-codes.ts';
import { insertInactiveExternal, rewardNames } from './repository.ts';
import type { CreateRewardInput } from './reward-input.ts';
import { createReward } from './save-reward.ts';

const DEMO_REWARDS: {
  body: CreateRewardInput;
  codes?: string[];
  generate?: GenerateCodesInput;
}[] = [
  {
    body: { name: 'Free coffee', type: 'voucher_code', cost_points: 150, subtitle: 'Any size, any shop' },
    generate: { count: 25, prefix: 'COFFEE-', length: 10 },
  },
  {
    body: { name: '10% off your next order', type: 'voucher_code', cost_points: 300 },
    codes: ['SAVE10-ALPHA', 'SAVE10-BRAVO', 'SAVE10-CHARLIE', 'SAVE10-DELTA', 'SAVE10-ECHO'],
  },
  {
    body: {
      name: 'E-book: Loyalty 101',
      type: 'digital_asset',
      cost_points: 200,
      config: { asset_url: 'https://example.com/downloads/loyalty-101.pdf' },
    },
  },
  {
    body: { name: 'Game licence key', type: 'digital_asset', cost_points: 500 },
    generate: { count: 10, prefix: 'GAME-', length: 10 },
  },
  {
    body: {
      name: 'Tote bag',
      type: 'physical',
      cost_points: 800,
      stock: 25,
      subtitle: 'Shipped in 3-5 days',
    },
  },
  {
    body: {
      name: 'Double points weekend',
      type: 'points_multiplier',
      cost_points: 400,
      config: { factor: 2, duration_hours: 48 },
    },
  },
];

/**
 * The demo catalogue, in both modes: a few rewards of each type with code pools. Idempotent:
 * a reward whose name exists is left alone. The external reward points at a placeholder partner
 * and is created inactive (its URL cannot pass the egress guard's DNS check offline), so an
 * operator sets a real endpoint before switching it on.
 */
export async function seedDemoRewards(
  ctx: AppContext,
  workspace: { id: string; slug: string },
): Promise<void> {
  for (const mode of ['test', 'live'] as Mode[]) {
    const who: Principal = {
      workspaceId: workspace.id,
      workspaceSlug: workspace.slug,
      mode,
      keyId: 'demo-seed',
      abilities: ['*'],
    };
    const existing = await rewardNames(ctx.pool, who);
    for (const demo of DEMO_REWARDS) {
      if (existing.has(demo.body.name)) continue;
      const reward = await createReward(ctx, who, demo.body);
      if (demo.codes) await importCodes(ctx, who, reward.id, { codes: demo.codes });
      if (demo.generate) await generateCodes(ctx, who, reward.id, demo.generate);
    }
    if (!existing.has('Partner gift card'))
      await insertInactiveExternal(ctx.pool, who, {
        name: 'Partner gift card',
        costPoints: 1000,
        subtitle: 'Issued by our partner at redemption',
        config: {
          endpoint_url: 'https://partner.example.com/v1/gift-cards',
          method: 'POST',
          headers: { Authorization: 'Bearer replace-me' },
          body: {
            customer: '{{participant.external_id}}',
            email: '{{participant.email}}',
            reference: '{{reference}}',
          },
          code_path: 'card.code',
        },
      });
  }
}
