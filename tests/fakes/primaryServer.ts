// A local stand-in for the Primary API (reference/primary-api.md), for tests of the connector
// and of the server parts built on it: getToken, the REST calls the connector makes, and the
// websocket (`smd` → `Md` snapshot then pushed updates, `os` → `or` reports, ERROR messages).
// Listens on 127.0.0.1 and an ephemeral port. The test drives it: push(), pushOrderReport(),
// expireTokens(), dropSockets(); and reads what it saw: requests, received, stats.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { isRecord } from '../../src/lib/isRecord.js';
import type { PrimaryAccount, PrimaryInstrumentDetail, PrimaryOrderReport, PrimaryPosition } from '../../server/market/primary/types.js';

/** Market data as the exchange keeps it: entry code → value (BI/OF lists best first). */
export type FakeMarketData = Record<string, unknown>;

export interface FakePrimaryOptions {
  username?: string;
  password?: string;
  instruments?: PrimaryInstrumentDetail[];
  /** Initial market data by symbol; instruments without one get a generated book. */
  marketData?: Record<string, FakeMarketData>;
  accounts?: PrimaryAccount[];
  /** Positions by account name. */
  positions?: Record<string, PrimaryPosition[]>;
}

export interface FakeRestRequest {
  method: string;
  /** Path without the query, e.g. /rest/accounts. */
  path: string;
  query: URLSearchParams;
  token: string | null;
  status: number;
}

export interface FakeSocketMessage {
  /** Connection number, from 1 in the order of upgrades. */
  connection: number;
  /** The parsed JSON, or the raw text when it was not JSON. */
  message: unknown;
}

export interface FakeSmd {
  connection: number;
  symbols: string[];
  entries: string[];
  depth: number;
}

export interface FakePrimaryServer {
  /** http://127.0.0.1:<port>/ */
  readonly baseUrl: string;
  /** ws://127.0.0.1:<port>/ */
  readonly wsUrl: string;
  readonly credentials: { username: string; password: string };
  /** The `type` of market-data messages: real traffic says 'Md', the document 'md'. */
  mdType: string;
  /** When true every token is refused (401), even fresh ones. */
  rejectAllTokens: boolean;
  readonly stats: {
    tokensIssued: number;
    authFailures: number;
    /** Websocket connections accepted. */
    upgrades: number;
    /** Websocket upgrades refused with 401. */
    refusedUpgrades: number;
    pings: number;
  };
  readonly requests: FakeRestRequest[];
  /** Every websocket message received, in order. */
  readonly received: FakeSocketMessage[];
  /** The `smd` requests received, decoded. */
  smdRequests(): FakeSmd[];
  openSockets(): number;
  /** Revokes every token issued so far: REST answers 401 and upgrades are refused until getToken. */
  expireTokens(): void;
  /** Merges entries into a symbol's market data and sends Md to the sockets subscribed to it; returns how many. */
  push(symbol: string, marketData: FakeMarketData): number;
  /** Sends an `or` to the sockets subscribed to the report's account; returns how many. */
  pushOrderReport(report: PrimaryOrderReport): number;
  /** Sends text as is to every open socket (to test unparseable messages). */
  sendRaw(text: string): number;
  /** Terminates every websocket (to test reconnects). */
  dropSockets(): void;
  marketData(symbol: string): FakeMarketData | undefined;
  close(): Promise<void>;
}

const MARKET_ID = 'ROFX';
const DAY = 86_400_000;

function future(symbol: string, maturityDate: string, price: number): PrimaryInstrumentDetail {
  return {
    instrumentId: { marketId: MARKET_ID, symbol },
    segment: { marketSegmentId: 'DDF', marketId: MARKET_ID },
    cficode: 'FXXXSX',
    securityDescription: symbol,
    lowLimitPrice: Math.round(price * 0.9),
    highLimitPrice: Math.round(price * 1.1),
    minPriceIncrement: 0.5,
    minTradeVol: 1,
    maxTradeVol: 10_000,
    tickSize: 1,
    contractMultiplier: 1000,
    roundLot: 1,
    priceConvertionFactor: 1,
    maturityDate,
    currency: 'ARS',
    orderTypes: ['LIMIT', 'MARKET', 'MARKET_TO_LIMIT'],
    timesInForce: ['DAY', 'IOC', 'FOK', 'GTD'],
    instrumentPricePrecision: 1,
    instrumentSizePrecision: 0,
    tickPriceRanges: null,
  };
}

function byma(ticker: string, cficode: string, price: number): PrimaryInstrumentDetail {
  return {
    instrumentId: { marketId: MARKET_ID, symbol: `MERV - XMEV - ${ticker} - 24hs` },
    segment: { marketSegmentId: 'MERV', marketId: MARKET_ID },
    cficode,
    securityDescription: ticker,
    lowLimitPrice: null,
    highLimitPrice: null,
    minPriceIncrement: price > 1000 ? 0.5 : 0.05,
    minTradeVol: 1,
    maxTradeVol: 1_000_000,
    tickSize: 1,
    contractMultiplier: 1,
    roundLot: 1,
    priceConvertionFactor: cficode.startsWith('D') ? 0.01 : 1,
    maturityDate: null,
    currency: 'ARS',
    orderTypes: ['LIMIT', 'MARKET'],
    timesInForce: ['DAY', 'IOC'],
    instrumentPricePrecision: 2,
    instrumentSizePrecision: 0,
    tickPriceRanges: null,
  };
}

export const FAKE_INSTRUMENTS: PrimaryInstrumentDetail[] = [
  future('DLR/DIC26', '20261231', 1520),
  future('DLR/ENE27', '20270129', 1565),
  byma('GGAL', 'ESXXXX', 6450),
  byma('AL30', 'DBXXXX', 86_500),
];

/** Reference prices of the fixtures; the generated books sit around them. */
export const FAKE_PRICES: Record<string, number> = {
  'DLR/DIC26': 1520,
  'DLR/ENE27': 1565,
  'MERV - XMEV - GGAL - 24hs': 6450,
  'MERV - XMEV - AL30 - 24hs': 86_500,
};

export const FAKE_ACCOUNTS: PrimaryAccount[] = [{ id: 2747, name: 'REM2747', brokerId: 0, status: true }];

export const FAKE_POSITIONS: Record<string, PrimaryPosition[]> = {
  REM2747: [
    {
      instrument: { symbolReference: 'DLR/DIC26', settlType: 0 },
      symbol: 'DLR/DIC26',
      buySize: 10,
      buyPrice: 1510,
      sellSize: 0,
      sellPrice: 0,
      totalDailyDiff: 10_000,
      totalDiff: 100_000,
      tradingSymbol: 'DLR/DIC26',
      originalBuyPrice: 1510,
      originalSellPrice: 0,
    },
  ],
};

function generatedMarketData(price: number, step: number, now: number): FakeMarketData {
  const levels = (sign: 1 | -1) => Array.from({ length: 5 }, (_, index) => ({ price: price + sign * step * (index + 1), size: 10 * (index + 1) }));
  return {
    BI: levels(-1),
    OF: levels(1),
    LA: { price, size: 3, date: now },
    OP: price - step * 4,
    HI: price + step * 6,
    LO: price - step * 8,
    CL: { price: price - step * 2, size: 0, date: now - DAY },
    SE: { price: price - step * 2, size: 0, date: now - DAY },
    TV: 1234,
    OI: { price: 0, size: 56_789, date: now - DAY },
  };
}

/** The entries a subscriber asked for, books cut to its depth. */
function view(data: FakeMarketData, entries: readonly string[], depth: number): FakeMarketData {
  const result: FakeMarketData = {};
  for (const entry of entries) {
    if (!(entry in data)) continue;
    const value = data[entry];
    result[entry] = Array.isArray(value) ? value.slice(0, depth) : value;
  }
  return result;
}

function text(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  if (raw instanceof ArrayBuffer) return Buffer.from(raw).toString('utf8');
  return raw.toString('utf8');
}

interface Connection {
  id: number;
  socket: WebSocket;
  /** symbol → what this connection asked for. */
  subscriptions: Map<string, { entries: string[]; depth: number }>;
  /** Accounts of `os`; 'all' when `os` named none. */
  orderAccounts: Set<string> | 'all';
}

export async function startFakePrimary(options: FakePrimaryOptions = {}): Promise<FakePrimaryServer> {
  const credentials = { username: options.username ?? 'fakeuser', password: options.password ?? 'fakepass' };
  const instruments = options.instruments ?? FAKE_INSTRUMENTS;
  const accounts = options.accounts ?? FAKE_ACCOUNTS;
  const positions = options.positions ?? FAKE_POSITIONS;
  const bySymbol = new Map(instruments.map((detail) => [detail.instrumentId.symbol, detail]));
  const market = new Map<string, FakeMarketData>();
  for (const detail of instruments) {
    const symbol = detail.instrumentId.symbol;
    const price = FAKE_PRICES[symbol] ?? 100;
    market.set(symbol, options.marketData?.[symbol] ?? generatedMarketData(price, detail.minPriceIncrement ?? 1, Date.now()));
  }

  const validTokens = new Set<string>();
  const connections = new Set<Connection>();
  const requests: FakeRestRequest[] = [];
  const received: FakeSocketMessage[] = [];
  const stats = { tokensIssued: 0, authFailures: 0, upgrades: 0, refusedUpgrades: 0, pings: 0 };
  let connectionCount = 0;

  const tokenOk = (token: string | null) => token != null && validTokens.has(token) && !fake.rejectAllTokens;
  const headerToken = (request: http.IncomingMessage) => {
    const value = request.headers['x-auth-token'];
    return typeof value === 'string' ? value : null;
  };
  const productError = (symbol: string, marketId: string) => `Product ${symbol}:${marketId} don't exist`;

  function restAnswer(path: string, query: URLSearchParams): unknown {
    const symbol = query.get('symbol') ?? '';
    const marketId = query.get('marketId') ?? MARKET_ID;
    const known = marketId === MARKET_ID && bySymbol.has(symbol);
    if (path === '/rest/instruments/all') {
      return { status: 'OK', instruments: instruments.map(({ instrumentId, cficode }) => ({ instrumentId, cficode })) };
    }
    if (path === '/rest/instruments/details') return { status: 'OK', instruments };
    if (path === '/rest/instruments/detail') {
      return known ? { status: 'OK', instrument: bySymbol.get(symbol) } : { status: 'ERROR', description: productError(symbol, marketId) };
    }
    if (path === '/rest/accounts') return { status: 'OK', accounts };
    const positionsMatch = /^\/rest\/risk\/position\/getPositions\/([^/]+)$/.exec(path);
    if (positionsMatch?.[1] != null) {
      const account = decodeURIComponent(positionsMatch[1]);
      const list = positions[account];
      return list ? { status: 'OK', positions: list } : { status: 'ERROR', description: `Account ${account} not found` };
    }
    if (path === '/rest/marketdata/get') {
      const data = market.get(symbol);
      if (!known || !data) return { status: 'ERROR', message: query.toString(), description: productError(symbol, marketId) };
      const depth = Number(query.get('depth') ?? '1');
      const entries = (query.get('entries') ?? '').split(',').filter(Boolean);
      return { status: 'OK', marketData: view(data, entries, depth), depth, aggregated: true };
    }
    if (path === '/rest/data/getTrades') {
      const date = query.get('date') ?? '';
      if (!known) return { status: 'ERROR', description: productError(symbol, marketId) };
      const start = Date.parse(`${date}T13:00:00.000Z`);
      if (Number.isNaN(start)) return { status: 'ERROR', description: `Invalid date ${date}` };
      const price = FAKE_PRICES[symbol] ?? 100;
      const trades = [0, 1, 2].map((index) => ({
        symbol,
        servertime: start + index * 60_000,
        size: index + 1,
        price: price + index,
        datetime: new Date(start + index * 60_000).toISOString().replace('T', ' ').replace('Z', ''),
      }));
      return { status: 'OK', symbol, market: MARKET_ID, trades };
    }
    return null;
  }

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const token = headerToken(request);
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      requests.push({ method: request.method ?? 'GET', path: url.pathname, query: url.searchParams, token, status });
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(body === undefined ? '' : JSON.stringify(body));
    };
    request.resume();

    if (url.pathname === '/auth/getToken') {
      if (request.method !== 'POST') return answer(405, { status: 'ERROR', description: 'POST only' });
      const ok = request.headers['x-username'] === credentials.username && request.headers['x-password'] === credentials.password;
      if (!ok) {
        stats.authFailures++;
        return answer(401, undefined);
      }
      const issued = randomBytes(24).toString('base64url');
      validTokens.add(issued);
      stats.tokensIssued++;
      return answer(200, undefined, { 'X-Auth-Token': issued });
    }
    if (!url.pathname.startsWith('/rest/')) return answer(404, { status: 'ERROR', description: 'Not found' });
    if (!tokenOk(token)) return answer(401, undefined);
    if (request.method !== 'GET') return answer(405, { status: 'ERROR', description: 'GET only' });
    const body = restAnswer(url.pathname, url.searchParams);
    return body == null ? answer(404, { status: 'ERROR', description: `Unknown path ${url.pathname}` }) : answer(200, body);
  });

  const wss = new WebSocketServer({ noServer: true });

  const send = (connection: Connection, message: unknown) => {
    if (connection.socket.readyState === WebSocket.OPEN) connection.socket.send(JSON.stringify(message));
  };
  const mdMessage = (symbol: string, marketData: FakeMarketData) => ({
    type: fake.mdType,
    timestamp: Date.now(),
    instrumentId: { marketId: MARKET_ID, symbol },
    marketData,
  });

  function onSmd(connection: Connection, message: Record<string, unknown>, raw: string) {
    const entries = Array.isArray(message.entries) ? message.entries.filter((e): e is string => typeof e === 'string') : [];
    const depth = typeof message.depth === 'number' ? message.depth : 1;
    const products = Array.isArray(message.products) ? message.products : [];
    for (const product of products) {
      const symbol = isRecord(product) && typeof product.symbol === 'string' ? product.symbol : '';
      const marketId = isRecord(product) && typeof product.marketId === 'string' ? product.marketId : '';
      const data = market.get(symbol);
      if (marketId !== MARKET_ID || !data) {
        send(connection, { status: 'ERROR', message: raw, description: productError(symbol, marketId) });
        continue;
      }
      connection.subscriptions.set(symbol, { entries, depth });
      send(connection, mdMessage(symbol, view(data, entries, depth)));
    }
  }

  function onOs(connection: Connection, message: Record<string, unknown>) {
    const ids: string[] = [];
    const list = Array.isArray(message.accounts) ? message.accounts : isRecord(message.account) ? [message.account] : null;
    if (list == null) {
      connection.orderAccounts = 'all';
      return;
    }
    for (const account of list) if (isRecord(account) && account.id != null) ids.push(String(account.id));
    const current = connection.orderAccounts === 'all' ? null : connection.orderAccounts;
    if (current) for (const id of ids) current.add(id);
  }

  wss.on('connection', (socket: WebSocket) => {
    const connection: Connection = { id: ++connectionCount, socket, subscriptions: new Map(), orderAccounts: new Set() };
    connections.add(connection);
    stats.upgrades++;
    socket.on('ping', () => {
      stats.pings++;
    });
    socket.on('close', () => connections.delete(connection));
    socket.on('message', (data: RawData) => {
      const raw = text(data);
      let message: unknown;
      try {
        message = JSON.parse(raw);
      } catch {
        received.push({ connection: connection.id, message: raw });
        send(connection, { status: 'ERROR', message: raw, description: 'Invalid message' });
        return;
      }
      received.push({ connection: connection.id, message });
      const type = isRecord(message) && typeof message.type === 'string' ? message.type.toLowerCase() : null;
      if (isRecord(message) && type === 'smd') onSmd(connection, message, raw);
      else if (isRecord(message) && type === 'os') onOs(connection, message);
      else send(connection, { status: 'ERROR', message: raw, description: 'Unknown message type' });
    });
  });

  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!tokenOk(headerToken(request))) {
      stats.refusedUpgrades++;
      socket.once('finish', () => socket.destroy());
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const fake: FakePrimaryServer = {
    baseUrl: `http://127.0.0.1:${port}/`,
    wsUrl: `ws://127.0.0.1:${port}/`,
    credentials,
    mdType: 'Md',
    rejectAllTokens: false,
    stats,
    requests,
    received,
    smdRequests() {
      const list: FakeSmd[] = [];
      for (const { connection, message } of received) {
        if (!isRecord(message) || typeof message.type !== 'string' || message.type.toLowerCase() !== 'smd') continue;
        const products = Array.isArray(message.products) ? message.products : [];
        list.push({
          connection,
          symbols: products.map((product) => (isRecord(product) ? String(product.symbol) : '')),
          entries: Array.isArray(message.entries) ? message.entries.map(String) : [],
          depth: typeof message.depth === 'number' ? message.depth : 1,
        });
      }
      return list;
    },
    openSockets: () => connections.size,
    expireTokens: () => validTokens.clear(),
    push(symbol, marketData) {
      const current = market.get(symbol);
      if (!current) throw new Error(`The fake Primary server has no instrument ${symbol}`);
      Object.assign(current, marketData);
      let delivered = 0;
      for (const connection of connections) {
        const subscription = connection.subscriptions.get(symbol);
        if (!subscription) continue;
        send(connection, mdMessage(symbol, view(current, subscription.entries, subscription.depth)));
        delivered++;
      }
      return delivered;
    },
    pushOrderReport(report) {
      let delivered = 0;
      for (const connection of connections) {
        const wanted = connection.orderAccounts === 'all' || connection.orderAccounts.has(report.accountId.id);
        if (!wanted) continue;
        send(connection, { type: 'or', timestamp: Date.now(), orderReport: report });
        delivered++;
      }
      return delivered;
    },
    sendRaw(raw) {
      let delivered = 0;
      for (const connection of connections) {
        if (connection.socket.readyState !== WebSocket.OPEN) continue;
        connection.socket.send(raw);
        delivered++;
      }
      return delivered;
    },
    dropSockets() {
      for (const connection of connections) connection.socket.terminate();
    },
    marketData: (symbol) => market.get(symbol),
    async close() {
      for (const connection of connections) connection.socket.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
