import { describe, expect, it } from 'vitest';
import type { DailyCandle } from '../protocol/market';
import { sparklineOf } from './sparkline';

const candle = (time: string, close: number): DailyCandle => ({ time, open: close, high: close, low: close, close, volume: 1 });

describe('sparklineOf', () => {
  it('takes the closes, oldest first, and says how the period went', () => {
    const line = sparklineOf([candle('2026-05-04', 1200), candle('2026-05-05', 1210.5), candle('2026-05-06', 1205)]);
    expect(line?.points).toEqual([
      { time: '2026-05-04', value: 1200 },
      { time: '2026-05-05', value: 1210.5 },
      { time: '2026-05-06', value: 1205 },
    ]);
    expect(line).toMatchObject({ first: { value: 1200 }, last: { time: '2026-05-06', value: 1205 }, direction: 1 });
    expect(sparklineOf([candle('2026-05-04', 10), candle('2026-05-05', 9)])?.direction).toBe(-1);
    expect(sparklineOf([candle('2026-05-04', 10)])?.direction).toBe(0);
  });

  it('orders days given out of order, keeps one close per day and drops closes that are not numbers', () => {
    const line = sparklineOf([candle('2026-05-06', 3), candle('2026-05-04', 1), candle('2026-05-04', 2), candle('2026-05-05', Number.NaN)]);
    expect(line?.points).toEqual([
      { time: '2026-05-04', value: 2 },
      { time: '2026-05-06', value: 3 },
    ]);
  });

  it('answers null for no candles', () => {
    expect(sparklineOf([])).toBeNull();
    expect(sparklineOf([candle('2026-05-04', Number.POSITIVE_INFINITY)])).toBeNull();
  });
});
