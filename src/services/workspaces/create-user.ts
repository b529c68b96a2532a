import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { parseInput } from '../validation.ts';
import { User, Workspace } from './entities.ts';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number) => Promise<Buffer>;

export const createUserInput = z.strictObject({
  workspace: z.string().min(1),
  email: z.email().max(320),
  password: z.string().min(8, 'at least 8 characters').max(200),
});

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(expected, actual);
}

/** Creates (or resets the password of) a dashboard user of a workspace. */
export async function createUser(ctx: AppContext, input: unknown): Promise<{ id: string; email: string }> {
  const data = parseInput(createUserInput, input);
  const em = ctx.orm.em.fork();
  const ws = await em.findOne(Workspace, { slug: data.workspace });
  if (!ws) throw notFound(`workspace '${data.workspace}'`);
  const email = data.email.toLowerCase();
  const passwordHash = await hashPassword(data.password);
  const existing = await em.findOne(User, { workspace: ws, email });
  if (existing) existing.passwordHash = passwordHash;
  const user = existing ?? em.create(User, { id: uuidv7(), workspace: ws, email, passwordHash });
  await em.flush();
  return { id: user.id, email: user.email };
}
