// The hub across processes (REDIS_URL): the process that runs a feed publishes each update
// to the symbol's channel; every process subscribes in Redis only to the symbols its own
// clients want, and fans out to them. Latest states are kept in a Redis hash, written in
// batches, so a process can answer a snapshot for a symbol it has not seen yet.
import { Redis } from 'ioredis';
import type { MarketData, MarketUpdate } from '../../src/protocol/market.js';
import type { Hub, SymbolListener } from './hub.js';

const LATEST_FLUSH_MS = 50;

export function createRedisHub(url: string, prefix: string, onError: (error: Error) => void): Hub & { client: Redis } {
  // Auto-pipelining sends the commands of one event-loop turn in one write.
  const publisher = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableAutoPipelining: true });
  // The updates of one turn (a simulator step, a Primary message) leave as ONE command that
  // publishes each on its symbol's channel: every process still subscribes to the symbols its
  // clients want, but this process pays the client library's per-command cost (a command
  // object, a promise, a reply) once per turn instead of once per tick.
  publisher.defineCommand('publishEach', {
    numberOfKeys: 0,
    lua: "for i = 1, #ARGV, 2 do redis.call('PUBLISH', ARGV[i], ARGV[i + 1]) end return #ARGV / 2",
  });
  const subscriber = new Redis(url, { lazyConnect: false });
  publisher.on('error', onError);
  subscriber.on('error', onError);
  const channelPrefix = `${prefix}md:`;
  const latestKey = `${prefix}md:latest`;

  const latest = new Map<string, MarketData>();
  /**
   * Symbols whose channel has delivered since this process subscribed: only for these is the
   * local state known to be current (a symbol watched earlier keeps a stale one).
   */
  const live = new Set<string>();
  const listeners = new Map<string, Set<SymbolListener>>();
  const dirty = new Map<string, string>();
  let flushTimer: NodeJS.Timeout | null = null;
  let published = 0;

  subscriber.on('message', (channel: string, payload: string) => {
    const symbol = channel.slice(channelPrefix.length);
    let md: MarketData;
    try {
      md = JSON.parse(payload) as MarketData;
    } catch {
      return;
    }
    latest.set(symbol, md);
    const set = listeners.get(symbol);
    if (set) live.add(symbol);
    if (set) for (const listener of set) listener(symbol, md, payload);
  });

  /** Channel and payload pairs of this turn, published together (publishEach). */
  let outgoing: string[] = [];
  const flushOutgoing = () => {
    const args = outgoing;
    outgoing = [];
    (publisher as Redis & { publishEach(...args: string[]): Promise<number> }).publishEach(...args).catch(onError);
  };

  const flushLatest = () => {
    flushTimer = null;
    if (dirty.size === 0) return;
    const entries = [...dirty.entries()].flat();
    dirty.clear();
    publisher.hset(latestKey, ...entries).catch(onError);
  };

  return {
    publish(update: MarketUpdate): void {
      const symbol = update.instrumentId.symbol;
      const merged = { ...latest.get(symbol), ...update.marketData };
      latest.set(symbol, merged);
      const payload = JSON.stringify(merged);
      published += 1;
      // Local subscribers hear it back through Redis, like every other process.
      if (outgoing.length === 0) queueMicrotask(flushOutgoing);
      outgoing.push(channelPrefix + symbol, payload);
      dirty.set(symbol, payload);
      flushTimer ??= setTimeout(flushLatest, LATEST_FLUSH_MS);
    },

    subscribe(symbol: string, listener: SymbolListener): () => void {
      let set = listeners.get(symbol);
      if (!set) {
        listeners.set(symbol, (set = new Set()));
        subscriber.subscribe(channelPrefix + symbol).catch(onError);
      }
      set.add(listener);
      return () => {
        const current = listeners.get(symbol);
        if (!current) return;
        current.delete(listener);
        if (current.size === 0) {
          listeners.delete(symbol);
          live.delete(symbol);
          subscriber.unsubscribe(channelPrefix + symbol).catch(onError);
        }
      };
    },

    latest(symbol: string): MarketData | null {
      return latest.get(symbol) ?? null;
    },

    /**
     * The latest state: this process's own while its channel is live, else the one stored in
     * Redis (at most LATEST_FLUSH_MS behind). Checked again after the read: an update that
     * arrived meanwhile is newer than what was stored.
     */
    async snapshot(symbol: string): Promise<MarketData | null> {
      if (live.has(symbol)) return latest.get(symbol) ?? null;
      const stored = await publisher.hget(latestKey, symbol);
      if (live.has(symbol)) return latest.get(symbol) ?? null;
      if (!stored) return latest.get(symbol) ?? null;
      return JSON.parse(stored) as MarketData;
    },

    subscribedSymbols(): string[] {
      return [...listeners.keys()];
    },

    get published(): number {
      return published;
    },

    /** The connection the feed lock uses. */
    client: publisher,

    async close(): Promise<void> {
      if (flushTimer) clearTimeout(flushTimer);
      flushLatest();
      subscriber.disconnect();
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}
