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

export const SubscribeMessage = z.object({
  action: z.enum(['subscribe', 'unsubscribe']),
  symbol: z.string().trim().min(1, 'Falta el símbolo').max(100, 'El símbolo no puede superar 100 caracteres'),
  requestId: z.string().max(100).optional(),
});
