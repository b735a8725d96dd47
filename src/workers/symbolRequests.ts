// Subscribe requests in flight and who waits on which symbol. Each batch subscribe carries
// a requestId; its answer (a message keyed by the known symbols, with the requestId) settles
// its symbols, and an error event with the same requestId names the unknown ones. A caller
// waits on symbols, not on requests: the request that answers a symbol may be the one a
// reconnect sent.
import type { SubscribeResult } from './api';

interface Waiter {
  symbols: readonly string[];
  remaining: Set<string>;
  resolve(result: SubscribeResult): void;
}

export function createSymbolRequests() {
  /** Symbols with a snapshot on the current connection. */
  const live = new Set<string>();
  /** Symbols the server said it does not know. */
  const unknown = new Set<string>();
  const pending = new Map<string, { symbols: readonly string[]; failed: Set<string> }>();
  const waiters = new Map<string, Set<Waiter>>();

  const settle = (symbol: string) => {
    const waiting = waiters.get(symbol);
    if (!waiting) return;
    waiters.delete(symbol);
    for (const waiter of waiting) {
      waiter.remaining.delete(symbol);
      if (waiter.remaining.size === 0) waiter.resolve({ unknown: waiter.symbols.filter((s) => unknown.has(s)) });
    }
  };

  const complete = (requestId: string) => {
    const request = pending.get(requestId);
    if (!request) return;
    pending.delete(requestId);
    for (const symbol of request.symbols) {
      if (request.failed.has(symbol)) unknown.add(symbol);
      else live.add(symbol);
      settle(symbol);
    }
  };

  return {
    sent(requestId: string, symbols: readonly string[]) {
      pending.set(requestId, { symbols, failed: new Set() });
    },
    /** A data message with this requestId arrived. */
    answered: complete,
    /** An error event with this requestId; `symbols` null means the whole request failed. */
    failed(requestId: string, symbols: readonly string[] | null) {
      const request = pending.get(requestId);
      if (!request) return;
      for (const symbol of symbols ?? request.symbols) request.failed.add(symbol);
      // No data message follows when nothing of the request was accepted.
      if (request.symbols.every((symbol) => request.failed.has(symbol))) complete(requestId);
    },
    waitFor(symbols: readonly string[]): Promise<SubscribeResult> {
      return new Promise((resolve) => {
        const waiter: Waiter = { symbols, remaining: new Set(), resolve };
        for (const symbol of symbols) {
          if (live.has(symbol) || unknown.has(symbol) || waiter.remaining.has(symbol)) continue;
          waiter.remaining.add(symbol);
          let waiting = waiters.get(symbol);
          if (!waiting) waiters.set(symbol, (waiting = new Set()));
          waiting.add(waiter);
        }
        if (waiter.remaining.size === 0) resolve({ unknown: symbols.filter((s) => unknown.has(s)) });
      });
    },
    /** The symbols are no longer wanted: nobody waits on them any more. */
    released(symbols: readonly string[]) {
      for (const symbol of symbols) {
        live.delete(symbol);
        unknown.delete(symbol);
        settle(symbol);
      }
    },
    /** Requests in flight died with the connection; the next one answers their symbols. */
    connectionLost() {
      pending.clear();
      live.clear();
    },
  };
}
