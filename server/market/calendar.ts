// The trading calendar of the Argentine markets: which days trade (weekdays less the national
// holidays of the `date-holidays` package, country AR, and the exchanges' own closed days in
// exchangeDays.ts), each market's session hours in Buenos Aires time (settings), and the
// session a moment belongs to. Days are numbered as the market counts them: whole days since
// 1970-01-01 in Buenos Aires (UTC−3 all year, no daylight saving since 2009).
import Holidays from 'date-holidays';
import { EXCHANGE_CLOSED_DAYS, EXCHANGE_OPEN_DAYS } from './exchangeDays.js';

export const MARKET_OFFSET_MS = 3 * 60 * 60 * 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;
export const MINUTE_MS = 60_000;

/** The market's day number of an instant. */
export const marketDayOf = (epochMs: number): number => Math.floor((epochMs - MARKET_OFFSET_MS) / DAY_MS);
/** Epoch ms of 00:00 in Buenos Aires of a day. */
export const dayStartMs = (day: number): number => day * DAY_MS + MARKET_OFFSET_MS;

/** `2026-11-27` of a day number. */
export function isoOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The day number of `2026-11-27` or `20261127`; null when it is not a real date. */
export function dayOfIso(text: string): number | null {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const ms = Date.UTC(year, month, date);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month || check.getUTCDate() !== date) return null;
  return ms / DAY_MS;
}

/**
 * The markets Visores knows, each with its own hours: A3 Mercados (ex ROFEX: futures and
 * options, the ROFEX 20 index), BYMA (shares, bonds, CEDEARs, the S&P Merval) and the BCRA's
 * wholesale dollar reference (Comunicación A 3500, `DLR/SPOT`).
 */
export const MARKET_NAMES = ['rofex', 'byma', 'a3500'] as const;
export type MarketName = (typeof MARKET_NAMES)[number];

/** How each market is named on screen. */
export const MARKET_LABELS: Record<MarketName, string> = { rofex: 'ROFEX', byma: 'BYMA', a3500: 'A3500' };

/** A session's opening and closing, in minutes after 00:00 in Buenos Aires. */
export interface SessionHours {
  open: number;
  close: number;
}

/**
 * Default hours, Buenos Aires time (settings SESSION_ROFEX, SESSION_BYMA, SESSION_A3500):
 * BYMA's continuous trading of shares, bonds and CEDEARs runs 11:00–17:00; A3 Mercados'
 * day session of currency and index futures 10:00–17:00; the A3500 is fixed from the
 * wholesale market's trades of 10:00–15:00. Check them against the exchanges' schedules.
 */
export const DEFAULT_SESSIONS: Record<MarketName, SessionHours> = {
  rofex: { open: 10 * 60, close: 17 * 60 },
  byma: { open: 11 * 60, close: 17 * 60 },
  a3500: { open: 10 * 60, close: 15 * 60 },
};

/** `10:00-17:00` → {open: 600, close: 1020}; null when it is not such a range. */
export function parseSessionHours(text: string): SessionHours | null {
  const match = /^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$/.exec(text);
  if (!match) return null;
  const [h1, m1, h2, m2] = match.slice(1).map(Number) as [number, number, number, number];
  if (h1 > 23 || h2 > 24 || m1 > 59 || m2 > 59 || (h2 === 24 && m2 > 0)) return null;
  const open = h1 * 60 + m1;
  const close = h2 * 60 + m2;
  return open < close ? { open, close } : null;
}

/** `10:00-17:00`. */
export function formatSessionHours({ open, close }: SessionHours): string {
  const hm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return `${hm(open)}-${hm(close)}`;
}

/** Where a market stands at a moment. */
export interface SessionState {
  /**
   * The session the moment belongs to: the last trading day whose session has opened. Until
   * the next session opens, the one that closed last is the current one (its open, high, low
   * and volume are what the board shows, and the close before it is the previous close).
   */
  day: number;
  /** True between the session's opening and its closing. */
  open: boolean;
  opensAt: number;
  closesAt: number;
  /** Epoch ms when the next session opens. */
  nextOpensAt: number;
}

/** Types of date-holidays' Argentine entries that close the markets: all of them (see isTradingDay). */
const CLOSING_TYPES = new Set(['public', 'bank', 'optional']);

/** Non-trading weekdays of each year, with why: the same for every calendar (only the hours are settings). */
const closedByYear = new Map<number, Map<number, string>>();
let holidays: Holidays | null = null;

export function createTradingCalendar(sessions: Record<MarketName, SessionHours> = DEFAULT_SESSIONS) {
  function closedDays(year: number): Map<number, string> {
    let closed = closedByYear.get(year);
    if (closed) return closed;
    closed = new Map();
    // Public and bank holidays, and the optional days (the decree's "días no laborables", and the
    // afternoons of 24 and 31 December): banks do not settle, so the exchanges do not trade
    // (DLR of December 2024 expired on the 30th).
    holidays ??= new Holidays('AR');
    for (const holiday of holidays.getHolidays(year) || []) {
      if (!CLOSING_TYPES.has(holiday.type)) continue;
      const day = dayOfIso(holiday.date.slice(0, 10));
      if (day != null) closed.set(day, holiday.name);
    }
    for (const { date, reason } of EXCHANGE_CLOSED_DAYS[year] ?? []) {
      const day = dayOfIso(date);
      if (day != null) closed.set(day, reason);
    }
    for (const { date } of EXCHANGE_OPEN_DAYS[year] ?? []) {
      const day = dayOfIso(date);
      if (day != null) closed.delete(day);
    }
    closedByYear.set(year, closed);
    return closed;
  }

  const yearOf = (day: number) => new Date(day * DAY_MS).getUTCFullYear();
  const weekdayOf = (day: number) => new Date(day * DAY_MS).getUTCDay();

  function isTradingDay(day: number): boolean {
    const weekday = weekdayOf(day);
    return weekday !== 0 && weekday !== 6 && !closedDays(yearOf(day)).has(day);
  }

  /** The latest trading day on or before `day`. */
  function tradingDayOnOrBefore(day: number): number {
    let cursor = day;
    while (!isTradingDay(cursor)) cursor -= 1;
    return cursor;
  }

  const previousTradingDay = (day: number): number => tradingDayOnOrBefore(day - 1);

  function nextTradingDay(day: number): number {
    let cursor = day + 1;
    while (!isTradingDay(cursor)) cursor += 1;
    return cursor;
  }

  /** Epoch ms of a day's session of a market (the hours apply to any day; see isTradingDay). */
  function sessionOf(market: MarketName, day: number): { opensAt: number; closesAt: number } {
    const start = dayStartMs(day);
    return { opensAt: start + sessions[market].open * MINUTE_MS, closesAt: start + sessions[market].close * MINUTE_MS };
  }

  return {
    sessions,
    isTradingDay,
    tradingDayOnOrBefore,
    previousTradingDay,
    nextTradingDay,
    sessionOf,

    /** Why a weekday does not trade (a holiday's name), or null. */
    closedReason(day: number): string | null {
      return closedDays(yearOf(day)).get(day) ?? null;
    },

    /** The last trading day of a month (0 = January): the expiry of the monthly futures. */
    lastTradingDayOfMonth(year: number, month: number): number {
      return tradingDayOnOrBefore(Date.UTC(year, month + 1, 0) / DAY_MS);
    },

    /** The session a moment belongs to, and whether it is open. */
    sessionAt(market: MarketName, epochMs: number): SessionState {
      const today = marketDayOf(epochMs);
      let day = tradingDayOnOrBefore(today);
      if (day === today && epochMs < sessionOf(market, day).opensAt) day = previousTradingDay(day);
      const { opensAt, closesAt } = sessionOf(market, day);
      return { day, open: epochMs < closesAt, opensAt, closesAt, nextOpensAt: sessionOf(market, nextTradingDay(day)).opensAt };
    },

    /**
     * How far to move a clock so that `at` becomes `minute` (after 00:00) of the last trading day
     * at or before it (never ahead of `at`): a negative number of ms, or 0.
     */
    shiftTo(minute: number, at: number): number {
      for (let day = marketDayOf(at); ; day -= 1) {
        const target = dayStartMs(day) + minute * MINUTE_MS;
        if (isTradingDay(day) && target <= at) return target - at;
      }
    },

    /** Trading days up to and including `last` (when it trades), oldest first, at most `count`, none before `first`. */
    tradingDaysUpTo(last: number, count: number, first = -Infinity): number[] {
      const days: number[] = [];
      for (let day = last; days.length < count && day >= first; day -= 1) if (isTradingDay(day)) days.push(day);
      return days.reverse();
    },
  };
}

export type TradingCalendar = ReturnType<typeof createTradingCalendar>;
