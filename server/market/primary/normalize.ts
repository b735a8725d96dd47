// From what the exchange sends to the shared types: market data entries checked one by one
// (a malformed entry is dropped, not the message), `Md` messages to MarketUpdate, `or`
// messages to order reports. Pure functions.
import { isRecord } from '../../../src/lib/isRecord.js';
import { MARKET_DATA_ENTRIES, type MarketData, type MarketUpdate, type PriceSize } from '../../../src/protocol/market.js';
import { PRIMARY_MARKET_ID, type PrimaryInstrumentDetail, type PrimaryOrderReport, type PrimaryOrderReportMessage } from './types.js';

function num(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

function book(value: unknown): PriceSize[] {
  if (!Array.isArray(value)) return [];
  const levels: PriceSize[] = [];
  for (const level of value) {
    if (!isRecord(level)) continue;
    const price = num(level.price);
    const size = num(level.size);
    if (price != null && size != null) levels.push({ price, size });
  }
  return levels;
}

/** OP, HI, LO, TV, IV: a number; some feeds wrap it as {price} or {size}. */
function scalar(value: unknown): number | null {
  if (isRecord(value)) return num(value.price) ?? num(value.size);
  return num(value);
}

/** CL, SE: {price, size?, date?}; a bare number is taken as the price. */
function priced(value: unknown): { price: number; size?: number; date?: number } | null {
  if (!isRecord(value)) {
    const price = num(value);
    return price == null ? null : { price };
  }
  const price = num(value.price);
  if (price == null) return null;
  const result: { price: number; size?: number; date?: number } = { price };
  const size = num(value.size);
  const date = num(value.date);
  if (size != null) result.size = size;
  if (date != null) result.date = date;
  return result;
}

/**
 * Keeps the entries of MARKET_DATA_ENTRIES that are present (each message is a full refresh of
 * those); TV, when missing or null, is NV (else EV), as BYMA lines report their volume there.
 */
export function normalizeMarketData(raw: unknown): MarketData {
  const data: MarketData = {};
  if (!isRecord(raw)) return data;
  for (const entry of MARKET_DATA_ENTRIES) {
    if (!(entry in raw)) continue;
    const value = raw[entry];
    switch (entry) {
      case 'BI':
      case 'OF':
        data[entry] = book(value);
        break;
      case 'LA': {
        const last = isRecord(value) ? num(value.price) : null;
        data.LA = isRecord(value) && last != null ? { price: last, size: num(value.size) ?? 0, date: num(value.date) ?? 0 } : null;
        break;
      }
      case 'CL':
      case 'SE':
      case 'ACP':
        data[entry] = priced(value);
        break;
      case 'OI': {
        const size = isRecord(value) ? num(value.size) : num(value);
        const date = isRecord(value) ? num(value.date) : null;
        data.OI = size == null ? null : date == null ? { size } : { size, date };
        break;
      }
      case 'OP':
      case 'HI':
      case 'LO':
      case 'TV':
      case 'IV':
      case 'EV':
      case 'NV':
      case 'TC':
        data[entry] = scalar(value);
        break;
    }
  }
  // BYMA lines (MERV - XMEV - …) report volume only in NV (quantity) and EV (amount): the
  // volume shown (TV) comes from them when the exchange sent no TV.
  if (data.TV == null) {
    const volume = data.NV ?? data.EV;
    if (volume != null) data.TV = volume;
  }
  return data;
}

/** A symbol's state when the exchange has none for it (it refused the symbol): every entry cleared. */
export function noMarketData(): MarketData {
  const data: MarketData = {};
  for (const entry of MARKET_DATA_ENTRIES) {
    if (entry === 'BI' || entry === 'OF') data[entry] = [];
    else data[entry] = null;
  }
  return data;
}

/** True for `Md` / `md` / `MD`: real traffic and the document disagree on the case. */
export function isMessageType(message: Record<string, unknown>, type: string): boolean {
  return typeof message.type === 'string' && message.type.toLowerCase() === type;
}

/** An `Md` message as a MarketUpdate, or null when it names no instrument. */
export function toMarketUpdate(message: Record<string, unknown>, now: () => number): MarketUpdate | null {
  const id = message.instrumentId;
  if (!isRecord(id) || typeof id.symbol !== 'string' || id.symbol === '') return null;
  const marketId = typeof id.marketId === 'string' && id.marketId !== '' ? id.marketId : PRIMARY_MARKET_ID;
  return {
    instrumentId: { marketId, symbol: id.symbol },
    marketData: normalizeMarketData(message.marketData),
    timestamp: num(message.timestamp) ?? now(),
  };
}

/** An `or` message, or null when its report names no account. */
export function toOrderReportMessage(message: Record<string, unknown>, now: () => number): PrimaryOrderReportMessage | null {
  const report = message.orderReport;
  if (!isRecord(report) || !isRecord(report.accountId) || report.accountId.id == null) return null;
  return {
    type: 'or',
    timestamp: num(message.timestamp) ?? now(),
    // The record is passed on as the exchange wrote it; only the account, used for routing, is checked.
    orderReport: { ...report, accountId: { id: String(report.accountId.id) } } as unknown as PrimaryOrderReport,
  };
}

/** The exchange's text of an {status:'ERROR'} message or body. */
export function errorDescription(message: Record<string, unknown>): string {
  if (typeof message.description === 'string' && message.description !== '') return message.description;
  if (typeof message.message === 'string' && message.message !== '') return message.message;
  return 'the exchange answered ERROR without a description';
}

/** Decimals a step needs (0.5 → 1, 0.05 → 2, 1 → 0); at most 10. */
export function stepDecimals(step: number): number {
  if (!Number.isFinite(step) || step <= 0) return 0;
  for (let decimals = 0; decimals < 10; decimals++) {
    const scaled = step * 10 ** decimals;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, scaled)) return decimals;
  }
  return 10;
}

/**
 * The decimals prices of an instrument need: enough for its instrumentPricePrecision, its
 * minPriceIncrement and the tick of every range of tickPriceRanges (documented as
 * {"0":{lowerLimit, upperLimit, tick}, …}; a malformed range is skipped).
 */
export function priceDecimals(detail: Pick<PrimaryInstrumentDetail, 'instrumentPricePrecision' | 'minPriceIncrement' | 'tickPriceRanges'>): number {
  const precision = num(detail.instrumentPricePrecision);
  let decimals = precision != null && precision >= 0 ? Math.floor(precision) : 0;
  const increment = num(detail.minPriceIncrement);
  if (increment != null) decimals = Math.max(decimals, stepDecimals(increment));
  const ranges: unknown = detail.tickPriceRanges;
  if (isRecord(ranges)) {
    for (const range of Object.values(ranges)) {
      const tick = isRecord(range) ? num(range.tick) : null;
      if (tick != null && tick > 0) decimals = Math.max(decimals, stepDecimals(tick));
    }
  }
  return decimals;
}
