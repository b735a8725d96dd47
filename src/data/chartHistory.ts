// A chart's history as the tab gets it (issue 19): each symbol's candles from the Dexie cache
// first, read by the tab itself (drawn at once, offline too, marked stale, without waiting for a
// new data worker to start: shared/chartCache.ts), then from the server through the data worker,
// and the state the chart says (loading, stale, current, offline).
import type { Candle } from '../lib/candles';
import type { ChartInterval, ChartRange } from '../protocol/workspace';
import { readCachedHistory } from '../shared/chartCache';
import { db } from '../shared/db';
import { toPlainError } from '../shared/errors';
import { dataWorker } from './worker';

export type HistoryStatus =
  | { state: 'loading' }
  /** Drawn from the cache (kept at `fetchedAt`, epoch ms) while the server is asked. */
  | { state: 'cached'; fetchedAt: number }
  | { state: 'current' }
  /** The server could not be asked: the cache (from `fetchedAt`) stays on screen. */
  | { state: 'offline'; fetchedAt: number; message: string }
  | { state: 'error'; message: string };

export interface HistoryListener {
  onCandles(symbol: string, candles: Candle[]): void;
  onStatus(status: HistoryStatus): void;
}

const messageOf = (error: unknown) => toPlainError(error).message || 'No se pudo leer el historial';

/** Loads every symbol's candles; the returned function stops telling the listener. */
export function loadHistory(symbols: readonly string[], range: ChartRange, interval: ChartInterval, listener: HistoryListener): () => void {
  let live = true;
  const fresh = new Set<string>();
  const cachedAt = new Map<string, number>();
  const failed = new Map<string, string>();
  const worker = dataWorker();

  const report = () => {
    if (!live) return;
    if (failed.size > 0) {
      const message = [...failed.values()][0]!;
      const oldest = Math.min(...cachedAt.values());
      const shown = [...failed.keys()].every((symbol) => cachedAt.has(symbol));
      return listener.onStatus(shown ? { state: 'offline', fetchedAt: oldest, message } : { state: 'error', message });
    }
    if (fresh.size === symbols.length) return listener.onStatus({ state: 'current' });
    if (cachedAt.size > 0) return listener.onStatus({ state: 'cached', fetchedAt: Math.min(...cachedAt.values()) });
    listener.onStatus({ state: 'loading' });
  };
  report();

  for (const symbol of symbols) {
    void readCachedHistory(db.chartHistory, symbol, range, interval)
      .then((cached) => {
        if (!live || !cached || fresh.has(symbol)) return;
        cachedAt.set(symbol, cached.fetchedAt);
        listener.onCandles(symbol, cached.candles);
        report();
      })
      .catch(() => undefined);
    void worker
      .chartHistory(symbol, range, interval)
      .then((history) => {
        if (!live) return;
        fresh.add(symbol);
        cachedAt.delete(symbol);
        listener.onCandles(symbol, history.candles);
      })
      .catch((error: unknown) => failed.set(symbol, messageOf(error)))
      .finally(report);
  }
  return () => {
    live = false;
  };
}

/**
 * Today's minutes of an intraday chart from the server again, in place of those the chart built
 * from ticks: called when a minute closes, so two charts of one symbol agree on every closed minute.
 */
export async function refreshToday(symbol: string, range: ChartRange, interval: ChartInterval): Promise<Candle[]> {
  return (await dataWorker().chartHistory(symbol, range, interval, { today: true })).candles;
}
