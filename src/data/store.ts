// The tab's one Jotai store (issue 5, CONVENTIONS.md): an atom per symbol holding its latest
// quote, the market connection's status, and the positions of watched accounts. The data worker's batches are written here,
// so a quote cell re-renders only when its own symbol changed. Nothing else imports jotai.
import { atom, createStore, useAtomValue } from 'jotai';
import { atomFamily } from 'jotai-family';
import { parseYyyymmdd } from '../lib/calendar';
import type { Quote } from '../lib/quote';
import type { CachedPositions, Fill, MarketStatus, OfflineStatus, PositionsStatus, TabMessage } from '../workers/api';

/** The worker's states as the tab's screens read them (features do not import the worker). */
export type { CachedPositions, Fill, MarketStatus, OfflineStatus, PositionsStatus };
import type { QuoteRecord } from '../shared/db';

export interface QuoteState {
  quote: Quote;
  /** False for a quote read from the local cache and not yet confirmed by the socket. */
  live: boolean;
}

export const dataStore = createStore();

export const quoteAtom = atomFamily((_symbol: string) => atom<QuoteState | null>(null));

export const marketStatusAtom = atom<MarketStatus>({ state: 'idle', reconnected: false, user: null });

/** The snapshot of each account this tab watches (undefined: none yet). */
export const positionsAtom = atomFamily((_account: string) => atom<CachedPositions | null>(null));

/** The fills of each account whose fills this tab watches, oldest first (null: none yet). */
export const fillsAtom = atomFamily((_account: string) => atom<Fill[] | null>(null));

export const positionsStatusAtom = atom<PositionsStatus>({ state: 'idle', lastError: null, authenticated: false });

/** Whether the worker reaches the server, since when not, and its pending offline writes (issue 21). */
export const offlineStatusAtom = atom<OfflineStatus>({ online: true, since: null, pending: 0, replayError: null });

const noticeListeners = new Set<(text: string) => void>();

/** Called with each notice the worker posts (the layout shows it as a toast). */
export function onWorkerNotice(listener: (text: string) => void): () => void {
  noticeListeners.add(listener);
  return () => noticeListeners.delete(listener);
}

/** Writes what the worker posted on this tab's port. */
export function applyTabMessage(message: TabMessage): void {
  switch (message.type) {
    case 'market-status':
      dataStore.set(marketStatusAtom, message.status);
      return;
    case 'positions':
      dataStore.set(positionsAtom(message.account), message.snapshot);
      return;
    case 'fills':
      dataStore.set(fillsAtom(message.account), message.fills);
      return;
    case 'positions-status':
      dataStore.set(positionsStatusAtom, message.status);
      return;
    case 'ticks':
      applyTicks(message.quotes);
      return;
    case 'offline-status':
      dataStore.set(offlineStatusAtom, message.status);
      return;
    case 'notice':
      for (const listener of noticeListeners) listener(message.text);
      return;
  }
}

/** Writes a batch of live quotes: each symbol's atom once. */
export function applyTicks(quotes: Record<string, Quote>): void {
  for (const [symbol, quote] of Object.entries(quotes)) dataStore.set(quoteAtom(symbol), { quote, live: true });
}

/**
 * The tab let go of these symbols: nothing updates their atoms any more, so what they hold
 * is no longer live. Shown again later, it is marked stale until the worker sends data.
 */
export function markNotLive(symbols: readonly string[]): void {
  for (const symbol of symbols) {
    const state = dataStore.get(quoteAtom(symbol));
    if (state?.live) dataStore.set(quoteAtom(symbol), { quote: state.quote, live: false });
  }
}

/** Shows cached quotes where nothing live has arrived yet. */
export function applyCachedQuotes(records: readonly (QuoteRecord | undefined)[]): void {
  for (const record of records) {
    if (!record || dataStore.get(quoteAtom(record.symbol)) != null) continue;
    const expiration = record.expiration ? parseYyyymmdd(record.expiration) : null;
    const quote: Quote = expiration ? { md: record.md, expiration } : { md: record.md };
    dataStore.set(quoteAtom(record.symbol), { quote, live: false });
  }
}

export function useQuoteState(symbol: string): QuoteState | null {
  return useAtomValue(quoteAtom(symbol), { store: dataStore });
}

export function useMarketStatus(): MarketStatus {
  return useAtomValue(marketStatusAtom, { store: dataStore });
}

export function usePositions(account: string): CachedPositions | null {
  return useAtomValue(positionsAtom(account), { store: dataStore });
}

export function useFills(account: string): Fill[] | null {
  return useAtomValue(fillsAtom(account), { store: dataStore });
}

/** Writes what a watch answered, before the worker's first post (which may have come already). */
export function seedPositions(account: string, snapshot: CachedPositions | null, fills?: Fill[] | null): void {
  const shown = dataStore.get(positionsAtom(account));
  if (snapshot && (shown == null || Date.parse(snapshot.as_of) >= Date.parse(shown.as_of))) dataStore.set(positionsAtom(account), snapshot);
  const listed = dataStore.get(fillsAtom(account));
  if (fills && (listed == null || fills.length >= listed.length)) dataStore.set(fillsAtom(account), fills);
}

export function useOfflineStatus(): OfflineStatus {
  return useAtomValue(offlineStatusAtom, { store: dataStore });
}

export function usePositionsStatus(): PositionsStatus {
  return useAtomValue(positionsStatusAtom, { store: dataStore });
}

/** The symbol's state now (a sort by the values on screen reads them once). */
export function readQuote(symbol: string): QuoteState | null {
  return dataStore.get(quoteAtom(symbol));
}

/**
 * Calls `listener` with the symbol's state now and after every change, outside React: hot
 * cells (a quote board of hundreds of rows) write their text straight into the DOM instead
 * of re-rendering. Returns the unsubscribe.
 */
export function subscribeQuote(symbol: string, listener: (state: QuoteState | null) => void): () => void {
  const quote = quoteAtom(symbol);
  listener(dataStore.get(quote));
  return dataStore.sub(quote, () => listener(dataStore.get(quote)));
}

/**
 * subscribeQuote for several symbols (a formula's legs): calls back with every symbol's state at
 * once, then once after each batch of ticks that moved any of them (a microtask after the batch,
 * before the frame renders), not once per symbol of the batch. Returns the unsubscribe.
 */
export function subscribeQuotes(symbols: readonly string[], listener: (states: ReadonlyMap<string, QuoteState | null>) => void): () => void {
  const states = new Map<string, QuoteState | null>();
  let ready = false;
  let queued = false;
  let live = true;
  const later = () => {
    if (!ready || queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      if (live) listener(states);
    });
  };
  const stops = symbols.map((symbol) =>
    subscribeQuote(symbol, (state) => {
      states.set(symbol, state);
      later();
    }),
  );
  ready = true;
  listener(states);
  return () => {
    live = false;
    stops.forEach((stop) => stop());
  };
}
