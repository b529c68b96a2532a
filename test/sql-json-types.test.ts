import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// JSON built in SQL (`jsonObjectSql<Dto>`) names every key of its DTO, the zod shape's output
// type: a field renamed in the shape must fail `tsc` where the SQL builds that JSON, or the
// statement would print the old key while every presenter prints the new one. The builders are
// copied out of the tree (their imports pointed back at it), the shape edited, and the copies
// checked with the project's compiler options.

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(
  path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
  'bin',
  'tsc',
);

/** The domain files copied: each SQL-built JSON beside its presenter and its DTO's shape. */
const FILES = [
  'src/services/rewards/presenters.ts',
  'src/services/rewards/shapes.ts',
  'src/services/rewards/reward-input.ts',
  'src/services/ledger/presenters.ts',
  'src/services/ledger/shapes.ts',
  'src/services/ledger/repository.ts',
];

let dir: string;

beforeAll(() => {
  // Inside the repository, so its node_modules and tsconfig resolve; outside what tsc -p . includes.
  dir = mkdtempSync(path.join(root, '.tmp-sql-json-types-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of `file` in `dir` (flattened by domain), its imports of the tree made absolute. */
function copied(file: string, edit: (text: string) => string = (t) => t): string {
  const from = path.dirname(path.join(root, file));
  const text = readFileSync(path.join(root, file), 'utf8').replace(
    /from '(\.\.?\/[^']+)'/g,
    (whole, spec: string) => {
      // A sibling that is copied too stays a sibling; anything else is the tree's own file.
      const target = path.resolve(from, spec);
      const sibling = FILES.find((f) => path.join(root, f) === target);
      return sibling && path.dirname(sibling) === path.dirname(file)
        ? whole
        : `from '${target.split(path.sep).join('/')}'`;
    },
  );
  return edit(text);
}

/** Writes the copies (one domain per folder, edited by `edits[file]`) and runs tsc on them. */
async function typecheck(edits: Record<string, (text: string) => string> = {}) {
  const out = path.join(dir, String(Object.keys(edits).length ? 'edited' : 'as-is'));
  const names: string[] = [];
  for (const file of FILES) {
    const name = path.join(out, path.basename(path.dirname(file)), path.basename(file));
    mkdirSync(path.dirname(name), { recursive: true });
    writeFileSync(name, copied(file, edits[file]));
    names.push(name);
  }
  const config = path.join(out, 'tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({ extends: path.join(root, 'tsconfig.json'), files: names, include: [] }),
  );
  try {
    await run(process.execPath, [tsc, '--noEmit', '--pretty', 'false', '-p', config], { cwd: root });
    return { ok: true, errors: [] as string[], out };
  } catch (err) {
    const stdout = String((err as { stdout?: string }).stdout ?? '');
    return { ok: false, errors: stdout.split('\n').filter((l) => l.includes('error TS')), out };
  }
}

/** The 1-based lines of `fn`'s declaration in a file's text: from its `function` line to its closing brace. */
function linesOf(text: string, fn: string): [number, number] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`export function ${fn}(`));
  const end = lines.findIndex((l, i) => i > start && l === '}');
  expect(start, `${fn} not found`).toBeGreaterThanOrEqual(0);
  return [start + 1, end + 1];
}

/** The errors of `file` (a copy under `out`) whose line falls in `range`. */
const errorsIn = (errors: string[], out: string, file: string, [from, to]: [number, number]) =>
  errors.filter((e) => {
    const m = /^(.*)\((\d+),\d+\): error/.exec(e);
    if (!m) return false;
    const at = path.resolve(root, m[1]!);
    const copy = path.join(out, path.basename(path.dirname(file)), path.basename(file));
    return at === copy && Number(m[2]) >= from && Number(m[2]) <= to;
  });

describe('SQL-built JSON is typed by its DTO', () => {
  it('the builders as they are typecheck', async () => {
    const result = await typecheck();
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
  }, 60_000);

  it('renaming a field of a DTO fails the typecheck of its SQL-built JSON, naming the field', async () => {
    const rename = (text: string, from: string, to: string) => {
      expect(text).toContain(from);
      return text.replace(from, to);
    };
    const result = await typecheck({
      // Redemption: `reward_id` → `rewardId` in redemptionShape.
      'src/services/rewards/shapes.ts': (t) =>
        rename(t, '    reward_id: z.int(),\n', '    rewardId: z.int(),\n'),
      // Ledger entry: `balance_after` → `balanceAfter` in ledgerEntryShape.
      'src/services/ledger/shapes.ts': (t) =>
        rename(t, '    balance_after: z.int().min(0),\n', '    balanceAfter: z.int().min(0),\n'),
    });
    expect(result.ok).toBe(false);
    const redemption = errorsIn(
      result.errors,
      result.out,
      'src/services/rewards/presenters.ts',
      linesOf(
        readFileSync(path.join(root, 'src/services/rewards/presenters.ts'), 'utf8'),
        'redemptionJsonSql',
      ),
    );
    expect(redemption.join('\n')).toMatch(/reward_id|rewardId/);
    const entry = errorsIn(
      result.errors,
      result.out,
      'src/services/ledger/presenters.ts',
      linesOf(readFileSync(path.join(root, 'src/services/ledger/presenters.ts'), 'utf8'), 'entryJsonSql'),
    );
    expect(entry.join('\n')).toMatch(/balance_after|balanceAfter/);
  }, 60_000);
});
