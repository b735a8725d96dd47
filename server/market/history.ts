// Candles from the same seeded walk as the live market: a symbol's history ends at its live
// last price, and the same symbol and day always give the same candles.
import { parseIsoDate, yyyymmdd } from '../../src/lib/calendar.js';
import { hashText, normal, roundToTick, seededRandom } from './random.js';

export interface Candle {
  /** Epoch ms of the start of the period. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export const MAX_DAILY_CANDLES = 2520;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The session, in UTC: 11:00–17:00 in Buenos Aires (UTC−3). */
const SESSION_OPEN_UTC_MINUTES = 14 * 60;
const SESSION_MINUTES = 6 * 60;

function isWeekday(ms: number): boolean {
  const day = new Date(ms).getUTCDay();
  return day !== 0 && day !== 6;
}

function startOfUtcDay(ms: number): number {
  return ms - (ms % DAY_MS);
}

/** Buenos Aires is UTC−3 all year. */
const MARKET_OFFSET_MS = 3 * 60 * 60 * 1000;

/**
 * The market's day of an instant (00:00 UTC of its date in Buenos Aires): the simulator's
 * session day (simulator/quotes.ts starts a session when Buenos Aires starts a day), so the
 * history's today is the day the live ticks belong to.
 */
function marketDay(ms: number): number {
  return startOfUtcDay(ms - MARKET_OFFSET_MS);
}

/** Candles whose closes walk backwards from `lastClose` with volatility `sigma` per period. */
function walkBack(times: number[], lastClose: number, sigma: number, tick: number, seed: number): Candle[] {
  const random = seededRandom(seed);
  const closes = new Array<number>(times.length);
  let price = lastClose;
  for (let i = times.length - 1; i >= 0; i--) {
    closes[i] = price;
    price = Math.max(tick, price / Math.exp(sigma * normal(random)));
  }
  return times.map((time, i) => {
    const close = roundToTick(closes[i]!, tick);
    const open = roundToTick(i === 0 ? price : closes[i - 1]!, tick);
    const spread = Math.abs(close - open) + close * sigma * random();
    return {
      time,
      open,
      high: roundToTick(Math.max(open, close) + spread * random(), tick),
      low: roundToTick(Math.max(tick, Math.min(open, close) - spread * random()), tick),
      close,
      volume: Math.floor(1000 * (0.5 + random()) * 10),
    };
  });
}

/**
 * The days of the daily candles, newest first: today, whatever day it is (the simulator trades
 * around the clock, so a Saturday's ticks make a Saturday candle, and the history has it too),
 * then the weekdays before it.
 */
function dailyDays(now: number, limit: number): number[] {
  const today = marketDay(now);
  const days = limit > 0 ? [today] : [];
  for (let day = today - DAY_MS; days.length < limit; day -= DAY_MS) if (isWeekday(day)) days.push(day);
  return days;
}

/** Daily candles, oldest first: the weekdays before today, then today's, closing at the live price. */
export function dailyCandles(symbol: string, limit: number, lastPrice: number, tick: number, now: number, seed: number): Candle[] {
  const times = dailyDays(now, limit).reverse();
  return walkBack(times, lastPrice, 0.015, tick, seed ^ hashText(`daily:${symbol}`));
}

/**
 * Minute candles of one day. A past weekday has its 11:00–17:00 session, ending at that day's
 * daily close. Today (the market's day in Buenos Aires) has every minute the simulator has
 * traded: it trades around the clock, so today runs from 00:00 in Buenos Aires up to the
 * current minute and ends at the live price; a chart opened before 11:00 shows the same
 * minutes its live ticks then extend. Past weekends and future days have none.
 */
export function intradayCandles(symbol: string, date: string, lastPrice: number, tick: number, now: number, seed: number): Candle[] | null {
  const day = parseIsoDate(date);
  if (!day) return null;
  const dayMs = day.getTime();
  const today = marketDay(now);
  if (dayMs > today) return [];
  let open: number;
  let minutes: number;
  let close = lastPrice;
  if (dayMs === today) {
    open = dayMs + MARKET_OFFSET_MS;
    minutes = Math.floor((now - open) / 60_000) + 1;
  } else {
    if (!isWeekday(dayMs)) return [];
    open = dayMs + SESSION_OPEN_UTC_MINUTES * 60_000;
    minutes = SESSION_MINUTES;
    // Today's candle, then one per weekday after `dayMs` (dailyDays).
    let daysBack = 1;
    for (let cursor = today - DAY_MS; cursor > dayMs; cursor -= DAY_MS) if (isWeekday(cursor)) daysBack += 1;
    if (daysBack >= MAX_DAILY_CANDLES) return [];
    const daily = dailyCandles(symbol, daysBack + 1, lastPrice, tick, now, seed);
    close = daily[0]!.close;
  }
  if (minutes <= 0) return [];
  const times = Array.from({ length: minutes }, (_, i) => open + i * 60_000);
  // Seeded by the day, not by how the date was written: 2026-11-20 and 20261120 are one day.
  return walkBack(times, close, 0.0008, tick, seed ^ hashText(`intraday:${symbol}:${yyyymmdd(day)}`));
}
