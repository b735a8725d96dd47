// The bench's socket server: serves the real app build (dist/) plus a naive page, answers the
// few REST calls the app makes at start (a token check that accepts the bench token; the
// workspace reads answer 404, which the worker logs and ignores), and speaks the /ws/market
// protocol of server/ws/market.ts: {action:'auth'} → {event:'authenticated'}, batch
// subscribe → one snapshot message keyed by symbol with the requestId, then updates keyed by
// symbol. run() pushes `rate` symbol updates a second to every market socket that holds
// subscriptions, in messages of `perMessage` distinct symbols, and keeps the send time of
// each (symbol, sequence) for tick-to-paint and the last state sent for the final check.
// Why not the real server with a faster simulator: it merges updates per symbol every 25 ms
// (server/ws/market.ts), so the browser would never see 50,000 updates a second.
// With `apiProxy` (bench:visor), /api and /emoji go to a real server instead, so the app signs
// in, reads its workspace and opens a real visor there, while /ws/market stays this feed's.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { MarketData } from '../../src/protocol/market.js';

export const BENCH_USER = { _id: 'bench-user', username: 'bench', firstName: 'Bench', lastName: 'Mark', role: 'user' };
export const BENCH_TOKEN = 'bench-token';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

interface MarketSocket {
  socket: WebSocket;
  symbols: Set<string>;
}

export interface RunResult {
  updatesSent: number;
  messagesSent: number;
  seconds: number;
}

export interface FeedServer {
  url: string;
  /** Market sockets open now, with their subscriptions. */
  marketSockets(): { symbols: number }[];
  /** Pushes `rate` updates a second for `seconds` over `symbols` to every subscribed socket. */
  run(options: { symbols: string[]; rate: number; seconds: number; perMessage: number }): Promise<RunResult>;
  /** When (epoch ms) update `sequence` of `symbol` was sent; undefined if unknown. */
  sentAt(symbol: string, sequence: number): number | undefined;
  /** The updates sent of `symbol` in order (index = sequence; index 0 is the initial state): when (epoch ms) and at what last price. */
  sends(symbol: string): { sentAt: Float64Array; price: Float64Array; count: number } | undefined;
  /** The last state sent of each symbol. */
  lastSent(): Map<string, MarketData>;
  /** The initial state of the symbols (what a subscribe answers before any run), at `prices` where given. */
  reset(symbols: string[], prices?: ReadonlyMap<string, number>): void;
  /** Answers 503 to the proxied requests whose path matches (null: none), as a server that cannot be reached. */
  refuse(paths: RegExp | null): void;
  close(): Promise<void>;
}

export async function startFeedServer(options: {
  port: number;
  distDir: string;
  extraFiles: Record<string, { type: string; body: string | Buffer }>;
  /** A real server (http://host:port) that answers /api and /emoji; without it they are answered here. */
  apiProxy?: string;
}): Promise<FeedServer> {
  const upstream = options.apiProxy ? new URL(options.apiProxy) : null;
  // salt: each symbol's walk takes its own steps (two legs of a spread must not move together).
  const states = new Map<string, { sequence: number; price: number; salt: number; at: number; sentAt: Float64Array; prices: Float64Array }>();
  let refused: RegExp | null = null;
  const sockets = new Set<MarketSocket>();

  const stateOf = (symbol: string, initial?: number) => {
    let state = states.get(symbol);
    if (!state) {
      const price = initial ?? 100 + (states.size % 200) * 7.25;
      state = { sequence: 0, price, salt: states.size * 3, at: Date.now(), sentAt: new Float64Array(8192), prices: new Float64Array(8192) };
      state.prices[0] = price;
      states.set(symbol, state);
    }
    return state;
  };

  const sendFile = (response: ServerResponse, file: string) => {
    response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    createReadStream(file).pipe(response);
  };

  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://bench');
    const extra = options.extraFiles[url.pathname];
    if (extra) {
      response.writeHead(200, { 'content-type': extra.type, 'cache-control': 'no-cache' });
      response.end(extra.body);
      return;
    }
    if (upstream && refused?.test(url.pathname)) return json(response, 503, { status: 'error', message: 'bench proxy: refused' });
    if (upstream && /^\/(?:api|emoji)(?:\/|$)/.test(url.pathname)) {
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: { ...request.headers, host: upstream.host } },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forward.on('error', (error) => json(response, 502, { status: 'error', message: `bench proxy: ${error.message}` }));
      request.pipe(forward);
      return;
    }
    if (url.pathname.startsWith('/api')) {
      if (url.pathname === '/api/checkToken') return json(response, 200, { status: 'success', user: BENCH_USER });
      if (request.method === 'HEAD') return json(response, 200, {});
      return json(response, 404, { status: 'error', message: 'No disponible en el banco de pruebas' });
    }
    const file = path.join(options.distDir, path.normalize(url.pathname));
    if (file.startsWith(options.distDir) && existsSync(file) && statSync(file).isFile()) return sendFile(response, file);
    sendFile(response, path.join(options.distDir, 'index.html'));
  };

  const http = createServer(handle);
  const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
  wss.on('connection', (socket, request) => {
    const market = request.url?.startsWith('/ws/market') ?? false;
    const entry: MarketSocket = { socket, symbols: new Set() };
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { action?: string; symbols?: string[]; symbol?: string; requestId?: string };
      if (message.action === 'auth') {
        socket.send(JSON.stringify({ event: 'authenticated', user: { _id: BENCH_USER._id, username: BENCH_USER.username, role: BENCH_USER.role } }));
        if (market) sockets.add(entry);
        return;
      }
      if (message.action === 'ping') return socket.send(JSON.stringify({ event: 'pong', time: Date.now(), requestId: message.requestId }));
      const symbols = message.symbols ?? (message.symbol ? [message.symbol] : []);
      if (message.action === 'subscribe') {
        const answer: Record<string, unknown> = {};
        for (const symbol of symbols) {
          entry.symbols.add(symbol);
          const state = stateOf(symbol);
          answer[symbol] = { md: mdOf(state.price, state.sequence, state.at) };
        }
        if (message.requestId) answer.requestId = message.requestId;
        socket.send(JSON.stringify(answer));
      } else if (message.action === 'unsubscribe') {
        for (const symbol of symbols) entry.symbols.delete(symbol);
        socket.send(JSON.stringify({ event: 'unsubscribed', symbols, requestId: message.requestId }));
      }
    });
    socket.on('close', () => sockets.delete(entry));
  });
  await new Promise<void>((resolve) => http.listen(options.port, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${options.port}`,
    marketSockets: () => [...sockets].map((entry) => ({ symbols: entry.symbols.size })),
    reset(symbols, prices) {
      states.clear();
      for (const symbol of symbols) stateOf(symbol, prices?.get(symbol));
    },
    refuse(paths) {
      refused = paths;
    },
    async run({ symbols, rate, seconds, perMessage }) {
      const started = Date.now();
      const end = started + seconds * 1000;
      let sent = 0;
      let messages = 0;
      let next = 0; // index of the next symbol to update, round robin
      await new Promise<void>((resolve) => {
        const step = () => {
          const now = Date.now();
          const due = Math.min(rate * seconds, Math.floor(((now - started) / 1000) * rate));
          // Catch up to the schedule in messages of `perMessage` distinct symbols.
          while (sent < due) {
            const parts: string[] = [];
            const count = Math.min(perMessage, due - sent);
            for (let i = 0; i < count; i++) {
              const symbol = symbols[next]!;
              next = (next + 1) % symbols.length;
              const state = stateOf(symbol);
              state.sequence += 1;
              state.price = Math.max(1, state.price + (((state.sequence * 7919 + state.salt) % 11) - 5) * 0.25);
              state.at = now;
              if (state.sequence >= state.sentAt.length) {
                const grow = (from: Float64Array) => {
                  const grown = new Float64Array(from.length * 2);
                  grown.set(from);
                  return grown;
                };
                state.sentAt = grow(state.sentAt);
                state.prices = grow(state.prices);
              }
              state.sentAt[state.sequence] = now;
              state.prices[state.sequence] = state.price;
              parts.push(`${JSON.stringify(symbol)}:{"md":${mdJson(state.price, state.sequence, now)}}`);
            }
            sent += count;
            const frame = `{${parts.join(',')}}`;
            for (const entry of sockets) {
              if (entry.symbols.size > 0 && entry.socket.readyState === entry.socket.OPEN) {
                entry.socket.send(frame);
                messages += 1;
              }
            }
          }
          if (now >= end && sent >= rate * seconds) resolve();
          else setTimeout(step, 1);
        };
        step();
      });
      return { updatesSent: sent, messagesSent: messages, seconds: (Date.now() - started) / 1000 };
    },
    sentAt: (symbol, sequence) => {
      const value = states.get(symbol)?.sentAt[sequence];
      return value ? value : undefined;
    },
    sends: (symbol) => {
      const state = states.get(symbol);
      return state ? { sentAt: state.sentAt, price: state.prices, count: state.sequence + 1 } : undefined;
    },
    lastSent: () => new Map([...states].map(([symbol, state]) => [symbol, mdOf(state.price, state.sequence, state.at)])),
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** mdOf as JSON, written out: the feed serializes 50,000 of them a second. */
function mdJson(price: number, sequence: number, now: number): string {
  return (
    `{"BI":[{"price":${price - 0.25},"size":${10 + (sequence % 90)}}],"OF":[{"price":${price + 0.25},"size":${10 + ((sequence * 3) % 90)}}],` +
    `"LA":{"price":${price},"size":${1 + (sequence % 9)},"date":${now}},"CL":{"price":100},"TV":${sequence}}`
  );
}

/** A symbol's full state: best bid/offer around the price, the last trade, the close, and the
 * volume, which is the update's sequence number (so the page shows which update it painted). */
function mdOf(price: number, sequence: number, now: number): MarketData {
  return {
    BI: [{ price: price - 0.25, size: 10 + (sequence % 90) }],
    OF: [{ price: price + 0.25, size: 10 + ((sequence * 3) % 90) }],
    LA: { price, size: 1 + (sequence % 9), date: now },
    CL: { price: 100 },
    TV: sequence,
  };
}
