import { describe, expect, it } from 'vitest';
import { createRefCounts } from './refCounts';

describe('createRefCounts', () => {
  it('says the first holder and the last release, and counts between', () => {
    const counts = createRefCounts<string>();
    expect(counts.add('A')).toBe(true);
    expect(counts.add('A')).toBe(false);
    expect(counts.count('A')).toBe(2);
    expect(counts.release('A')).toBe(false);
    expect(counts.has('A')).toBe(true);
    expect(counts.release('A')).toBe(true);
    expect(counts.has('A')).toBe(false);
    expect(counts.count('A')).toBe(0);
    expect(counts.release('A')).toBe(false);
    expect([...counts.keys()]).toEqual([]);
  });
});
