// Ticks to tabs (issue 5): symbols that changed are remembered (latest state wins) and each
// tab gets at most one batch per animation frame, paced by its own paint: after a batch the
// tab is "in flight" until it replies that it applied the batch in an animation frame
// (TabReply 'painted'); what changes meanwhile waits, merged per symbol, and leaves as one
// batch on the reply. A tab that paints slowly (busy, or hidden: no frames at all) gets
// fewer, fuller batches instead of a queue, and only ever the latest state. A batch holds
// only the symbols the tab wants. A tab that just asked for a symbol the worker already
// knows gets its state in its next batch.
//
// A tab may say which of its symbols it shows only off screen (rows of a long quote board
// scrolled out of view; TabReply 'off-screen'): those still reach it, latest state only, but
// at most every OFF_SCREEN_INTERVAL_MS, so a board of hundreds of rows costs the worker and
// the tab per frame only what is in view. A symbol back in view leaves with the next batch.
import type { Quote } from '../lib/quote';
import type { TabPort } from './api';

/** Least time between a change and its batch: changes within it leave together. */
export const TICK_INTERVAL_MS = 16;
/** Least time between two batches to one tab (besides waiting for its paint), in the app. */
export const TAB_BATCH_INTERVAL_MS = 16;
/** Least time between two deliveries of a tab's off-screen symbols. */
export const OFF_SCREEN_INTERVAL_MS = 500;

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
  /** The tab's symbols it shows only off screen now (replaces what it said before). */
  offScreen(tabId: string, symbols: Iterable<string>): void;
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
  /** Per tab, the symbols it shows only off screen, and when they last left for it. */
  const offScreen = new Map<string, { symbols: Set<string>; sentAt: number }>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** When the timer fires. */
  let timerAt = Infinity;

  /** Flushes in `delay` ms, unless the timer already fires sooner. */
  const scheduleIn = (delay: number) => {
    const at = now() + delay;
    if (timer != null && timerAt <= at) return;
    if (timer != null) clearTimeout(timer);
    timer = setTimeout(flush, delay);
    timerAt = at;
  };
  // The timer starts with the first change after a flush, so changes within one interval
  // leave together, and an idle market costs no timers.
  const schedule = () => scheduleIn(intervalMs);

  const waitingOf = (tabId: string) => {
    let set = waiting.get(tabId);
    if (!set) waiting.set(tabId, (set = new Set()));
    return set;
  };

  /** Posts the tab the state of these of its waiting symbols (all of them when `symbols` is the waiting set). */
  const send = (tabId: string, symbols: Iterable<string>, waitingSet: Set<string>) => {
    const port = options.portOf(tabId);
    if (!port) {
      waiting.delete(tabId);
      return;
    }
    const quotes: Record<string, Quote> = {};
    let count = 0;
    for (const symbol of symbols) {
      waitingSet.delete(symbol);
      const quote = options.quoteOf(symbol);
      // A symbol let go of since it changed is of no use to the tab.
      if (!quote || !options.tabsOf(symbol).has(tabId)) continue;
      quotes[symbol] = quote;
      count += 1;
    }
    if (waitingSet.size === 0) waiting.delete(tabId);
    if (count === 0) return;
    inFlight.add(tabId);
    sentAt.set(tabId, now());
    port.postMessage({ type: 'ticks', quotes });
  };

  const flush = () => {
    if (timer != null) clearTimeout(timer);
    timer = null;
    timerAt = Infinity;
    for (const symbol of dirty) for (const tabId of options.tabsOf(symbol)) waitingOf(tabId).add(symbol);
    dirty.clear();
    const at = now();
    let soonest = Infinity;
    for (const [tabId, symbols] of [...waiting]) {
      if (inFlight.has(tabId)) continue;
      const due = (sentAt.get(tabId) ?? -Infinity) + tabIntervalMs;
      if (due > at) {
        soonest = Math.min(soonest, due);
        continue;
      }
      const hidden = offScreen.get(tabId);
      if (!hidden || hidden.sentAt + OFF_SCREEN_INTERVAL_MS <= at) {
        // Everything waiting leaves, off-screen symbols too (their turn came).
        if (hidden) hidden.sentAt = at;
        send(tabId, [...symbols], symbols);
        continue;
      }
      const inView = [...symbols].filter((symbol) => !hidden.symbols.has(symbol));
      if (inView.length > 0) send(tabId, inView, symbols);
      // What is left is off screen: it waits for its turn.
      if (symbols.size > 0) soonest = Math.min(soonest, hidden.sentAt + OFF_SCREEN_INTERVAL_MS);
    }
    if (soonest !== Infinity) scheduleIn(Math.max(0, soonest - at));
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
    offScreen(tabId, symbols) {
      const set = new Set(symbols);
      const before = offScreen.get(tabId);
      if (set.size === 0) offScreen.delete(tabId);
      else offScreen.set(tabId, { symbols: set, sentAt: before?.sentAt ?? now() });
      // A symbol back in view may be waiting: it leaves with the next batch.
      if (waiting.has(tabId)) schedule();
    },
    forget(tabId) {
      waiting.delete(tabId);
      inFlight.delete(tabId);
      sentAt.delete(tabId);
      offScreen.delete(tabId);
    },
    flush,
    dispose() {
      if (timer != null) clearTimeout(timer);
      timer = null;
      timerAt = Infinity;
      dirty.clear();
      waiting.clear();
      inFlight.clear();
      sentAt.clear();
      offScreen.clear();
    },
  };
}
