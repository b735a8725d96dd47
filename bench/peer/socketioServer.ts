// bench:fanout's peer: the same market data fanned out by socket.io with @socket.io/redis-adapter,
// built as socket.io's documentation recommends (a room per symbol, `io.to(symbol).emit(…)`,
// the adapter on an ioredis client and its `duplicate()`), so Visores's fan-out is measured
// against the usual way to do it rather than against a straw man.
//
// What it serves is Visores's own: the market service (server/market/service.ts) built from the
// same environment as the server's (loadConfig: catalogue, seed, SIM_TICKS_PER_SECOND per feed,
// calendar), so both servers play the same simulated market at the same rate, and each update
// carries the bytes the Visores socket writes for that symbol ({"<symbol>":{"md":…,"expiration":…}}).
// The market service runs without Redis here: Redis is the adapter's, which publishes every
// emit on its channel, as the Visores process that runs the feeds publishes every tick.
//
// The client sends `subscribe` with a symbol and gets the symbol's snapshot as the answer (an
// acknowledgement) once it is in the symbol's room. The simulator starts only at POST /start:
// the bench calls it once every client has its snapshots, since clients joining while a
// simulator streams thousands of ticks per second time out on a small machine. GET /instruments
// lists the symbols in the catalogue's order (as Visores's /visores/primary/instruments does, so
// the bench's seeded choice of symbols per client is the same); GET /stats counts the updates
// published. Websocket transport only; it prints `running at http://HOST:PORT/` when listening.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import type { MarketData, SymbolMessage } from '../../src/protocol/market.js';
import { loadConfig } from '../../server/config.js';
import { marketOf, type Instrument } from '../../server/market/catalogue.js';
import { FEED_NAMES } from '../../server/market/feeds.js';
import { createMarketService } from '../../server/market/service.js';

/** What the peer sends: one symbol's update per event, keyed by the symbol as Visores's frames are. */
export interface PeerServerEvents {
  update(frame: Record<string, SymbolMessage>): void;
}
/** What a client sends: a symbol to watch, answered with its snapshot keyed by the symbol (or an error). */
export interface PeerClientEvents {
  subscribe(symbol: string, answer: (snapshot: Record<string, SymbolMessage> | { error: string }) => void): void;
}

const config = loadConfig();
if (!config.redisUrl) throw new Error('the socket.io peer needs REDIS_URL: it runs on the redis adapter');
const market = createMarketService({ ...config, redisUrl: null }, Date.now, console, { processId: 'socket.io-peer' });

/** As server/ws/market.ts's messageOf writes a symbol's state: same keys, same order, so the same bytes. */
const messageOf = (instrument: Instrument, md: MarketData): SymbolMessage => (instrument.maturityDate ? { md, expiration: instrument.maturityDate } : { md });

// Every instrument's state, for the snapshots the subscribes answer before the simulator runs:
// a feed's start publishes every state into the hub first; stopping it at once leaves the
// states there and no ticks flowing (POST /start starts the feeds again, publishing them anew).
for (const name of FEED_NAMES) {
  market.feeds.start(name);
  market.feeds.stop(name);
}

const httpServer = createServer(answerHttp);
const io = new Server<PeerClientEvents, PeerServerEvents>(httpServer, { transports: ['websocket'], serveClient: false });
const pubClient = new Redis(config.redisUrl);
const subClient = pubClient.duplicate();
pubClient.on('error', (error: Error) => console.warn(`redis: ${error.message}`));
subClient.on('error', (error: Error) => console.warn(`redis: ${error.message}`));
// The bench's run prefix: its channels are its own on a Redis that others share.
io.adapter(createAdapter(pubClient, subClient, { key: `${config.redisPrefix}socket.io` }));

/** Per symbol with a room, the hub listener that emits its updates there (as Visores listens once per watched symbol). */
const emitters = new Map<string, () => void>();
io.of('/').adapter.on('delete-room', (room: string) => {
  emitters.get(room)?.();
  emitters.delete(room);
});

io.on('connection', (socket) => {
  socket.on('subscribe', (written, answer) => {
    if (typeof answer !== 'function') return;
    const instrument = typeof written === 'string' ? market.catalogue.resolve(written) : null;
    if (!instrument) return answer({ error: `unknown symbol: ${String(written)}` });
    const symbol = instrument.instrumentId.symbol;
    void socket.join(symbol);
    if (!emitters.has(symbol))
      emitters.set(
        symbol,
        market.hub.subscribe(symbol, (_, md) => io.to(symbol).emit('update', { [symbol]: messageOf(instrument, md) })),
      );
    answer({ [symbol]: { ...messageOf(instrument, market.hub.latest(symbol) ?? {}), market: marketOf(instrument) } });
  });
});

let started = false;
function answerHttp(request: IncomingMessage, response: ServerResponse): void {
  const reply = (status: number, body: unknown): void => void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (request.method === 'POST' && request.url === '/start') {
    if (!started) market.start();
    started = true;
    return reply(200, { started });
  }
  if (request.method === 'GET' && request.url === '/instruments')
    return reply(
      200,
      market.catalogue.instruments.map((instrument) => instrument.instrumentId.symbol),
    );
  // Updates published into the hub (every tick, and the states a feed's start publishes), as Visores's admin stats count them; socket.io merges none.
  if (request.method === 'GET' && request.url === '/stats')
    return reply(200, { published: market.hub.published, coalesced: 0, sockets: io.engine.clientsCount });
  reply(404, { error: 'not found' });
}

let closing = false;
function shutdown(): void {
  if (closing) return;
  closing = true;
  setTimeout(() => process.exit(1), 5000).unref();
  void io.close();
  void Promise.allSettled([market.close(), pubClient.quit(), subClient.quit()]).then(() => process.exit(0));
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

httpServer.listen(config.port, config.host, () => {
  const { port } = httpServer.address() as AddressInfo;
  console.log(`socket.io peer running at http://${config.host}:${port}/`);
});
