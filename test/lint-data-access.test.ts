import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);

// A folder of its own under src/services, so the biome.json override for that tree applies to it.
const dir = path.resolve(`src/services/zz-lint-probe-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const USE_CASE = `import pg from 'pg';
import type { Sql } from '../../db/tx.ts';

export const readName = async (sql: Sql) => (await sql.query('select 1 as one')).rows;
export const pool = (url: string) => new pg.Pool({ connectionString: url });
`;

async function lint(file: string, text: string): Promise<{ ok: boolean; output: string }> {
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, file);
  writeFileSync(target, text);
  try {
    const { stdout, stderr } = await run('npx', ['biome', 'lint', '--max-diagnostics=50', target]);
    return { ok: true, output: stdout + stderr };
  } catch (err) {
    const e = err as { stdout: string; stderr: string };
    return { ok: false, output: e.stdout + e.stderr };
  } finally {
    rmSync(target);
  }
}

describe('the data-access rule (docs/architecture.md#how-a-request-and-an-event-travel)', () => {
  it('refuses raw SQL and the pg driver in a use case', async () => {
    const { ok, output } = await lint('read-name.ts', USE_CASE);
    expect(ok).toBe(false);
    expect(output).toContain('Raw SQL runs only from a domain');
    expect(output).toContain('noRestrictedImports');
  }, 60_000);

  it('allows both in a repository.ts and a *.sql.ts', async () => {
    for (const file of ['repository.ts', 'read-name.sql.ts']) {
      const { ok, output } = await lint(file, USE_CASE);
      expect(ok, output).toBe(true);
    }
  }, 60_000);
});
