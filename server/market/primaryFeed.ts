// The rofex feed on the real exchange (PRIMARY_URL, PRIMARY_USERNAME, PRIMARY_PASSWORD):
// the exchange's instruments join the catalogue, and market data is subscribed for exactly
// the symbols some client wants: of this process, or with Redis of any process (the feed
// runs in one of them and publishes what the exchange sends to the others). A symbol the
// exchange refuses (it does not list it) is published with every entry cleared, so its
// subscribers get its state at once: nothing.
import type { MarketUpdate } from '../../src/protocol/market.js';
import type { Catalogue } from './catalogue.js';
import type { Hub } from './hub.js';
import { createPrimaryClient } from './primary/client.js';
import { noMarketData } from './primary/normalize.js';
import { PRIMARY_MARKET_ID, type PrimaryClient, type StreamStateName } from './primary/types.js';

const DEMAND_EVERY_MS = 250;

export interface PrimarySettings {
  url: string;
  username: string;
  password: string;
}

export function createPrimaryFeed(options: {
  settings: PrimarySettings;
  hub: Hub;
  catalogue: Catalogue;
  onUpdate: (update: MarketUpdate) => void;
  log: { warn(obj: unknown, msg: string): void };
  client?: PrimaryClient;
}) {
  const { hub, catalogue } = options;
  const client =
    options.client ??
    createPrimaryClient({
      baseUrl: options.settings.url,
      username: options.settings.username,
      password: options.settings.password,
      logger: { info: () => {}, warn: (m) => options.log.warn({}, m), error: (m) => options.log.warn({}, m) },
    });
  const subscribed = new Set<string>();
  let demandTimer: NodeJS.Timeout | null = null;
  let loaded: Promise<void> | null = null;
  let lastError: string | null = null;
  /** Why the last demand read failed, until one succeeds. */
  let demandError: string | null = null;
  client.marketData.onUpdate(options.onUpdate);
  client.marketData.onRefused((symbol, description) => {
    options.log.warn({ symbol, description }, `Primary refused ${symbol}; its subscribers get an empty state`);
    options.onUpdate({ instrumentId: { marketId: PRIMARY_MARKET_ID, symbol }, marketData: noMarketData(), timestamp: Date.now() });
  });

  /** Adds the exchange's instruments the catalogue lacks. */
  async function loadInstruments(): Promise<void> {
    try {
      for (const detail of await client.instruments()) catalogue.addExchangeInstrument(detail);
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      options.log.warn({ err: error }, 'Primary instruments could not be loaded');
      loaded = null; // tried again at the next start
    }
  }

  /** A demand read is under way (with Redis, a round trip): a timer tick meanwhile is skipped. */
  let syncing = false;
  async function syncDemand(): Promise<void> {
    if (syncing) return;
    syncing = true;
    let demand: string[];
    try {
      demand = await hub.demand();
    } catch (error) {
      // Redis out of reach: the subscriptions stay as they are until it answers again.
      demandError = `Demanda de símbolos no disponible: ${error instanceof Error ? error.message : String(error)}`;
      return;
    } finally {
      syncing = false;
    }
    if (demandTimer == null) return; // stopped while the demand was read
    demandError = null;
    const wanted = new Set(demand.filter((symbol) => catalogue.resolve(symbol)?.feed === 'rofex'));
    const added = [...wanted].filter((symbol) => !subscribed.has(symbol));
    const removed = [...subscribed].filter((symbol) => !wanted.has(symbol));
    if (added.length > 0) client.marketData.subscribe(added);
    if (removed.length > 0) client.marketData.unsubscribe(removed);
    for (const symbol of added) subscribed.add(symbol);
    for (const symbol of removed) subscribed.delete(symbol);
  }

  return {
    get running(): boolean {
      return demandTimer != null;
    },
    /** The exchange's market data connection: open, connecting, reconnecting, or idle while nothing is wanted. */
    get connection(): StreamStateName {
      return client.marketData.state().state;
    },
    get lastError(): string | null {
      return client.marketData.state().lastError ?? demandError ?? lastError;
    },
    start(): void {
      if (demandTimer) return;
      loaded ??= loadInstruments();
      demandTimer = setInterval(() => void syncDemand(), DEMAND_EVERY_MS);
      demandTimer.unref();
      void syncDemand();
    },
    /** A new day: the exchange's list is read again (now if the feed runs, else at its start). */
    refreshInstruments(): void {
      loaded = demandTimer ? loadInstruments() : null;
      // The new list may have what was refused: asked for again when still wanted.
      const again = client.marketData.forgetRefused().filter((symbol) => subscribed.has(symbol));
      if (again.length > 0) client.marketData.subscribe(again);
    },
    stop(): void {
      if (demandTimer) clearInterval(demandTimer);
      demandTimer = null;
      if (subscribed.size > 0) client.marketData.unsubscribe([...subscribed]);
      subscribed.clear();
    },
    /** The exchange's trades of a day or a span of days (its history). */
    trades: (symbol: string, date: Parameters<PrimaryClient['trades']>[1]) => client.trades(symbol, date),
    lastPrice(symbol: string): number | null {
      return hub.latest(symbol)?.LA?.price ?? null;
    },
    close(): void {
      this.stop();
      client.close();
    },
  };
}
export type PrimaryFeed = ReturnType<typeof createPrimaryFeed>;
