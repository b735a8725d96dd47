import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored and looked up only by this hash. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Random id for rows (users, log entries…): 128 bits, URL-safe. */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}
