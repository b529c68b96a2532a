/**
 * The client's types from the service's OpenAPI document, printed by openapi-typescript.
 * scripts/generate.ts calls this (and its `--check` compares the result with the committed
 * schema.d.ts), so a changed operation fails CI until the client is regenerated. It lives here
 * because openapi-typescript and the TypeScript 5 it prints with are this package's devDependencies
 * (the repository's own TypeScript 7 has no compiler API for it).
 */
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

const HEADER =
  '// Generated from the svc OpenAPI document by `npm run generate` (openapi-typescript). Do not edit.\n';

/** schema.d.ts's text for `document` (an OpenAPI 3.1 object; not modified). */
export async function clientSchema(document: object): Promise<string> {
  // openapi-typescript resolves the document in place; the caller's copy may be cached and served.
  const ast = await openapiTS(structuredClone(document) as OpenAPI3, { silent: true });
  return HEADER + astToString(ast);
}
