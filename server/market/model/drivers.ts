// The simulated market's drivers — the spot dollar, the DLR curve's implied rate, MEP, CCL, and
// a level per share, bond, crop, commodity and index — as functions of time. Every price is
// derived from them (fairValue.ts), so the market is a function of the seed, the settings and
// the clock alone: any process, at any time, after any restart, computes the same value for
// the same instant, which is what makes a closed candle a fact.
//
// Each driver wanders around its reference in an Ornstein–Uhlenbeck walk sampled once a day at
// 00:00 in Buenos Aires (the anchors, walked forward from ANCHOR_DAY), and moves within the day
// along a Brownian bridge between two anchors, knotted every minute. Most of a day's movement
// happens in the core hours (10:00–17:00, where every market trades), the rest before and
// after. Slow drivers (the rate, MEP, CCL) move in a straight line between anchors.
import { dayOfIso } from '../calendar.js';
import { REFERENCE_PRICES } from '../catalogue.js';
import { Generator, hashText, mix } from '../random.js';

/** The first day of the walk: history reaches back to here (over ten years of sessions). */
export const ANCHOR_DAY = dayOfIso('2012-01-02')!;
export const MINUTES_PER_DAY = 1440;
/** The core hours, minutes after 00:00 in Buenos Aires: every market's session falls inside by default. */
export const CORE_OPEN = 10 * 60;
export const CORE_CLOSE = 17 * 60;
/** Shares of a day's variance before, during and after the core hours. */
const VARIANCE_SHARE = { pre: 0.15, core: 0.7, post: 0.15 } as const;

export interface DriverModel {
  /** Spread around the reference it settles into (log terms for prices, absolute for the rate). */
  sd: number;
  /** Days to come back half way to the reference. */
  halfLifeDays: number;
  /** Prices wander in log terms; the rate in points. */
  log: boolean;
  /** Moves within the day (a bridge knotted every minute) or in a straight line between anchors. */
  intraday: boolean;
}

/** Daily moves of about 0.4 % for the official dollar, 3 % for a share, 1.2 % for a bond's dollar value. */
export const DRIVER_MODELS = {
  spot: { sd: 0.015, halfLifeDays: 20, log: true, intraday: true },
  rate: { sd: 0.02, halfLifeDays: 10, log: false, intraday: false },
  dollar: { sd: 0.03, halfLifeDays: 20, log: true, intraday: false },
  share: { sd: 0.2, halfLifeDays: 60, log: true, intraday: true },
  bond: { sd: 0.08, halfLifeDays: 60, log: true, intraday: true },
  index: { sd: 0.15, halfLifeDays: 60, log: true, intraday: true },
  other: { sd: 0.12, halfLifeDays: 60, log: true, intraday: true },
} satisfies Record<string, DriverModel>;

/** The references the drivers return to. */
export interface DriverSettings {
  /** The DLR curve's implied nominal annual rate (0.30 = 30 %). */
  dlrRate: number;
  spot: number;
  mep: number;
  ccl: number;
}

interface Driver {
  key: string;
  model: DriverModel;
  /** The reference, in the walk's terms (log for prices). */
  mean: number;
  seed: number;
  /** Anchors from ANCHOR_DAY, in the walk's terms; grown on demand. */
  anchors: number[];
  /** Draws the anchors, in order. */
  walk: Generator;
}

/** Every driver's key: 'spot', 'rate', 'mep', 'ccl', and each product's level ('GGAL', 'AL30', 'I.MERVAL'…). */
export function driverKeys(): string[] {
  return [
    'spot',
    'rate',
    'mep',
    'ccl',
    ...Object.keys(REFERENCE_PRICES.stocks),
    ...Object.keys(REFERENCE_PRICES.cedears),
    ...Object.keys(REFERENCE_PRICES.bonds),
    ...Object.keys(REFERENCE_PRICES.agro),
    ...Object.keys(REFERENCE_PRICES.commodities),
    'I.RFX20',
    'I.MERVAL',
  ];
}

/**
 * Log terms to prices, in place, as a Taylor series around `base`: a day's moves are a few
 * percent, where the fourth term is below 1e-7 of the price; a fraction of Math.exp's cost. With
 * `exactEnds` (a part of a day) both ends are Math.exp itself: the knots two parts share must be
 * the same whichever part gives them. Each value depends on its knot and `base` alone, so any
 * run of minutes over the same part or day gives the same values.
 */
function toPrices(values: Float64Array, base: number, exactEnds: boolean): void {
  const last = values.length - 1;
  const scale = Math.exp(base);
  for (let i = 0; i <= last; i++) {
    const d = values[i]! - base;
    values[i] = (exactEnds && (i === 0 || i === last)) || Math.abs(d) >= 0.1 ? Math.exp(values[i]!) : scale * (1 + d * (1 + d * (0.5 + d * (1 / 6 + d / 24))));
  }
}

/** At most this many days' segments are kept (a few MB); history of older days is computed and let go. */
const SEGMENT_CACHE_LIMIT = 4096;

/** Parts of a day, to seed each apart. */
const PART_EDGES = 0;
const PART_SEED: Record<string, number> = { pre: 1, core: 2, post: 3 };

export function createDriverPaths(seed: number, settings: DriverSettings) {
  const drivers = new Map<string, Driver>();
  const random = new Generator();

  function define(key: string, model: DriverModel, reference: number): void {
    const mean = model.log ? Math.log(reference) : reference;
    const driverSeed = hashText(`${seed}:driver:${key}`);
    drivers.set(key, { key, model, mean, seed: driverSeed, anchors: [mean], walk: new Generator(driverSeed) });
  }
  define('spot', DRIVER_MODELS.spot, settings.spot);
  define('rate', DRIVER_MODELS.rate, settings.dlrRate);
  define('mep', DRIVER_MODELS.dollar, settings.mep);
  define('ccl', DRIVER_MODELS.dollar, settings.ccl);
  for (const [ticker, price] of Object.entries(REFERENCE_PRICES.stocks)) define(ticker, DRIVER_MODELS.share, price);
  for (const [ticker, price] of Object.entries(REFERENCE_PRICES.cedears)) define(ticker, DRIVER_MODELS.other, price);
  for (const [ticker, usd] of Object.entries(REFERENCE_PRICES.bonds)) define(ticker, DRIVER_MODELS.bond, usd);
  for (const [product, price] of Object.entries(REFERENCE_PRICES.agro)) define(product, DRIVER_MODELS.other, price);
  for (const [product, price] of Object.entries(REFERENCE_PRICES.commodities)) define(product, DRIVER_MODELS.other, price);
  define('I.RFX20', DRIVER_MODELS.index, REFERENCE_PRICES.rfx20);
  define('I.MERVAL', DRIVER_MODELS.index, REFERENCE_PRICES.merval);

  const keep = (model: DriverModel) => Math.exp(-Math.LN2 / model.halfLifeDays);
  /** The variance of one day's step of the walk. */
  const dayVariance = (model: DriverModel) => model.sd * model.sd * (1 - keep(model) ** 2);

  /** The anchor at 00:00 of `day`, in the walk's terms (before ANCHOR_DAY: the reference). */
  function anchor(driver: Driver, day: number): number {
    const index = day - ANCHOR_DAY;
    if (index <= 0) return driver.mean;
    const { anchors, model } = driver;
    const factor = keep(model);
    const step = Math.sqrt(dayVariance(model));
    while (anchors.length <= index) anchors.push(driver.mean + (anchors.at(-1)! - driver.mean) * factor + step * driver.walk.roughNormal());
    return anchors[index]!;
  }

  /** The values at the core hours' edges of a day: a bridge between the day's two anchors sampled there. */
  function coreEdges(driver: Driver, day: number): [number, number] {
    const start = anchor(driver, day);
    const end = anchor(driver, day + 1);
    const variance = dayVariance(driver.model);
    random.reseed(mix(driver.seed, day, PART_EDGES));
    const before = VARIANCE_SHARE.pre;
    const open = start + (end - start) * before + Math.sqrt(before * (1 - before) * variance) * random.normal();
    // From the opening to the day's end: the core's share of what is left.
    const rest = 1 - before;
    const share = VARIANCE_SHARE.core / rest;
    const close = open + (end - open) * share + Math.sqrt(share * (1 - share) * rest * variance) * random.normal();
    return [open, close];
  }

  /** Recent days' parts, which the live feed reads again and again; a long history's are let go. */
  const segments = new Map<string, Float64Array>();

  /**
   * Values (not log terms) of one part of a day (minutes `from`..`to` inclusive) on a bridge
   * from `a` to `b` in the walk's terms. `keep`: cache them (the live days), else let them go.
   * The same part always gives the same values, whatever run of minutes asked for it.
   */
  function bridge(
    driver: Driver,
    day: number,
    part: string,
    from: number,
    to: number,
    a: number,
    b: number,
    varianceShare: number,
    keep: boolean,
  ): Float64Array {
    const id = keep ? `${driver.key}:${day}:${part}` : '';
    const cached = keep ? segments.get(id) : undefined;
    if (cached) return cached;
    const steps = to - from;
    const knots = new Float64Array(steps + 1);
    random.reseed(mix(driver.seed, day, PART_SEED[part]!));
    const sd = Math.sqrt((varianceShare * dayVariance(driver.model)) / steps);
    let walk = 0;
    for (let i = 1; i <= steps; i++) {
      walk += sd * random.roughNormal();
      knots[i] = walk;
    }
    const drift = (b - a - walk) / steps;
    for (let i = 0; i <= steps; i++) knots[i] = a + knots[i]! + drift * i;
    knots[steps] = b;
    if (driver.model.log) toPrices(knots, knots[0]!, true);
    if (keep) {
      segments.set(id, knots);
      if (segments.size > SEGMENT_CACHE_LIMIT) segments.delete(segments.keys().next().value!);
    }
    return knots;
  }

  /** The latest day asked for: the live feed's today. */
  let latestDay = -Infinity;

  /**
   * The driver's values (not log terms) at each minute from..to (inclusive) of a day, to be read,
   * not written (a cached part may be answered as it is). The parts of the last few days are
   * kept: the live feed asks for them all the time.
   */
  function knots(key: string, day: number, from: number, to: number): Float64Array {
    if (day > latestDay) latestDay = day;
    const keep = day >= latestDay - 2;
    const driver = drivers.get(key);
    if (!driver) throw new Error(`No driver ${key}`);
    const { model } = driver;
    if (!model.intraday) {
      const start = anchor(driver, day);
      const end = anchor(driver, day + 1);
      const out = new Float64Array(to - from + 1);
      for (let m = from; m <= to; m++) out[m - from] = start + ((end - start) * m) / MINUTES_PER_DAY;
      // In a straight line from the day's first anchor: exp around that, the same for any run.
      if (model.log) toPrices(out, start, false);
      return out;
    }
    const [open, close] = coreEdges(driver, day);
    const start = anchor(driver, day);
    const end = anchor(driver, day + 1);
    const parts: [string, number, number, number, number, number][] = [
      ['pre', 0, CORE_OPEN, start, open, VARIANCE_SHARE.pre],
      ['core', CORE_OPEN, CORE_CLOSE, open, close, VARIANCE_SHARE.core],
      ['post', CORE_CLOSE, MINUTES_PER_DAY, close, end, VARIANCE_SHARE.post],
    ];
    // A run inside one part is that part's values themselves (no copy).
    for (const [part, partFrom, partTo, a, b, share] of parts) {
      if (from >= partFrom && to <= partTo && to > from)
        return bridge(driver, day, part, partFrom, partTo, a, b, share, keep).subarray(from - partFrom, to - partFrom + 1);
    }
    const out = new Float64Array(to - from + 1);
    for (const [part, partFrom, partTo, a, b, share] of parts) {
      const lo = Math.max(from, partFrom);
      const hi = Math.min(to, partTo);
      if (lo > hi) continue;
      // A part's end knots are known without drawing it (two parts share them).
      if (lo === hi && (lo === partFrom || lo === partTo)) {
        const value = lo === partFrom ? a : b;
        out[lo - from] = model.log ? Math.exp(value) : value;
        continue;
      }
      const values = bridge(driver, day, part, partFrom, partTo, a, b, share, keep);
      for (let m = lo; m <= hi; m++) out[m - from] = values[m - partFrom]!;
    }
    return out;
  }

  return {
    /** Whether a driver of that key exists. */
    has: (key: string): boolean => drivers.has(key),
    knots,
  };
}

export type DriverPaths = ReturnType<typeof createDriverPaths>;
