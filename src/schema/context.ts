import type { ServerResponse } from 'node:http';
import { initContextCache } from '@pothos/core';
import type { AppContext } from '../context.ts';
import { applyRateLimit } from '../lib/rate-limit.ts';
import type { Ability } from '../services/keys/abilities.ts';
import { isParticipantBearer, requireAbility } from '../services/keys/authenticate.ts';
import type { ParticipantClaims } from '../services/keys/participant-token.ts';
import type { Principal } from '../services/keys/principal.ts';

/** A participant token acts in its workspace and mode with no ability; its scopes say what it may read. */
const principalOfToken = (c: ParticipantClaims): Principal => ({
  workspaceId: c.workspaceId,
  workspaceSlug: c.workspaceSlug,
  mode: c.mode,
  keyId: c.keyId,
  abilities: [],
});

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
  /** Whether the credential is a participant token (told by its prefix, without a lookup). */
  readonly isToken: boolean;
  /**
   * For a participant token: admits it (signature, expiry, minting key still live) and answers
   * whether it speaks for `externalId`. False for an API key.
   */
  admitOwn(this: GraphQLContext, externalId: string): Promise<boolean>;
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
  const isToken = isParticipantBearer(authorization);
  let token: Promise<ParticipantClaims> | undefined;
  let key: Promise<Principal> | undefined;
  let counted: Promise<void> | undefined;
  return {
    // The request's loaders (batched nested lists, loaders.ts) live here, so yoga's copy keeps them.
    ...initContextCache(),
    app,
    isToken,
    async admit(ability) {
      if (isToken) {
        token ??= app.keys.authenticateParticipant(authorization);
        key ??= token.then(principalOfToken);
      } else key ??= app.keys.authenticate(authorization);
      const who = await key;
      // As on REST, a request refused with 401/403 is not counted.
      if (ability) requireAbility(who, ability);
      // A token's requests have a budget of their own, apart from its minting key's.
      const budget = isToken ? `token:${who.keyId}:${(await token)?.externalId}` : who.keyId;
      counted ??= app.rateLimiter
        .consume(budget)
        .then((decision) => applyRateLimit(decision, res, { retryAfterInError: true }));
      await counted;
      this.who = who;
      return who;
    },
    async admitOwn(externalId) {
      if (!isToken) return false;
      await this.admit();
      return (await token)?.externalId === externalId;
    },
    // Yoga copies this object into the request's context: `admit` sets `who` on that one.
    who: notAdmitted,
  };
}
