import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { validationError } from '../../errors.ts';
import { text } from '../../lib/primitives.ts';
import type { Principal } from '../keys/principal.ts';
import { availableCodes, findReward, insertCodes } from './codes.sql.ts';
import type { RewardRow } from './presenters.ts';
import type { ImportResult } from './shapes.ts';

export const MAX_CODE_LENGTH = 200;
/** Codes per import request; 100,000 fit in a few seconds (docs/api.md#rewards-and-redemptions). */
export const MAX_CODES_PER_IMPORT = 200_000;
/** Body limit of the import route (instead of MAX_BODY_BYTES): room for 200,000 codes of ~80 bytes. */
export const CODE_IMPORT_MAX_BYTES = 16 * 1024 * 1024;

/** One code, trimmed: every entry of a JSON list and every line or CSV record is checked with it. */
export const code = z
  .string()
  .trim()
  .pipe(
    text(MAX_CODE_LENGTH, { min: 1 })
      // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
      .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters'),
  );

export const importCodesInput = z.strictObject({
  codes: z
    .array(text(MAX_CODE_LENGTH))
    .max(MAX_CODES_PER_IMPORT)
    .meta({ description: 'Codes; surrounding whitespace is trimmed, blank entries ignored.' }),
});
export type ImportCodesInput = z.output<typeof importCodesInput>;

/** Pasted text or an uploaded file, as the REST door and the dashboard hand it over. */
export const importCodesTextInput = z.strictObject({
  // Each line (or CSV record) is then checked as a code, so a bad one is named `codes.<n>`.
  text: z.string().max(CODE_IMPORT_MAX_BYTES),
  format: z.enum(['text', 'csv']).meta({
    description: '`text`: one code per line. `csv`: RFC 4180 (quoted fields included), first column used.',
  }),
});
export type ImportCodesTextInput = z.output<typeof importCodesTextInput>;

/** A CSV's first record naming the column (`code` or `codes`) is a header, not a code. */
export const isHeaderRow = (first: string) => /^codes?$/i.test(first.trim());

/** Codes of a text body: one per line, or the first column of each CSV record; blank lines dropped. */
export function codesFromText(text: string, format: 'text' | 'csv'): string[] {
  if (format === 'text') return text.split(/\r\n|\r|\n/);
  let records: string[][];
  try {
    records = parse(text, { relax_column_count: true, skip_empty_lines: true, bom: true, trim: true });
  } catch (err) {
    throw validationError([{ field: 'codes', message: `not valid CSV: ${(err as Error).message}` }]);
  }
  const first = records.map((r) => r[0] ?? '');
  if (first.length && isHeaderRow(first[0]!)) first.shift();
  return first;
}

/**
 * Adds codes to a voucher or digital-asset reward's pool in one transaction: blank entries are
 * ignored, codes already in the pool (or repeated in the input) are skipped and counted.
 * Multi-row inserts of unnest()ed arrays, not one INSERT per code (bench `rewards`: import).
 */
export async function importCodes(
  ctx: AppContext,
  who: Principal,
  rewardId: string | number,
  input: ImportCodesInput | ImportCodesTextInput,
): Promise<ImportResult> {
  const raw = 'text' in input ? codesFromText(input.text, input.format) : input.codes;
  const codes: string[] = [];
  raw.forEach((value, i) => {
    if (value.trim() === '') return;
    const checked = code.safeParse(value);
    if (!checked.success)
      throw validationError([{ field: `codes.${i}`, message: checked.error.issues[0]!.message }]);
    codes.push(checked.data);
  });
  if (codes.length > MAX_CODES_PER_IMPORT)
    throw validationError([{ field: 'codes', message: `at most ${MAX_CODES_PER_IMPORT} codes per import` }]);
  return unitOfWork(ctx, async ({ sql }) => {
    const reward = await poolReward(sql, who, rewardId);
    const imported = await insertCodes(sql, Number(reward.id), codes);
    return {
      imported,
      skipped_duplicates: codes.length - imported,
      stock_remaining: await availableCodes(sql, Number(reward.id)),
    };
  });
}

/** The reward, locked (unless `lock` is false), if it can hold a pool; 404 or 422 otherwise. */
export async function poolReward(
  sql: Sql,
  who: Principal,
  rewardId: string | number,
  { lock = true } = {},
): Promise<RewardRow> {
  const reward = await findReward(sql, who, rewardId, { lock });
  if (reward.type !== 'voucher_code' && reward.type !== 'digital_asset')
    throw validationError([
      {
        field: 'codes',
        message: `a ${reward.type} reward has no code pool: only voucher_code and digital_asset do`,
      },
    ]);
  return reward;
}
