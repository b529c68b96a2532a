import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import { DomainError, validationError } from '../errors.ts';
import type { Ability } from '../services/keys/abilities.ts';
import type { GraphQLContext } from './context.ts';

/**
 * Runs a field's authScopes before its arguments are validated (Pothos validates arguments
 * before scope-auth's check), so a caller without a valid key or ability is told so first, as
 * on REST. Scope-auth caches the result for the request; its own check then passes.
 */
/** Only a participant token fails a scope without an error of its own (keys throw 401/403). */
const tokenRefused = () =>
  new DomainError(
    'permission_error',
    'A participant token may read only its own participant, the rewards catalogue, badges and leaderboards',
  );

class AdmitFirstPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(field: PothosOutputFieldConfig<Types>) {
    const scopes = field.pothosOptions.authScopes;
    if (!scopes || typeof scopes === 'function') return field;
    const admit = async (args: Record<string, unknown>, ctx: Types['Context']) => {
      await this.builder.runAuthScopes(ctx, scopes, tokenRefused);
      return args;
    };
    return { ...field, argMappers: [admit, ...field.argMappers] };
  }
}
declare global {
  namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      admitFirst: AdmitFirstPlugin<Types>;
    }
  }
}
SchemaBuilder.registerPlugin('admitFirst', AdmitFirstPlugin);

/**
 * The one Pothos builder. Fields are non-null unless a file says otherwise, so the printed
 * schema states what the services guarantee. Fields that touch workspace data declare
 * `authScopes`: `{ ability }` (the REST ability) or `{ anyKey: true }` (catalogue reads, SPEC
 * 5.2); the check admits the caller, whom the resolver then reads as `ctx.who`.
 */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  AuthScopes: { ability: Ability; anyKey: boolean; apiKey: boolean; participant: string };
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: string; Output: string };
    SafeInt: { Input: number; Output: number };
  };
}>({
  plugins: [ScopeAuthPlugin, 'admitFirst', RelayPlugin, ValidationPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    // `admit` throws the DomainError (401/403/429) itself, which scope-auth passes through.
    // A participant token holds no ability: `ability` and `apiKey` are simply false for it,
    // `participant` (its own external id) and `anyKey` (catalogue reads) are what it may pass.
    authScopes: (ctx) => ({
      ability: async (ability) => !ctx.isToken && Boolean(await ctx.admit(ability)),
      anyKey: async () => Boolean(await ctx.admit()),
      apiKey: async () => !ctx.isToken && Boolean(await ctx.admit()),
      participant: (externalId) => ctx.admitOwn(externalId),
    }),
    unauthorizedError: tokenRefused,
    // Subscriptions are authorised when they start, before anything is sent.
    authorizeOnSubscribe: true,
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
