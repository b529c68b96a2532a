import { hash, randomBytes } from 'node:crypto';
import type { Mode } from './principal.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const KEY_PREFIX: Record<Mode, string> = { live: 'svc_live_', test: 'svc_test_' };
export const KEY_RANDOM_LENGTH = 40;
const KEY_PATTERN = /^svc_(live|test)_[A-Za-z0-9]{40}$/;

/** Uniform random base62 characters (rejection sampling, so no modulo bias). */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** The stored form of a key: its sha256, once per authenticated request (one-shot `hash`: no Hash object). */
export function hashKey(plaintext: string): string {
  return hash('sha256', plaintext, 'hex');
}

/** A fresh key: the plaintext (shown once), its sha256 (stored) and a hint for lists. */
export function mintKey(mode: Mode): { plaintext: string; hash: string; hint: string } {
  const plaintext = KEY_PREFIX[mode] + randomToken(KEY_RANDOM_LENGTH);
  return { plaintext, hash: hashKey(plaintext), hint: `${plaintext.slice(0, 13)}…${plaintext.slice(-4)}` };
}

/** The mode a well-formed key claims, or null for anything else (unknown prefix, wrong length). */
export function keyMode(plaintext: string): Mode | null {
  const m = KEY_PATTERN.exec(plaintext);
  return m ? (m[1] as Mode) : null;
}
