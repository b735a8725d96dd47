// The market side of the data worker: one socket for every tab, subscriptions counted per
// tab, ticks fanned out per tab, last quotes cached in Dexie, and the waiting helpers.
import { yyyymmdd } from '../lib/calendar';
import type { Quote } from '../lib/quote';
import { ExpirationResponse } from '../protocol/market';
import type { WorkspaceEvent } from '../protocol/workspace';
import type { PlainError } from '../shared/errors';
import type { HttpClient } from '../shared/http';
import type { MarketsEvent, MarketStatus, SubscribeResult, TabPort, TabRegistration, TabReply } from './api';
import { createConnectivityCheck } from './connectivity';
import { createMarketSocket, type Logger } from './marketSocket';
import { createQuoteCache, type QuoteTable } from './quoteCache';
import type { OpenSocket } from './socketTransport';
import { createSubscriptions, type SubscriptionChange } from './subscriptions';
import { createTabRegistry, type LockRequester } from './tabs';
import { createTickFanout, TAB_BATCH_INTERVAL_MS } from './tickFanout';
import * as waiting from './waiting';

export interface MarketServiceOptions {
  socketUrl: string;
  /** The worker's client of the API: connectivity checks (`/health`) and contract expirations. */
  http: HttpClient;
  openSocket: OpenSocket;
  locks: LockRequester | null;
  /** Dexie's quotes table; null keeps no cache. */
  quoteTable: QuoteTable | null;
  tabTimeoutMs?: number;
  log?: Logger;
  /** Least time between two ticks batches to one tab (TAB_BATCH_INTERVAL_MS by default). */
  tabBatchIntervalMs?: number;
  /** Called when a tab is gone (closed, crashed, unregistered, or silent too long). */
  onTabGone?: (tabId: string) => void;
  /** Every change of the market socket's status (the worker's connectivity follows it). */
  onStatus?: (status: MarketStatus) => void;
  /** The user's workspace changed on another device or browser (the socket's `workspace` event). */
  onWorkspace?: (event: WorkspaceEvent) => void;
}

export type MarketService = ReturnType<typeof createMarketService>;

const unknownTab = (tabId: string): PlainError => ({ code: 'unknown_tab', message: `Unknown tab ${tabId}: register again`, status: 0 });

export function createMarketService(options: MarketServiceOptions) {
  const log = options.log ?? console;
  const subscriptions = createSubscriptions();
  const cache = options.quoteTable ? createQuoteCache({ table: options.quoteTable, log }) : null;

  const apply = (change: SubscriptionChange) => {
    if (change.removed.length > 0) socket.unsubscribe(change.removed);
    if (change.added.length > 0) void socket.subscribe(change.added);
  };

  const tabs = createTabRegistry<TabPort>({
    locks: options.locks,
    ...(options.tabTimeoutMs == null ? {} : { timeoutMs: options.tabTimeoutMs }),
    onGone(tabId, port) {
      fanout.forget(tabId);
      apply(subscriptions.dropTab(tabId));
      options.onTabGone?.(tabId);
      port.close();
    },
  });

  const fanout = createTickFanout({
    tabsOf: (symbol) => subscriptions.tabsOf(symbol),
    portOf: (tabId) => tabs.get(tabId),
    quoteOf: (symbol) => socket.quote(symbol),
    tabIntervalMs: options.tabBatchIntervalMs ?? TAB_BATCH_INTERVAL_MS,
  });

  const checkConnectivity = createConnectivityCheck({ http: options.http });
  /** The latest markets event: every tab gets it, and a tab that registers gets it at once. */
  let markets: MarketsEvent | null = null;

  const socket = createMarketSocket({
    url: options.socketUrl,
    openSocket: options.openSocket,
    checkConnectivity,
    log,
    onQuotes(symbols) {
      fanout.changed(symbols);
      if (cache) for (const symbol of symbols) cache.record(symbol, socket.quote(symbol)!);
    },
    onStatus(status: MarketStatus) {
      options.onStatus?.(status);
      for (const port of tabs.values()) port.postMessage({ type: 'market-status', status });
    },
    onWorkspace: (event) => options.onWorkspace?.(event),
    onMarkets(event) {
      if (event === null && markets === null) return;
      markets = event;
      for (const port of tabs.values()) port.postMessage({ type: 'markets', markets });
    },
  });

  const fetchExpiration = async (symbol: string): Promise<string> => {
    const known = socket.quote(symbol)?.expiration;
    if (known) return yyyymmdd(known);
    const { body } = await options.http.request('POST', '/get_expiration_contract', { body: { contract_name: symbol }, schema: ExpirationResponse });
    return body.expiration;
  };

  return {
    setToken(next: string | null) {
      if (next) socket.start(next);
      else socket.stop();
    },
    registerTab({ tabId, lockName, port }: TabRegistration) {
      tabs.register(tabId, lockName, port);
      port.onmessage = (event) => {
        const reply = event.data as TabReply | null;
        if (reply?.type === 'painted') fanout.painted(tabId);
        else if (reply?.type === 'off-screen' && Array.isArray(reply.symbols))
          fanout.offScreen(
            tabId,
            reply.symbols.filter((symbol) => typeof symbol === 'string'),
          );
      };
      port.postMessage({ type: 'market-status', status: socket.status });
      if (markets) port.postMessage({ type: 'markets', markets });
    },
    heartbeat: (tabId: string) => tabs.touch(tabId),
    unregisterTab: (tabId: string) => tabs.remove(tabId),
    async subscribe(tabId: string, symbols: string[]): Promise<SubscribeResult> {
      if (!tabs.get(tabId)) throw unknownTab(tabId);
      apply(subscriptions.want(tabId, symbols));
      fanout.seed(tabId, symbols);
      return socket.subscribe(symbols);
    },
    async unsubscribe(tabId: string, symbols: string[]): Promise<void> {
      if (!tabs.get(tabId)) throw unknownTab(tabId);
      apply(subscriptions.release(tabId, symbols));
    },
    getMarketStatus: (): MarketStatus => socket.status,
    /** The port of a registered tab, to post it other TabMessages. */
    portOf: (tabId: string): TabPort | undefined => tabs.get(tabId),
    ports: (): Iterable<TabPort> => tabs.values(),
    getQuote: (symbol: string): Quote | null => socket.quote(symbol) ?? null,
    waitForSymbols: (symbols: string[], timeoutMs?: number) =>
      waiting.waitForSymbols((symbol) => socket.quote(symbol) != null, symbols, timeoutMs ?? waiting.SYMBOL_WAIT_MS, waiting.SYMBOL_POLL_MS, log),
    waitForExpiration: (symbol: string, timeoutMs?: number) =>
      waiting.waitForExpiration((s) => socket.quote(s)?.expiration, symbol, { ...(timeoutMs == null ? {} : { timeoutMs }), log }),
    getExpirationDates: (symbols: string[]) => waiting.getExpirationDates(symbols, fetchExpiration, log),
    /** Empties the quote cache, waiting writes included (logout, or another user signs in). */
    clearQuoteCache: () => cache?.clear() ?? Promise.resolve(),
    /** Writes what the cache holds (before the worker goes away, and in tests). */
    flushCache: () => cache?.flush() ?? Promise.resolve(),
    dispose() {
      socket.stop();
      tabs.dispose();
      fanout.dispose();
      cache?.dispose();
    },
  };
}
