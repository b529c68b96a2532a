import { z } from 'zod';

/** The data dimension a key's prefix selects (docs/api.md#keys-modes-and-abilities): `svc_live_` → live, `svc_test_` → test. */
export const modeShape = z.enum(['live', 'test']);
export type Mode = z.output<typeof modeShape>;

/** Who is calling: resolved from an API key, an ingest endpoint key, or a dashboard session. */
export interface Principal {
  workspaceId: string;
  workspaceSlug: string;
  mode: Mode;
  keyId: string;
  /** `['*']` for full access. */
  abilities: string[];
  /**
   * Set when the key was resolved from this process's memory (KeyAuthenticator.authenticateDeferred):
   * it may have been revoked since, so the request's write must check it, or the key be read again
   * before any other answer is given.
   */
  keyCheckPending?: true;
}

/** Who a use case acts for: one workspace's live or test data. */
export type Scope = Pick<Principal, 'workspaceId' | 'mode'>;
