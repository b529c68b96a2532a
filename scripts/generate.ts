/**
 * Prints the GraphQL schema, sorted, to schema.graphql at the repository root (STYLE 10).
 * `--check` writes nothing and exits 1 when the committed file differs from the code, for CI.
 * The schema is built from code alone: no database, no configuration.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../src/schema/schema.ts';

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'schema.graphql');
const printed = `${printSchema(lexicographicSortSchema(schema))}\n`;

if (process.argv.includes('--check')) {
  let committed: string | null = null;
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    committed = null;
  }
  if (committed !== printed) {
    console.error(
      committed === null
        ? 'schema.graphql is missing: run `npm run generate` and commit it.'
        : 'schema.graphql is stale: the GraphQL schema in src/schema changed. Run `npm run generate` and commit the result.',
    );
    process.exit(1);
  }
  console.error('schema.graphql is up to date.');
} else {
  writeFileSync(target, printed);
  console.error(`wrote ${path.relative(process.cwd(), target) || target}`);
}
