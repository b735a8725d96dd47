// The default feed: plays the simulated market's tape (model/) in real time. Every trade is a
// fact of the model, whoever plays it and whenever, so the live session continues the history
// and a process that takes a feed over goes on where the other left off. Between trades the
// book moves with the fair value. The pace (ticks per second) is how many updates the feed
// publishes: instruments that traded first, in the order they traded, then book updates of
// instruments at random. In the demo calendar the market trades at any hour (history still
// keeps only the sessions of trading days); in the real one, outside a market's session its
// last prices hold and nothing is published.
import type { MarketData, MarketUpdate } from '../../src/protocol/market.js';
import { MINUTE_MS, dayStartMs, type MarketName, type SessionState } from './calendar.js';
import type { Catalogue, Instrument } from './catalogue.js';
import type { MarketModel } from './model/market.js';
import { barOf, type TapeProfile, type Trade } from './model/tape.js';
import { hashText, seededRandom } from './random.js';

export interface SimulatorSettings {
  seed: number;
  /** Updates per second the feed publishes. */
  ticksPerSecond: number;
  dlrRate: number;
  spot: number;
  mep: number;
  ccl: number;
}

export interface SimulatorOptions {
  catalogue: Catalogue;
  model: MarketModel;
  /** The instruments it plays: the feed's list, which changes when the catalogue rolls. */
  instruments: Instrument[];
  ticksPerSecond: number;
  /** 'demo': trades at any hour; 'real': only in each market's session. */
  calendar: 'demo' | 'real';
  /** Seeds the book's randomness (the tape's is the model's). */
  seed: number;
  now?: () => number;
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

/** What the feed knows of one instrument as time passes, advanced a minute at a time. */
interface Cursor {
  instrument: Instrument;
  profile: TapeProfile;
  sessionDay: number;
  /** Absolute minutes (epoch ms / 60,000) of the session's opening and closing. */
  sessionStart: number;
  sessionEnd: number;
  /** Session minutes before this one are in `tally`. */
  folded: number;
  tally: Tally;
  previousClose: number | null;
  /** The last trade that counts before minute `scannedTo` (any minute in demo, the sessions' in real). */
  last: Trade | null;
  scannedTo: number;
  openInterest: number;
  /** The fair value at the knots around the minute `fairMinute`. */
  fairMinute: number;
  fair: [number, number] | null;
  /** Epoch ms of the next trade that may count (or of the next minute, where they are not known yet). */
  nextAt: number;
  /** The time of the last trade its published state carried. */
  publishedTrade: number;
  /** The time of a trade found and not yet published, or null. */
  pendingTrade: number | null;
}

const emptyTally = (): Tally => ({ count: 0, open: 0, high: -Infinity, low: Infinity, close: 0, volume: 0 });
function fold(tally: Tally, bar: { count: number; open: number; high: number; low: number; close: number; volume: number }): void {
  if (bar.count === 0) return;
  if (tally.count === 0) tally.open = bar.open;
  tally.count += bar.count;
  tally.high = Math.max(tally.high, bar.high);
  tally.low = Math.min(tally.low, bar.low);
  tally.close = bar.close;
  tally.volume += bar.volume;
}

/** A gap longer than this is searched by the model rather than scanned minute by minute. */
const SCAN_LIMIT_MINUTES = 2 * 1440;

export function createSimulator(options: SimulatorOptions) {
  const { catalogue, model } = options;
  const now = options.now ?? Date.now;
  const calendar = model.calendar;
  let instruments = [...options.instruments];
  let playing = new Set(instruments);
  let ticksPerSecond = options.ticksPerSecond;
  const anyHour = options.calendar === 'demo';
  const random = seededRandom(hashText(`${options.seed}:book`));
  const cursors = new Map<string, Cursor>();
  const sessions = new Map<MarketName, { minute: number; state: SessionState }>();

  function sessionAt(market: MarketName, at: number): SessionState {
    const minute = Math.floor(at / MINUTE_MS);
    const known = sessions.get(market);
    // The state changes on minute boundaries only (sessions open and close on the minute).
    if (known && known.minute === minute) return known.state;
    const state = calendar.sessionAt(market, at);
    sessions.set(market, { minute, state });
    return state;
  }

  const minuteOfDay = (absolute: number, day: number) => absolute - dayStartMs(day) / MINUTE_MS;
  const dayOfMinute = (absolute: number) => Math.floor((absolute * MINUTE_MS - 3 * 3_600_000) / 86_400_000);

  /** Whether a trade in this absolute minute counts for the last price. */
  function counts(profile: TapeProfile, absolute: number): boolean {
    if (anyHour) return true;
    const day = dayOfMinute(absolute);
    if (!calendar.isTradingDay(day)) return false;
    const minute = minuteOfDay(absolute, day);
    const { open, close } = calendar.sessions[profile.market];
    return minute >= open && minute < close;
  }

  /** The last counted trade in absolute minutes [from, to), newest first, or null. */
  function scan(instrument: Instrument, profile: TapeProfile, from: number, to: number): Trade | null {
    for (let end = to; end > from;) {
      const day = dayOfMinute(end - 1);
      const dayFirst = dayStartMs(day) / MINUTE_MS;
      const start = Math.max(from, dayFirst);
      let windowFrom = start - dayFirst;
      let windowTo = end - dayFirst;
      if (!anyHour) {
        const { open, close } = calendar.sessions[profile.market];
        if (!calendar.isTradingDay(day)) windowTo = windowFrom;
        windowFrom = Math.max(windowFrom, open);
        windowTo = Math.min(windowTo, close);
      }
      if (windowTo > windowFrom) {
        const run = model.bars(instrument, day, windowFrom, windowTo);
        for (let m = windowTo - 1; run && m >= windowFrom; m--) {
          if (run.count[m - windowFrom]! > 0) return model.minute(instrument, dayFirst + m).trades.at(-1)!;
        }
      }
      end = start;
    }
    return null;
  }

  function cursorOf(instrument: Instrument): Cursor {
    const symbol = instrument.instrumentId.symbol;
    let cursor = cursors.get(symbol);
    if (!cursor || cursor.instrument !== instrument) {
      cursor = {
        instrument,
        profile: model.profileOf(instrument),
        sessionDay: -1,
        sessionStart: 0,
        sessionEnd: 0,
        folded: 0,
        tally: emptyTally(),
        previousClose: null,
        last: null,
        scannedTo: -1,
        openInterest: 0,
        fairMinute: -1,
        fair: null,
        nextAt: 0,
        publishedTrade: -1,
        pendingTrade: null,
      };
      cursors.set(symbol, cursor);
    }
    return cursor;
  }

  /** Brings the session's tally to the instant `at` (whole minutes; the minute under way is not in it). */
  function foldSession(cursor: Cursor, at: number): SessionState {
    const { instrument, profile } = cursor;
    const session = sessionAt(profile.market, at);
    if (session.day !== cursor.sessionDay) {
      cursor.sessionDay = session.day;
      cursor.sessionStart = Math.floor(session.opensAt / MINUTE_MS);
      cursor.sessionEnd = Math.floor(session.closesAt / MINUTE_MS);
      cursor.folded = cursor.sessionStart;
      cursor.tally = emptyTally();
      cursor.previousClose = model.previousClose(instrument, at)?.close ?? null;
      const seed = seededRandom(hashText(`${profile.seed}:oi:${session.day}`));
      cursor.openInterest = instrument.kind === 'future' || instrument.kind === 'option' ? 1000 + Math.floor(seed() * 50_000) : 0;
    }
    const foldTo = Math.min(Math.floor(at / MINUTE_MS), cursor.sessionEnd);
    if (foldTo === cursor.sessionEnd && cursor.folded === cursor.sessionStart && cursor.tally.count === 0) {
      // A session over before this cursor looked at it: its candle, as the history keeps it.
      const candle = model.sessionCandle(instrument, cursor.sessionDay);
      const ticks = (price: number) => Math.round(price / profile.tick);
      if (candle)
        cursor.tally = {
          count: 1,
          open: ticks(candle.open),
          high: ticks(candle.high),
          low: ticks(candle.low),
          close: ticks(candle.close),
          volume: candle.volume,
        };
      cursor.folded = foldTo;
    } else if (foldTo > cursor.folded) {
      const day = cursor.sessionDay;
      const run = model.bars(instrument, day, minuteOfDay(cursor.folded, day), minuteOfDay(foldTo, day));
      for (let i = 0; run && i < run.length; i++) if (run.count[i]! > 0) fold(cursor.tally, barOf(run, i));
      cursor.folded = foldTo;
    }
    return session;
  }

  /**
   * The last trade that counts at or before `at` (the minute under way included), and when to
   * look again: the minute's next trade, or the next minute.
   */
  function lastTrade(cursor: Cursor, at: number): Trade | null {
    const { instrument, profile } = cursor;
    const nowMinute = Math.floor(at / MINUTE_MS);
    if (cursor.scannedTo < nowMinute) {
      const first = cursor.scannedTo < 0;
      const found =
        first || nowMinute - cursor.scannedTo > SCAN_LIMIT_MINUTES
          ? // A first look, or a long gap: the model searches back (a week, or ten sessions).
            toTrade(profile, model.lastTrade(instrument, nowMinute * MINUTE_MS - 1, anyHour))
          : scan(instrument, profile, cursor.scannedTo, nowMinute);
      if (found) cursor.last = found;
      // What traded before the feed started is the state every start publishes first, not news.
      if (first && found) cursor.publishedTrade = found.time;
      cursor.scannedTo = nowMinute;
    }
    let last = cursor.last;
    cursor.nextAt = (nowMinute + 1) * MINUTE_MS;
    if (counts(profile, nowMinute)) {
      for (const trade of model.minute(instrument, nowMinute).trades) {
        if (trade.time > at) {
          cursor.nextAt = trade.time;
          break;
        }
        last = trade;
      }
    }
    if (last && last.time > cursor.publishedTrade && cursor.pendingTrade == null) cursor.pendingTrade = last.time;
    return last;
  }

  const toTrade = (profile: TapeProfile, trade: { time: number; price: number; size: number } | null): Trade | null =>
    trade && { time: trade.time, ticks: Math.round(trade.price / profile.tick), size: trade.size };

  /** The session so far at `at`: its closed minutes and the trades of the minute under way. */
  function sessionSoFar(cursor: Cursor, at: number): Tally {
    const tally = { ...cursor.tally };
    const nowMinute = Math.floor(at / MINUTE_MS);
    if (nowMinute >= cursor.sessionStart && nowMinute < cursor.sessionEnd) {
      for (const trade of model.minute(cursor.instrument, nowMinute).trades) {
        if (trade.time > at) break;
        fold(tally, { count: 1, open: trade.ticks, high: trade.ticks, low: trade.ticks, close: trade.ticks, volume: trade.size });
      }
    }
    return tally;
  }

  /** The fair value at `at`, in ticks (between the minute's two knots, kept per minute). */
  function fairTicks(cursor: Cursor, at: number): number | null {
    const minute = Math.floor(at / MINUTE_MS);
    if (cursor.fairMinute !== minute) {
      cursor.fairMinute = minute;
      const start = model.fairValue(cursor.instrument, minute * MINUTE_MS);
      const end = model.fairValue(cursor.instrument, (minute + 1) * MINUTE_MS - 1);
      cursor.fair = start == null || end == null ? null : [start, end];
    }
    if (!cursor.fair) return null;
    const [start, end] = cursor.fair;
    return (start + ((end - start) * (at - minute * MINUTE_MS)) / MINUTE_MS) / cursor.profile.tick;
  }

  /** The instrument's market data at `at`, as the exchange writes it. */
  function marketData(instrument: Instrument, at: number): MarketData {
    const cursor = cursorOf(instrument);
    const { profile } = cursor;
    foldSession(cursor, at);
    const tally = sessionSoFar(cursor, at);
    const last = lastTrade(cursor, at);
    const price = (ticks: number) => model.toPrice(instrument, ticks);
    const md: MarketData = {
      LA: last ? { price: price(last.ticks), size: last.size, date: last.time } : null,
      OP: tally.count > 0 ? price(tally.open) : null,
      HI: tally.count > 0 ? price(tally.high) : null,
      LO: tally.count > 0 ? price(tally.low) : null,
      CL: cursor.previousClose == null ? null : { price: cursor.previousClose },
    };
    if (profile.isIndex) {
      md.IV = last ? price(last.ticks) : null;
      return md;
    }
    const session = anyHour ? null : sessionAt(profile.market, at);
    if (session && !session.open) {
      // A closed market (the real calendar) shows a still book around its close, a tick each
      // side of the last trade (the simulator keeps no book to close with): the fair value moves
      // on between sessions, and a book quoted from it would not match the last price the board holds.
      if (last) {
        const size = 10 * profile.lot;
        md.BI = [{ price: price(Math.max(1, last.ticks - 1)), size }];
        md.OF = [{ price: price(last.ticks + 1), size }];
      }
    } else {
      bookAround(md, fairTicks(cursor, at), last, price, profile.lot);
    }
    md.TV = tally.volume;
    if (instrument.kind === 'future' || instrument.kind === 'option') {
      md.SE = cursor.previousClose == null ? null : { price: cursor.previousClose };
      md.OI = { size: cursor.openInterest };
    }
    return md;
  }

  /** A live book: a tick or two each side of the fair value (of the last trade without one), sizes at random. */
  function bookAround(md: MarketData, fair: number | null, last: Trade | null, price: (ticks: number) => number, lot: number): void {
    const centre = fair != null ? Math.round(fair) : last?.ticks;
    if (centre != null) {
      const bid = Math.max(1, centre - 1 - Math.floor(random() * 2));
      const ask = Math.max(bid + 1, centre + 1 + Math.floor(random() * 2));
      md.BI = [{ price: price(bid), size: (1 + Math.floor(random() * 50)) * lot }];
      md.OF = [{ price: price(ask), size: (1 + Math.floor(random() * 50)) * lot }];
    }
  }

  const listeners = new Set<(update: MarketUpdate) => void>();
  let timer: NodeJS.Timeout | null = null;
  let budget = 0;
  let lastStep = now();
  let ticksTotal = 0;

  function publish(instrument: Instrument, at: number): void {
    const marketData = marketDataNow(instrument, at);
    ticksTotal += 1;
    const update: MarketUpdate = { instrumentId: instrument.instrumentId, marketData, timestamp: at };
    for (const listener of listeners) listener(update);
  }

  /** The state at `at`, marked as published: the trades it shows no longer wait. */
  function marketDataNow(instrument: Instrument, at: number): MarketData {
    const md = marketData(instrument, at);
    const cursor = cursorOf(instrument);
    cursor.publishedTrade = md.LA?.date ?? -1;
    cursor.pendingTrade = null;
    return md;
  }

  /** Publishes up to `count` updates at `at`: instruments with a trade not yet published, oldest first, then books at random. */
  function emit(count: number, at: number): void {
    if (count <= 0 || instruments.length === 0) return;
    const traded: Cursor[] = [];
    const open: Instrument[] = [];
    for (const instrument of instruments) {
      const cursor = cursorOf(instrument);
      // Only an instrument whose next trade is due is looked at: a step costs a comparison per instrument.
      if (cursor.nextAt <= at) lastTrade(cursor, at);
      if (cursor.pendingTrade != null) traded.push(cursor);
      if (anyHour || sessionAt(cursor.profile.market, at).open) open.push(instrument);
    }
    traded.sort((a, b) => a.pendingTrade! - b.pendingTrade!);
    let left = count;
    for (const cursor of traded) {
      if (left === 0) return;
      publish(cursor.instrument, at);
      left -= 1;
    }
    // A closed market (real calendar) publishes nothing between sessions: its last prices hold.
    for (; left > 0 && open.length > 0; left--) publish(open[Math.floor(random() * open.length)]!, at);
  }

  function step(): void {
    const at = now();
    budget += (ticksPerSecond * (at - lastStep)) / 1000;
    lastStep = at;
    // After a stall (a busy event loop), catch up at most one second of updates.
    budget = Math.min(budget, Math.max(1, ticksPerSecond));
    const count = Math.floor(budget);
    budget -= count;
    emit(count, at);
  }

  return {
    get running(): boolean {
      return timer != null;
    },
    get ticksPerSecond(): number {
      return ticksPerSecond;
    },
    get ticksTotal(): number {
      return ticksTotal;
    },
    start(): void {
      if (timer || instruments.length === 0) return;
      lastStep = now();
      budget = 0;
      timer = setInterval(step, 20);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },
    setRate(next: number): void {
      ticksPerSecond = next;
    },
    onUpdate(listener: (update: MarketUpdate) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The instruments it plays from now on (the catalogue rolled): one no longer listed is forgotten. */
    setInstruments(next: Instrument[]): void {
      const symbols = new Set(next.map((instrument) => instrument.instrumentId.symbol));
      for (const symbol of cursors.keys()) if (!symbols.has(symbol)) cursors.delete(symbol);
      instruments = [...next];
      playing = new Set(instruments);
    },
    /** Publishes `count` updates at once, at the clock's time (tests and benchmarks drive it this way). */
    advance(count: number): void {
      emit(count, now());
    },
    /** The instrument's state now, as a subscriber gets it (the trades it shows count as published). */
    snapshot(symbol: string): MarketData | null {
      const instrument = catalogue.resolve(symbol);
      return instrument && playing.has(instrument) ? marketDataNow(instrument, now()) : null;
    },
    lastPrice(symbol: string): number | null {
      const instrument = catalogue.resolve(symbol);
      if (!instrument || !playing.has(instrument)) return null;
      const last = lastTrade(cursorOf(instrument), now());
      return last ? model.toPrice(instrument, last.ticks) : null;
    },
  };
}
export type Simulator = ReturnType<typeof createSimulator>;
