// A local stand-in for the Primary API (reference/primary-api.md), for tests of the connector
// and of the server parts built on it: getToken, every REST call the documentation lists that
// the connector makes or may make, and the websocket (`smd` → `Md` snapshot then pushed
// updates, `os` → a snapshot of the account's orders then `or` reports, ERROR messages).
// Where the documentation allows two forms, a switch picks the one the fake speaks (mdType,
// socketErrorForm, smdRefusal, offersAccounts, answerPings), so the connector's tests can run
// against both. Errors take the documented shape {"status":"ERROR","description":…,"message":…}:
// HTTP 200 for refused requests, 401 for a bad token or bad credentials, 404 for unknown paths.
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
  /** Orders of the day, sent as the snapshot of `os` (and by rest/order/*). */
  orders?: PrimaryOrderReport[];
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
  /**
   * Socket errors: 'untyped' as the reference shows them ({status, message, description},
   * no `type`); 'typed' also carries the `type` of the request that failed.
   */
  socketErrorForm: 'untyped' | 'typed';
  /**
   * An `smd` naming a product the exchange does not list: 'product' refuses that product and
   * subscribes the others; 'message' refuses the whole message (nothing of it is subscribed).
   */
  smdRefusal: 'product' | 'message';
  /** False: `rest/accounts` is not offered (404), as on a broker host without it. */
  offersAccounts: boolean;
  /** False: websocket pings get no pong (nothing shows the exchange or its proxies answer them). */
  answerPings: boolean;
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
  /** Keeps the report as its order's latest state and sends an `or` to the sockets subscribed to its account; returns how many. */
  pushOrderReport(report: PrimaryOrderReport): number;
  /** The orders of the day, each at its latest report, in the order they were first seen. */
  orders(): PrimaryOrderReport[];
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
  {
    ...byma('GGAL', 'ESXXXX', 6450),
    // A share's tick grows with its price, in the documented shape.
    tickPriceRanges: {
      '0': { lowerLimit: 0, upperLimit: 99.99, tick: 0.01 },
      '1': { lowerLimit: 100, upperLimit: 999.95, tick: 0.05 },
      '2': { lowerLimit: 1000, upperLimit: null, tick: 0.5 },
    },
  },
  byma('AL30', 'DBXXXX', 86_500),
];

/** Reference prices of the fixtures; the generated books sit around them. */
export const FAKE_PRICES: Record<string, number> = {
  'DLR/DIC26': 1520,
  'DLR/ENE27': 1565,
  'MERV - XMEV - GGAL - 24hs': 6450,
  'MERV - XMEV - AL30 - 24hs': 86_500,
};

/** Order statuses still working: what `os` with snapshotOnlyActive sends. */
const ACTIVE_STATUSES = new Set(['NEW', 'PENDING_NEW', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'PENDING_REPLACE']);

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

/** A book around `price`; BYMA lines report volume in EV/NV (amount/quantity), futures in TV. */
function generatedMarketData(price: number, step: number, now: number, byma: boolean): FakeMarketData {
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
    ...(byma ? { NV: 1234, EV: 1234 * price, ACP: { price: price - step, size: 0, date: now - DAY } } : { TV: 1234 }),
    TC: 17,
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

/** YYYY-MM-DD → epoch ms of 10:00 in Buenos Aires (13:00 UTC), or null. */
function dayStart(date: string | null): number | null {
  if (date == null || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const start = Date.parse(`${date}T13:00:00.000Z`);
  return Number.isNaN(start) ? null : start;
}

export async function startFakePrimary(options: FakePrimaryOptions = {}): Promise<FakePrimaryServer> {
  const credentials = { username: options.username ?? 'fakeuser', password: options.password ?? 'fakepass' };
  const instruments = options.instruments ?? FAKE_INSTRUMENTS;
  const accounts = options.accounts ?? FAKE_ACCOUNTS;
  const positions = options.positions ?? FAKE_POSITIONS;
  /** clOrdId → the order's latest report, in the order first seen. */
  const orders = new Map<string, PrimaryOrderReport>();
  for (const order of options.orders ?? []) orders.set(order.clOrdId, order);
  const bySymbol = new Map(instruments.map((detail) => [detail.instrumentId.symbol, detail]));
  const market = new Map<string, FakeMarketData>();
  for (const detail of instruments) {
    const symbol = detail.instrumentId.symbol;
    const price = FAKE_PRICES[symbol] ?? 100;
    const byma = detail.segment?.marketSegmentId === 'MERV';
    market.set(symbol, options.marketData?.[symbol] ?? generatedMarketData(price, detail.minPriceIncrement ?? 1, Date.now(), byma));
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

  const errorBody = (description: string, message?: string) => ({ status: 'ERROR', description, ...(message === undefined ? {} : { message }) });
  const ordersOf = (account: string | null) => [...orders.values()].filter((order) => account == null || order.accountId.id === account);
  const instrumentHeads = (list: PrimaryInstrumentDetail[]) => list.map(({ instrumentId, cficode }) => ({ instrumentId, cficode }));

  function trades(symbol: string, query: URLSearchParams): unknown {
    // One day (`date`) or a range (`dateFrom`/`dateTo`, both YYYY-MM-DD), as the official client asks.
    const single = query.get('date');
    const from = dayStart(single ?? query.get('dateFrom'));
    const to = dayStart(single ?? query.get('dateTo') ?? query.get('dateFrom'));
    if (from == null || to == null) {
      const given = single ?? `${query.get('dateFrom') ?? ''}..${query.get('dateTo') ?? ''}`;
      return errorBody(`Invalid date ${given}: use date or dateFrom/dateTo as YYYY-MM-DD`, query.toString());
    }
    const price = FAKE_PRICES[symbol] ?? 100;
    const list: { symbol: string; servertime: number; size: number; price: number; datetime: string }[] = [];
    for (let day = from; day <= to; day += DAY) {
      for (const index of [0, 1, 2]) {
        const time = day + index * 60_000;
        list.push({
          symbol,
          servertime: time,
          size: index + 1,
          price: price + index,
          datetime: new Date(time).toISOString().replace('T', ' ').replace('Z', ''),
        });
      }
    }
    return { status: 'OK', symbol, market: MARKET_ID, trades: list };
  }

  function restAnswer(path: string, query: URLSearchParams): unknown {
    const symbol = query.get('symbol') ?? '';
    const marketId = query.get('marketId') ?? MARKET_ID;
    const known = marketId === MARKET_ID && bySymbol.has(symbol);
    if (path === '/rest/segment/all') {
      const segments = [...new Set(instruments.map((detail) => detail.segment?.marketSegmentId ?? 'DDF'))];
      return { status: 'OK', segments: segments.map((marketSegmentId) => ({ marketSegmentId, marketId: MARKET_ID })) };
    }
    if (path === '/rest/instruments/all') return { status: 'OK', instruments: instrumentHeads(instruments) };
    if (path === '/rest/instruments/details') return { status: 'OK', instruments };
    if (path === '/rest/instruments/detail') {
      return known ? { status: 'OK', instrument: bySymbol.get(symbol) } : errorBody(productError(symbol, marketId), query.toString());
    }
    if (path === '/rest/instruments/byCFICode') {
      const cfi = query.get('CFICode');
      if (!cfi) return errorBody('Missing CFICode', query.toString());
      return { status: 'OK', instruments: instrumentHeads(instruments.filter((detail) => detail.cficode === cfi)) };
    }
    if (path === '/rest/instruments/bySegment') {
      const segment = query.get('MarketSegmentID');
      if (!segment) return errorBody('Missing MarketSegmentID', query.toString());
      const inSegment = instruments.filter((detail) => detail.segment?.marketSegmentId === segment && (query.get('MarketID') ?? MARKET_ID) === MARKET_ID);
      return { status: 'OK', instruments: instrumentHeads(inSegment) };
    }
    if (path === '/rest/accounts') return fake.offersAccounts ? { status: 'OK', accounts } : undefined;
    const risk = /^\/rest\/risk\/(position\/getPositions|detailedPosition|accountReport)\/([^/]+)$/.exec(path);
    if (risk?.[1] != null && risk[2] != null) {
      const account = decodeURIComponent(risk[2]);
      const list = positions[account];
      if (!list) return errorBody(`Account ${account} not found`, path);
      if (risk[1] === 'position/getPositions') return { status: 'OK', positions: list };
      const totalDiff = list.reduce((sum, position) => sum + position.totalDiff, 0);
      const dailyDiff = list.reduce((sum, position) => sum + position.totalDailyDiff, 0);
      if (risk[1] === 'detailedPosition') {
        // The reference names the call, not its fields: a summary that carries the account and its positions.
        return {
          status: 'OK',
          detailedPosition: { account, totalDailyDiffPlain: dailyDiff, totalMarketValue: totalDiff, report: list, lastCalculation: Date.now() },
        };
      }
      return {
        status: 'OK',
        accountData: {
          accountName: account,
          marketMember: 'FAKE',
          collateral: 0,
          margin: 0,
          availableToCollateral: 0,
          portfolio: totalDiff,
          ordersMargin: 0,
          currentCash: 0,
          dailyDiff,
          uncoveredMargin: 0,
          lastCalculation: Date.now(),
        },
      };
    }
    if (path === '/rest/order/id') {
      const clOrdId = query.get('clOrdId');
      if (!clOrdId || !query.get('proprietary')) return errorBody('Missing clOrdId or proprietary', query.toString());
      const order = orders.get(clOrdId);
      return order ? { status: 'OK', order } : errorBody(`Order ${clOrdId} not found`, query.toString());
    }
    const byAccount = /^\/rest\/order\/(all|actives|filleds)$/.exec(path);
    if (byAccount?.[1] != null) {
      const account = query.get('accountId');
      if (!account) return errorBody('Missing accountId', query.toString());
      const list = ordersOf(account).filter((order) =>
        byAccount[1] === 'actives' ? ACTIVE_STATUSES.has(order.status) : byAccount[1] === 'filleds' ? order.status === 'FILLED' : true,
      );
      return { status: 'OK', orders: list };
    }
    if (path === '/rest/marketdata/get') {
      const data = market.get(symbol);
      if (!known || !data) return errorBody(productError(symbol, marketId), query.toString());
      const depth = Number(query.get('depth') ?? '1');
      const entries = (query.get('entries') ?? '').split(',').filter(Boolean);
      return { status: 'OK', marketData: view(data, entries, depth), depth, aggregated: true };
    }
    if (path === '/rest/data/getTrades') return known ? trades(symbol, query) : errorBody(productError(symbol, marketId), query.toString());
    return undefined;
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
        return answer(401, errorBody('Authentication failed: wrong user or password'));
      }
      const issued = randomBytes(24).toString('base64url');
      validTokens.add(issued);
      stats.tokensIssued++;
      return answer(200, undefined, { 'X-Auth-Token': issued });
    }
    if (!url.pathname.startsWith('/rest/')) return answer(404, errorBody(`Not found: ${url.pathname}`));
    if (!tokenOk(token)) return answer(401, errorBody(token == null ? 'Missing X-Auth-Token' : 'Invalid or expired token'));
    if (request.method !== 'GET') return answer(405, errorBody('GET only'));
    const body = restAnswer(url.pathname, url.searchParams);
    return body === undefined ? answer(404, errorBody(`Not found: ${url.pathname}`)) : answer(200, body);
  });

  // Pongs are the fake's choice (answerPings), not the library's.
  const wss = new WebSocketServer({ noServer: true, autoPong: false });

  const send = (connection: Connection, message: unknown) => {
    if (connection.socket.readyState === WebSocket.OPEN) connection.socket.send(JSON.stringify(message));
  };
  const mdMessage = (symbol: string, marketData: FakeMarketData) => ({
    type: fake.mdType,
    timestamp: Date.now(),
    instrumentId: { marketId: MARKET_ID, symbol },
    marketData,
  });

  /** A socket error in the form the fake speaks; `type` is the request's, for the typed form. */
  const socketError = (connection: Connection, raw: string, description: string, type: string | null) =>
    send(connection, {
      ...(fake.socketErrorForm === 'typed' && type != null ? { type } : {}),
      status: 'ERROR',
      message: raw,
      description,
    });

  function onSmd(connection: Connection, message: Record<string, unknown>, raw: string, type: string) {
    const entries = Array.isArray(message.entries) ? message.entries.filter((e): e is string => typeof e === 'string') : [];
    const depth = typeof message.depth === 'number' ? message.depth : 1;
    const products = (Array.isArray(message.products) ? message.products : []).map((product) => ({
      symbol: isRecord(product) && typeof product.symbol === 'string' ? product.symbol : '',
      marketId: isRecord(product) && typeof product.marketId === 'string' ? product.marketId : '',
    }));
    const unknown = products.filter(({ symbol, marketId }) => marketId !== MARKET_ID || !market.has(symbol));
    if (fake.smdRefusal === 'message' && unknown[0]) {
      // The whole message is refused, naming its first unknown product.
      socketError(connection, raw, productError(unknown[0].symbol, unknown[0].marketId), type);
      return;
    }
    for (const { symbol, marketId } of products) {
      const data = market.get(symbol);
      if (marketId !== MARKET_ID || !data) {
        socketError(connection, raw, productError(symbol, marketId), type);
        continue;
      }
      connection.subscriptions.set(symbol, { entries, depth });
      send(connection, mdMessage(symbol, view(data, entries, depth)));
    }
  }

  /** `os` with `account:{id}`, `accounts:[{id}]` or neither (all), and optional snapshotOnlyActive: the matching orders of the day, then live reports. */
  function onOs(connection: Connection, message: Record<string, unknown>, raw: string, type: string) {
    const list = Array.isArray(message.accounts) ? message.accounts : isRecord(message.account) ? [message.account] : null;
    const ids: string[] = [];
    if (list != null) {
      for (const account of list) {
        if (!isRecord(account) || account.id == null || String(account.id) === '') {
          socketError(connection, raw, 'Invalid account in os: expected {"id":…}', type);
          return;
        }
        ids.push(String(account.id));
      }
    }
    if (list == null) connection.orderAccounts = 'all';
    else if (connection.orderAccounts !== 'all') for (const id of ids) connection.orderAccounts.add(id);
    const onlyActive = message.snapshotOnlyActive === true;
    for (const order of orders.values()) {
      if (list != null && !ids.includes(order.accountId.id)) continue;
      if (onlyActive && !ACTIVE_STATUSES.has(order.status)) continue;
      send(connection, { type: 'or', timestamp: Date.now(), orderReport: order });
    }
  }

  wss.on('connection', (socket: WebSocket) => {
    const connection: Connection = { id: ++connectionCount, socket, subscriptions: new Map(), orderAccounts: new Set() };
    connections.add(connection);
    stats.upgrades++;
    socket.on('ping', (data: Buffer) => {
      stats.pings++;
      if (fake.answerPings) socket.pong(data);
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
      const type = isRecord(message) && typeof message.type === 'string' ? message.type : null;
      if (isRecord(message) && type?.toLowerCase() === 'smd') onSmd(connection, message, raw, type);
      else if (isRecord(message) && type?.toLowerCase() === 'os') onOs(connection, message, raw, type);
      else socketError(connection, raw, 'Unknown message type', type);
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
    socketErrorForm: 'untyped',
    smdRefusal: 'product',
    offersAccounts: true,
    answerPings: true,
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
      orders.set(report.clOrdId, report);
      let delivered = 0;
      for (const connection of connections) {
        const wanted = connection.orderAccounts === 'all' || connection.orderAccounts.has(report.accountId.id);
        if (!wanted) continue;
        send(connection, { type: 'or', timestamp: Date.now(), orderReport: report });
        delivered++;
      }
      return delivered;
    },
    orders: () => [...orders.values()],
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
