// Ticks to tabs (issue 5): symbols that changed are remembered (latest state wins) and each
// tab gets at most one batch per animation frame, paced by its own paint: after a batch the
// tab is "in flight" until it replies that it applied the batch in an animation frame
// (TabReply 'painted'); what changes meanwhile waits, merged per symbol, and leaves as one
// batch on the reply. A tab that paints slowly (busy, or hidden: no frames at all) gets
// fewer, fuller batches instead of a queue, and only ever the latest state. A batch holds
// only the symbols the tab wants. A tab that just asked for a symbol the worker already
// knows gets its state in its next batch.
import type { Quote } from '../lib/quote';
import type { TabPort } from './api';

/** Least time between a change and its batch: changes within it leave together. */
export const TICK_INTERVAL_MS = 16;
/** Least time between two batches to one tab (besides waiting for its paint), in the app. */
export const TAB_BATCH_INTERVAL_MS = 16;

export interface TickFanoutOptions {
  tabsOf(symbol: string): ReadonlySet<string>;
  portOf(tabId: string): TabPort | undefined;
  quoteOf(symbol: string): Quote | undefined;
  intervalMs?: number;
  /** Least time between two batches to one tab; 0 (the default): its paint alone paces it. */
  tabIntervalMs?: number;
  now?: () => number;
}

export interface TickFanout {
  /** The symbols' state changed. */
  changed(symbols: Iterable<string>): void;
  /** Sends the tab what is known of these symbols in its next batch. */
  seed(tabId: string, symbols: Iterable<string>): void;
  /** The tab applied its last batch in a frame: it may have the next one. */
  painted(tabId: string): void;
  /** The tab is gone (or registered again): nothing waits for it or on it any more. */
  forget(tabId: string): void;
  /** Posts the batches now (the timer calls it). */
  flush(): void;
  dispose(): void;
}

export function createTickFanout(options: TickFanoutOptions): TickFanout {
  const intervalMs = options.intervalMs ?? TICK_INTERVAL_MS;
  const tabIntervalMs = options.tabIntervalMs ?? 0;
  const now = options.now ?? (() => performance.now());
  /** When each tab was last sent a batch. */
  const sentAt = new Map<string, number>();
  const dirty = new Set<string>();
  /** Per tab, symbols whose state it has not been sent yet. */
  const waiting = new Map<string, Set<string>>();
  /** Tabs sent a batch they have not yet painted. */
  const inFlight = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  // The timer starts with the first change after a flush, so changes within one interval
  // leave together, and an idle market costs no timers.
  const schedule = () => {
    timer ??= setTimeout(flush, intervalMs);
  };

  const waitingOf = (tabId: string) => {
    let set = waiting.get(tabId);
    if (!set) waiting.set(tabId, (set = new Set()));
    return set;
  };

  const send = (tabId: string, symbols: Set<string>) => {
    waiting.delete(tabId);
    const port = options.portOf(tabId);
    if (!port) return;
    const quotes: Record<string, Quote> = {};
    let count = 0;
    for (const symbol of symbols) {
      const quote = options.quoteOf(symbol);
      // A symbol let go of since it changed is of no use to the tab.
      if (!quote || !options.tabsOf(symbol).has(tabId)) continue;
      quotes[symbol] = quote;
      count += 1;
    }
    if (count === 0) return;
    inFlight.add(tabId);
    sentAt.set(tabId, now());
    port.postMessage({ type: 'ticks', quotes });
  };

  const flush = () => {
    if (timer != null) clearTimeout(timer);
    timer = null;
    for (const symbol of dirty) for (const tabId of options.tabsOf(symbol)) waitingOf(tabId).add(symbol);
    dirty.clear();
    const at = now();
    let soonest = Infinity;
    for (const [tabId, symbols] of [...waiting]) {
      if (inFlight.has(tabId)) continue;
      const due = (sentAt.get(tabId) ?? -Infinity) + tabIntervalMs;
      if (due <= at) send(tabId, symbols);
      else soonest = Math.min(soonest, due);
    }
    if (soonest !== Infinity) timer = setTimeout(flush, soonest - at);
  };

  return {
    changed(symbols) {
      for (const symbol of symbols) dirty.add(symbol);
      if (dirty.size > 0) schedule();
    },
    seed(tabId, symbols) {
      const set = waitingOf(tabId);
      for (const symbol of symbols) set.add(symbol);
      if (set.size > 0) schedule();
      else waiting.delete(tabId);
    },
    painted(tabId) {
      if (!inFlight.delete(tabId)) return;
      // What waited for this tab leaves now: its next frame is the earliest it can show it.
      if (waiting.has(tabId) || dirty.size > 0) flush();
    },
    forget(tabId) {
      waiting.delete(tabId);
      inFlight.delete(tabId);
      sentAt.delete(tabId);
    },
    flush,
    dispose() {
      if (timer != null) clearTimeout(timer);
      timer = null;
      dirty.clear();
      waiting.clear();
      inFlight.clear();
      sentAt.clear();
    },
  };
}
