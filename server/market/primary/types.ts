// Types of the Primary API connector: its options, its error, and the records the exchange
// returns (field names as the Primary API writes them; see shared reference/primary-api.md).
// Fields the reference does not pin down are optional, so a record missing one still types.
import type { LookupFunction } from 'node:net';
import type { InstrumentId, MarketData, MarketDataEntry, MarketUpdate } from '../../../src/protocol/market.js';

/** The market every product of the Primary API lives in (Matba Rofex / A3). */
export const PRIMARY_MARKET_ID = 'ROFX';

/** Compatible with console and with Fastify's (pino) logger. */
export interface PrimaryLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface BackoffOptions {
  /** First reconnect delay; doubles on each failed attempt… */
  initialMs: number;
  /** …up to this. */
  maxMs: number;
}

export interface PrimaryClientOptions {
  /** REST base, e.g. https://api.remarkets.primary.com.ar/ (a trailing slash is added when missing). */
  baseUrl: string;
  username: string;
  password: string;
  /** Websocket base; defaults to baseUrl with http→ws (https→wss). */
  wsUrl?: string;
  /** REST calls go through this; default the global fetch. */
  fetch?: typeof fetch;
  /** Resolves host names for the websocket connections; default the system's (dns.lookup). */
  lookup?: LookupFunction;
  logger?: PrimaryLogger;
  /** Clock in epoch ms, for timestamps the exchange does not send. */
  now?: () => number;
  /** Reconnect delays; default 500 ms doubling up to 30 s. */
  backoff?: BackoffOptions;
  /** Websocket ping period; default 30 s. Two whole periods with no inbound frame at all (message, pong or ping) drop the socket. */
  pingIntervalMs?: number;
  /** Subscription changes within this window are applied together; default 100 ms. */
  debounceMs?: number;
  /** Entries asked for in `smd`; default every entry of MARKET_DATA_ENTRIES. */
  entries?: readonly MarketDataEntry[];
  /** Book depth asked for in `smd`; default 5. */
  depth?: number;
  /** Most products in one `smd` (the exchange may refuse a whole message for one product); default 50. */
  maxSymbolsPerSmd?: number;
  /** Time limit of each REST call; default 15 s. */
  requestTimeoutMs?: number;
}

export type PrimaryErrorCode =
  /** getToken answered non-2xx or without a token. */
  | 'auth_failed'
  /** A REST call was refused with 401 even after a fresh token. */
  | 'unauthorized'
  /** Non-2xx other than 401 (with the exchange's description when its body has one). */
  | 'http'
  /** HTTP 200 with {status:'ERROR', description}. */
  | 'api_error'
  /** The body was not the JSON expected. */
  | 'bad_response'
  /** The server could not be reached or did not answer in time. */
  | 'network';

/** Every failure of the connector. Messages never carry the password or the token. */
export class PrimaryError extends Error {
  readonly code: PrimaryErrorCode;
  /** HTTP status, when there was a response. */
  readonly status: number | null;
  /** The exchange's own `description`, for api_error (and http / unauthorized when the body carried one). */
  readonly description: string | null;

  constructor(code: PrimaryErrorCode, message: string, details: { status?: number; description?: string } = {}) {
    super(message);
    this.name = 'PrimaryError';
    this.code = code;
    this.status = details.status ?? null;
    this.description = details.description ?? null;
  }
}

// ---------------------------------------------------------------- REST records

export interface PrimaryInstrumentDetail {
  instrumentId: InstrumentId;
  segment?: { marketSegmentId: string; marketId: string };
  cficode?: string;
  securityDescription?: string;
  lowLimitPrice?: number | null;
  highLimitPrice?: number | null;
  minPriceIncrement?: number;
  minTradeVol?: number;
  maxTradeVol?: number;
  /** Quantity step. */
  tickSize?: number;
  contractMultiplier?: number;
  roundLot?: number;
  /** Spelled so by the exchange. */
  priceConvertionFactor?: number;
  /** YYYYMMDD. */
  maturityDate?: string | null;
  currency?: string;
  orderTypes?: string[] | null;
  timesInForce?: string[] | null;
  instrumentPricePrecision?: number;
  instrumentSizePrecision?: number;
  /** Price ranges with their tick, keyed "0", "1", …; null on some instruments. */
  tickPriceRanges?: PrimaryTickPriceRanges | null;
}

/** One price range of `tickPriceRanges`: prices from lowerLimit to upperLimit (null: no bound) move by `tick`. */
export interface PrimaryTickPriceRange {
  lowerLimit?: number | null;
  upperLimit?: number | null;
  tick: number;
}

/** `tickPriceRanges` as documented: {"0":{lowerLimit, upperLimit, tick}, …}. */
export type PrimaryTickPriceRanges = Record<string, PrimaryTickPriceRange>;

/** Trades of a span of days, both YYYY-MM-DD (the official client's dateFrom/dateTo). */
export interface TradesRange {
  dateFrom: string;
  dateTo: string;
}

export interface PrimaryAccount {
  id: number | string;
  /** What later calls (positions, order reports) take as the account. */
  name: string;
  brokerId?: number;
  status?: boolean | string;
}

export interface PrimaryPosition {
  instrument?: { symbolReference: string; settlType?: string | number };
  symbol: string;
  buySize: number;
  buyPrice: number;
  sellSize: number;
  sellPrice: number;
  totalDailyDiff: number;
  totalDiff: number;
  tradingSymbol?: string;
  originalBuyPrice?: number;
  originalSellPrice?: number;
}

export interface PrimaryTrade {
  symbol: string;
  servertime: number;
  size: number;
  price: number;
  datetime: string;
}

/** The REST snapshot as a MarketUpdate, plus what the exchange says of its depth. */
export interface PrimarySnapshot extends MarketUpdate {
  depth: number | null;
  aggregated: boolean | null;
}

export type PrimaryOrderStatus =
  'NEW' | 'PENDING_NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELLED' | 'REJECTED' | 'PENDING_CANCEL' | 'PENDING_REPLACE' | 'REPLACED';

export interface PrimaryOrderReport {
  orderId?: string;
  clOrdId: string;
  proprietary?: string;
  execId?: string;
  accountId: { id: string };
  instrumentId: InstrumentId;
  price?: number | null;
  orderQty: number;
  ordType?: string;
  side: 'BUY' | 'SELL' | string;
  timeInForce?: string;
  /** e.g. 20210908-13:11:04.214-0300 */
  transactTime?: string;
  avgPx?: number;
  lastPx?: number;
  lastQty?: number;
  cumQty?: number;
  leavesQty?: number;
  status: PrimaryOrderStatus | string;
  text?: string;
}

/** One `or` message as delivered to order-report subscribers. */
export interface PrimaryOrderReportMessage {
  type: 'or';
  /** Epoch ms at the source (or the connector's clock when missing). */
  timestamp: number;
  orderReport: PrimaryOrderReport;
}

// ---------------------------------------------------------------- websocket

export type StreamStateName = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface StreamStatus {
  state: StreamStateName;
  /** The latest failure or exchange error, kept after recovery for the admin page. */
  lastError: string | null;
  subscribedSymbols: number;
  updatesReceived: number;
  /** Epoch ms (client clock) of the last delivered update. */
  lastUpdateAt: number | null;
}

export interface MarketDataStream {
  /** Adds symbols to the wanted set; applied after the debounce window. */
  subscribe(symbols: readonly string[]): void;
  /** Removes symbols; their updates stop at once, the socket is renewed after the debounce window. */
  unsubscribe(symbols: readonly string[]): void;
  /** Returns a function that removes the listener. */
  onUpdate(listener: (update: MarketUpdate) => void): () => void;
  onState(listener: (status: StreamStatus) => void): () => void;
  /**
   * Called when the exchange refuses a symbol (it does not list it), and again whenever the
   * refused symbol is subscribed later. A refused symbol is dropped from the wanted set.
   */
  onRefused(listener: (symbol: string, description: string) => void): () => void;
  /** The refused symbols with the exchange's description. */
  refused(): Record<string, string>;
  /** Clears the refused list (a new instrument list); returns the symbols that were on it. */
  forgetRefused(): string[];
  state(): StreamStatus;
  /** The wanted symbols, sorted. */
  symbols(): string[];
  /** Closes the socket for good; later subscribes are ignored. */
  close(): void;
}

export interface OrderReportStream {
  /** Subscribes to the reports of these accounts (names); returns the unsubscribe function. */
  subscribe(accounts: readonly string[], listener: (message: PrimaryOrderReportMessage) => void): () => void;
  state(): StreamStatus;
  close(): void;
}

export interface PrimaryClient {
  /** Gets a fresh token (also done lazily by every call that needs one). */
  authenticate(): Promise<string>;
  /** GET {base}{path}?{query} with the token; 401 renews the token and retries once. */
  rest<T>(path: string, query?: RestQuery): Promise<T>;
  instruments(): Promise<PrimaryInstrumentDetail[]>;
  accounts(): Promise<PrimaryAccount[]>;
  positions(account: string): Promise<PrimaryPosition[]>;
  marketDataSnapshot(symbol: string, entries?: readonly MarketDataEntry[], depth?: number): Promise<PrimarySnapshot>;
  /** One day (YYYY-MM-DD) or a span of days ({dateFrom, dateTo}, YYYY-MM-DD). */
  trades(symbol: string, date: string | TradesRange): Promise<PrimaryTrade[]>;
  marketData: MarketDataStream;
  orderReports: OrderReportStream;
  /** Closes both sockets. */
  close(): void;
}

/** Lists are sent comma-separated (entries=BI,OF,LA), as the public clients do. */
export type RestQuery = Record<string, string | number | boolean | readonly string[] | undefined>;

/** What the sockets need from the client's token handling. */
export interface TokenSource {
  /** The current token, authenticating when there is none. */
  get(): Promise<string>;
  /** Forgets this token (refused by the server) so the next get() authenticates again. */
  invalidate(token: string): void;
}

export type { MarketData, MarketDataEntry, MarketUpdate };
