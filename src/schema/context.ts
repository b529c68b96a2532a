import type { ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import { applyRateLimit } from '../lib/rate-limit.ts';
import type { Ability } from '../services/keys/abilities.ts';
import { requireAbility } from '../services/keys/authenticate.ts';
import type { Principal } from '../services/keys/principal.ts';

/** What every resolver gets: the services' context and the caller, resolved on first use. */
export interface GraphQLContext {
  app: AppContext;
  /**
   * The bearer key's principal, if it holds `ability` (401/403 otherwise, as on REST). The key is
   * looked up once per request and counted once against its rate limit, like one REST call.
   * Without `ability`, any valid key will do (catalogue reads, SPEC 5.2).
   */
  principal(ability?: Ability): Promise<Principal>;
}

export function createGraphQLContext(
  app: AppContext,
  authorization: string | undefined,
  res?: ServerResponse,
): GraphQLContext {
  let key: Promise<Principal> | undefined;
  let counted: Promise<void> | undefined;
  return {
    app,
    async principal(ability) {
      key ??= app.keys.authenticate(authorization);
      const who = await key;
      // As on REST, a request refused with 401/403 is not counted.
      if (ability) requireAbility(who, ability);
      counted ??= countRequest(app, who, res);
      await counted;
      return who;
    },
  };
}

async function countRequest(app: AppContext, who: Principal, res?: ServerResponse): Promise<void> {
  applyRateLimit(await app.rateLimiter.consume(who.keyId), res, { retryAfterInError: true });
}
