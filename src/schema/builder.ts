import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import ValidationPlugin from '@pothos/plugin-validation';
import { validationError } from '../errors.ts';
import type { GraphQLContext } from './context.ts';

/**
 * The one Pothos builder. Fields are non-null unless a file says otherwise, so the printed
 * schema states what the services guarantee. The schema is built without a database: requests
 * bring the AppContext and the caller in their GraphQL context.
 */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: string; Output: string };
    SafeInt: { Input: number; Output: number };
  };
}>({
  plugins: [RelayPlugin, ValidationPlugin],
  defaultFieldNullability: false,
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
    // Pothos-level checks fail in the same shape as the services' own (extensions.code validation_error).
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
