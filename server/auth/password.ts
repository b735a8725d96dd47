// Salted slow password hashes with scrypt from node:crypto. The cost parameters are
// stored in each hash, so they can be raised later without invalidating old hashes.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

// OWASP's scrypt equivalents of N=2^17,r=8,p=1 include N=2^15,r=8,p=3: 32 MiB, ~100 ms here.
export const DEFAULT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 3 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Format: scrypt$N$r$p$salt(base64url)$hash(base64url). */
export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_COST): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, cost);
  const { N, r, p } = cost;
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (!N || !r || !p) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  const actual = await derive(password, salt, { N, r, p });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** One dummy hash per cost. */
const dummyHashes = new Map<string, Promise<string>>();
/**
 * Spends the same time as a real check, for sign-ins with unknown usernames, so response
 * time does not tell which usernames exist. `cost` is the one new hashes get.
 */
export async function verifyAgainstDummy(password: string, cost: ScryptCost = DEFAULT_COST): Promise<false> {
  const key = `${cost.N}$${cost.r}$${cost.p}`;
  let dummy = dummyHashes.get(key);
  if (!dummy) dummyHashes.set(key, (dummy = hashPassword('visores-dummy-password', cost)));
  await verifyPassword(password, await dummy);
  return false;
}
