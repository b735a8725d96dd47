// The two websocket streams of the Primary API, each on its own reconnecting socket:
// market data (`smd` → `Md`) and order reports (`os` → `or`). Order reports are asked for
// one account per `os`, the first time with the account's orders of the day, after that (a
// reconnect) with the working ones only (snapshotOnlyActive); reports sent again are the
// subscriber's to de-duplicate (by execId).
//
// The protocol has no unsubscribe. Symbols added while a connection is open are subscribed
// with one more `smd` on it (subscriptions add up on a connection), so the other symbols keep
// flowing; removing symbols stops their delivery at once and renews the connection with the
// remaining set after the debounce window, so a burst of changes costs one reconnect.
//
// Symbols go in `smd` messages of at most maxSymbolsPerSmd products: the exchange may refuse
// a whole message for one product it does not list ("Product X:ROFX don't exist"). A refused
// symbol leaves the wanted set for good (logged, and told to onRefused listeners), and the
// other symbols of the refused message that sent nothing are subscribed again without it.
import type { LookupFunction } from 'node:net';
import type { MarketDataEntry, MarketUpdate } from '../../../src/protocol/market.js';
import { createPrimarySocket, type PrimarySocket } from './socket.js';
import { isRecord } from '../../../src/lib/isRecord.js';
import { errorDescription, isMessageType, toMarketUpdate, toOrderReportMessage } from './normalize.js';
import {
  PRIMARY_MARKET_ID,
  type BackoffOptions,
  type MarketDataStream,
  type OrderReportStream,
  type PrimaryLogger,
  type PrimaryOrderReportMessage,
  type StreamStateName,
  type StreamStatus,
  type TokenSource,
} from './types.js';

export interface StreamDeps {
  wsUrl: string;
  lookup?: LookupFunction | undefined;
  tokens: TokenSource;
  logger: PrimaryLogger;
  backoff: BackoffOptions;
  pingIntervalMs: number;
  now: () => number;
}

export interface MarketDataStreamOptions extends StreamDeps {
  debounceMs: number;
  entries: readonly MarketDataEntry[];
  depth: number;
  /** Most products in one `smd`. */
  maxSymbolsPerSmd: number;
}

/** The exchange's text for a product it does not list: "Product DLR/XX:ROFX don't exist". */
const UNKNOWN_PRODUCT = /^Product (.+):([^:]*) don't exist$/;

/** The symbol an ERROR's description refuses, if it refuses one. */
export function refusedProduct(description: string): string | null {
  return UNKNOWN_PRODUCT.exec(description.trim())?.[1] ?? null;
}

/** The symbols of the `smd` an ERROR message echoes in `message`, when it does. */
function echoedProducts(message: Record<string, unknown>): string[] | null {
  if (typeof message.message !== 'string') return null;
  let request: unknown;
  try {
    request = JSON.parse(message.message);
  } catch {
    return null;
  }
  if (!isRecord(request) || !Array.isArray(request.products)) return null;
  return request.products.flatMap((product) => (isRecord(product) && typeof product.symbol === 'string' ? [product.symbol] : []));
}

/** `items` in consecutive groups of at most `size`. */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const groups: T[][] = [];
  for (let index = 0; index < items.length; index += size) groups.push(items.slice(index, index + size));
  return groups;
}

/** Calls each listener, so one that throws neither stops the others nor the socket. */
function notifyAll<T>(listeners: Iterable<(value: T) => void>, value: T, logger: PrimaryLogger, what: string): void {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch (error) {
      logger.error(`Primary ${what} listener failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function difference(a: Iterable<string>, b: Set<string>): string[] {
  return [...a].filter((item) => !b.has(item));
}

/** Status bookkeeping shared by both streams. */
function createStatus(socketState: () => StreamStateName) {
  const listeners = new Set<(status: StreamStatus) => void>();
  let lastError: string | null = null;
  return {
    listeners,
    setError(message: string) {
      lastError = message;
    },
    snapshot(subscribedSymbols: number, updatesReceived: number, lastUpdateAt: number | null): StreamStatus {
      return { state: socketState(), lastError, subscribedSymbols, updatesReceived, lastUpdateAt };
    },
  };
}

interface SubscribedSocketSpec {
  name: string;
  /** What is wanted now (symbols, accounts). */
  wanted: () => Set<string>;
  /** The messages that subscribe some of them. */
  subscribeMessages: (items: Iterable<string>) => object[];
  /** Called on every open, before the subscriptions are sent. */
  onConnected?: () => void;
  /**
   * What becomes of items no longer wanted. The protocol has no unsubscribe: 'renew' opens a
   * new connection without them; 'keep' leaves them subscribed (the stream filters them).
   */
  removed: 'renew' | 'keep';
  onMessage(message: unknown): void;
  onState(): void;
  onError(message: string): void;
}

/**
 * A reconnecting socket kept subscribed to what is wanted: `apply` stops it when nothing is,
 * starts it when idle, subscribes what was added on the open connection, and renews the
 * connection when items went (with removed: 'renew'); each open subscribes the whole set.
 */
function createSubscribedSocket(deps: StreamDeps, spec: SubscribedSocketSpec) {
  /** The items subscribed on the current connection. */
  let onConnection = new Set<string>();
  const socket: PrimarySocket = createPrimarySocket({
    name: spec.name,
    url: deps.wsUrl,
    lookup: deps.lookup,
    tokens: deps.tokens,
    logger: deps.logger,
    backoff: deps.backoff,
    pingIntervalMs: deps.pingIntervalMs,
    onOpen(send) {
      spec.onConnected?.();
      onConnection = new Set(spec.wanted());
      if (onConnection.size > 0) for (const message of spec.subscribeMessages(onConnection)) send(message);
    },
    onMessage: spec.onMessage,
    onState: spec.onState,
    onError: spec.onError,
  });

  const apply = () => {
    const wanted = spec.wanted();
    if (wanted.size === 0) {
      socket.stop();
      onConnection = new Set();
      return;
    }
    if (socket.state() === 'idle') {
      socket.start();
      return;
    }
    // Connecting or reconnecting: the next open subscribes the whole current set.
    if (!socket.isOpen()) return;
    const removed = spec.removed === 'renew' ? difference(onConnection, wanted) : [];
    if (removed.length > 0) {
      deps.logger.info(`Primary ${spec.name}: renewing the connection without ${removed.join(', ')}`);
      socket.restart();
      return;
    }
    const added = difference(wanted, onConnection);
    if (added.length === 0) return;
    for (const message of spec.subscribeMessages(added)) if (!socket.send(message)) return;
    for (const item of added) onConnection.add(item);
  };

  /** Items the current connection does not have after all (refused): the next apply sends them if still wanted. */
  const forget = (items: Iterable<string>) => {
    for (const item of items) onConnection.delete(item);
  };

  return { socket, apply, forget };
}

export function createMarketDataStream(options: MarketDataStreamOptions): MarketDataStream {
  const { logger, now } = options;
  const wanted = new Set<string>();
  /** Symbols the exchange refused, with its description: never asked for again. */
  const refused = new Map<string, string>();
  /** Symbols with an Md on the current connection. */
  const heard = new Set<string>();
  /** Other symbols of refused `smd` messages: subscribed again at the next apply unless they were heard. */
  const suspect = new Set<string>();
  const updateListeners = new Set<(update: MarketUpdate) => void>();
  const refusedListeners = new Set<(symbol: string, description: string) => void>();
  let updatesReceived = 0;
  let lastUpdateAt: number | null = null;
  let debounceTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const smd = (symbols: Iterable<string>) =>
    chunks([...symbols], Math.max(1, options.maxSymbolsPerSmd)).map((group) => ({
      type: 'smd',
      level: 1,
      entries: [...options.entries],
      products: group.map((symbol) => ({ symbol, marketId: PRIMARY_MARKET_ID })),
      depth: options.depth,
    }));

  /** The exchange does not list `symbol`: out of the wanted set, logged, told to the listeners. */
  const refuse = (symbol: string, description: string) => {
    const wasWanted = wanted.delete(symbol);
    refused.set(symbol, description);
    forget([symbol]);
    if (wasWanted) logger.warn(`Primary market data: ${symbol} refused by the exchange (${description}); not asked for again`);
    for (const listener of refusedListeners) {
      try {
        listener(symbol, description);
      } catch (error) {
        logger.error(`Primary refused-symbol listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };

  const status = createStatus(() => socket.state());
  const state = () => status.snapshot(wanted.size, updatesReceived, lastUpdateAt);
  const announce = () => notifyAll(status.listeners, state(), logger, 'market data state');

  const handleMessage = (message: unknown) => {
    if (!isRecord(message)) {
      logger.warn('Primary market data: skipped a message that is not an object');
      return;
    }
    // Errors come as {status:'ERROR', description}, with or without a `type`.
    if (message.status === 'ERROR') {
      const description = errorDescription(message);
      logger.warn(`Primary market data: the exchange answered ERROR: ${description}`);
      status.setError(description);
      const symbol = refusedProduct(description);
      if (symbol != null) {
        // The other products of the refused message may not be subscribed: checked at the next apply.
        const others = echoedProducts(message) ?? [...wanted];
        for (const other of others) if (other !== symbol) suspect.add(other);
        refuse(symbol, description);
        scheduleApply();
      }
      announce();
      return;
    }
    if (isMessageType(message, 'md')) {
      const update = toMarketUpdate(message, now);
      if (!update) {
        logger.warn('Primary market data: skipped an Md message without instrumentId.symbol');
        return;
      }
      heard.add(update.instrumentId.symbol);
      // Removed symbols stop here, before the connection is renewed without them.
      if (!wanted.has(update.instrumentId.symbol)) return;
      updatesReceived++;
      lastUpdateAt = now();
      notifyAll(updateListeners, update, logger, 'market data');
      return;
    }
    // Other types (e.g. `or` on this socket) are not this stream's business.
  };

  const {
    socket,
    apply: subscribeWanted,
    forget,
  } = createSubscribedSocket(options, {
    name: 'market data',
    wanted: () => wanted,
    subscribeMessages: smd,
    onConnected() {
      heard.clear();
      suspect.clear();
    },
    removed: 'renew',
    onMessage: handleMessage,
    onState: announce,
    onError(message) {
      status.setError(message);
      announce();
    },
  });

  const apply = () => {
    debounceTimer = null;
    if (closed) return;
    // Symbols of a refused smd that sent nothing were not subscribed: sent again.
    forget([...suspect].filter((symbol) => !heard.has(symbol)));
    suspect.clear();
    subscribeWanted();
  };

  function scheduleApply() {
    if (debounceTimer || closed) return;
    debounceTimer = setTimeout(apply, options.debounceMs);
  }

  return {
    subscribe(symbols) {
      if (closed) {
        logger.warn('Primary market data: subscribe after close ignored');
        return;
      }
      let changed = false;
      for (const raw of symbols) {
        const symbol = raw.trim();
        if (symbol === '' || wanted.has(symbol)) continue;
        const refusal = refused.get(symbol);
        if (refusal != null) {
          // Told again, so a new subscriber learns it too.
          refuse(symbol, refusal);
          continue;
        }
        wanted.add(symbol);
        changed = true;
      }
      if (changed) scheduleApply();
    },
    unsubscribe(symbols) {
      let changed = false;
      for (const raw of symbols) changed = wanted.delete(raw.trim()) || changed;
      if (changed) scheduleApply();
    },
    onUpdate(listener) {
      updateListeners.add(listener);
      return () => updateListeners.delete(listener);
    },
    onState(listener) {
      status.listeners.add(listener);
      return () => status.listeners.delete(listener);
    },
    onRefused(listener) {
      refusedListeners.add(listener);
      return () => refusedListeners.delete(listener);
    },
    refused: () => Object.fromEntries([...refused].sort(([a], [b]) => a.localeCompare(b))),
    forgetRefused() {
      const symbols = [...refused.keys()].sort();
      refused.clear();
      return symbols;
    },
    state,
    symbols: () => [...wanted].sort(),
    close() {
      if (closed) return;
      closed = true;
      if (debounceTimer) clearTimeout(debounceTimer);
      debounceTimer = null;
      socket.close();
    },
  };
}

interface OrderReportSubscription {
  accounts: Set<string>;
  listener: (message: PrimaryOrderReportMessage) => void;
}

export function createOrderReportStream(options: StreamDeps): OrderReportStream {
  const { logger, now } = options;
  const subscriptions = new Set<OrderReportSubscription>();
  let reportsReceived = 0;
  let lastReportAt: number | null = null;
  let closed = false;

  const wantedAccounts = () => {
    const accounts = new Set<string>();
    for (const subscription of subscriptions) for (const account of subscription.accounts) accounts.add(account);
    return accounts;
  };
  /** Accounts whose orders of the day were asked for once: later subscriptions (reconnects) ask for the working ones only. */
  const snapshotTaken = new Set<string>();
  // The documented form, as the official client sends it: one message per account.
  const os = (accounts: Iterable<string>) =>
    [...accounts].map((id) => {
      const message = { type: 'os', account: { id }, snapshotOnlyActive: snapshotTaken.has(id) };
      snapshotTaken.add(id);
      return message;
    });

  const status = createStatus(() => socket.state());
  const state = () => status.snapshot(wantedAccounts().size, reportsReceived, lastReportAt);

  const handleMessage = (message: unknown) => {
    if (!isRecord(message)) return;
    // Errors come as {status:'ERROR', description}, with or without a `type`.
    if (message.status === 'ERROR') {
      const description = errorDescription(message);
      logger.warn(`Primary order reports: the exchange answered ERROR: ${description}`);
      status.setError(description);
      return;
    }
    if (isMessageType(message, 'or')) {
      const report = toOrderReportMessage(message, now);
      if (!report) {
        logger.warn('Primary order reports: skipped an or message without orderReport.accountId.id');
        return;
      }
      reportsReceived++;
      lastReportAt = now();
      for (const subscription of subscriptions) {
        if (!subscription.accounts.has(report.orderReport.accountId.id)) continue;
        notifyAll([subscription.listener], report, logger, 'order report');
      }
    }
  };

  const { socket, apply: subscribeWanted } = createSubscribedSocket(options, {
    name: 'order reports',
    wanted: wantedAccounts,
    subscribeMessages: os,
    // Accounts no longer wanted are filtered on delivery; they cost no reconnect.
    removed: 'keep',
    onMessage: handleMessage,
    onState: () => {},
    onError: (message) => status.setError(message),
  });

  const apply = () => {
    if (closed) return;
    subscribeWanted();
  };

  return {
    subscribe(accounts, listener) {
      if (closed) {
        logger.warn('Primary order reports: subscribe after close ignored');
        return () => {};
      }
      const subscription: OrderReportSubscription = { accounts: new Set(accounts), listener };
      subscriptions.add(subscription);
      apply();
      return () => {
        subscriptions.delete(subscription);
        apply();
      };
    },
    state,
    close() {
      closed = true;
      socket.close();
    },
  };
}
