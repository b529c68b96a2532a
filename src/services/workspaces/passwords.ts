import { randomBytes, type ScryptOptions, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';

/**
 * Dashboard password hashes: scrypt at OWASP's minimum for scrypt (N=2^15, r=8, p=3: 32 MiB and
 * a few hundred ms of CPU per hash, run on libuv's thread pool), a 16-byte random salt, stored as
 * `scrypt$ln=15,r=8,p=3$<salt>$<hash>` (base64url) so the parameters can rise later. Hashes of the
 * first format, `scrypt$<salt>$<hash>` (Node's defaults: N=2^14, r=8, p=1), still verify and are
 * rewritten with the current parameters at the next successful sign-in (`needsRehash`).
 */
const CURRENT = { ln: 15, r: 8, p: 3 };
const LEGACY = { ln: 14, r: 8, p: 1 };
const KEY_LENGTH = 32;

type Params = typeof CURRENT;

const scrypt = (password: string, salt: Buffer, length: number, { ln, r, p }: Params) =>
  new Promise<Buffer>((resolve, reject) => {
    const N = 2 ** ln;
    const options: ScryptOptions = { N, r, p, maxmem: 2 * 128 * N * r };
    scryptCb(password, salt, length, options, (err, key) => (err ? reject(err) : resolve(key)));
  });

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, CURRENT);
  const { ln, r, p } = CURRENT;
  return `scrypt$ln=${ln},r=${r},p=${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

interface Parsed {
  params: Params;
  salt: Buffer;
  hash: Buffer;
}

function parse(stored: string): Parsed | null {
  const parts = stored.split('$');
  if (parts[0] !== 'scrypt') return null;
  if (parts.length === 3 && parts[1] && parts[2])
    return {
      params: LEGACY,
      salt: Buffer.from(parts[1], 'base64url'),
      hash: Buffer.from(parts[2], 'base64url'),
    };
  const m = parts.length === 4 ? /^ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})$/.exec(parts[1] ?? '') : null;
  if (!m || !parts[2] || !parts[3]) return null;
  const params = { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  // Parameters a stored hash may carry: at least Node's defaults, at most 2^20 × 16 (2 GiB).
  if (params.ln < 14 || params.ln > 20 || params.r < 1 || params.r > 16 || params.p < 1 || params.p > 16)
    return null;
  return { params, salt: Buffer.from(parts[2], 'base64url'), hash: Buffer.from(parts[3], 'base64url') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed || parsed.hash.length < 16) return false;
  const actual = await scrypt(password, parsed.salt, parsed.hash.length, parsed.params);
  return timingSafeEqual(parsed.hash, actual);
}

/** True when a (verified) hash was made with other parameters than today's. */
export function needsRehash(stored: string): boolean {
  const params = parse(stored)?.params;
  return !params || params.ln !== CURRENT.ln || params.r !== CURRENT.r || params.p !== CURRENT.p;
}
