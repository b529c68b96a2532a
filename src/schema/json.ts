import { valueFromASTUntyped } from 'graphql';
import { builder } from './builder.ts';

/** Any JSON value, as-is: event payloads and event type JSON Schemas (the services check their shape). */
export const JSONScalar = builder.scalarType('JSON', {
  description:
    'Any JSON value. Where an object is required, the field says so and a non-object is a validation_error.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});
