import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import { validationError } from '../errors.ts';
import type { Ability } from '../services/keys/abilities.ts';
import type { GraphQLContext } from './context.ts';

/**
 * The one Pothos builder. Fields are non-null unless a file says otherwise, so the printed
 * schema states what the services guarantee. Fields that touch workspace data declare
 * `authScopes`: `{ ability }` (the REST ability) or `{ anyKey: true }` (catalogue reads, SPEC
 * 5.2); the check admits the caller, whom the resolver then reads as `ctx.who`.
 */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  AuthScopes: { ability: Ability; anyKey: boolean };
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: string; Output: string };
    SafeInt: { Input: number; Output: number };
  };
}>({
  plugins: [ScopeAuthPlugin, RelayPlugin, ValidationPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    // `admit` throws the DomainError (401/403/429) itself, which scope-auth passes through.
    authScopes: (ctx) => ({
      ability: async (ability) => Boolean(await ctx.admit(ability)),
      anyKey: async () => Boolean(await ctx.admit()),
    }),
  },
  relay: {
    nodesOnConnection: true,
    // The services page by page boundaries (Page.nextCursor / prevCursor), not per row, so an
    // edge has no cursor of its own: page with pageInfo.endCursor (forward) or startCursor (back).
    cursorFieldOptions: {
      nullable: true,
      description: 'Always null: page with pageInfo.endCursor (forward) or pageInfo.startCursor (backward).',
    } as unknown as { nullable: false },
  },
  validation: {
    // Issues already name the GraphQL argument (names.ts); they fail as the services do.
    validationError: (failure) =>
      validationError(
        failure.issues.map((issue) => ({
          field: issue.path?.length
            ? issue.path.map((p) => (typeof p === 'object' ? String(p.key) : String(p))).join('.')
            : '(input)',
          message: issue.message,
        })),
      ),
  },
});

builder.queryType({});
builder.mutationType({});
