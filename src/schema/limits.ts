import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { type GraphQLError, specifiedRules, type ValidationRule, validate } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';

/** Deepest selection an operation may have (docs/graphql.md#limits), fragments counted as what they select. */
export const MAX_DEPTH = 12;
/**
 * The most an operation may cost, in graphql-armor's model: objects 2 and scalars 1, weighted by
 * depth and multiplied by the page sizes asked for (`first: 200` of something costs 200 of it).
 * 100 participants with their summary and badges cost about 3,500; 200 participants with 200
 * ledger entries each cost about 860,000 and are refused.
 */
export const MAX_COST = 50_000;

/** Refused before execution, as `validation_error` (graphql-armor's own errors would throw out of validation). */
const refuse = (ctx: { reportError(e: GraphQLError): void } | null, err: GraphQLError) =>
  ctx?.reportError(
    createGraphQLError(err.message.replace(/^Syntax Error: /, ''), {
      extensions: { code: 'validation_error' },
    }),
  );

/** The depth and cost rules, added to GraphQL's own validation over HTTP and over graphql-ws. */
export const LIMIT_RULES: ValidationRule[] = [
  maxDepthRule({ n: MAX_DEPTH, flattenFragments: true, propagateOnRejection: false, onReject: [refuse] }),
  costLimitRule({ maxCost: MAX_COST, propagateOnRejection: false, onReject: [refuse] }),
] as unknown as ValidationRule[];

/** graphql-ws's `validate`: the specified rules plus the limits. */
export const validateWithLimits: typeof validate = (schema, document, rules, options, typeInfo) =>
  validate(schema, document, [...(rules ?? specifiedRules), ...LIMIT_RULES], options, typeInfo);
