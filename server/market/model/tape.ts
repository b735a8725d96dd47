// The simulated tape: every trade of every instrument, as a function of the seed and the clock.
// A minute's trades are drawn from a generator seeded by the instrument, the day and the minute
// alone, around the fair value at the minute's two ends (fairValue.ts), so the same minute has
// the same trades whichever process asks, and whenever: its candle is a fact. A minute is
// first drawn as a bar (how many trades, open, high, low, close, volume: cheap enough to sum
// ten years of sessions into daily candles), and its trades are drawn from the bar only when
// the live feed plays them, so the trades always make exactly that bar.
import type { MarketName } from '../calendar.js';
import { DAY_MS, dayOfIso, dayStartMs, MINUTE_MS } from '../calendar.js';
import { marketOf, type Instrument } from '../catalogue.js';
import { Generator, hashText, mix } from '../random.js';
import { ANCHOR_DAY } from './drivers.js';
import type { FairValues } from './fairValue.js';

/** What shapes an instrument's tape: how often it trades, in what sizes, on what tick. */
export interface TapeProfile {
  symbol: string;
  market: MarketName;
  seed: number;
  tick: number;
  /** 10^decimals of the tick, to write prices without floating-point dust. */
  scale: number;
  /** Units of one lot (100 shares, 1 contract, 1000 nominal of a bond). */
  lot: number;
  /** Lots a trade averages. */
  meanLots: number;
  /** The first day it has a tape (listing); none before. */
  firstDay: number;
  /** Epoch ms after which it no longer trades (the expiry's closing), or null. */
  endsAt: number | null;
  expiryDay: number | null;
  /** An index publishes values, not trades: no volume, no book. */
  isIndex: boolean;
}

/** A minute's bar: trades, open, high, low, close (in ticks) and volume (units). */
export interface MinuteBar {
  count: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface Trade {
  time: number;
  /** Price in ticks. */
  ticks: number;
  size: number;
}

const decimalsOf = (tick: number) => Math.max(0, Math.ceil(-Math.log10(tick) - 1e-9));

/** A price from a count of ticks, without binary dust (0.1 × 3 is 0.3, not 0.30000000000000004). */
export const priceOf = (profile: Pick<TapeProfile, 'tick' | 'scale'>, ticks: number): number =>
  Math.round(ticks * profile.tick * profile.scale) / profile.scale;

/** Bonds were issued in the September 2020 exchange; older days have no tape. */
const BONDS_FIRST_DAY = dayOfIso('2020-09-07')!;
/** How long before its expiry a contract is listed, in months. */
const LISTED_MONTHS: Partial<Record<string, number>> = { DLR: 12, RFX20: 6, 'SOJ.ROS': 6, 'MAI.ROS': 6, 'TRI.ROS': 6 };

/** Trades a second of each kind, by how near the expiry is for futures (the front months trade most). */
function tradesPerSecond(instrument: Instrument, day: number, expiryDay: number | null): number {
  const monthsLeft = expiryDay == null ? Infinity : (expiryDay - day) / 30.4;
  const cash = instrument.term === 'CI' ? 0.3 : 1;
  switch (instrument.kind) {
    case 'future':
      if (instrument.product === 'DLR') return monthsLeft <= 1 ? 0.3 : monthsLeft <= 2 ? 0.2 : monthsLeft <= 3 ? 0.1 : 0.03;
      return monthsLeft <= 2 ? 0.04 : 0.015;
    case 'option':
      return 0.004;
    case 'spread':
      return 0.01;
    case 'spot':
    case 'index':
      return 0.2;
    case 'bond':
      return (/^(AL30|GD30)/.test(instrument.product) ? 0.2 : 0.05) * cash;
    case 'stock':
      return (LEADERS.has(instrument.product) ? 0.15 : 0.05) * cash;
    case 'other':
      return 0;
  }
}
const LEADERS = new Set(['GGAL', 'YPFD', 'PAMP', 'BMA', 'TXAR', 'ALUA', 'CEPU', 'TGSU2', 'SUPV', 'TECO2', 'AAPL', 'SPY', 'MELI']);

function sizes(instrument: Instrument): { lot: number; meanLots: number } {
  switch (instrument.kind) {
    case 'stock':
      return { lot: 100, meanLots: 8 };
    case 'bond':
      return { lot: 1000, meanLots: 12 };
    case 'future':
      return { lot: 1, meanLots: instrument.product === 'DLR' ? 40 : 8 };
    case 'option':
      return { lot: 1, meanLots: 10 };
    case 'spread':
      return { lot: 1, meanLots: 50 };
    default:
      return { lot: 1, meanLots: 1 };
  }
}

export function tapeProfile(instrument: Instrument, seed: number, fair: FairValues): TapeProfile {
  const expiryDay = instrument.maturityDate ? dayOfIso(instrument.maturityDate) : null;
  let firstDay = ANCHOR_DAY;
  if (instrument.kind === 'bond') firstDay = BONDS_FIRST_DAY;
  if (expiryDay != null) {
    const months = instrument.kind === 'option' ? 6 : (LISTED_MONTHS[instrument.product] ?? 4);
    const expiry = new Date(expiryDay * DAY_MS);
    firstDay = Math.max(firstDay, Date.UTC(expiry.getUTCFullYear(), expiry.getUTCMonth() - months, 1) / DAY_MS);
  }
  const tick = instrument.minPriceIncrement;
  return {
    symbol: instrument.instrumentId.symbol,
    market: marketOf(instrument),
    seed: hashText(`${seed}:tape:${instrument.instrumentId.symbol}`),
    tick,
    scale: 10 ** decimalsOf(tick),
    ...sizes(instrument),
    firstDay,
    endsAt: fair.expiresAt(instrument),
    expiryDay,
    isIndex: instrument.kind === 'index',
  };
}

/** Cumulative Poisson probabilities by mean, for counts drawn with one uniform. */
const poissonTables = new Map<number, Float64Array>();

function poissonTable(mean: number): Float64Array {
  let table = poissonTables.get(mean);
  if (table) return table;
  const size = Math.ceil(mean + 10 * Math.sqrt(mean) + 10);
  table = new Float64Array(size);
  let p = Math.exp(-mean);
  let cumulative = p;
  for (let k = 0; k < size; k++) {
    table[k] = cumulative;
    p *= mean / (k + 1);
    cumulative += p;
  }
  table[size - 1] = 1;
  poissonTables.set(mean, table);
  return table;
}

/** A Poisson count of mean `mean` by inversion (a table per mean: the tape has few). */
function poisson(table: Float64Array, random: Generator): number {
  const u = random.next();
  let count = 0;
  while (u > table[count]!) count += 1;
  return count;
}

/** Quantiles of the standard exponential, to draw one with a uniform and no logarithm. */
const EXPONENTIAL = Float64Array.from({ length: 1024 }, (_, i) => -Math.log(1 - (i + 0.5) / 1024));
const exponential = (random: Generator): number => EXPONENTIAL[(random.next() * 1024) | 0]!;

/** A trade hits the bid or the offer: a tick either side of the fair value, now and then. */
function bounce(random: Generator): number {
  const u = random.next();
  return u < 0.5 ? 0 : u < 0.75 ? -1 : 1;
}

/** Bars of a run of minutes, as columns (ten years of sessions are millions of bars). */
export interface BarRun {
  length: number;
  count: Int32Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

/** The i-th bar of a run. */
export function barOf(run: BarRun, i: number): MinuteBar {
  return { count: run.count[i]!, open: run.open[i]!, high: run.high[i]!, low: run.low[i]!, close: run.close[i]!, volume: run.volume[i]! };
}

export function createTape(fair: FairValues) {
  const random = new Generator();
  /**
   * The bars of minutes from..to−1 of a day (a bar's minute runs from its start to the next),
   * or null when the instrument has no model. Minutes before its listing or after its expiry
   * have no trades.
   */
  function bars(instrument: Instrument, profile: TapeProfile, day: number, from: number, to: number): BarRun | null {
    const length = Math.max(0, to - from);
    const run: BarRun = {
      length,
      count: new Int32Array(length),
      open: new Float64Array(length),
      high: new Float64Array(length),
      low: new Float64Array(length),
      close: new Float64Array(length),
      volume: new Float64Array(length),
    };
    if (length === 0) return run;
    const rate = day < profile.firstDay ? 0 : tradesPerSecond(instrument, day, profile.expiryDay);
    if (rate === 0) return fair.knots(instrument, day, from, from) ? run : null;
    const table = poissonTable(rate * 60);
    const { tick, seed, isIndex, lot, meanLots, endsAt } = profile;
    const lastMinute = endsAt == null ? Infinity : Math.floor((endsAt - dayStartMs(day)) / MINUTE_MS);
    const values = fair.knots(instrument, day, from, to);
    if (!values) return null;
    for (let m = from; m < to && m < lastMinute; m++) {
      random.reseed(mix(seed, day, m));
      const count = poisson(table, random);
      if (count === 0) continue;
      const i = m - from;
      const f0 = values[i]! / tick;
      const f1 = values[i + 1]! / tick;
      let open: number;
      let close: number;
      if (count === 1) open = close = Math.max(1, Math.round((f0 + f1) / 2) + bounce(random));
      else {
        open = Math.max(1, Math.round(f0) + bounce(random));
        close = Math.max(1, Math.round(f1) + bounce(random));
      }
      let high = open > close ? open : close;
      let low = open < close ? open : close;
      if (count >= 3) {
        // The minute's extremes reach past its ends by about as much as it moved.
        const reach = Math.max(0.5, 0.6 * Math.abs(f1 - f0));
        const up = Math.floor(exponential(random) * reach);
        const down = Math.floor(exponential(random) * reach);
        // Three trades have one inside: it makes the high or the low, not both.
        const ends = high;
        if (count > 3 || random.next() < 0.5) high += up;
        if (count > 3 || high === ends) low = Math.max(1, low - down);
      }
      run.count[i] = count;
      run.open[i] = open;
      run.high[i] = high;
      run.low[i] = low;
      run.close[i] = close;
      run.volume[i] = isIndex ? 0 : (count + Math.floor(count * (meanLots - 1) * 2 * random.next())) * lot;
    }
    return run;
  }

  /** The trades that make a minute's bar, in time order: the first at the open, the last at the close, one at each extreme. */
  function trades(profile: TapeProfile, day: number, minute: number, bar: MinuteBar): Trade[] {
    const { count } = bar;
    if (count === 0) return [];
    random.reseed(mix(profile.seed ^ 0x5bd1e995, day, minute));
    const start = dayStartMs(day) + minute * MINUTE_MS;
    const times = Array.from({ length: count }, () => start + Math.floor(random.next() * MINUTE_MS)).sort((a, b) => a - b);
    const prices = new Array<number>(count);
    prices[0] = bar.open;
    prices[count - 1] = bar.close;
    const inside = count - 2;
    if (inside > 0) {
      const highAt = 1 + Math.floor(random.next() * inside);
      let lowAt = 1 + Math.floor(random.next() * inside);
      if (inside > 1 && lowAt === highAt) lowAt = lowAt === 1 ? 2 : lowAt - 1;
      for (let i = 1; i < count - 1; i++) prices[i] = bar.low + Math.floor(random.next() * (bar.high - bar.low + 1));
      if (inside === 1) prices[highAt] = bar.high > Math.max(bar.open, bar.close) ? bar.high : bar.low;
      else {
        prices[highAt] = bar.high;
        prices[lowAt] = bar.low;
      }
    }
    // One lot each, the rest spread by weight; the last takes what is left, so they add up to the bar.
    const lots = bar.volume / profile.lot;
    const sizes = new Array<number>(count).fill(profile.isIndex ? 0 : 1);
    if (!profile.isIndex) {
      const weights = Array.from({ length: count }, () => random.next());
      const total = weights.reduce((sum, weight) => sum + weight, 0) || 1;
      let left = lots - count;
      for (let i = 0; i < count - 1; i++) {
        const extra = Math.min(left, Math.floor(((lots - count) * weights[i]!) / total));
        sizes[i]! += extra;
        left -= extra;
      }
      sizes[count - 1]! += left;
    }
    return times.map((time, i) => ({ time, ticks: prices[i]!, size: sizes[i]! * profile.lot }));
  }

  return { bars, trades };
}

export type Tape = ReturnType<typeof createTape>;
