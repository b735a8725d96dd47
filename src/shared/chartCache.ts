// Charts' history as kept in Dexie (issue 19), read the same way by the data worker and by the
// tab: the record of a symbol and request shape (lib/candles.ts historyKey) gathered into the
// chart's interval. The tab reads it itself, as it reads the cached quotes (data/worker.ts), so a
// chart seen before draws without waiting for a new data worker to start (a new tab, a reload
// offline); the worker alone asks the server and writes the cache.
import { aggregateCandles, effectiveInterval, historyKey, historyRequest, type Candle } from '../lib/candles';
import type { ChartInterval, ChartRange } from '../protocol/workspace';
import type { ChartHistoryRecord } from './db';

/** A symbol's candles at the chart's interval, oldest first, and when the server gave them. */
export interface ChartHistory {
  candles: Candle[];
  /** Epoch ms of the server's answer they come from. */
  fetchedAt: number;
}

/** What reading needs of Dexie's chartHistory table. */
export interface ChartHistoryReader {
  get(key: [string, string]): Promise<ChartHistoryRecord | undefined>;
}

/** The record's candles gathered into the chart's interval. */
export const shapeHistory = (record: ChartHistoryRecord, range: ChartRange, interval: ChartInterval): ChartHistory => ({
  candles: aggregateCandles(record.candles, effectiveInterval(range, interval)),
  fetchedAt: record.fetchedAt,
});

/** What the cache holds for the chart, or null (never seen, no database, or it failed: the cache is a convenience). */
export async function readCachedHistory(
  table: ChartHistoryReader | null | undefined,
  symbol: string,
  range: ChartRange,
  interval: ChartInterval,
): Promise<ChartHistory | null> {
  const record = await table?.get([symbol, historyKey(historyRequest(range, interval))]).catch(() => undefined);
  return record ? shapeHistory(record, range, interval) : null;
}
