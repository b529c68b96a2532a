import { randomInt } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import type { Scope } from '../keys/principal.ts';
import { codeRows, insertCodes, participantCodes } from './repository.ts';
import { CODE_ALPHABET } from './shapes.ts';

/** Draws before giving up on a participant: 25⁸ ≈ 1.5·10¹¹ codes, so a second draw is already rare. */
const ATTEMPTS = 8;

/** `REF-` + 8 characters of CODE_ALPHABET, each drawn uniformly from the OS's randomness. */
export function newReferralCode(): string {
  let code = 'REF-';
  for (let i = 0; i < 8; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** The existing codes of these participants by participant id (none is made; for batched reads). */
export async function codesOf(sql: Sql, participantIds: number[]): Promise<Map<number, string>> {
  const rows = await codeRows(sql, participantIds);
  return new Map(rows.map((r) => [Number(r.participant_id), r.code]));
}

/**
 * {@link referralCodeOf} for many participants (GraphQL's nested `referralCode` of a list): per
 * external id, in order, `{ code }` or the 404 the single read throws. Missing codes are made in
 * the same call, in three statements whatever the count (read, insert, read back). The insert does
 * nothing for a participant a concurrent first read gave a code (so both answer that one) nor with
 * a code someone else holds (drawn again).
 */
export async function referralCodesOfMany(
  ctx: AppContext,
  who: Scope,
  externalIds: readonly string[],
): Promise<({ code: string } | Error)[]> {
  const wanted = [...new Set(externalIds)];
  const codes = new Map<string, string>();
  let missing: { id: string; external_id: string }[] = [];
  for (const r of await participantCodes(ctx.pool, who, wanted))
    if (r.code) codes.set(r.external_id, r.code);
    else missing.push(r);
  for (let attempt = 0; missing.length; attempt++) {
    if (attempt >= ATTEMPTS) throw new Error('referral codes: no free code after repeated draws');
    await insertCodes(
      ctx.pool,
      who,
      missing.map((p) => ({ participantId: p.id, code: newReferralCode() })),
    );
    const made = await codesOf(
      ctx.pool,
      missing.map((p) => Number(p.id)),
    );
    for (const p of missing) {
      const code = made.get(Number(p.id));
      if (code) codes.set(p.external_id, code);
    }
    missing = missing.filter((p) => !codes.has(p.external_id));
  }
  return externalIds.map((id) => {
    const code = codes.get(id);
    return code ? { code } : notFound('participant');
  });
}

/**
 * `GET /v1/participants/{external_id}/referral-code` (docs/referrals.md#codes): the participant's
 * code, made on first read and never changed; concurrent first reads answer the same code.
 */
export async function referralCodeOf(
  ctx: AppContext,
  who: Scope,
  externalId: string,
): Promise<{ code: string }> {
  const [one] = await referralCodesOfMany(ctx, who, [externalId]);
  if (one instanceof Error) throw one;
  return one!;
}
