// Everything the market routes and socket share: catalogue, hub, feeds, counters.
import type { Config } from '../config.js';
import type { FeedName, Instrument } from './catalogue.js';
import { createFeeds } from './feeds.js';
import { createMarketHub } from './hub.js';

export function createMarketService(config: Config, now: () => number) {
  const hub = createMarketHub();
  const { ticksPerSecond, ...simulator } = config.simulator;
  const feeds = createFeeds({ hub, simulator, ticksPerSecond, now });
  /** Connected market sockets, each telling what it watches. */
  const clients = new Set<{ instruments(): Iterable<Instrument> }>();
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
    stats: {
      /** Updates merged into a pending one for the same symbol before they were sent. */
      coalesced: 0,
      /** Data messages sent to market sockets. */
      messagesSent: 0,
    },
  };
}
export type MarketService = ReturnType<typeof createMarketService>;
