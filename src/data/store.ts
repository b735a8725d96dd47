// The tab's one Jotai store (issue 5, CONVENTIONS.md): an atom per symbol holding its latest
// quote, the market connection's status, every market's state (with the market of each symbol
// and the symbols the tab shows, for the visor's line about them), and the positions of
// watched accounts. The data worker's batches are written here, so a quote cell re-renders
// only when its own symbol changed. Nothing else imports jotai.
import { atom, createStore, useAtomValue } from 'jotai';
import { atomFamily } from 'jotai-family';
import { parseYyyymmdd } from '../lib/calendar';
import { useMemo } from 'react';
import type { Quote } from '../lib/quote';
import type { MarketName, MarketStateEntry } from '../protocol/market';
import type { CachedPositions, Fill, MarketsEvent, MarketStatus, OfflineStatus, PositionsStatus, TabMessage } from '../workers/api';

/** The worker's states as the tab's screens read them (features do not import the worker). */
export type { CachedPositions, Fill, MarketsEvent, MarketStatus, OfflineStatus, PositionsStatus };
import type { QuoteRecord } from '../shared/db';

export interface QuoteState {
  quote: Quote;
  /** False for a quote read from the local cache and not yet confirmed by the socket. */
  live: boolean;
}

export const dataStore = createStore();

export const quoteAtom = atomFamily((_symbol: string) => atom<QuoteState | null>(null));

export const marketStatusAtom = atom<MarketStatus>({ state: 'idle', reconnected: false, user: null });

/** Every market's state, as the market socket last told it (null: not known). */
export const marketsAtom = atom<MarketsEvent | null>(null);

/** The market of each symbol a live quote named (quotes name it from their first snapshot). */
const symbolMarketsAtom = atom<ReadonlyMap<string, MarketName>>(new Map<string, MarketName>());

/** The symbols this tab holds (its screen shows), as last announced to the worker. */
const heldSymbolsAtom = atom<ReadonlySet<string>>(new Set<string>());

/** The markets not running now, as a stable text (`rofex,a3500`): a change of it is a change of what is stale. */
export const staleMarketsKeyAtom = atom((get) =>
  (get(marketsAtom)?.markets ?? [])
    .filter((entry) => entry.state !== 'running')
    .map((entry) => entry.market)
    .join(','),
);

/** The markets of the symbols this tab shows, with their states, in the event's order; null while none is known. */
export const shownMarketsAtom = atom((get) => {
  const event = get(marketsAtom);
  if (!event) return null;
  const symbolMarkets = get(symbolMarketsAtom);
  const shown = new Set<MarketName>();
  for (const symbol of get(heldSymbolsAtom)) {
    const market = symbolMarkets.get(symbol);
    if (market) shown.add(market);
  }
  return { event, shown: event.markets.filter((entry) => shown.has(entry.market)) };
});

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
    case 'markets':
      dataStore.set(marketsAtom, message.markets);
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
  let symbolMarkets: Map<string, MarketName> | null = null;
  const known = dataStore.get(symbolMarketsAtom);
  for (const [symbol, quote] of Object.entries(quotes)) {
    dataStore.set(quoteAtom(symbol), { quote, live: true });
    // Learned once per symbol: the one write of the map for the batch.
    if (quote.market && known.get(symbol) !== quote.market) (symbolMarkets ??= new Map(known)).set(symbol, quote.market);
  }
  if (symbolMarkets) dataStore.set(symbolMarketsAtom, symbolMarkets);
}

/** The symbols this tab holds now (data/worker.ts, after each change it announces). */
export function setHeldSymbols(symbols: Iterable<string>): void {
  dataStore.set(heldSymbolsAtom, new Set(symbols));
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

/** Every market's state, as the market socket last told it (null: not known). */
export function useMarketStates(): MarketsEvent | null {
  return useAtomValue(marketsAtom, { store: dataStore });
}

/**
 * The markets not running now (stopped, silent, reconnecting, closed): the quotes of their
 * symbols are stale. The same set while nothing changes.
 */
export function useStaleMarkets(): ReadonlySet<MarketName> {
  const key = useAtomValue(staleMarketsKeyAtom, { store: dataStore });
  return useMemo(() => new Set(key === '' ? [] : (key.split(',') as MarketName[])), [key]);
}

/** The states of the markets these symbols belong to (those a live quote named), in the event's order. */
export function useMarketStatesOf(symbols: readonly string[]): MarketStateEntry[] {
  const event = useMarketStates();
  const known = useAtomValue(symbolMarketsAtom, { store: dataStore });
  const key = symbols.join('\n');
  return useMemo(() => {
    const markets = new Set(key.split('\n').map((symbol) => known.get(symbol)));
    return event?.markets.filter((entry) => markets.has(entry.market)) ?? [];
  }, [event, known, key]);
}

/**
 * The session a quote's market is in, as the market socket last said (the chart draws only the
 * trades inside it: history keeps the sessions alone); null while not known.
 */
export function sessionOfQuote(quote: Quote | null | undefined): MarketStateEntry['session'] | null {
  const market = quote?.market;
  if (market == null) return null;
  return dataStore.get(marketsAtom)?.markets.find((entry) => entry.market === market)?.session ?? null;
}

/** Whether a quote's market is one of `stale` (its values then are not live, whatever their own flag). */
export function inStaleMarket(quote: Quote | null | undefined, stale: ReadonlySet<MarketName>): boolean {
  return quote?.market != null && stale.has(quote.market);
}

/** Whether a symbol's values are not live: none live yet or any longer, or its market is one of `stale`. */
export function isStaleQuote(state: QuoteState | null | undefined, stale: ReadonlySet<MarketName>): boolean {
  return !state?.live || inStaleMarket(state.quote, stale);
}

/** The markets event and, of its markets, those of the symbols this tab shows; null while not known. */
export function useShownMarketStates(): { event: MarketsEvent; shown: MarketStateEntry[] } | null {
  return useAtomValue(shownMarketsAtom, { store: dataStore });
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

/**
 * Logout: what the tab holds of the user goes (the quotes they watched, their accounts'
 * positions and fills, the markets the socket told them): the next user of this tab starts
 * from nothing. Cells still mounted read null and wait.
 */
export function forgetSessionState(): void {
  for (const symbol of [...quoteAtom.getParams()]) dataStore.set(quoteAtom(symbol), null);
  for (const account of [...positionsAtom.getParams()]) dataStore.set(positionsAtom(account), null);
  for (const account of [...fillsAtom.getParams()]) dataStore.set(fillsAtom(account), null);
  dataStore.set(marketsAtom, null);
  dataStore.set(symbolMarketsAtom, new Map<string, MarketName>());
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
