// History of the real exchange's instruments (the rofex feed on the Primary API): candles made
// of the exchange's own trades (rest/data/getTrades), so the chart of a symbol the board shows
// from the exchange tells the same story as its market data. A closed session's candles are
// kept once read (they do not change); the session under way is read again each time.
import type { PrimaryTrade, TradesRange } from './primary/types.js';
import { dayOfIso, dayStartMs, isoOfDay, MINUTE_MS, marketDayOf, type TradingCalendar } from './calendar.js';
import type { Candle, DayCandle } from './model/market.js';
import { UpstreamError } from '../errors.js';

export interface ExchangeHistoryOptions {
  trades(symbol: string, date: string | TradesRange): Promise<PrimaryTrade[]>;
  calendar: TradingCalendar;
}

/** Days asked in one getTrades call for daily candles: a month of sessions. */
const DAYS_PER_REQUEST = 31;
/** Symbols whose closed days are kept. */
const CACHED_SYMBOLS = 200;

/** The exchange's day of a trade: the date it writes (its local time), else Buenos Aires' of its server time. */
function dayOfTrade(trade: PrimaryTrade): number {
  return (typeof trade.datetime === 'string' ? dayOfIso(trade.datetime.slice(0, 10)) : null) ?? marketDayOf(trade.servertime);
}

/** Trades gathered into candles by a key (a day, a minute), oldest first. */
function candlesOf(trades: readonly PrimaryTrade[], keyOf: (trade: PrimaryTrade) => number): Map<number, Candle> {
  const sorted = [...trades].filter((trade) => Number.isFinite(trade.price) && Number.isFinite(trade.servertime)).sort((a, b) => a.servertime - b.servertime);
  const out = new Map<number, Candle>();
  for (const trade of sorted) {
    const key = keyOf(trade);
    const candle = out.get(key);
    if (!candle) out.set(key, { time: key, open: trade.price, high: trade.price, low: trade.price, close: trade.price, volume: trade.size || 0 });
    else {
      candle.high = Math.max(candle.high, trade.price);
      candle.low = Math.min(candle.low, trade.price);
      candle.close = trade.price;
      candle.volume += trade.size || 0;
    }
  }
  return out;
}

export function createExchangeHistory(options: ExchangeHistoryOptions) {
  const { calendar } = options;
  /** The exchange's trades, its failure said as the exchange's (a 502 with its reason, not a 500). */
  async function trades(symbol: string, date: string | TradesRange): Promise<PrimaryTrade[]> {
    try {
      return await options.trades(symbol, date);
    } catch (error) {
      throw new UpstreamError(`El mercado no dio el historial de ${symbol}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  /** Closed days' candles by symbol (null: no trade that day), most recently used last. */
  const closedDays = new Map<string, Map<number, DayCandle | null>>();
  const daysOf = (symbol: string) => {
    let days = closedDays.get(symbol);
    if (days) closedDays.delete(symbol);
    else days = new Map();
    closedDays.set(symbol, days);
    if (closedDays.size > CACHED_SYMBOLS) closedDays.delete(closedDays.keys().next().value!);
    return days;
  };

  return {
    /** Daily candles of the last `limit` sessions up to the one `at` belongs to, oldest first. */
    async dailyCandles(symbol: string, limit: number, at: number): Promise<DayCandle[]> {
      const session = calendar.sessionAt('rofex', at);
      const days = calendar.tradingDaysUpTo(session.day, limit);
      const known = daysOf(symbol);
      const current = session.open ? session.day : null;
      const missing = days.filter((day) => day === current || !known.has(day));
      /** What this call read, the session under way included (kept only for the call: it is not a fact yet). */
      const read = new Map<number, DayCandle | null>();
      // Runs of missing days, a month a request.
      for (let i = 0; i < missing.length;) {
        const first = missing[i]!;
        let j = i;
        while (j + 1 < missing.length && missing[j + 1]! - first < DAYS_PER_REQUEST) j += 1;
        const last = missing[j]!;
        const span = await trades(symbol, first === last ? isoOfDay(first) : { dateFrom: isoOfDay(first), dateTo: isoOfDay(last) });
        const byDay = candlesOf(span, dayOfTrade);
        for (let k = i; k <= j; k++) {
          const day = missing[k]!;
          const candle = byDay.get(day);
          const value = candle ? { ...candle, time: dayStartMs(day), day } : null;
          read.set(day, value);
          if (day !== current) known.set(day, value);
        }
        i = j + 1;
      }
      return days.map((day) => (read.has(day) ? read.get(day) : known.get(day)) ?? null).filter((candle): candle is DayCandle => candle != null);
    },

    /** Minute candles of one day, oldest first (`time`: epoch ms of the minute). */
    async minuteCandles(symbol: string, day: number): Promise<Candle[]> {
      if (!calendar.isTradingDay(day)) return [];
      const ofDay = (await trades(symbol, isoOfDay(day))).filter((trade) => dayOfTrade(trade) === day);
      return [...candlesOf(ofDay, (trade) => Math.floor(trade.servertime / MINUTE_MS) * MINUTE_MS).values()];
    },
  };
}

export type ExchangeHistory = ReturnType<typeof createExchangeHistory>;
