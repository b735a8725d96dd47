import { describe, expect, it } from 'vitest';
import { DEFAULT_COST, hashPassword, verifyPassword } from './password.js';
import { hashToken, newToken } from './tokens.js';

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('demo1234');
    expect(stored.startsWith('scrypt$')).toBe(true);
    expect(stored).not.toContain('demo1234');
    await expect(verifyPassword('demo1234', stored)).resolves.toBe(true);
    await expect(verifyPassword('demo12345', stored)).resolves.toBe(false);
    await expect(verifyPassword('', stored)).resolves.toBe(false);
  });

  it('salts: the same password hashes differently each time', async () => {
    const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')]);
    expect(a).not.toBe(b);
  });

  it('stores its cost in the hash: the default one, or another given, and either verifies', async () => {
    const strong = await hashPassword('demo1234');
    expect(strong.split('$').slice(1, 4).map(Number)).toEqual([DEFAULT_COST.N, DEFAULT_COST.r, DEFAULT_COST.p]);
    const cheap = await hashPassword('demo1234', { N: 2 ** 10, r: 8, p: 1 });
    expect(cheap.split('$').slice(1, 4).map(Number)).toEqual([1024, 8, 1]);
    await expect(verifyPassword('demo1234', cheap)).resolves.toBe(true);
    await expect(verifyPassword('demo12345', cheap)).resolves.toBe(false);
  });

  it('refuses malformed stored hashes instead of throwing', async () => {
    await expect(verifyPassword('x', 'plain-text')).resolves.toBe(false);
    await expect(verifyPassword('x', 'scrypt$0$8$1$abc$def')).resolves.toBe(false);
  });
});

describe('tokens', () => {
  it('are at least 128 random bits and hash deterministically', () => {
    const token = newToken();
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(newToken()).not.toBe(token);
    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).not.toBe(token);
  });
});
