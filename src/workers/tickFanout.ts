// Ticks to tabs (issue 5): symbols that changed are remembered (latest state wins) and each
// tab gets at most one batch per frame (~16 ms) holding only the symbols it wants. A tab
// that just asked for a symbol the worker already knows gets its state in its next batch.
import type { Quote } from '../lib/quote';
import type { TabPort } from './api';

export const TICK_INTERVAL_MS = 16;

export interface TickFanoutOptions {
  tabsOf(symbol: string): Iterable<string>;
  portOf(tabId: string): TabPort | undefined;
  quoteOf(symbol: string): Quote | undefined;
  intervalMs?: number;
}

export interface TickFanout {
  /** The symbols' state changed. */
  changed(symbols: Iterable<string>): void;
  /** Sends the tab what is known of these symbols in its next batch. */
  seed(tabId: string, symbols: Iterable<string>): void;
  /** Posts the batches now (the timer calls it). */
  flush(): void;
  dispose(): void;
}

export function createTickFanout(options: TickFanoutOptions): TickFanout {
  const intervalMs = options.intervalMs ?? TICK_INTERVAL_MS;
  const dirty = new Set<string>();
  const seeds = new Map<string, Set<string>>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  // The timer starts with the first change after a flush, so two batches to a tab are
  // always at least one interval apart, and an idle market costs no timers.
  const schedule = () => {
    timer ??= setTimeout(flush, intervalMs);
  };

  const flush = () => {
    if (timer != null) clearTimeout(timer);
    timer = null;
    const batches = new Map<string, Record<string, Quote>>();
    const add = (tabId: string, symbol: string, quote: Quote) => {
      let batch = batches.get(tabId);
      if (!batch) batches.set(tabId, (batch = {}));
      batch[symbol] = quote;
    };
    for (const symbol of dirty) {
      const quote = options.quoteOf(symbol);
      if (quote) for (const tabId of options.tabsOf(symbol)) add(tabId, symbol, quote);
    }
    for (const [tabId, symbols] of seeds) {
      for (const symbol of symbols) {
        const quote = options.quoteOf(symbol);
        if (quote) add(tabId, symbol, quote);
      }
    }
    dirty.clear();
    seeds.clear();
    for (const [tabId, quotes] of batches) options.portOf(tabId)?.postMessage({ type: 'ticks', quotes });
  };

  return {
    changed(symbols) {
      for (const symbol of symbols) dirty.add(symbol);
      if (dirty.size > 0) schedule();
    },
    seed(tabId, symbols) {
      let set = seeds.get(tabId);
      if (!set) seeds.set(tabId, (set = new Set()));
      for (const symbol of symbols) set.add(symbol);
      if (set.size > 0) schedule();
    },
    flush,
    dispose() {
      if (timer != null) clearTimeout(timer);
      timer = null;
      dirty.clear();
      seeds.clear();
    },
  };
}
