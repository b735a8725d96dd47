// Market data as the Primary API writes it (reference/primary-api.md), shared by the feeds,
// the market socket and the client.
import { z } from './zod';

export interface PriceSize {
  price: number;
  size: number;
}

/** Entry codes of Primary market data; every field optional, each message a full refresh of its entries. */
export interface MarketData {
  /** Bids, best first. */
  BI?: PriceSize[];
  /** Offers, best first. */
  OF?: PriceSize[];
  /** Last trade. */
  LA?: { price: number; size: number; date: number } | null;
  OP?: number | null;
  HI?: number | null;
  LO?: number | null;
  /** Previous close. */
  CL?: { price: number; size?: number; date?: number } | null;
  /** Settlement. */
  SE?: { price: number; size?: number; date?: number } | null;
  /** Traded volume. */
  TV?: number | null;
  /** Open interest. */
  OI?: { size: number; date?: number } | null;
  /** Index value. */
  IV?: number | null;
}

export const MARKET_DATA_ENTRIES = ['BI', 'OF', 'LA', 'OP', 'HI', 'LO', 'CL', 'SE', 'TV', 'OI', 'IV'] as const;
export type MarketDataEntry = (typeof MARKET_DATA_ENTRIES)[number];

export interface InstrumentId {
  marketId: string;
  symbol: string;
}

/** One update from a feed: the full state of the entries it carries. */
export interface MarketUpdate {
  instrumentId: InstrumentId;
  marketData: MarketData;
  /** Epoch ms at the source. */
  timestamp: number;
}

/** What the market socket sends for a symbol (issue 4). */
export interface SymbolMessage {
  md: MarketData;
  /** YYYYMMDD, for instruments that expire. */
  expiration?: string;
}

const MarketSymbol = z.string().trim().min(1, 'Falta el símbolo').max(100, 'El símbolo no puede superar 100 caracteres');

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
  requestId: z.string().max(100).optional(),
});

export const SubscribeManyMessage = z.object({
  action: z.enum(['subscribe', 'unsubscribe']),
  symbols: z
    .array(MarketSymbol, { error: 'symbols debe ser una lista de símbolos' })
    .min(1, 'La lista de símbolos está vacía')
    .max(MAX_SYMBOLS_PER_MESSAGE, `Máximo de ${MAX_SYMBOLS_PER_MESSAGE} símbolos por mensaje`),
  requestId: z.string().max(100).optional(),
});

export const SearchRequest = z.strictObject({
  symbol: z.string().trim().min(1, 'Escriba lo que busca').max(100, 'La búsqueda no puede superar 100 caracteres'),
});

export const FormulaRequest = z.strictObject({
  formula: z.string().max(2000, 'La fórmula no puede superar 2000 caracteres'),
});

export const ExpirationRequest = z.strictObject({
  contract_name: z.string().trim().min(1, 'Falta el contrato').max(100, 'El contrato no puede superar 100 caracteres'),
});

export const IntradayRequest = z.strictObject({
  symbol: z.string().trim().min(1, 'Falta el símbolo').max(100, 'El símbolo no puede superar 100 caracteres'),
  /** YYYY-MM-DD (or YYYYMMDD). */
  date: z.string().trim().min(1, 'Falta la fecha').max(20, 'La fecha no es válida'),
});

export const MAX_HISTORY_CANDLES = 2520;
export const HistoryRequest = z.strictObject({
  symbol: z.string().trim().min(1, 'Falta el símbolo').max(100, 'El símbolo no puede superar 100 caracteres'),
  limit: z
    .number({ error: 'limit debe ser un número' })
    .int('limit debe ser un número entero')
    .min(1, 'limit debe ser al menos 1')
    .max(MAX_HISTORY_CANDLES, `limit no puede superar ${MAX_HISTORY_CANDLES}`),
});

export const FeedRateRequest = z.strictObject({
  rate: z.number({ error: 'rate debe ser un número' }).int('rate debe ser un número entero').min(0, 'rate no puede ser negativo').max(100_000, 'rate no puede superar 100000'),
});
