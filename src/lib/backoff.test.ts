import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff';

describe('backoff', () => {
  it('doubles from 500 ms and stops at 10 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((attempt) => backoffDelay(attempt))).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  });
});
