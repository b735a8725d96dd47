// The hub across processes (REDIS_URL): the process that runs a feed publishes each update
// to the symbol's channel; every process subscribes in Redis only to the symbols its own
// clients want, and fans out to them. Latest states are kept in a Redis hash, written in
// batches, so a process can answer a snapshot for a symbol it has not seen yet.
//
// The feed's own process hands each update to its own listeners at once, as the in-process
// hub does, instead of waiting for it to come back from Redis, and holds no Redis
// subscription for the symbols it publishes until the feed stops here (released()): its
// clients are spared the round trip, and it the receiving of its own ticks. Each payload
// starts with the publishing process's tag, so an echo that arrives anyway (a channel
// subscribed just before this process began publishing on it) is dropped, not delivered twice.
// Feed state reports (marketStates.ts) go on one channel every process subscribes to.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { commandClientOptions } from '../redisOptions.js';
import type { MarketData, MarketUpdate } from '../../src/protocol/market.js';
import type { Hub, SymbolListener } from './hub.js';

const LATEST_FLUSH_MS = 50;
/** A payload is the publisher's tag (this many characters) and the state as JSON. */
export const ORIGIN_TAG_LENGTH = 9;

/** `text` as a literal in a Redis glob pattern. */
export const globEscape = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');

/** A process's tag on what it publishes: 8 hex digits and a colon. */
export function originTag(): string {
  return `${randomBytes(4).toString('hex')}:`;
}

export function createRedisHub(
  url: string,
  prefix: string,
  onError: (error: Error) => void,
  origin: string = originTag(),
): Hub & { client: Redis; redisChannels(): string[] } {
  if (origin.length !== ORIGIN_TAG_LENGTH || origin.includes('{')) throw new Error(`origin tag must be ${ORIGIN_TAG_LENGTH} characters without '{'`);
  let closing = false;
  /** Errors reported; a command cut off by close() is none. */
  const report = (error: Error) => {
    if (!closing) onError(error);
  };
  // Auto-pipelining sends the commands of one event-loop turn in one write.
  const publisher = new Redis(url, { ...commandClientOptions, lazyConnect: false, enableAutoPipelining: true });
  // The updates of one turn (a simulator step, a Primary message) leave as ONE command that
  // publishes each on its symbol's channel: every process still subscribes to the symbols its
  // clients want, but this process pays the client library's per-command cost (a command
  // object, a promise, a reply) once per turn instead of once per tick.
  publisher.defineCommand('publishEach', {
    numberOfKeys: 0,
    lua: "for i = 1, #ARGV, 2 do redis.call('PUBLISH', ARGV[i], ARGV[i + 1]) end return #ARGV / 2",
  });
  const subscriber = new Redis(url, { lazyConnect: false });
  publisher.on('error', report);
  subscriber.on('error', report);
  const channelPrefix = `${prefix}md:`;
  const latestKey = `${prefix}md:latest`;
  /** Feed state reports (publishFeedState): every process listens, whatever its clients want. */
  const stateChannel = `${prefix}feed-state`;
  const stateListeners = new Set<(state: unknown) => void>();
  const deliverState = (state: unknown) => {
    for (const listener of stateListeners) listener(state);
  };
  subscriber.subscribe(stateChannel).catch(report);

  const latest = new Map<string, MarketData>();
  /**
   * Symbols whose channel has delivered since this process subscribed: only for these is the
   * local state known to be current (a symbol watched earlier keeps a stale one).
   */
  const live = new Set<string>();
  const listeners = new Map<string, Set<SymbolListener>>();
  /** Symbols this process publishes (its feed runs here): they need no Redis subscription. */
  const publishedHere = new Set<string>();
  /** Channels subscribed in Redis, by symbol. */
  const subscribed = new Set<string>();
  /** Subscribes or unsubscribes the symbol's channel: wanted when a listener here needs another process's updates. */
  const syncChannel = (symbol: string) => {
    const wanted = listeners.has(symbol) && !publishedHere.has(symbol);
    if (wanted === subscribed.has(symbol)) return;
    if (wanted) {
      subscribed.add(symbol);
      subscriber.subscribe(channelPrefix + symbol).catch(report);
    } else {
      subscribed.delete(symbol);
      subscriber.unsubscribe(channelPrefix + symbol).catch(report);
    }
  };
  const dirty = new Map<string, string>();
  let flushTimer: NodeJS.Timeout | null = null;
  let published = 0;

  const deliver = (symbol: string, md: MarketData, json: string) => {
    latest.set(symbol, md);
    const set = listeners.get(symbol);
    if (!set) return;
    live.add(symbol);
    for (const listener of set) listener(symbol, md, json);
  };

  subscriber.on('message', (channel: string, payload: string) => {
    // This process's own update, already delivered when it was published.
    if (payload.startsWith(origin)) return;
    const json = payload.slice(ORIGIN_TAG_LENGTH);
    if (channel === stateChannel) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(json);
      } catch {
        return;
      }
      deliverState(parsed);
      return;
    }
    let md: MarketData;
    try {
      md = JSON.parse(json) as MarketData;
    } catch {
      return;
    }
    deliver(channel.slice(channelPrefix.length), md, json);
  });

  /** Channel and payload pairs of this turn, published together (publishEach). */
  let outgoing: string[] = [];
  const flushOutgoing = () => {
    const args = outgoing;
    outgoing = [];
    (publisher as Redis & { publishEach(...args: string[]): Promise<number> }).publishEach(...args).catch(report);
  };

  const flushLatest = () => {
    flushTimer = null;
    if (dirty.size === 0) return;
    const entries = [...dirty.entries()].flat();
    dirty.clear();
    publisher.hset(latestKey, ...entries).catch(report);
  };

  return {
    publish(update: MarketUpdate): void {
      const symbol = update.instrumentId.symbol;
      const merged = { ...latest.get(symbol), ...update.marketData };
      const json = JSON.stringify(merged);
      published += 1;
      if (outgoing.length === 0) queueMicrotask(flushOutgoing);
      outgoing.push(channelPrefix + symbol, origin + json);
      dirty.set(symbol, json);
      flushTimer ??= setTimeout(flushLatest, LATEST_FLUSH_MS);
      if (!publishedHere.has(symbol)) {
        publishedHere.add(symbol);
        syncChannel(symbol);
      }
      deliver(symbol, merged, json);
    },

    released(symbols: Iterable<string>): void {
      for (const symbol of symbols) {
        if (!publishedHere.delete(symbol)) continue;
        // Another process may publish it from now on: what this one knows may go stale.
        live.delete(symbol);
        syncChannel(symbol);
      }
    },

    subscribe(symbol: string, listener: SymbolListener): () => void {
      let set = listeners.get(symbol);
      if (!set) {
        listeners.set(symbol, (set = new Set()));
        syncChannel(symbol);
      }
      set.add(listener);
      return () => {
        const current = listeners.get(symbol);
        if (!current) return;
        current.delete(listener);
        if (current.size === 0) {
          listeners.delete(symbol);
          live.delete(symbol);
          syncChannel(symbol);
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
      if (live.has(symbol) || publishedHere.has(symbol)) return latest.get(symbol) ?? null;
      const stored = await publisher.hget(latestKey, symbol);
      if (live.has(symbol)) return latest.get(symbol) ?? null;
      if (!stored) return latest.get(symbol) ?? null;
      return JSON.parse(stored) as MarketData;
    },

    /** Symbols whose channel this process holds in Redis (tests). */
    redisChannels(): string[] {
      return [...subscribed];
    },

    subscribedSymbols(): string[] {
      return [...listeners.keys()];
    },

    /**
     * This process's symbols and every symbol another process holds a channel for: a process
     * subscribes to a symbol's channel exactly while its clients want it from elsewhere, so
     * Redis itself knows the demand (PUBSUB CHANNELS), and a dead process's drops out with its
     * connection, with no record to expire.
     */
    async demand(): Promise<string[]> {
      const channels = await publisher.pubsub('CHANNELS', `${globEscape(channelPrefix)}*`);
      const wanted = new Set(listeners.keys());
      for (const channel of channels as string[]) wanted.add(channel.slice(channelPrefix.length));
      return [...wanted];
    },

    get published(): number {
      return published;
    },

    publishFeedState(state: unknown): void {
      publisher.publish(stateChannel, origin + JSON.stringify(state)).catch(report);
      deliverState(state);
    },

    onFeedState(listener: (state: unknown) => void): () => void {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },

    /** The connection the feed lock uses. */
    client: publisher,

    async close(): Promise<void> {
      closing = true;
      stateListeners.clear();
      if (flushTimer) clearTimeout(flushTimer);
      flushLatest();
      subscriber.disconnect();
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}
