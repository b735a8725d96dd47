// Everything the market routes and socket share: catalogue, hub, feeds, counters.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../config.js';
import type { FeedName, Instrument } from './catalogue.js';
import { createFeeds, FEED_NAMES } from './feeds.js';
import { createFeedLock } from './feedLock.js';
import { createMarketHub, type Hub } from './hub.js';
import { createRedisHub } from './redisHub.js';

/** A feed lock lapses this long after its holder stops renewing it (a dead process). */
const FEED_LOCK_TTL_MS = 3000;

/** What the service knows of one open market socket. */
export interface MarketSocketInfo {
  user: { id: string; username: string };
  /** Epoch ms when it authenticated. */
  openedAt: number;
  /** Symbols as the socket wrote them. */
  keys(): Iterable<string>;
  instruments(): Iterable<Instrument>;
}

export function createMarketService(config: Config, now: () => number, log: { warn(obj: unknown, msg: string): void; info(msg: string): void }) {
  const onRedisError = (error: Error) => log.warn({ err: error }, 'redis');
  const redisHub = config.redisUrl ? createRedisHub(config.redisUrl, config.redisPrefix, onRedisError) : null;
  const hub: Hub = redisHub ?? createMarketHub();
  const { ticksPerSecond, ...simulator } = config.simulator;
  const feeds = createFeeds({ hub, simulator, ticksPerSecond, now, primary: config.primary, log });
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  let locks: ReturnType<typeof createFeedLock>[] = [];
  /** Connected market sockets, each telling who opened it and what it watches. */
  const clients = new Set<MarketSocketInfo>();
  return {
    hub,
    clients,
    /** Market sockets watching at least one instrument of the feed. */
    clientsOf(feed: FeedName): number {
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
    },
    feeds,
    catalogue: feeds.catalogue,
    /** Runs the feeds: here, or (with Redis) in whichever process holds each feed's lock. */
    start(): void {
      if (!redisHub) {
        feeds.startAll();
        return;
      }
      locks = FEED_NAMES.map((name) =>
        createFeedLock({
          redis: redisHub.client,
          key: `${config.redisPrefix}feed-lock:${name}`,
          owner,
          ttlMs: FEED_LOCK_TTL_MS,
          onAcquire: () => {
            log.info(`feed ${name}: running in this process`);
            feeds.start(name);
          },
          onLose: () => feeds.stop(name),
          onError: onRedisError,
        }),
      );
    },
    async close(): Promise<void> {
      await Promise.all(locks.map((lock) => lock.release()));
      feeds.stopAll();
      await hub.close();
    },
    stats: {
      /** Updates merged into a pending one for the same symbol before they were sent. */
      coalesced: 0,
      /** Data messages sent to market sockets. */
      messagesSent: 0,
    },
  };
}
export type MarketService = ReturnType<typeof createMarketService>;
