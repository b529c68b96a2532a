import { GraphQLSafeInt } from 'graphql-scalars';
import { builder } from './builder.ts';

/**
 * Points amounts and balances. GraphQL's `Int` stops at 2^31 − 1 while the ledger holds bigints
 * and REST accepts adjustments up to 10^12, so a balance past 2.1 billion would fail every query
 * reading it; `SafeInt` (graphql-scalars) is exact up to 2^53 − 1, like the REST API's JSON numbers.
 */
export const PointsScalar = builder.addScalarType('SafeInt', GraphQLSafeInt, {});
