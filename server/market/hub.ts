// Latest state and fan-out per symbol, inside one process. Feeds publish full refreshes of
// their entries; subscribers get the merged state of the symbol.
import type { MarketData, MarketUpdate } from '../../src/protocol/market.js';

/** `json` is `md` as JSON when the hub has it already (the payload it received), so fan-out need not serialize it again. */
export type SymbolListener = (symbol: string, md: MarketData, json?: string) => void;

/** What feeds publish to and sockets subscribe from: in one process, or across them (Redis). */
export interface Hub {
  publish(update: MarketUpdate): void;
  /** Calls `listener` on each update of `symbol` (the exchange's own form); returns the unsubscribe. */
  subscribe(symbol: string, listener: SymbolListener): () => void;
  /** The latest state this process knows. */
  latest(symbol: string): MarketData | null;
  /** The latest state anywhere (may ask another process's store). */
  snapshot(symbol: string): Promise<MarketData | null>;
  /** This process no longer publishes these symbols (its feed stopped here): another process may. */
  released(symbols: Iterable<string>): void;
  /** Symbols with at least one subscriber in this process. */
  subscribedSymbols(): string[];
  /**
   * Symbols some client wants, in this process or (Redis) any other: what a feed that asks
   * the exchange for exactly the symbols wanted (the Primary API's smd) must subscribe.
   */
  demand(): Promise<string[]>;
  readonly published: number;
  /**
   * A feed's state report (marketStates.ts), from the process that runs the feed to every
   * process, this one included at once: sent on every change and as a heartbeat.
   */
  publishFeedState(report: unknown): void;
  /** Calls `listener` with every feed state report; returns the unsubscribe. */
  onFeedState(listener: (report: unknown) => void): () => void;
  close(): Promise<void>;
}

export function createMarketHub(): Hub {
  const latest = new Map<string, MarketData>();
  const listeners = new Map<string, Set<SymbolListener>>();
  const stateListeners = new Set<(report: unknown) => void>();
  let published = 0;

  return {
    publish(update: MarketUpdate): void {
      const symbol = update.instrumentId.symbol;
      const merged = { ...latest.get(symbol), ...update.marketData };
      latest.set(symbol, merged);
      published += 1;
      const set = listeners.get(symbol);
      if (set) for (const listener of set) listener(symbol, merged);
    },

    subscribe(symbol: string, listener: SymbolListener): () => void {
      let set = listeners.get(symbol);
      if (!set) listeners.set(symbol, (set = new Set()));
      set.add(listener);
      return () => {
        const current = listeners.get(symbol);
        if (!current) return;
        current.delete(listener);
        if (current.size === 0) listeners.delete(symbol);
      };
    },

    latest(symbol: string): MarketData | null {
      return latest.get(symbol) ?? null;
    },

    async snapshot(symbol: string): Promise<MarketData | null> {
      return latest.get(symbol) ?? null;
    },

    released(): void {
      // One process: nobody else publishes them.
    },

    publishFeedState(report: unknown): void {
      for (const listener of stateListeners) listener(report);
    },

    onFeedState(listener: (report: unknown) => void): () => void {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },

    async close(): Promise<void> {
      listeners.clear();
      stateListeners.clear();
    },

    subscribedSymbols(): string[] {
      return [...listeners.keys()];
    },

    async demand(): Promise<string[]> {
      return [...listeners.keys()];
    },

    get published(): number {
      return published;
    },
  };
}
