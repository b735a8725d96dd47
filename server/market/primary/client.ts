// The Primary API connector (A3 Mercados / Matba Rofex, reMarkets, xOMS brokers): token
// authentication, REST calls with one retry after a refused token, typed helpers, and the
// market-data and order-report streams (streams.ts). Facts: shared reference/primary-api.md.
import { MARKET_DATA_ENTRIES, type MarketDataEntry } from '../../../src/protocol/market.js';
import { isRecord } from '../../../src/lib/isRecord.js';
import { errorDescription, normalizeMarketData } from './normalize.js';
import { createMarketDataStream, createOrderReportStream, type StreamDeps } from './streams.js';
import {
  PRIMARY_MARKET_ID,
  PrimaryError,
  type PrimaryAccount,
  type PrimaryClient,
  type PrimaryClientOptions,
  type PrimaryInstrumentDetail,
  type PrimaryLogger,
  type PrimaryPosition,
  type PrimarySnapshot,
  type PrimaryTrade,
  type RestQuery,
  type TokenSource,
} from './types.js';

export { PRIMARY_MARKET_ID, PrimaryError } from './types.js';
export type * from './types.js';

const DEFAULTS = {
  backoff: { initialMs: 500, maxMs: 30_000 },
  pingIntervalMs: 30_000,
  debounceMs: 100,
  depth: 5,
  maxSymbolsPerSmd: 50,
  requestTimeoutMs: 15_000,
} as const;

const consoleLogger: PrimaryLogger = {
  info: (message) => console.info(message),
  warn: (message) => console.warn(message),
  error: (message) => console.error(message),
};

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

function causeText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici hides the reason (ECONNREFUSED…) in `cause`.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

function queryString(query: RestQuery | undefined): string {
  if (!query) return '';
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const encoded = Array.isArray(value) ? value.map((item: string) => encodeURIComponent(item)).join(',') : encodeURIComponent(String(value));
    pairs.push(`${encodeURIComponent(key)}=${encoded}`);
  }
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

/** Refuses a day that is not YYYY-MM-DD (a real calendar day). */
function checkDay(name: string, day: string): void {
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(day) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;
  if (!valid) throw new RangeError(`trades: ${name} must be YYYY-MM-DD, got "${day}"`);
}

/** The array in `field` of a REST body; anything else is a bad response. */
function listField<T>(body: unknown, field: string, path: string): T[] {
  const list = isRecord(body) ? body[field] : undefined;
  if (!Array.isArray(list)) {
    throw new PrimaryError('bad_response', `Primary API ${path} answered without a "${field}" list`);
  }
  // Records are passed on as the exchange writes them; types.ts describes the documented fields.
  return list as T[];
}

/** The description of an error body ({status:'ERROR', description}), or null when the text is not one. */
function errorBodyDescription(text: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  return isRecord(body) && (typeof body.description === 'string' || typeof body.message === 'string') ? errorDescription(body) : null;
}

export function createPrimaryClient(options: PrimaryClientOptions): PrimaryClient {
  const baseUrl = withTrailingSlash(options.baseUrl);
  const wsUrl = options.wsUrl ?? baseUrl.replace(/^http/i, 'ws');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const logger = options.logger ?? consoleLogger;
  const now = options.now ?? Date.now;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  const entries: readonly MarketDataEntry[] = options.entries ?? MARKET_DATA_ENTRIES;
  const { username, password } = options;

  let token: string | null = null;
  let pendingToken: Promise<string> | null = null;

  async function fetchOrFail(url: string, init: RequestInit, what: string): Promise<Response> {
    try {
      return await fetchImpl(url, { ...init, signal: AbortSignal.timeout(requestTimeoutMs) });
    } catch (error) {
      throw new PrimaryError('network', `Primary API ${what} failed at ${baseUrl}: ${causeText(error)}`);
    }
  }

  async function requestToken(): Promise<string> {
    const response = await fetchOrFail(
      `${baseUrl}auth/getToken`,
      { method: 'POST', headers: { 'X-Username': username, 'X-Password': password } },
      'authentication',
    );
    // The body says nothing the status does not; read it so the connection is reused.
    await response.text().catch(() => '');
    const { status } = response;
    if (!response.ok) {
      const reason = status === 401 || status === 403 ? 'refused the credentials of' : 'could not authenticate';
      throw new PrimaryError('auth_failed', `Primary API ${reason} user "${username}" (HTTP ${status})`, { status });
    }
    const issued = response.headers.get('X-Auth-Token');
    if (!issued) {
      throw new PrimaryError('auth_failed', `Primary API answered getToken without an X-Auth-Token header (HTTP ${status})`, {
        status,
      });
    }
    return issued;
  }

  /** One getToken at a time: concurrent callers share it. */
  function authenticate(): Promise<string> {
    pendingToken ??= requestToken()
      .then((issued) => {
        token = issued;
        logger.info(`Primary API: authenticated as "${username}" at ${baseUrl}`);
        return issued;
      })
      .finally(() => {
        pendingToken = null;
      });
    return pendingToken;
  }

  const tokens: TokenSource = {
    get: () => (token != null ? Promise.resolve(token) : authenticate()),
    invalidate(refused) {
      if (token === refused) token = null;
    },
  };

  async function rest<T>(path: string, query?: RestQuery): Promise<T> {
    const relative = path.replace(/^\/+/, '');
    const url = `${baseUrl}${relative}${queryString(query)}`;
    const get = (used: string) => fetchOrFail(url, { method: 'GET', headers: { 'X-Auth-Token': used } }, relative);

    let used = await tokens.get();
    let response = await get(used);
    if (response.status === 401) {
      await response.text().catch(() => '');
      logger.info(`Primary API: token refused on ${relative}; authenticating again`);
      tokens.invalidate(used);
      used = await tokens.get();
      response = await get(used);
      if (response.status === 401) {
        const description = errorBodyDescription(await response.text().catch(() => ''));
        const said = description == null ? '' : `: ${description}`;
        throw new PrimaryError('unauthorized', `Primary API refused a fresh token on ${relative} (HTTP 401)${said}`, {
          status: 401,
          ...(description == null ? {} : { description }),
        });
      }
    }
    const text = await response.text();
    if (!response.ok) {
      // The exchange's own words, when the body is its {status:'ERROR', description}.
      const description = errorBodyDescription(text);
      const said = description == null ? '' : `: ${description}`;
      throw new PrimaryError('http', `Primary API ${relative} answered HTTP ${response.status}${said}`, {
        status: response.status,
        ...(description == null ? {} : { description }),
      });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new PrimaryError('bad_response', `Primary API ${relative} answered something that is not JSON`, {
        status: response.status,
      });
    }
    // Errors arrive as HTTP 200 with {status:'ERROR', description}.
    if (isRecord(body) && body.status === 'ERROR') {
      const description = errorDescription(body);
      throw new PrimaryError('api_error', `Primary API ${relative}: ${description}`, { status: response.status, description });
    }
    // The caller names the shape it expects; the helpers below check the part they use.
    return body as T;
  }

  const streamDeps: StreamDeps = {
    wsUrl,
    lookup: options.lookup,
    tokens,
    logger,
    backoff: options.backoff ?? DEFAULTS.backoff,
    pingIntervalMs: options.pingIntervalMs ?? DEFAULTS.pingIntervalMs,
    now,
  };
  const marketData = createMarketDataStream({
    ...streamDeps,
    debounceMs: options.debounceMs ?? DEFAULTS.debounceMs,
    entries,
    depth: options.depth ?? DEFAULTS.depth,
    maxSymbolsPerSmd: options.maxSymbolsPerSmd ?? DEFAULTS.maxSymbolsPerSmd,
  });
  const orderReports = createOrderReportStream(streamDeps);

  return {
    authenticate,
    rest,
    async instruments() {
      const path = 'rest/instruments/details';
      return listField<PrimaryInstrumentDetail>(await rest(path), 'instruments', path);
    },
    async accounts() {
      const path = 'rest/accounts';
      return listField<PrimaryAccount>(await rest(path), 'accounts', path);
    },
    async positions(account) {
      const path = `rest/risk/position/getPositions/${encodeURIComponent(account)}`;
      return listField<PrimaryPosition>(await rest(path), 'positions', path);
    },
    async marketDataSnapshot(symbol, wantedEntries = entries, depth = options.depth ?? DEFAULTS.depth): Promise<PrimarySnapshot> {
      const path = 'rest/marketdata/get';
      const body = await rest<unknown>(path, { marketId: PRIMARY_MARKET_ID, symbol, entries: wantedEntries, depth });
      if (!isRecord(body) || !isRecord(body.marketData)) {
        throw new PrimaryError('bad_response', `Primary API ${path} answered without marketData for ${symbol}`);
      }
      // depth and aggregated sit beside marketData (the documentation); some answers put them inside it.
      const { marketData } = body;
      const depthOf = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
      const aggregatedOf = (value: unknown) => (typeof value === 'boolean' ? value : null);
      return {
        instrumentId: { marketId: PRIMARY_MARKET_ID, symbol },
        marketData: normalizeMarketData(marketData),
        timestamp: now(),
        depth: depthOf(body.depth) ?? depthOf(marketData.depth),
        aggregated: aggregatedOf(body.aggregated) ?? aggregatedOf(marketData.aggregated),
      };
    },
    async trades(symbol, date) {
      const path = 'rest/data/getTrades';
      if (typeof date === 'string') {
        checkDay('date', date);
        return listField<PrimaryTrade>(await rest(path, { marketId: PRIMARY_MARKET_ID, symbol, date }), 'trades', path);
      }
      checkDay('dateFrom', date.dateFrom);
      checkDay('dateTo', date.dateTo);
      if (date.dateFrom > date.dateTo) throw new RangeError(`trades: dateFrom ${date.dateFrom} is after dateTo ${date.dateTo}`);
      const query = { marketId: PRIMARY_MARKET_ID, symbol, dateFrom: date.dateFrom, dateTo: date.dateTo };
      return listField<PrimaryTrade>(await rest(path, query), 'trades', path);
    },
    marketData,
    orderReports,
    close() {
      marketData.close();
      orderReports.close();
    },
  };
}
