// Market data as the Primary API writes it (reference/primary-api.md), shared by the feeds,
// the market socket and the client.
import { safeText, trimmedText, z } from './zod';
import { successData } from './response';

export const PriceSize = z.strictObject({ price: z.number(), size: z.number() });
export type PriceSize = z.infer<typeof PriceSize>;

/** A price with its size and epoch-ms date when the exchange gives them (CL, SE). */
const PricedEntry = z.strictObject({ price: z.number(), size: z.number().optional(), date: z.number().optional() });

/** Entry codes of Primary market data; every field optional, each message a full refresh of its entries. */
export const MarketData = z.strictObject({
  /** Bids, best first. */
  BI: z.array(PriceSize).optional(),
  /** Offers, best first. */
  OF: z.array(PriceSize).optional(),
  /** Last trade. */
  LA: z.strictObject({ price: z.number(), size: z.number(), date: z.number() }).nullable().optional(),
  OP: z.number().nullable().optional(),
  HI: z.number().nullable().optional(),
  LO: z.number().nullable().optional(),
  /** Previous close. */
  CL: PricedEntry.nullable().optional(),
  /** Settlement. */
  SE: PricedEntry.nullable().optional(),
  /** Traded volume. */
  TV: z.number().nullable().optional(),
  /** Open interest. */
  OI: z.strictObject({ size: z.number(), date: z.number().optional() }).nullable().optional(),
  /** Index value. */
  IV: z.number().nullable().optional(),
  /** Effective volume (traded amount), BYMA lines. */
  EV: z.number().nullable().optional(),
  /** Nominal volume (traded quantity), BYMA lines: they report volume here, not in TV. */
  NV: z.number().nullable().optional(),
  /** Closing price (adjusted). */
  ACP: PricedEntry.nullable().optional(),
  /** Trade count. */
  TC: z.number().nullable().optional(),
});
export type MarketData = z.infer<typeof MarketData>;

/** Every entry code the official client knows (reference/primary-api.md). */
export const MARKET_DATA_ENTRIES = ['BI', 'OF', 'LA', 'OP', 'HI', 'LO', 'CL', 'SE', 'TV', 'OI', 'IV', 'EV', 'NV', 'ACP', 'TC'] as const;
export type MarketDataEntry = (typeof MARKET_DATA_ENTRIES)[number];

export interface InstrumentId {
  marketId: string;
  symbol: string;
}

/** One update from a feed: the full state of the entries it carries (server side only). */
export interface MarketUpdate {
  instrumentId: InstrumentId;
  marketData: MarketData;
  /** Epoch ms at the source. */
  timestamp: number;
}

/**
 * The markets Visores knows, each with its own hours and state (server/market/calendar.ts
 * writes the same list as MARKET_NAMES): A3 Mercados (ROFEX), BYMA, and the BCRA's A3500.
 */
export const MarketName = z.enum(['rofex', 'byma', 'a3500']);
export type MarketName = z.infer<typeof MarketName>;

/** What the market socket sends for a symbol (issue 4). */
export const SymbolMessage = z.strictObject({
  md: MarketData,
  /** YYYYMMDD, for instruments that expire. */
  expiration: z.string().optional(),
  /** The market the symbol belongs to: in the answer to a subscribe (a snapshot), not in plain updates. */
  market: MarketName.optional(),
});
export type SymbolMessage = z.infer<typeof SymbolMessage>;

/**
 * A data frame of /ws/market: each symbol as the socket wrote it, with its state. The answer
 * to a subscribe also carries the subscribe's `requestId` back; updates never do. Data
 * frames never carry an `event` key (control events do, see socket.ts).
 */
export const MarketDataMessage = z.object({ requestId: z.string().optional() }).catchall(SymbolMessage);
export type MarketDataMessage = z.infer<typeof MarketDataMessage>;

const MarketSymbol = trimmedText().min(1, 'Falta el símbolo').max(100, 'El símbolo no puede superar 100 caracteres');

/** Most symbols one batch subscribe or unsubscribe may carry. */
export const MAX_SYMBOLS_PER_MESSAGE = 500;

/**
 * `{action, symbol}` for one symbol, answered by its snapshot keyed by the symbol;
 * `{action, symbols:[…]}` for a batch (a worker re-subscribing after a reconnect), answered
 * by ONE message keyed by every known symbol with its snapshot, preceded by an error event
 * with `symbols` listing the unknown ones. Both carry the `requestId` back when given.
 */
export const SubscribeMessage = z.object({
  action: z.enum(['subscribe', 'unsubscribe']),
  symbol: MarketSymbol,
  requestId: safeText().max(100).optional(),
});

export const SubscribeManyMessage = z.object({
  action: z.enum(['subscribe', 'unsubscribe']),
  symbols: z
    .array(MarketSymbol, { error: 'symbols debe ser una lista de símbolos' })
    .min(1, 'La lista de símbolos está vacía')
    .max(MAX_SYMBOLS_PER_MESSAGE, `Máximo de ${MAX_SYMBOLS_PER_MESSAGE} símbolos por mensaje`),
  requestId: safeText().max(100).optional(),
});

export const SearchRequest = z.strictObject({
  symbol: trimmedText().min(1, 'Escriba lo que busca').max(100, 'La búsqueda no puede superar 100 caracteres'),
});

export const FormulaRequest = z.strictObject({
  formula: safeText().max(2000, 'La fórmula no puede superar 2000 caracteres'),
});

export const ExpirationRequest = z.strictObject({
  contract_name: trimmedText().min(1, 'Falta el contrato').max(100, 'El contrato no puede superar 100 caracteres'),
});

export const IntradayRequest = z.strictObject({
  symbol: trimmedText().min(1, 'Falta el símbolo').max(100, 'El símbolo no puede superar 100 caracteres'),
  /** YYYY-MM-DD (or YYYYMMDD). */
  date: trimmedText().min(1, 'Falta la fecha').max(20, 'La fecha no es válida'),
});

export const MAX_HISTORY_CANDLES = 2520;
export const HistoryRequest = z.strictObject({
  symbol: trimmedText().min(1, 'Falta el símbolo').max(100, 'El símbolo no puede superar 100 caracteres'),
  limit: z
    .number({ error: 'limit debe ser un número' })
    .int('limit debe ser un número entero')
    .min(1, 'limit debe ser al menos 1')
    .max(MAX_HISTORY_CANDLES, `limit no puede superar ${MAX_HISTORY_CANDLES}`),
});

export const FeedRateRequest = z.strictObject({
  rate: z
    .number({ error: 'rate debe ser un número' })
    .int('rate debe ser un número entero')
    .min(0, 'rate no puede ser negativo')
    .max(100_000, 'rate no puede superar 100000'),
});

// ------------------------------------------------------------------------ answers

/** POST /search_symbols_formula: the symbols a formula names, and which the catalogue lacks. */
export const FormulaSymbolsResponse = successData(
  z.strictObject({
    symbols: z.array(z.string()),
    /** Always true: a formula that does not parse is answered 400. */
    parses: z.literal(true),
    hasOperators: z.boolean(),
    /** Symbols the catalogue does not know (listed, not refused). */
    unknown: z.array(z.string()),
  }),
);
export type FormulaSymbolsResponse = z.infer<typeof FormulaSymbolsResponse>;

/** POST /get_expiration_contract: YYYYMMDD, outside `data`. */
export const ExpirationResponse = z.strictObject({ status: z.literal('success'), expiration: z.string() });
export type ExpirationResponse = z.infer<typeof ExpirationResponse>;

const candleFields = { open: z.number(), high: z.number(), low: z.number(), close: z.number(), volume: z.number() };

/** A minute candle: `time` in epoch seconds of the minute, as charting libraries take it. */
export const IntradayCandle = z.strictObject({ time: z.number(), ...candleFields });
export type IntradayCandle = z.infer<typeof IntradayCandle>;

/** A daily candle: `time` is the session day, YYYY-MM-DD. */
export const DailyCandle = z.strictObject({ time: z.string(), ...candleFields });
export type DailyCandle = z.infer<typeof DailyCandle>;

/** POST /get_intradia: one session day's minute candles, oldest first (none on weekends and future days). */
export const IntradayResponse = successData(z.array(IntradayCandle));
export type IntradayResponse = z.infer<typeof IntradayResponse>;

/** POST /visores/search/symbol/history: daily candles, oldest first. */
export const HistoryResponse = successData(z.array(DailyCandle));
export type HistoryResponse = z.infer<typeof HistoryResponse>;

/** The Primary API's instrument record (reference/primary-api.md). */
export const PrimaryInstrument = z.strictObject({
  instrumentId: z.strictObject({ marketId: z.literal('ROFX'), symbol: z.string() }),
  cficode: z.string(),
  segment: z.strictObject({ marketSegmentId: z.string(), marketId: z.literal('ROFX') }),
  securityDescription: z.string(),
  currency: z.enum(['ARS', 'USD']),
  minPriceIncrement: z.number(),
  contractMultiplier: z.number(),
  instrumentPricePrecision: z.number(),
  /** YYYYMMDD, for instruments that expire. */
  maturityDate: z.string().optional(),
});
export type PrimaryInstrument = z.infer<typeof PrimaryInstrument>;

/** GET /visores/primary/instruments: the whole catalogue, under `instruments` (not `data`). */
export const InstrumentsResponse = z.strictObject({ status: z.literal('success'), instruments: z.array(PrimaryInstrument) });
export type InstrumentsResponse = z.infer<typeof InstrumentsResponse>;

// ------------------------------------------------------------------ admin: feeds

/** The market's feeds (server/market/feeds.ts writes the same list as FEED_NAMES). */
export const FeedName = z.enum(['rofex', 'tv']);
export type FeedName = z.infer<typeof FeedName>;

// ---------------------------------------------------------------- market states

/**
 * A market's state as the market socket tells it: running; stopped by an admin; silent (its
 * feed has published nothing for FEED_SILENT_SECONDS, or the process that runs it is gone);
 * reconnecting (the exchange's connection is down); closed (outside its session, for the real
 * exchange or a simulator that keeps the calendar).
 */
export const MarketStateName = z.enum(['running', 'stopped', 'silent', 'reconnecting', 'closed']);
export type MarketStateName = z.infer<typeof MarketStateName>;

/** A market's session at the moment of the event (epoch ms; `day` in Buenos Aires). */
export const MarketSession = z.strictObject({
  /** YYYY-MM-DD: the last trading day whose session has opened (the current or last session). */
  day: z.string(),
  open: z.boolean(),
  opensAt: z.number(),
  closesAt: z.number(),
  nextOpensAt: z.number(),
});
export type MarketSession = z.infer<typeof MarketSession>;

export const MarketStateEntry = z.strictObject({
  market: MarketName,
  /** How the market is named on screen: `ROFEX`. */
  label: z.string(),
  /** The feed its data comes from. */
  feed: FeedName,
  /** Its feed is the simulator, not the exchange. */
  simulated: z.boolean(),
  state: MarketStateName,
  /** Epoch ms when this state began; null when not known. */
  since: z.number().nullable(),
  /** Epoch ms of the last update its feed published; null when none was heard. */
  lastUpdate: z.number().nullable(),
  session: MarketSession,
});
export type MarketStateEntry = z.infer<typeof MarketStateEntry>;

/**
 * /ws/market's control event `markets`: every market's state, sent right after
 * `authenticated` and again whenever any market's state (or session) changes.
 */
export const MarketsEvent = z.strictObject({
  event: z.literal('markets'),
  /** Every market comes from the simulator, not the exchange. */
  simulated: z.boolean(),
  /** SIM_CALENDAR: 'demo' keeps simulated prices moving at any hour; 'real' closes them outside the sessions. */
  calendar: z.enum(['demo', 'real']),
  markets: z.array(MarketStateEntry),
});
export type MarketsEvent = z.infer<typeof MarketsEvent>;

/** A feed as the admin sees it: where it runs, and its clients and symbols in every process. */
export const FeedAdminStatus = z.strictObject({
  name: FeedName,
  source: z.enum(['simulator', 'primary']),
  state: z.enum(['running', 'stopped']),
  /** Configured pace, ticks per second (0 for the exchange). */
  rate: z.number(),
  /** Updates published per second, averaged over the last minute. */
  ticksPerSecond: z.number(),
  /** Updates published per second over the last 5 seconds: follows a new rate within seconds. */
  recentTicksPerSecond: z.number(),
  /** Updates per second of each 10 seconds of the last 10 minutes, oldest first (the sparkline). */
  samples: z.array(z.number()),
  /** Epoch ms since when the feed is in its state (in the process that runs it). */
  since: z.number(),
  instruments: z.number(),
  lastError: z.string().nullable(),
  /** The process that runs the feed (holds its lock); null while none does. */
  process: z.string().nullable(),
  /** Market sockets watching at least one of its instruments, in every process. */
  clients: z.number(),
  /** Its symbols with a subscriber in some process. */
  subscribedSymbols: z.number(),
});
export type FeedAdminStatus = z.infer<typeof FeedAdminStatus>;

/** GET /admin/feeds. */
export const FeedsResponse = z.strictObject({
  status: z.literal('success'),
  /** The process that answered. */
  self: z.string(),
  data: z.array(FeedAdminStatus),
  /** Fan-out counters since each process started, summed. */
  stats: z.strictObject({ published: z.number(), coalesced: z.number(), messagesSent: z.number() }),
  /** Every process that answered, with its market sockets and the feeds it runs. */
  processes: z.array(
    z.strictObject({
      process: z.string(),
      /** Open market sockets. */
      sockets: z.number(),
      /** Open positions sockets. */
      positionsSockets: z.number(),
      /** Epoch ms when the process started. */
      startedAt: z.number(),
      feeds: z.array(FeedName),
    }),
  ),
  /** Processes that heard the question but did not answer in time (with Redis; 0 otherwise). */
  silent: z.number(),
});
export type FeedsResponse = z.infer<typeof FeedsResponse>;

/** POST /admin/feeds/{name}/start|stop and PUT /admin/feeds/{name}: the feed as it is then. */
export const FeedResponse = successData(FeedAdminStatus);
export type FeedResponse = z.infer<typeof FeedResponse>;

/** GET /admin/feeds/{name}/symbols: the feed's symbols that some socket wants, with how many sockets, in every process. */
export const FeedSymbolsResponse = successData(z.array(z.strictObject({ symbol: z.string(), sockets: z.number() })));
export type FeedSymbolsResponse = z.infer<typeof FeedSymbolsResponse>;

/** An open market socket, as GET /admin/market/sockets lists it. */
export const MarketSocketAdminInfo = z.strictObject({
  process: z.string(),
  user: z.strictObject({ id: z.string(), username: z.string() }),
  /** Epoch ms when it authenticated. */
  openedAt: z.number(),
  /** Symbols as the socket wrote them, sorted. */
  symbols: z.array(z.string()),
});
export type MarketSocketAdminInfo = z.infer<typeof MarketSocketAdminInfo>;

/** GET /admin/market/sockets: the open market sockets of every process. */
export const MarketSocketsResponse = successData(z.array(MarketSocketAdminInfo));
export type MarketSocketsResponse = z.infer<typeof MarketSocketsResponse>;

// ------------------------------------------------------------------------ search

/** Instrument kinds of the catalogue (server/market/catalogue.ts); 'other': a CFI code Visores does not classify. */
export const INSTRUMENT_KINDS = ['future', 'option', 'spread', 'stock', 'bond', 'index', 'spot', 'other'] as const;
export const InstrumentKind = z.enum(INSTRUMENT_KINDS);
export type InstrumentKind = z.infer<typeof InstrumentKind>;

/** One instrument found by POST /visores/search (built in server/http/market.ts from the catalogue's searchInstruments). */
export const SearchHit = z.strictObject({
  /** As the exchange writes it: `DLR/DIC26`, `MERV - XMEV - GGAL - 24hs`. */
  symbol: z.string(),
  description: z.string(),
  kind: InstrumentKind,
  currency: z.enum(['ARS', 'USD']),
  /** YYYYMMDD, for instruments that expire. */
  maturityDate: z.string().nullable(),
  /** Other ways to write the symbol: `ROFEX:DLR/DIC26`, `BYMA:AL30`. */
  aliases: z.array(z.string()),
  /** Units of the underlying one contract is (the Primary API's contractMultiplier): 1000 for a dollar future. */
  contractSize: z.number(),
  /** The smallest price step (minPriceIncrement). */
  tick: z.number(),
  /** Decimals prices are written with (instrumentPricePrecision). */
  decimals: z.number().int().min(0),
});
export type SearchHit = z.infer<typeof SearchHit>;

/** POST /visores/search: the best matches first. */
export const SearchResponse = successData(z.array(SearchHit));
export type SearchResponse = z.infer<typeof SearchResponse>;
