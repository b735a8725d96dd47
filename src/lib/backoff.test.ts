import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  it('doubles from 500 ms on each attempt and stays at 10 s once it gets there', () => {
    const delays = Array.from({ length: 8 }, (_, attempt) => backoffDelay(attempt));
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  });

  it('stays capped for very long outages instead of overflowing', () => {
    expect(backoffDelay(60)).toBe(10_000);
    expect(backoffDelay(5000)).toBe(10_000);
  });

  it('treats a negative or fractional counter as the nearest attempt at or below it, never below the first', () => {
    expect(backoffDelay(-3)).toBe(500);
    expect(backoffDelay(2.7)).toBe(2000);
  });

  it('takes another base and cap', () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, 100, 350))).toEqual([100, 200, 350, 350]);
  });
});
