// The small chart of a symbol's recent daily closes (the search page's detail): the points a
// line series takes, and how the period went, for its colour and its text. Pure.
import type { DailyCandle } from '../protocol/market';

export interface SparklinePoint {
  /** The session day, YYYY-MM-DD. */
  time: string;
  value: number;
}

export interface Sparkline {
  /** Oldest first, one per day. */
  points: SparklinePoint[];
  first: SparklinePoint;
  last: SparklinePoint;
  /** -1, 0 or 1: the last close against the first. */
  direction: -1 | 0 | 1;
}

/**
 * The closes of `candles`, oldest first, one per day (the last of a day given twice), without
 * closes that are not numbers; null when none is left.
 */
export function sparklineOf(candles: readonly DailyCandle[]): Sparkline | null {
  const byDay = new Map<string, number>();
  for (const candle of candles) if (Number.isFinite(candle.close)) byDay.set(candle.time, candle.close);
  const points = [...byDay].map(([time, value]) => ({ time, value })).sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return null;
  return { points, first, last, direction: last.value > first.value ? 1 : last.value < first.value ? -1 : 0 };
}
