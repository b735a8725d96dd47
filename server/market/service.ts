// Everything the market routes and socket share: catalogue, hub, feeds, counters, and the
// admin's view and control of the feeds across processes.
//
// With REDIS_URL, each feed runs in the one process that holds its lock, so the admin's
// start, stop and pace cannot simply act on the process a request reached: they are stored
// in Redis as the feed's wish, and every process is told to apply it (only the feed's
// process has anything to do). A process that takes a feed over applies the wish too, so a
// stopped feed stays stopped after its process dies. What the admin reads (the feeds, their
// clients and subscribed symbols, the market sockets) is gathered from every process.
import type { Config } from '../config.js';
import { createLocalCluster, type Cluster, type ClusterAnswer } from '../cluster.js';
import type { FeedName } from '../../src/protocol/market.js';
import { marketOf, type Instrument } from './catalogue.js';
import { createTradingCalendar, MARKET_NAMES, type MarketName } from './calendar.js';
import { createFeeds, FEED_NAMES, type Feeds, type FeedStatus } from './feeds.js';
import { createFeedLock } from './feedLock.js';
import { createMarketHub, type Hub } from './hub.js';
import { createMarketStates, type FeedReport } from './marketStates.js';
import { createRedisHub } from './redisHub.js';

/** What the service knows of one open market socket. */
export interface MarketSocketInfo {
  user: { id: string; username: string };
  /** Epoch ms when it authenticated. */
  openedAt: number;
  /** Symbols as the catalogue spells the names the socket wrote. */
  keys(): Iterable<string>;
  instruments(): Iterable<Instrument>;
}

/** What the admin last asked of a feed: whether it runs, and a simulated feed's pace. */
export interface FeedWish {
  running: boolean;
  /** Ticks per second. */
  rate: number;
}

interface FeedCounters {
  /** Updates merged into a pending one for the same symbol before they were sent. */
  coalesced: number;
  /** Data messages sent to market sockets. */
  messagesSent: number;
}

/** One process's answer to 'market:feeds'. */
interface ProcessFeeds {
  feeds: (FeedStatus & { runsHere: boolean; subscribed: string[]; clients: number })[];
  stats: FeedCounters & { published: number };
  sockets: number;
  positionsSockets: number;
  startedAt: number;
}

/** A feed as the admin sees it: where it runs, and its clients and symbols in every process. */
export interface FeedAdminStatus extends FeedStatus {
  /** The process that runs the feed (holds its lock); null while none does. */
  process: string | null;
  /** Market sockets watching at least one of its instruments, in every process. */
  clients: number;
  /** Its symbols with a subscriber in some process. */
  subscribedSymbols: number;
}

export interface MarketSocketAdminInfo {
  process: string;
  user: { id: string; username: string };
  openedAt: number;
  symbols: string[];
}

const isWish = (value: unknown): value is FeedWish =>
  typeof value === 'object' && value != null && typeof (value as FeedWish).running === 'boolean' && typeof (value as FeedWish).rate === 'number';

export interface MarketServiceOptions {
  /** This process's name, in the feed locks and in admin answers. */
  processId: string;
  /** How admin questions reach every process; this one alone by default. */
  cluster?: Cluster;
  /** This process's open positions sockets, for the admin's view of the processes. */
  positionsSockets?: () => number;
}

export function createMarketService(
  config: Config,
  realNow: () => number,
  log: { warn(obj: unknown, msg: string): void; info(msg: string): void },
  options: MarketServiceOptions,
) {
  const { processId } = options;
  /** When this process started, for the admin's uptime. */
  const startedAt = realNow();
  const cluster = options.cluster ?? createLocalCluster(processId);
  const onRedisError = (error: Error) => log.warn({ err: error }, 'redis');
  const redisHub = config.redisUrl ? createRedisHub(config.redisUrl, config.redisPrefix, onRedisError) : null;
  const hub: Hub = redisHub ?? createMarketHub();
  const calendar = createTradingCalendar(config.market.sessions);
  // The simulated market's clock: the real one, or (SIM_MARKET_TIME, without the real exchange)
  // a session's hour of the last trading day, running from there. Reckoned from the start of the
  // real hour, so a process restarted within it goes on where the other was.
  const hourStart = Math.floor(realNow() / 3_600_000) * 3_600_000;
  const shift = config.market.simMarketTime != null && !config.primary ? calendar.shiftTo(config.market.simMarketTime, hourStart) : 0;
  const now = shift === 0 ? realNow : () => realNow() + shift;
  if (shift !== 0) log.info(`market clock: ${new Date(now() - 3 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ')} in Buenos Aires (SIM_MARKET_TIME)`);
  const { ticksPerSecond, ...simulator } = config.simulator;
  /** When each feed last published an update in this process. */
  const lastUpdates = new Map<FeedName, number>();
  /** The feed of each symbol published (the exchange's form), learned once. */
  const feedOfSymbol = new Map<string, FeedName>();
  // The feeds publish through this: each update also notes when its feed last published. Every
  // other member is the hub's own (through the prototype, its getters too).
  const feedHub: Hub = Object.create(hub, {
    publish: {
      value(update: Parameters<Hub['publish']>[0]): void {
        const symbol = update.instrumentId.symbol;
        let feed = feedOfSymbol.get(symbol);
        if (feed === undefined) {
          feed = feeds.catalogue.resolve(symbol)?.feed;
          if (feed) feedOfSymbol.set(symbol, feed);
        }
        if (feed) lastUpdates.set(feed, now());
        hub.publish(update);
      },
    },
  }) as Hub;
  const feeds: Feeds = createFeeds({
    hub: feedHub,
    simulator,
    ticksPerSecond,
    now,
    primary: config.primary,
    log,
    calendar,
    simCalendar: config.market.simCalendar,
  });
  const locks = new Map<FeedName, ReturnType<typeof createFeedLock>>();
  /** Connected market sockets, each telling who opened it and what it watches. */
  const clients = new Set<MarketSocketInfo>();
  const stats: FeedCounters = { coalesced: 0, messagesSent: 0 };
  /** Without Redis the wishes live here. */
  const localWishes = new Map<FeedName, FeedWish>();
  const wishKey = (name: FeedName) => `${config.redisPrefix}feed-wish:${name}`;

  /** Market sockets watching at least one instrument of the feed. */
  function clientsOf(feed: FeedName): number {
    let count = 0;
    for (const client of clients) {
      for (const instrument of client.instruments()) {
        if (instrument.feed === feed) {
          count += 1;
          break;
        }
      }
    }
    return count;
  }

  /** Whether this process is the one that runs the feed (with Redis, holds its lock). */
  const runsHere = (name: FeedName) => !redisHub || locks.get(name)?.held === true;

  async function wishOf(name: FeedName): Promise<FeedWish> {
    let stored: unknown = localWishes.get(name);
    if (redisHub) {
      const text = await redisHub.client.get(wishKey(name));
      try {
        stored = text == null ? null : JSON.parse(text);
      } catch {
        stored = null; // not ours to read: as if none, and the next admin change writes it again
      }
    }
    return isWish(stored) ? stored : { running: true, rate: ticksPerSecond };
  }

  /** Runs, stops and paces the feed as wished, when it is this process's to run. */
  async function applyWish(name: FeedName): Promise<void> {
    if (!runsHere(name)) return;
    const wish = await wishOf(name);
    if (!runsHere(name)) return; // the lock went while the wish was read
    feeds.setRate(name, wish.rate);
    if (wish.running) feeds.start(name);
    else feeds.stop(name);
    markets.refresh();
  }

  function processFeeds(): ProcessFeeds {
    const subscribed = hub.subscribedSymbols();
    return {
      feeds: FEED_NAMES.map((name) => ({
        ...feeds.status(name),
        runsHere: runsHere(name),
        subscribed: subscribed.filter((symbol) => feeds.catalogue.resolve(symbol)?.feed === name),
        clients: clientsOf(name),
      })),
      stats: { published: hub.published, ...stats },
      sockets: clients.size,
      positionsSockets: options.positionsSockets?.() ?? 0,
      startedAt,
    };
  }

  function feedsView(answers: ClusterAnswer<ProcessFeeds>[], silent = 0) {
    const data: FeedAdminStatus[] = FEED_NAMES.map((name, index) => {
      const entries = answers.map(({ processId: id, answer }) => ({ id, feed: answer.feeds[index]! }));
      const holder = entries.find((entry) => entry.feed.runsHere) ?? null;
      // While no process holds the feed (a takeover under way), this process describes it, stopped.
      const { runsHere: _runsHere, subscribed: _subscribed, clients: _clients, ...status } = (holder ?? entries[0]!).feed;
      return {
        ...status,
        ...(holder ? {} : { state: 'stopped' as const, ticksPerSecond: 0, recentTicksPerSecond: 0 }),
        process: holder?.id ?? null,
        clients: entries.reduce((sum, entry) => sum + entry.feed.clients, 0),
        subscribedSymbols: new Set(entries.flatMap((entry) => entry.feed.subscribed)).size,
      };
    });
    const sum = (pick: (stats: ProcessFeeds['stats']) => number) => answers.reduce((total, { answer }) => total + pick(answer.stats), 0);
    return {
      data,
      /** Fan-out counters since each process started, summed. */
      stats: { published: sum((s) => s.published), coalesced: sum((s) => s.coalesced), messagesSent: sum((s) => s.messagesSent) },
      processes: answers.map(({ processId: id, answer }) => ({
        process: id,
        sockets: answer.sockets,
        positionsSockets: answer.positionsSockets,
        startedAt: answer.startedAt,
        feeds: FEED_NAMES.filter((_, index) => answer.feeds[index]!.runsHere),
      })),
      silent,
    };
  }

  /** The exchange connection as last seen, and since when. */
  const connections = new Map<FeedName, { state: FeedReport['connection']; since: number }>();
  function connectionOf(name: FeedName): { state: FeedReport['connection']; since: number } {
    const raw = feeds.connection(name);
    const state: FeedReport['connection'] = raw == null || raw === 'open' ? 'up' : raw === 'idle' ? 'idle' : 'down';
    const previous = connections.get(name);
    if (previous?.state === state) return previous;
    const next = { state, since: now() };
    connections.set(name, next);
    return next;
  }

  /** The feed each market's instruments come from (A3500's spot reference is on the rofex feed). */
  const feedOfMarket = Object.fromEntries(
    MARKET_NAMES.map((market) => [
      market,
      feeds.catalogue.instruments.find((instrument) => marketOf(instrument) === market)?.feed ?? (market === 'byma' ? 'tv' : 'rofex'),
    ]),
  ) as Record<MarketName, FeedName>;

  const markets = createMarketStates({
    hub,
    calendar,
    now,
    silentMs: config.feedSilentMs,
    simCalendar: config.market.simCalendar,
    feedOf: feedOfMarket,
    exchangeFeeds: new Set(FEED_NAMES.filter((name) => feeds.status(name).source === 'primary')),
    ownReports: () =>
      FEED_NAMES.filter(runsHere).map((name): FeedReport => {
        const status = feeds.status(name);
        const connection = connectionOf(name);
        return {
          feed: name,
          owner: processId,
          source: status.source,
          running: status.state === 'running',
          since: status.since,
          connection: connection.state,
          connectionSince: connection.since,
          lastUpdate: lastUpdates.get(name) ?? null,
        };
      }),
  });

  cluster.answer('market:feeds', processFeeds);
  cluster.answer('market:sockets', (): Omit<MarketSocketAdminInfo, 'process'>[] =>
    [...clients].map((client) => ({ user: client.user, openedAt: client.openedAt, symbols: [...client.keys()].sort() })),
  );
  /** The feed's symbols this process's sockets want, each with how many sockets want it. */
  cluster.answer('market:feed-symbols', (name): [string, number][] => {
    const counts = new Map<string, number>();
    if (typeof name !== 'string' || !feeds.isFeed(name)) return [];
    for (const client of clients) {
      for (const instrument of client.instruments()) {
        if (instrument.feed !== name) continue;
        const symbol = instrument.instrumentId.symbol;
        counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
      }
    }
    return [...counts];
  });
  cluster.answer('market:apply-wish', async (name) => {
    if (typeof name === 'string' && feeds.isFeed(name)) await applyWish(name);
    return true;
  });

  return {
    processId,
    hub,
    clients,
    feeds,
    catalogue: feeds.catalogue,
    /** Trading days and each market's session hours. */
    calendar,
    /** The market's clock (the real one unless SIM_MARKET_TIME moves it). */
    now,
    /** Each market's state, as the market socket tells it. */
    markets,
    /** Runs the feeds: here, or (with Redis) in whichever process holds each feed's lock. */
    start(): void {
      // Every process keeps its list of contracts current, whether it runs a feed or not.
      feeds.keepListed();
      if (!redisHub) {
        feeds.startAll();
        markets.start();
        return;
      }
      markets.start();
      for (const name of FEED_NAMES) {
        const lock = createFeedLock({
          redis: redisHub.client,
          key: `${config.redisPrefix}feed-lock:${name}`,
          owner: processId,
          ttlMs: config.feedLockTtlMs,
          onAcquire: () => {
            log.info(`feed ${name}: running in this process`);
            applyWish(name).catch((error: Error) => {
              // The wish could not be read: run the feed, as with no wish at all.
              onRedisError(error);
              if (runsHere(name)) feeds.start(name);
            });
          },
          onLose: () => {
            feeds.stop(name);
            markets.refresh();
          },
          onError: onRedisError,
        });
        locks.set(name, lock);
      }
    },
    admin: {
      /** Every feed, wherever it runs, with the clients and symbols of every process. */
      async feeds() {
        const { answers, silent } = await cluster.askCounted<ProcessFeeds>('market:feeds');
        // This process's own view, whatever the cluster's answer held (a reply lost in a cut).
        const withOwn = answers.some((entry) => entry.processId === cluster.processId)
          ? answers
          : [{ processId: cluster.processId, answer: processFeeds() }, ...answers];
        return feedsView(withOwn, silent);
      },
      /** A feed's symbols that sockets of any process want, with how many sockets, most wanted first. */
      async feedSymbols(name: FeedName): Promise<{ symbol: string; sockets: number }[]> {
        const total = new Map<string, number>();
        for (const { answer } of await cluster.ask<[string, number][]>('market:feed-symbols', name)) {
          for (const [symbol, count] of answer) total.set(symbol, (total.get(symbol) ?? 0) + count);
        }
        return [...total].map(([symbol, sockets]) => ({ symbol, sockets })).sort((a, b) => b.sockets - a.sockets || a.symbol.localeCompare(b.symbol));
      },
      /** The market sockets of every process. */
      async sockets(): Promise<MarketSocketAdminInfo[]> {
        const answers = await cluster.ask<Omit<MarketSocketAdminInfo, 'process'>[]>('market:sockets');
        return answers.flatMap(({ processId: id, answer }) => answer.map((socket) => ({ process: id, ...socket })));
      },
      /**
       * Stores the admin's wish for a feed and has the process that runs it apply it; resolves
       * with the feed as it is then.
       */
      async control(name: FeedName, change: Partial<FeedWish>): Promise<FeedAdminStatus> {
        const wish = { ...(await wishOf(name)), ...change };
        if (redisHub) await redisHub.client.set(wishKey(name), JSON.stringify(wish));
        else localWishes.set(name, wish);
        await cluster.ask('market:apply-wish', name);
        return feedsView(await cluster.ask<ProcessFeeds>('market:feeds')).data.find((feed) => feed.name === name)!;
      },
    },
    async close(): Promise<void> {
      markets.close();
      await Promise.all([...locks.values()].map((lock) => lock.release()));
      feeds.stopAll();
      await hub.close();
    },
    stats,
  };
}
export type MarketService = ReturnType<typeof createMarketService>;
