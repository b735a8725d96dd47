// The last known quote of each symbol, written to Dexie so a reopened visor shows prices at
// once (marked stale until live data arrives). Writes are batched: one bulkPut, so one
// IndexedDB transaction, per flush (one transaction per tick would cost ~25× more).
import { yyyymmdd } from '../lib/calendar';
import type { Quote } from '../lib/quote';
import type { QuoteRecord } from '../shared/db';

export const QUOTE_CACHE_FLUSH_MS = 1000;
/**
 * A symbol's first quote is written this soon: a tab reloaded or closed a moment after a visor
 * opened (its worker may end with it) still finds the prices it saw.
 */
export const QUOTE_CACHE_FIRST_WRITE_MS = 50;

export interface QuoteTable {
  bulkPut(records: readonly QuoteRecord[]): Promise<unknown>;
  clear(): Promise<unknown>;
}

export interface QuoteCache {
  record(symbol: string, quote: Quote): void;
  flush(): Promise<void>;
  /** Forgets what waits and empties the table (logout: what a user watched is theirs). */
  clear(): Promise<void>;
  dispose(): void;
}

export function toQuoteRecord(symbol: string, quote: Quote, receivedAt: number): QuoteRecord {
  return quote.expiration ? { symbol, md: quote.md, expiration: yyyymmdd(quote.expiration), receivedAt } : { symbol, md: quote.md, receivedAt };
}

export function createQuoteCache(options: { table: QuoteTable; flushMs?: number; now?: () => number; log?: Pick<Console, 'warn'> }): QuoteCache {
  const flushMs = options.flushMs ?? QUOTE_CACHE_FLUSH_MS;
  const now = options.now ?? Date.now;
  const log = options.log ?? console;
  // The latest quote of each symbol (a reference, replaced per tick): records are made only
  // at the flush, once per symbol, not once per tick.
  let pending = new Map<string, { quote: Quote; receivedAt: number }>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let dueAt = 0;
  /** Symbols whose first quote was recorded: their later quotes wait for the regular flush. */
  const written = new Set<string>();

  const schedule = (delay: number) => {
    if (timer != null && dueAt - Date.now() <= delay) return;
    if (timer != null) clearTimeout(timer);
    dueAt = Date.now() + delay;
    timer = setTimeout(() => void flush(), delay);
  };

  const flush = async () => {
    if (timer != null) clearTimeout(timer);
    timer = null;
    if (pending.size === 0) return;
    const records = [...pending].map(([symbol, { quote, receivedAt }]) => toQuoteRecord(symbol, quote, receivedAt));
    pending = new Map();
    try {
      await options.table.bulkPut(records);
    } catch (error) {
      // Only a cache: the next ticks write again.
      log.warn('Quote cache write failed', error);
    }
  };

  return {
    record(symbol, quote) {
      pending.set(symbol, { quote, receivedAt: now() });
      const first = !written.has(symbol);
      if (first) written.add(symbol);
      schedule(first ? Math.min(QUOTE_CACHE_FIRST_WRITE_MS, flushMs) : flushMs);
    },
    flush,
    async clear() {
      if (timer != null) clearTimeout(timer);
      timer = null;
      pending = new Map();
      written.clear();
      // A flush already under way wrote in an earlier transaction: this one runs after it.
      await options.table.clear();
    },
    dispose() {
      if (timer != null) clearTimeout(timer);
      timer = null;
      pending.clear();
    },
  };
}
