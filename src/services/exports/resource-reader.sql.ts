import pg from 'pg';
import type { z } from 'zod';
import { copyRows } from '../../db/copy-rows.ts';
import type { Mode } from '../keys/principal.ts';

// Raw SQL: an export streams up to millions of rows in one COPY (bench suite `exports`: ≥ 0.3× psql
// COPY, RSS < 100 MB); ORM entities would be hydrated and tracked for nothing.

/** Which rows an export holds: one workspace and mode, created in [since, until). */
export interface ExportScope {
  workspaceId: string;
  mode: Mode;
  since: Date | null;
  until: Date;
}

/** What a run reads of one resource: its rows oldest first, presented, in batches. */
export interface ResourceReader {
  /** The REST shape of a row: the JSONL object, and the CSV columns (flattened). */
  shape: z.ZodObject;
  /** Every row in scope, in one statement (one snapshot), as the REST API presents them. */
  batches(pool: pg.Pool, scope: ExportScope): AsyncGenerator<Record<string, unknown>[]>;
}

/**
 * A reader over `from` (its main table aliased `x`, with `workspace_id`, `mode` and a unique,
 * ordered `keyColumn`, `x.id` unless given: a column or a list of them), filtered on `timeColumn`
 * (`x.created_at` unless given) by since/until.
 */
export function reader<R>(spec: {
  shape: z.ZodObject;
  select: string;
  from: string;
  keyColumn?: string;
  timeColumn?: string;
  present: (row: R) => Record<string, unknown>;
}): ResourceReader {
  const keyColumn = spec.keyColumn ?? 'x.id';
  const timeColumn = spec.timeColumn ?? 'x.created_at';
  return {
    shape: spec.shape,
    async *batches(pool, scope) {
      // Literals, not parameters: COPY takes none (`copyRows`).
      const at = (t: Date) => `${pg.escapeLiteral(t.toISOString())}::timestamptz`;
      const select = `select ${spec.select} from ${spec.from}
          where x.workspace_id = ${pg.escapeLiteral(scope.workspaceId)}::uuid and x.mode = ${pg.escapeLiteral(scope.mode)}
            ${scope.since ? `and ${timeColumn} >= ${at(scope.since)}` : ''} and ${timeColumn} < ${at(scope.until)}
          order by ${keyColumn}`;
      for await (const rows of copyRows(pool, select)) yield rows.map((r) => spec.present(r as R));
    },
  };
}

/** A table's column list with every column on alias `x`. */
export const aliased = (columns: string) =>
  columns
    .split(',')
    .map((c) => `x.${c.trim()}`)
    .join(', ');
