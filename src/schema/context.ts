import type { ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { applyRateLimit } from '../lib/rate-limit.ts';
import type { Ability } from '../services/keys/abilities.ts';
import { requireAbility } from '../services/keys/authenticate.ts';
import type { Principal } from '../services/keys/principal.ts';

/** What every resolver gets: the services' context and the caller. */
export interface GraphQLContext {
  app: AppContext;
  /**
   * Admits the bearer key if it holds `ability` (any valid key without one; 401/403 otherwise, as
   * on REST) and sets `who`. The key is looked up and counted against its rate limit once per
   * request, like one REST call. Called by the fields' `authScopes` (builder.ts).
   */
  admit(this: GraphQLContext, ability?: Ability): Promise<Principal>;
  /** The admitted caller; until then a stand-in that throws (api_error) when a field without authScopes reads it. */
  who: Principal;
}

const unadmitted = (): never => {
  throw new Error('GraphQL field read the caller without declaring authScopes');
};
const notAdmitted = new Proxy({} as Principal, { get: unadmitted });

export function createGraphQLContext(
  app: AppContext,
  authorization: string | undefined,
  res?: ServerResponse,
): GraphQLContext {
  let key: Promise<Principal> | undefined;
  let counted: Promise<void> | undefined;
  return {
    app,
    async admit(ability) {
      key ??= app.keys.authenticate(authorization);
      const who = await key;
      // As on REST, a request refused with 401/403 is not counted.
      if (ability) requireAbility(who, ability);
      counted ??= app.rateLimiter
        .consume(who.keyId)
        .then((decision) => applyRateLimit(decision, res, { retryAfterInError: true }));
      await counted;
      this.who = who;
      return who;
    },
    // Yoga copies this object into the request's context: `admit` sets `who` on that one.
    who: notAdmitted,
  };
}
