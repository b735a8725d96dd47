import { describe, expect, it } from 'vitest';
import { newId } from './tokens';

describe('newId', () => {
  it('gives 128-bit URL-safe ids that never start with "-" (a CSV cell a spreadsheet would read as a formula)', () => {
    // With 1 in 64 starting with '-', 5,000 ids without one would happen by chance once in 10^34.
    const ids = Array.from({ length: 5000 }, () => newId());
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
      expect(Buffer.from(id, 'base64url')).toHaveLength(16);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});
