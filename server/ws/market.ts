// /ws/market: live quotes keyed by symbol (issue 4). After auth, {action:'subscribe', symbol,
// requestId?} answers at once with a snapshot keyed by the symbol as the client wrote it,
// carrying the requestId; updates follow, merged per symbol and sent at most once per turn
// of the event loop, in one message keyed by symbol. A slow client's updates stay merged
// (latest state wins) while its send buffer is full, so it never slows others nor grows
// server memory beyond one pending state per symbol it watches.
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { SubscribeManyMessage, SubscribeMessage, type SymbolMessage } from '../../src/protocol/market.js';
import type { AppContext } from '../http/context.js';
import type { Instrument } from '../market/catalogue.js';
import { registerSocketEndpoint, type SocketSession } from './endpoint.js';

export const MARKET_LIMITS = {
  maxSubscriptions: 2000,
  /** Above this many bytes waiting in a socket's send buffer, updates wait, merged. */
  sendBufferHighWater: 512 * 1024,
  /** How often a blocked client is checked again. */
  retryMs: 50,
} as const;

interface Subscription {
  instrument: Instrument;
  /** The key as JSON, escaped once. */
  keyJson: string;
  stop: () => void;
}

function messageOf(instrument: Instrument, md: SymbolMessage['md']): SymbolMessage {
  return instrument.maturityDate ? { md, expiration: instrument.maturityDate } : { md };
}

// The hub makes a new state object per update, shared by every client of the symbol: it is
// serialized once, however many clients send it.
const serialized = new WeakMap<SymbolMessage['md'], string>();
function serialize(instrument: Instrument, md: SymbolMessage['md']): string {
  let json = serialized.get(md);
  if (json == null) serialized.set(md, (json = JSON.stringify(messageOf(instrument, md))));
  return json;
}

function createMarketClient(ctx: AppContext, socket: WebSocket, send: (message: unknown) => void) {
  const { market } = ctx;
  const subscriptions = new Map<string, Subscription>();
  /** Latest unsent state per key (merging happens by replacement). */
  const pending = new Map<string, SymbolMessage['md']>();
  let scheduled: NodeJS.Immediate | NodeJS.Timeout | null = null; // a pending flush, if any
  let closed = false;

  const flush = () => {
    scheduled = null;
    if (closed || pending.size === 0) return;
    if (socket.bufferedAmount > MARKET_LIMITS.sendBufferHighWater) {
      scheduled = setTimeout(flush, MARKET_LIMITS.retryMs);
      return;
    }
    const parts: string[] = [];
    for (const [key, md] of pending) {
      const subscription = subscriptions.get(key);
      if (subscription) parts.push(`${subscription.keyJson}:${serialize(subscription.instrument, md)}`);
    }
    pending.clear();
    if (parts.length === 0 || socket.readyState !== socket.OPEN) return;
    socket.send(`{${parts.join(',')}}`);
    market.stats.messagesSent += 1;
  };
  const schedule = () => {
    scheduled ??= setImmediate(flush);
  };

  const client = {
    subscriptions,
    *instruments(): Iterable<Instrument> {
      for (const subscription of subscriptions.values()) yield subscription.instrument;
    },
    /** Subscribes each key and answers with one message holding every snapshot. */
    async subscribeMany(entries: [string, Instrument][], requestId: string | undefined): Promise<void> {
      for (const [key, instrument] of entries) {
        if (subscriptions.has(key)) continue;
        const stop = market.hub.subscribe(instrument.instrumentId.symbol, (_symbol, md) => {
          if (pending.has(key)) market.stats.coalesced += 1;
          pending.set(key, md);
          schedule();
        });
        subscriptions.set(key, { instrument, keyJson: JSON.stringify(key), stop });
      }
      const stored = await Promise.all(entries.map(([, instrument]) => market.hub.snapshot(instrument.instrumentId.symbol)));
      const answer: Record<string, unknown> = {};
      entries.forEach(([key, instrument], index) => {
        // An update that arrived while the snapshot was read is newer: it becomes the snapshot.
        answer[key] = messageOf(instrument, pending.get(key) ?? stored[index] ?? {});
        pending.delete(key);
      });
      if (requestId != null) answer.requestId = requestId;
      send(answer);
    },
    unsubscribe(key: string): boolean {
      const subscription = subscriptions.get(key);
      if (!subscription) return false;
      subscription.stop();
      subscriptions.delete(key);
      pending.delete(key);
      return true;
    },
    close(): void {
      closed = true;
      market.clients.delete(client);
      for (const subscription of subscriptions.values()) subscription.stop();
      subscriptions.clear();
      pending.clear();
      // A flush already scheduled finds the client closed and sends nothing.
    },
  };
  market.clients.add(client);
  return client;
}
type MarketClient = ReturnType<typeof createMarketClient>;

export function registerMarketSocket(app: FastifyInstance, ctx: AppContext): void {
  const clients = new WeakMap<SocketSession, MarketClient>();
  const clientOf = (session: SocketSession) => {
    let client = clients.get(session);
    if (!client) clients.set(session, (client = createMarketClient(ctx, session.socket, session.send)));
    return client;
  };

  registerSocketEndpoint(app, ctx, '/ws/market', {
    async onMessage(session, message) {
      if (message.action !== 'subscribe' && message.action !== 'unsubscribe') return false;
      const requestId = typeof message.requestId === 'string' ? message.requestId.slice(0, 100) : undefined;
      const parsed = 'symbols' in message ? SubscribeManyMessage.safeParse(message) : SubscribeMessage.safeParse(message);
      if (!parsed.success) {
        session.send({ event: 'error', message: parsed.error.issues[0]?.message ?? 'Mensaje inválido', requestId });
        return true;
      }
      const client = clientOf(session);
      const { action } = parsed.data;
      if ('symbols' in parsed.data) {
        const keys = [...new Set(parsed.data.symbols)];
        if (action === 'unsubscribe') {
          for (const key of keys) client.unsubscribe(key);
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
        const added = known.filter(([key]) => !client.subscriptions.has(key)).length;
        if (client.subscriptions.size + added > MARKET_LIMITS.maxSubscriptions) {
          session.send({ event: 'error', message: `Máximo de ${MARKET_LIMITS.maxSubscriptions} suscripciones por conexión`, symbols: known.map(([key]) => key), requestId });
          return true;
        }
        await client.subscribeMany(known, requestId);
        return true;
      }
      const key = parsed.data.symbol;
      if (action === 'unsubscribe') {
        client.unsubscribe(key);
        session.send({ event: 'unsubscribed', symbol: key, requestId });
        return true;
      }
      const instrument = ctx.market.catalogue.resolve(key);
      if (!instrument) {
        session.send({ event: 'error', message: `Símbolo desconocido: ${key}`, symbol: key, requestId });
        return true;
      }
      if (!client.subscriptions.has(key) && client.subscriptions.size >= MARKET_LIMITS.maxSubscriptions) {
        session.send({ event: 'error', message: `Máximo de ${MARKET_LIMITS.maxSubscriptions} suscripciones por conexión`, symbol: key, requestId });
        return true;
      }
      await client.subscribeMany([[key, instrument]], requestId);
      return true;
    },
    onClose(session) {
      clients.get(session)?.close();
    },
  });
}
