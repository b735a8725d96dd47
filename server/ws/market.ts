// /ws/market: live quotes keyed by symbol (issue 4). After auth, {action:'subscribe', symbol,
// requestId?} (or a batch, {symbols:[…]}) answers at once with a snapshot keyed by the symbol
// as the catalogue spells the name the client wrote (`rofex:dlr/dic26` is `ROFEX:DLR/DIC26`,
// `DLR/DIC26` stays itself), carrying the requestId and each symbol's market; updates follow in
// one message keyed by symbol per socket and flush. Right after `authenticated`, and again
// whenever one changes, the `markets` event tells every market's state (market/marketStates.ts).
//
// Fan-out is per symbol, not per socket: the process listens to the hub once per symbol,
// marks it dirty on each update (latest state wins), and a flush serializes each dirty state
// once and appends it to the frame of every socket that watches it. Sockets are spread over
// a few flush groups, each flushed at most once per MARKET_LIMITS.flushIntervalMs: a flush
// writes one frame per socket (a system call each, the largest cost of fan-out), so with
// every socket in one group, the last socket of a flush of thousands waited for all the
// others; groups flush in turn, each a fraction of the sockets, and the work of one interval
// is spread over it instead of arriving in one burst. A slow client (send buffer over the
// high-water mark) gets nothing appended: its updates wait in a map of one latest state per
// symbol it watches, sent merged when it drains, so it never slows others nor grows server
// memory without bound.
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { SubscribeManyMessage, SubscribeMessage, type MarketData, type SymbolMessage } from '../../src/protocol/market.js';
import { isSafeText } from '../../src/protocol/zod.js';
import type { AppContext } from '../context.js';
import { marketOf, type Instrument } from '../market/catalogue.js';
import type { MarketService, MarketSocketInfo } from '../market/service.js';
import { registerSocketEndpoint, type SocketSession } from './endpoint.js';

export const MARKET_LIMITS = {
  maxSubscriptions: 2000,
  /** Above this many bytes waiting in a socket's send buffer, updates wait, merged. */
  sendBufferHighWater: 512 * 1024,
  /** How often a blocked client is checked again. */
  retryMs: 50,
  /**
   * Least time between two flushes. Each flush costs a write (a system call) per socket that
   * gets something, the largest cost of fan-out; under a steady stream of ticks this bounds
   * frames to one per socket per interval, while a tick after a quiet spell goes out at once.
   */
  flushIntervalMs: 25,
  /**
   * Sockets are spread over this many flush groups (the least full takes a new socket). Each
   * group keeps its own dirty symbols and its own flush cadence; a group's flush starts when
   * it is due, so under load the groups' flushes fall one after another across the interval.
   */
  flushGroups: 8,
  /**
   * How long a subscribe waits for the first state of a symbol nobody has heard of yet: on the
   * exchange, the feed asks for it once a client wants it, and its first Md is the snapshot.
   * The answer waits without holding up the socket's next messages.
   */
  firstStateWaitMs: 2000,
} as const;

/** One symbol as one socket wrote it. */
interface Subscription {
  client: MarketClient;
  key: string;
  /** The key as JSON, escaped once. */
  keyJson: string;
  instrument: Instrument;
}

interface MarketClient extends MarketSocketInfo {
  socket: WebSocket;
  /** Index of the flush group this socket belongs to. */
  group: number;
  subscriptions: Map<string, Subscription>;
  /** Fragments `"key":{…}` of the frame being built in this flush. */
  parts: string[];
  /** The flush that last looked at this client, and whether its buffer was full then. */
  flushEpoch: number;
  blocked: boolean;
  /** Latest unsent state per key while blocked. */
  pending: Map<string, MarketData>;
  retry: NodeJS.Timeout | null;
  closed: boolean;
}

function messageOf(instrument: Instrument, md: MarketData): SymbolMessage {
  return instrument.maturityDate ? { md, expiration: instrument.maturityDate } : { md };
}

/** The answer to a subscribe also names the symbol's market, whose state the `markets` event tells. */
function snapshotOf(instrument: Instrument, md: MarketData): SymbolMessage {
  return { ...messageOf(instrument, md), market: marketOf(instrument) };
}

/** JSON.stringify(messageOf(instrument, md)), from `md` already serialized when there is one. */
function messageJsonOf(instrument: Instrument, md: MarketData, mdJson: string | null): string {
  const mdText = mdJson ?? JSON.stringify(md);
  return instrument.maturityDate ? `{"md":${mdText},"expiration":${JSON.stringify(instrument.maturityDate)}}` : `{"md":${mdText}}`;
}

/** The sockets of one exchange symbol, and its latest state as the message every socket gets. */
interface Watcher {
  /** Subscriptions by flush group. */
  byGroup: Set<Subscription>[];
  stop: () => void;
  /** The latest state the hub gave, the hub's JSON of it if any, and its message once serialized: once per state, not per group. */
  md: MarketData | null;
  mdJson: string | null;
  message: string | null;
  /** Subscribes waiting for the symbol's first state (see firstState). */
  waiters: Set<() => void>;
}

/** Per-symbol fan-out from the hub to the sockets of this process. */
function createFanout(market: MarketService) {
  const groupCount = MARKET_LIMITS.flushGroups;
  /** Per flush group: symbols updated since its last flush, with their latest state. */
  const groups = Array.from({ length: groupCount }, () => ({
    dirty: new Map<string, MarketData>(),
    scheduled: false,
    lastFlush: -Infinity,
    clients: 0,
  }));
  /** Per exchange symbol: its subscriptions by flush group, and the hub listener that feeds them. */
  const watchers = new Map<string, Watcher>();
  let epoch = 0;

  function frameOf(client: MarketClient, parts: string[]): void {
    if (client.socket.readyState !== client.socket.OPEN) return;
    client.socket.send(`{${parts.join(',')}}`);
    market.stats.messagesSent += 1;
  }

  function hold(client: MarketClient, key: string, md: MarketData): void {
    if (client.pending.has(key)) market.stats.coalesced += 1;
    client.pending.set(key, md);
    client.retry ??= setTimeout(() => drain(client), MARKET_LIMITS.retryMs);
  }

  /** Sends a blocked client's merged updates once its buffer is below the mark. */
  function drain(client: MarketClient): void {
    client.retry = null;
    if (client.closed || client.pending.size === 0) return;
    if (client.socket.bufferedAmount > MARKET_LIMITS.sendBufferHighWater) {
      client.retry = setTimeout(() => drain(client), MARKET_LIMITS.retryMs);
      return;
    }
    const parts: string[] = [];
    for (const [key, md] of client.pending) {
      const subscription = client.subscriptions.get(key);
      if (subscription) parts.push(`${subscription.keyJson}:${JSON.stringify(messageOf(subscription.instrument, md))}`);
    }
    client.pending.clear();
    if (parts.length > 0) frameOf(client, parts);
  }

  function flush(index: number): void {
    const group = groups[index]!;
    group.scheduled = false;
    group.lastFlush = performance.now();
    epoch += 1;
    const touched: MarketClient[] = [];
    for (const [symbol, md] of group.dirty) {
      const watcher = watchers.get(symbol);
      if (!watcher) continue;
      const subscriptions = watcher.byGroup[index]!;
      let json: string | null = null; // serialized once per state for every socket that gets it
      let fragment: string | null = null; // `"symbol":{…}`, shared by every socket that wrote the symbol as the exchange does
      for (const subscription of subscriptions) {
        const { client } = subscription;
        if (client.flushEpoch !== epoch) {
          client.flushEpoch = epoch;
          client.blocked = client.pending.size > 0 || client.socket.bufferedAmount > MARKET_LIMITS.sendBufferHighWater;
          if (!client.blocked) touched.push(client);
        }
        if (client.blocked) {
          hold(client, subscription.key, md);
          continue;
        }
        json ??=
          watcher.md === md
            ? (watcher.message ??= messageJsonOf(subscription.instrument, md, watcher.mdJson))
            : messageJsonOf(subscription.instrument, md, null);
        if (subscription.key === symbol) client.parts.push((fragment ??= `${subscription.keyJson}:${json}`));
        else client.parts.push(`${subscription.keyJson}:${json}`);
      }
    }
    group.dirty.clear();
    for (const client of touched) {
      const { parts } = client;
      client.parts = [];
      frameOf(client, parts);
    }
  }

  function schedule(index: number): void {
    const group = groups[index]!;
    group.scheduled = true;
    const wait = group.lastFlush + MARKET_LIMITS.flushIntervalMs - performance.now();
    if (wait <= 0) setImmediate(flush, index);
    else setTimeout(flush, wait, index);
  }

  function onUpdate(symbol: string, md: MarketData, mdJson?: string): void {
    const watching = watchers.get(symbol);
    if (!watching) return;
    watching.md = md;
    watching.mdJson = mdJson ?? null;
    watching.message = null;
    for (const waiter of watching.waiters) waiter();
    for (let index = 0; index < groupCount; index++) {
      const subscriptions = watching.byGroup[index]!;
      if (subscriptions.size === 0) continue;
      const group = groups[index]!;
      if (group.dirty.has(symbol)) market.stats.coalesced += subscriptions.size;
      group.dirty.set(symbol, md);
      if (!group.scheduled) schedule(index);
    }
  }

  return {
    /** The flush group of a new socket: the one with the fewest sockets. */
    join(): number {
      let best = 0;
      for (let index = 1; index < groupCount; index++) if (groups[index]!.clients < groups[best]!.clients) best = index;
      groups[best]!.clients += 1;
      return best;
    },
    leave(index: number): void {
      groups[index]!.clients -= 1;
    },
    add(subscription: Subscription): void {
      const symbol = subscription.instrument.instrumentId.symbol;
      let entry = watchers.get(symbol);
      if (!entry) {
        entry = { byGroup: groups.map(() => new Set<Subscription>()), stop: () => {}, md: null, mdJson: null, message: null, waiters: new Set() };
        watchers.set(symbol, entry);
        entry.stop = market.hub.subscribe(symbol, onUpdate);
      }
      entry.byGroup[subscription.client.group]!.add(subscription);
    },
    remove(subscription: Subscription): void {
      const symbol = subscription.instrument.instrumentId.symbol;
      const entry = watchers.get(symbol);
      if (!entry) return;
      const index = subscription.client.group;
      const subscriptions = entry.byGroup[index]!;
      subscriptions.delete(subscription);
      subscription.client.pending.delete(subscription.key);
      if (subscriptions.size === 0) groups[index]!.dirty.delete(symbol);
      if (entry.byGroup.every((set) => set.size === 0)) {
        watchers.delete(symbol);
        entry.stop();
        for (const waiter of entry.waiters) waiter();
      }
    },
    /** The latest state the hub gave for a watched symbol, if any. */
    latest(symbol: string): MarketData | null {
      return watchers.get(symbol)?.md ?? null;
    },
    /** Resolves once a watched symbol has a state, or after `timeoutMs`, or when nobody watches it any more. */
    firstState(symbol: string, timeoutMs: number): Promise<void> {
      const watcher = watchers.get(symbol);
      if (!watcher || watcher.md) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          watcher.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        watcher.waiters.add(done);
      });
    },
  };
}
type Fanout = ReturnType<typeof createFanout>;

function createMarketClient(session: SocketSession, market: MarketService, fanout: Fanout, openedAt: number) {
  const { socket, send } = session;
  const client: MarketClient = {
    socket,
    group: fanout.join(),
    user: { id: session.user.id, username: session.user.username },
    openedAt,
    keys: () => client.subscriptions.keys(),
    subscriptions: new Map(),
    parts: [],
    flushEpoch: 0,
    blocked: false,
    pending: new Map(),
    retry: null,
    closed: false,
    *instruments(): Iterable<Instrument> {
      for (const subscription of client.subscriptions.values()) yield subscription.instrument;
    },
  };
  market.clients.add(client);

  return {
    client,
    /** Subscribes each key and answers with one message holding every snapshot. */
    async subscribeMany(entries: [string, Instrument][], requestId: string | undefined): Promise<void> {
      for (const [key, instrument] of entries) {
        if (client.subscriptions.has(key)) continue;
        const subscription: Subscription = { client, key, keyJson: JSON.stringify(key), instrument };
        client.subscriptions.set(key, subscription);
        fanout.add(subscription);
      }
      const stored = await Promise.all(entries.map(([, instrument]) => market.hub.snapshot(instrument.instrumentId.symbol)));
      const reply = () => {
        if (client.closed) return;
        const answer: Record<string, unknown> = {};
        entries.forEach(([key, instrument], index) => {
          // An update held for a blocked client, or one that came while the snapshot was read, is newer.
          const symbol = instrument.instrumentId.symbol;
          answer[key] = snapshotOf(instrument, client.pending.get(key) ?? fanout.latest(symbol) ?? stored[index] ?? {});
          client.pending.delete(key);
        });
        if (requestId != null) answer.requestId = requestId;
        send(answer);
      };
      const unheard = entries.filter(([, instrument], index) => stored[index] == null && fanout.latest(instrument.instrumentId.symbol) == null);
      if (unheard.length === 0) return reply();
      // Symbols nobody has a state of yet (the exchange sends it once the feed asks): the
      // answer waits for them, briefly, while the socket's next messages go on.
      void Promise.all(unheard.map(([, instrument]) => fanout.firstState(instrument.instrumentId.symbol, MARKET_LIMITS.firstStateWaitMs))).then(reply);
    },
    unsubscribe(key: string): void {
      const subscription = client.subscriptions.get(key);
      if (!subscription) return;
      client.subscriptions.delete(key);
      fanout.remove(subscription);
    },
    close(): void {
      if (client.closed) return;
      client.closed = true;
      market.clients.delete(client);
      fanout.leave(client.group);
      for (const subscription of client.subscriptions.values()) fanout.remove(subscription);
      client.subscriptions.clear();
      client.pending.clear();
      if (client.retry) clearTimeout(client.retry);
    },
  };
}
type MarketSocketClient = ReturnType<typeof createMarketClient>;

export function registerMarketSocket(app: FastifyInstance, ctx: AppContext): void {
  const fanout = createFanout(ctx.market);
  const clients = new WeakMap<SocketSession, MarketSocketClient>();
  const clientOf = (session: SocketSession) => {
    let client = clients.get(session);
    if (!client) clients.set(session, (client = createMarketClient(session, ctx.market, fanout, ctx.now())));
    return client;
  };
  const tooMany = `Máximo de ${MARKET_LIMITS.maxSubscriptions} suscripciones por conexión`;
  /** Authenticated sockets: each is told every change of the markets' states. */
  const sessions = new Set<SocketSession>();
  ctx.market.markets.onChange((event) => {
    for (const session of sessions) session.send(event);
  });

  registerSocketEndpoint(app, ctx, '/ws/market', {
    onAuthenticated(session) {
      // Known from the start, so the admin's socket list shows a socket that watches nothing yet.
      clientOf(session);
      // Heard from before the `authenticated` event: a client that catches up after it misses nothing.
      ctx.workspaceEvents.add(session.user.id, session);
    },
    // The markets' states come first, so the client knows them before any quote.
    afterAuthenticated(session) {
      session.send(ctx.market.markets.current());
      sessions.add(session);
    },
    async onMessage(session, message) {
      if (message.action !== 'subscribe' && message.action !== 'unsubscribe') return false;
      // Echoed only when it is text the protocol accepts (safeText): a refused one is not sent back.
      const requestId = typeof message.requestId === 'string' && isSafeText(message.requestId) ? message.requestId.slice(0, 100) : undefined;
      const parsed = 'symbols' in message ? SubscribeManyMessage.safeParse(message) : SubscribeMessage.safeParse(message);
      if (!parsed.success) {
        session.send({ event: 'error', message: parsed.error.issues[0]?.message ?? 'Mensaje inválido', requestId });
        return true;
      }
      const marketClient = clientOf(session);
      const { subscriptions } = marketClient.client;
      const { action } = parsed.data;
      // A symbol is keyed by the catalogue's spelling of the name written: its variants in
      // letter case and spaces are one subscription, counted once (an unknown one stays as written).
      const keyOf = (written: string) => ctx.market.catalogue.spelling(written) ?? written;
      if ('symbols' in parsed.data) {
        const keys = [...new Set(parsed.data.symbols.map(keyOf))];
        if (action === 'unsubscribe') {
          for (const key of keys) marketClient.unsubscribe(key);
          session.send({ event: 'unsubscribed', symbols: keys, requestId });
          return true;
        }
        const known: [string, Instrument][] = [];
        const unknown: string[] = [];
        for (const key of keys) {
          const instrument = ctx.market.catalogue.resolve(key);
          if (instrument) known.push([key, instrument]);
          else unknown.push(key);
        }
        if (unknown.length > 0) session.send({ event: 'error', message: `Símbolos desconocidos: ${unknown.join(', ')}`, symbols: unknown, requestId });
        const added = known.filter(([key]) => !subscriptions.has(key)).length;
        if (subscriptions.size + added > MARKET_LIMITS.maxSubscriptions) {
          session.strike({ event: 'error', message: tooMany, symbols: known.map(([key]) => key), requestId });
          return true;
        }
        await marketClient.subscribeMany(known, requestId);
        return true;
      }
      const key = keyOf(parsed.data.symbol);
      if (action === 'unsubscribe') {
        marketClient.unsubscribe(key);
        session.send({ event: 'unsubscribed', symbol: key, requestId });
        return true;
      }
      const instrument = ctx.market.catalogue.resolve(key);
      if (!instrument) {
        session.send({ event: 'error', message: `Símbolo desconocido: ${key}`, symbol: key, requestId });
        return true;
      }
      if (!subscriptions.has(key) && subscriptions.size >= MARKET_LIMITS.maxSubscriptions) {
        session.strike({ event: 'error', message: tooMany, symbol: key, requestId });
        return true;
      }
      await marketClient.subscribeMany([[key, instrument]], requestId);
      return true;
    },
    onClose(session) {
      sessions.delete(session);
      ctx.workspaceEvents.remove(session.user.id, session);
      clients.get(session)?.close();
    },
  });
}
