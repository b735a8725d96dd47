// The simulated market as one function of seed, settings, calendar and clock: candles of any
// closed minute or session (facts: every call, process and restart answers the same), today's
// session so far, the previous close, the last trade and the fair value at any instant. The live
// feed (../simulator.ts) and the history routes both read it, so the board's previous close,
// the chart's last closed daily candle and the live session are one story.
import { MINUTE_MS, dayStartMs, marketDayOf, type MarketName, type TradingCalendar } from '../calendar.js';
import type { Catalogue, Instrument } from '../catalogue.js';
import { createDriverPaths, type DriverSettings } from './drivers.js';
import { createFairValues } from './fairValue.js';
import { barOf, createTape, priceOf, tapeProfile, type BarRun, type MinuteBar, type TapeProfile, type Trade } from './tape.js';

export interface ModelSettings extends DriverSettings {
  seed: number;
}

/** A candle in prices; `time` is the epoch ms of its start (a daily candle: 00:00 in Buenos Aires of its day). */
export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface DayCandle extends Candle {
  /** The market's day number. */
  day: number;
}

/** A trade in prices. */
export interface PricedTrade {
  time: number;
  price: number;
  size: number;
}

/** A session's figures so far, in ticks. */
interface Tally {
  count: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

const emptyTally = (): Tally => ({ count: 0, open: 0, high: -Infinity, low: Infinity, close: 0, volume: 0 });

/** Adds every bar of a run. */
function addRun(tally: Tally, run: BarRun | null): void {
  if (!run) return;
  for (let i = 0; i < run.length; i++) {
    const count = run.count[i]!;
    if (count === 0) continue;
    if (tally.count === 0) tally.open = run.open[i]!;
    tally.count += count;
    if (run.high[i]! > tally.high) tally.high = run.high[i]!;
    if (run.low[i]! < tally.low) tally.low = run.low[i]!;
    tally.close = run.close[i]!;
    tally.volume += run.volume[i]!;
  }
}

function addTrade(tally: Tally, trade: Trade): void {
  if (tally.count === 0) tally.open = trade.ticks;
  tally.count += 1;
  tally.high = Math.max(tally.high, trade.ticks);
  tally.low = Math.min(tally.low, trade.ticks);
  tally.close = trade.ticks;
  tally.volume += trade.size;
}

/** Symbols whose closed sessions are kept; the rest are computed again when asked. */
const DAY_CACHE_SYMBOLS = 400;
/** …unless they hold few days each: every symbol's last sessions (the previous close) fit whatever the number of symbols. */
const DAY_CACHE_DAYS = 200_000;
/** Sessions computed between two yields of a long history, so other requests go on meanwhile. */
const DAYS_PER_SLICE = 60;
/** How far back the last trade is looked for: a week of minutes, or ten sessions. */
const LAST_TRADE_SEARCH_MINUTES = 7 * 1440;
const LAST_TRADE_SEARCH_SESSIONS = 10;

/**
 * What one market computes that another of the same seed, settings and sessions would compute
 * alike (the drivers' paths, closed sessions' candles): kept once per process, so a second
 * market (a test's second server, a feed restarted) starts from what the first worked out.
 */
const shared = new Map<string, { paths: ReturnType<typeof createDriverPaths>; closedSessions: Map<string, Map<number, DayCandle | null>> }>();

export function createMarketModel(catalogue: Catalogue, calendar: TradingCalendar, settings: ModelSettings) {
  const { seed, dlrRate, spot, mep, ccl } = settings;
  const key = JSON.stringify([seed, dlrRate, spot, mep, ccl, calendar.sessions]);
  let facts = shared.get(key);
  if (!facts) shared.set(key, (facts = { paths: createDriverPaths(seed, { dlrRate, spot, mep, ccl }), closedSessions: new Map() }));
  const paths = facts.paths;
  const fair = createFairValues(catalogue, paths, calendar);
  const tape = createTape(fair);
  const profiles = new WeakMap<Instrument, TapeProfile>();

  function profileOf(instrument: Instrument): TapeProfile {
    let profile = profiles.get(instrument);
    if (!profile) profiles.set(instrument, (profile = tapeProfile(instrument, settings.seed, fair)));
    return profile;
  }

  const hours = (market: MarketName) => calendar.sessions[market];
  const toCandle = (profile: TapeProfile, time: number, tally: Tally): Candle => ({
    time,
    open: priceOf(profile, tally.open),
    high: priceOf(profile, tally.high),
    low: priceOf(profile, tally.low),
    close: priceOf(profile, tally.close),
    volume: tally.volume,
  });

  /** Closed sessions' candles by symbol and day (null: no trade that session); most recently used symbols last. */
  const closedSessions = facts.closedSessions;

  function cachedDays(symbol: string): Map<number, DayCandle | null> {
    let days = closedSessions.get(symbol);
    if (days) closedSessions.delete(symbol);
    else days = new Map();
    closedSessions.set(symbol, days);
    // The oldest symbols go while there are too many of them holding many days (ten-year
    // histories): a day is a candle of a hundred bytes or so.
    if (closedSessions.size > DAY_CACHE_SYMBOLS) {
      let total = 0;
      for (const kept of closedSessions.values()) total += kept.size;
      for (const [symbol, kept] of closedSessions) {
        if (total <= DAY_CACHE_DAYS || closedSessions.size <= DAY_CACHE_SYMBOLS) break;
        total -= kept.size;
        closedSessions.delete(symbol);
      }
    }
    return days;
  }

  /** The whole session of a trading day as a candle (every minute, whatever the time now). */
  function wholeSession(instrument: Instrument, day: number, days = cachedDays(instrument.instrumentId.symbol)): DayCandle | null {
    const known = days.get(day);
    if (known !== undefined) return known;
    const profile = profileOf(instrument);
    let candle: DayCandle | null = null;
    if (calendar.isTradingDay(day) && day >= profile.firstDay) {
      const { open, close } = hours(profile.market);
      const tally = emptyTally();
      addRun(tally, tape.bars(instrument, profile, day, open, close));
      if (tally.count > 0) candle = { ...toCandle(profile, dayStartMs(day), tally), day };
    }
    days.set(day, candle);
    return candle;
  }

  /** The trades of one minute (absolute minute number), cached for the minutes the live feed plays again and again. */
  const minuteTrades = new Map<string, { minute: number; bar: MinuteBar; trades: Trade[] }>();

  function tradesOfMinute(instrument: Instrument, absoluteMinute: number): { bar: MinuteBar; trades: Trade[] } {
    const symbol = instrument.instrumentId.symbol;
    const known = minuteTrades.get(symbol);
    if (known && known.minute === absoluteMinute) return known;
    const profile = profileOf(instrument);
    const day = marketDayOf(absoluteMinute * MINUTE_MS);
    const minute = absoluteMinute - dayStartMs(day) / MINUTE_MS;
    const run = tape.bars(instrument, profile, day, minute, minute + 1);
    const bar = run ? barOf(run, 0) : { count: 0, open: 0, high: 0, low: 0, close: 0, volume: 0 };
    const entry = { minute: absoluteMinute, bar, trades: tape.trades(profile, day, minute, bar) };
    minuteTrades.set(symbol, entry);
    return entry;
  }

  /** The session of `day` up to the instant `at`: its closed minutes, then the trades of the minute under way. */
  function sessionUpTo(instrument: Instrument, day: number, at: number): Tally {
    const profile = profileOf(instrument);
    const { open, close } = hours(profile.market);
    const start = dayStartMs(day);
    const minuteNow = Math.floor((at - start) / MINUTE_MS);
    const tally = emptyTally();
    if (minuteNow < open) return tally;
    const through = Math.min(minuteNow, close);
    addRun(tally, tape.bars(instrument, profile, day, open, through));
    if (minuteNow < close) {
      for (const trade of tradesOfMinute(instrument, start / MINUTE_MS + minuteNow).trades) if (trade.time <= at) addTrade(tally, trade);
    }
    return tally;
  }

  function dailyDays(instrument: Instrument, limit: number, at: number): { days: number[]; current: number; open: boolean } {
    const profile = profileOf(instrument);
    const session = calendar.sessionAt(profile.market, at);
    return { days: calendar.tradingDaysUpTo(session.day, limit, profile.firstDay), current: session.day, open: session.open };
  }

  /** A day's candle as of `at`: the whole session once it closed, what traded so far while it is open. */
  function candleOf(instrument: Instrument, day: number, current: number, open: boolean, at: number, days: Map<number, DayCandle | null>): DayCandle | null {
    if (day !== current || !open) return wholeSession(instrument, day, days);
    const profile = profileOf(instrument);
    const tally = sessionUpTo(instrument, day, at);
    return tally.count > 0 ? { ...toCandle(profile, dayStartMs(day), tally), day } : null;
  }

  /** Minutes looked at at once when searching back for the last trade. */
  const SEARCH_CHUNK = 60;

  /** The last trade at or before `at` of any minute, looking back an hour at a time (a week at most). */
  function lastTradeAnyMinute(instrument: Instrument, at: number): Trade | null {
    const nowMinute = Math.floor(at / MINUTE_MS);
    let found: Trade | null = null;
    for (const trade of tradesOfMinute(instrument, nowMinute).trades) if (trade.time <= at) found = trade;
    if (found) return found;
    const profile = profileOf(instrument);
    const stop = nowMinute - LAST_TRADE_SEARCH_MINUTES;
    for (let end = nowMinute; end > stop;) {
      const day = marketDayOf((end - 1) * MINUTE_MS);
      if (day < profile.firstDay) return null;
      const dayFirst = dayStartMs(day) / MINUTE_MS;
      const to = end - dayFirst;
      const from = Math.max(0, to - SEARCH_CHUNK);
      const run = tape.bars(instrument, profile, day, from, to);
      if (!run) return null;
      for (let m = to - 1; m >= from; m--) if (run.count[m - from]! > 0) return tape.trades(profile, day, m, barOf(run, m - from)).at(-1)!;
      end = dayFirst + from;
    }
    return null;
  }

  /** The last trade of the sessions up to `at` (the session under way first), ten sessions back at most. */
  function lastSessionTrade(instrument: Instrument, at: number): Trade | null {
    const profile = profileOf(instrument);
    const { open, close } = hours(profile.market);
    let day = calendar.sessionAt(profile.market, at).day;
    for (let i = 0; i < LAST_TRADE_SEARCH_SESSIONS && day >= profile.firstDay; i++, day = calendar.previousTradingDay(day)) {
      const start = dayStartMs(day);
      const through = Math.min(close, Math.floor((at - start) / MINUTE_MS) + 1);
      if (through <= open) continue;
      const run = tape.bars(instrument, profile, day, open, through);
      for (let m = through - 1; run && m >= open; m--) {
        if (run.count[m - open] === 0) continue;
        const trades = tape.trades(profile, day, m, barOf(run, m - open)).filter((trade) => trade.time <= at);
        if (trades.length > 0) return trades.at(-1)!;
      }
    }
    return null;
  }

  const priced = (profile: TapeProfile, trade: Trade | null): PricedTrade | null =>
    trade && { time: trade.time, price: priceOf(profile, trade.ticks), size: trade.size };

  return {
    calendar,
    profileOf,
    /** One minute's bar and its trades (absolute minute number: epoch ms / 60,000). */
    minute: tradesOfMinute,
    /** A trading day's whole session as a candle (kept once computed), or null. */
    sessionCandle: (instrument: Instrument, day: number): DayCandle | null => wholeSession(instrument, day),
    /** The bars of minutes from..to−1 of a day. */
    bars: (instrument: Instrument, day: number, from: number, to: number): BarRun | null => tape.bars(instrument, profileOf(instrument), day, from, to),
    toPrice: (instrument: Instrument, ticks: number): number => priceOf(profileOf(instrument), ticks),

    /** Daily candles, oldest first: the last `limit` sessions up to the one `at` belongs to (so far, while it is open). */
    dailyCandles(instrument: Instrument, limit: number, at: number): DayCandle[] {
      const { days, current, open } = dailyDays(instrument, limit, at);
      const cache = cachedDays(instrument.instrumentId.symbol);
      return days.map((day) => candleOf(instrument, day, current, open, at, cache)).filter((candle): candle is DayCandle => candle != null);
    },

    /** dailyCandles that lets other work run between slices of sessions not computed before. */
    async dailyCandlesYielding(instrument: Instrument, limit: number, at: number): Promise<DayCandle[]> {
      const { days, current, open } = dailyDays(instrument, limit, at);
      const cache = cachedDays(instrument.instrumentId.symbol);
      const out: DayCandle[] = [];
      let computed = 0;
      for (const day of days) {
        if (!cache.has(day) && ++computed % DAYS_PER_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
        const candle = candleOf(instrument, day, current, open, at, cache);
        if (candle) out.push(candle);
      }
      return out;
    },

    /**
     * Minute candles of one day's session, oldest first, up to `at` (the minute under way holds
     * the trades so far). None on a day that does not trade, before its session or its listing.
     */
    minuteCandles(instrument: Instrument, day: number, at: number): Candle[] {
      const profile = profileOf(instrument);
      if (!calendar.isTradingDay(day) || day < profile.firstDay) return [];
      const { open, close } = hours(profile.market);
      const start = dayStartMs(day);
      const minuteNow = Math.floor((at - start) / MINUTE_MS);
      const through = Math.min(minuteNow, close);
      const out: Candle[] = [];
      const run = through > open ? tape.bars(instrument, profile, day, open, through) : null;
      for (let i = 0; run && i < run.length; i++) if (run.count[i]! > 0) out.push(toCandle(profile, start + (open + i) * MINUTE_MS, barOf(run, i)));
      if (minuteNow >= open && minuteNow < close) {
        const tally = emptyTally();
        for (const trade of tradesOfMinute(instrument, start / MINUTE_MS + minuteNow).trades) if (trade.time <= at) addTrade(tally, trade);
        if (tally.count > 0) out.push(toCandle(profile, start + minuteNow * MINUTE_MS, tally));
      }
      return out;
    },

    /** The session `at` belongs to, as the board shows it: open, high, low, volume so far (null before its first trade). */
    session(instrument: Instrument, at: number): { day: number; open: boolean; candle: Candle | null } {
      const profile = profileOf(instrument);
      const session = calendar.sessionAt(profile.market, at);
      const tally = session.open ? sessionUpTo(instrument, session.day, at) : null;
      const candle = tally ? (tally.count > 0 ? toCandle(profile, dayStartMs(session.day), tally) : null) : wholeSession(instrument, session.day);
      return { day: session.day, open: session.open, candle };
    },

    /** The previous close: the close of the last session with trades before the one `at` belongs to. */
    previousClose(instrument: Instrument, at: number): DayCandle | null {
      const profile = profileOf(instrument);
      let day = calendar.previousTradingDay(calendar.sessionAt(profile.market, at).day);
      for (let i = 0; i < LAST_TRADE_SEARCH_SESSIONS && day >= profile.firstDay; i++, day = calendar.previousTradingDay(day)) {
        const candle = wholeSession(instrument, day);
        if (candle) return candle;
      }
      return null;
    },

    /**
     * The last trade at or before `at`: of the sessions only, or (`anyHour`, the demo market that
     * moves around the clock) of any minute.
     */
    lastTrade(instrument: Instrument, at: number, anyHour: boolean): PricedTrade | null {
      const profile = profileOf(instrument);
      return priced(profile, anyHour ? lastTradeAnyMinute(instrument, at) : lastSessionTrade(instrument, at));
    },

    /** The trades of the minute `at` falls in, up to `at`, in prices. */
    tradesUpTo(instrument: Instrument, at: number): PricedTrade[] {
      const profile = profileOf(instrument);
      return tradesOfMinute(instrument, Math.floor(at / MINUTE_MS))
        .trades.filter((trade) => trade.time <= at)
        .map((trade) => priced(profile, trade)!);
    },

    /** The fair value at an instant (between the minute's knots), or null without a model. */
    fairValue(instrument: Instrument, at: number): number | null {
      const day = marketDayOf(at);
      const minute = (at - dayStartMs(day)) / MINUTE_MS;
      const whole = Math.min(Math.floor(minute), 1439);
      const values = fair.knots(instrument, day, whole, whole + 1);
      return values && values[0]! + (values[1]! - values[0]!) * (minute - whole);
    },
  };
}

export type MarketModel = ReturnType<typeof createMarketModel>;
