import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored and looked up only by this hash. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * Random id for rows (users, log entries…): 128 bits, URL-safe, never starting with '-': a
 * spreadsheet reads a cell starting with '-' as a formula, so the operator log's CSV export
 * guards such a cell with a quote, and an id would no longer be the id (1 in 64 did).
 */
export function newId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}
