import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { DomainError } from '../../errors.ts';
import { text } from '../../lib/primitives.ts';
import type { Principal } from '../keys/principal.ts';
import { availableCodes, insertCodes } from './codes.sql.ts';
import { poolReward } from './import-codes.ts';
import type { GenerateResult } from './shapes.ts';

/** 31 symbols: digits 2-9 and capitals without I, L and O, so no two read alike (0/O, 1/I/L). */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** Bytes at or above this are redrawn, so every symbol is equally likely (248 = 8 × 31). */
const UNBIASED_BELOW = 256 - (256 % CODE_ALPHABET.length);

export const generateCodesInput = z.strictObject({
  count: z.int().min(1).max(100_000),
  prefix: text(50)
    .regex(/^[A-Za-z0-9_-]*$/, 'letters, digits, - and _ only')
    .optional(),
  length: z.int().min(6).max(32).default(10).meta({ description: 'Random characters after the prefix.' }),
});
export type GenerateCodesInput = z.output<typeof generateCodesInput>;

/** `count` codes of `prefix` + `length` symbols drawn uniformly from a CSPRNG. */
export function randomCodes(count: number, length: number, prefix = ''): string[] {
  const codes = new Array<string>(count);
  let bytes = randomBytes(count * length + 64);
  let at = 0;
  const next = () => {
    for (;;) {
      if (at >= bytes.length) {
        bytes = randomBytes(4096);
        at = 0;
      }
      const b = bytes[at++]!;
      if (b < UNBIASED_BELOW) return CODE_ALPHABET[b % CODE_ALPHABET.length];
    }
  };
  for (let i = 0; i < count; i++) {
    let s = prefix;
    for (let j = 0; j < length; j++) s += next();
    codes[i] = s;
  }
  return codes;
}

/**
 * Generates `count` new codes into the pool from a cryptographically random source. A code that
 * collides with one already in the pool is drawn again, so exactly `count` new codes are added.
 */
export async function generateCodes(
  ctx: AppContext,
  who: Principal,
  rewardId: string | number,
  q: GenerateCodesInput,
): Promise<GenerateResult> {
  return unitOfWork(ctx, async ({ sql }) => {
    const reward = await poolReward(sql, who, rewardId);
    let generated = 0;
    for (let round = 0; generated < q.count; round++) {
      if (round >= 20) throw new DomainError('api_error', 'could not draw enough distinct codes');
      generated += await insertCodes(
        sql,
        Number(reward.id),
        randomCodes(q.count - generated, q.length, q.prefix),
      );
    }
    return { generated, stock_remaining: await availableCodes(sql, Number(reward.id)) };
  });
}
