import { decryptSecret, type SigningKey, signingKey } from '../../lib/secrets.ts';

/** A secret replaced by a rotation, still signing until `expires_at` (docs/webhooks.md#rotation). */
export interface PreviousSecret {
  secret_enc: string;
  /** ISO 8601. */
  expires_at: string;
}

/** At most this many old secrets sign beside the current one; a rotation drops the oldest beyond it. */
export const MAX_PREVIOUS_SECRETS = 5;

/**
 * The stored list as a list: a row written through the entity's bare default holds the JSON
 * string "[]" instead (create-subscription.ts now writes `[]`).
 */
const listOf = (stored: readonly PreviousSecret[]): readonly PreviousSecret[] =>
  Array.isArray(stored) ? stored : [];

/** The old secrets still in their grace at `now`, newest first (expired ones are dropped). */
export const unexpired = (previous: readonly PreviousSecret[], now = Date.now()): PreviousSecret[] =>
  listOf(previous).filter((p) => Date.parse(p.expires_at) > now);

/**
 * A subscription's secrets, decrypted and imported as HMAC keys once (lib/secrets.ts `signingKey`):
 * the current one and the old ones with their expiry. `signing(now)` answers the keys that sign
 * at `now`: the current one first, then each unexpired old one, newest first.
 */
export class SigningSecrets {
  /** What they were decrypted from: a changed subscription (a rotation) reads them again. */
  readonly source: string;
  private readonly current: SigningKey;
  private readonly previous: { key: SigningKey; expiresAt: number }[];

  constructor(currentEnc: string, stored: readonly PreviousSecret[], key: string) {
    const previous = listOf(stored);
    this.source = SigningSecrets.sourceOf(currentEnc, previous);
    this.current = signingKey(decryptSecret(currentEnc, key));
    this.previous = previous.map((p) => ({
      key: signingKey(decryptSecret(p.secret_enc, key)),
      expiresAt: Date.parse(p.expires_at),
    }));
  }

  static sourceOf(currentEnc: string, previous: readonly PreviousSecret[]): string {
    return [currentEnc, ...listOf(previous).map((p) => `${p.secret_enc}@${p.expires_at}`)].join(' ');
  }

  signing(now = Date.now()): SigningKey[] {
    const keys = [this.current];
    for (const p of this.previous) if (p.expiresAt > now) keys.push(p.key);
    return keys;
  }
}
