// The instruments' price model: the price the drivers imply for each kind of instrument at
// each minute of a day (the DLR curve at the implied rate over spot, bonds in pesos, MEP and
// cable dollars, options by Black-76), computed for a run of minutes at once.
import { dayOfIso, DAY_MS, dayStartMs, MINUTE_MS, type TradingCalendar } from '../calendar.js';
import { REFERENCE_PRICES, type Catalogue, type Instrument } from '../catalogue.js';
import type { DriverPaths } from './drivers.js';

const OPTION_VOLATILITY = 0.25;
const YEAR_MS = 365 * DAY_MS;

/** AL30D and AL30C are lines of AL30 (no bond ticker of the catalogue ends in D or C). */
export const bondBase = (ticker: string): string => ticker.replace(/[DC]$/, '');

/** Normal CDF (Abramowitz–Stegun 7.1.26), for option prices. */
function normalCdf(x: number): number {
  const t = 1 / (1 + (0.3275911 * Math.abs(x)) / Math.SQRT2);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Black-76 price of an option on a future. */
function black76(forward: number, strike: number, years: number, type: 'C' | 'P'): number {
  if (years <= 0) return Math.max(0, type === 'C' ? forward - strike : strike - forward);
  const sd = OPTION_VOLATILITY * Math.sqrt(years);
  const d1 = (Math.log(forward / strike) + (sd * sd) / 2) / sd;
  const d2 = d1 - sd;
  return type === 'C' ? forward * normalCdf(d1) - strike * normalCdf(d2) : strike * normalCdf(-d2) - forward * normalCdf(-d1);
}

const STOCK_FUTURES = new Set<string>(REFERENCE_PRICES.stockFutures);

export function createFairValues(catalogue: Catalogue, paths: DriverPaths, calendar: TradingCalendar) {
  const expiries = new WeakMap<Instrument, number | null>();

  /** Epoch ms when an instrument stops trading: its expiry day's closing on A3 Mercados. */
  function expiresAt(instrument: Instrument): number | null {
    let known = expiries.get(instrument);
    if (known === undefined) {
      const day = instrument.maturityDate ? dayOfIso(instrument.maturityDate) : null;
      known = day == null ? null : calendar.sessionOf('rofex', day).closesAt;
      expiries.set(instrument, known);
    }
    return known;
  }

  /** Years from each minute of the run to the expiry. */
  function yearsLeft(instrument: Instrument, day: number, from: number, to: number): Float64Array {
    const end = expiresAt(instrument) ?? dayStartMs(day);
    const years = new Float64Array(to - from + 1);
    const start = dayStartMs(day);
    for (let m = from; m <= to; m++) years[m - from] = Math.max(0, (end - (start + m * MINUTE_MS)) / YEAR_MS);
    return years;
  }

  /**
   * The instrument's fair value at minutes from..to (inclusive) of a day, or null for an
   * instrument the simulator has no model of (one the real exchange listed).
   */
  function knots(instrument: Instrument, day: number, from: number, to: number): Float64Array | null {
    const driver = (key: string) => paths.knots(key, day, from, to);
    const { product } = instrument;
    // Driver knots are read, never written (a cached part of a day comes as it is): each result is new.
    const each = (values: Float64Array, map: (value: number, index: number) => number) => {
      const out = new Float64Array(values.length);
      for (let i = 0; i < values.length; i++) out[i] = map(values[i]!, i);
      return out;
    };
    switch (instrument.kind) {
      case 'spot':
        return driver('spot');
      case 'future': {
        const years = yearsLeft(instrument, day, from, to);
        if (product === 'DLR') {
          const rate = driver('rate');
          return each(driver('spot'), (spot, i) => spot * (1 + rate[i]! * years[i]!));
        }
        if (product === 'RFX20') {
          const rate = driver('rate');
          return each(driver('I.RFX20'), (level, i) => level * (1 + rate[i]! * 0.9 * years[i]!));
        }
        if (!paths.has(product)) return null;
        // Single-stock futures carry at the peso rate; crops and commodities at a dollar rate.
        if (STOCK_FUTURES.has(product)) {
          const rate = driver('rate');
          return each(driver(product), (level, i) => level * (1 + rate[i]! * years[i]!));
        }
        return each(driver(product), (level, i) => level * (1 + 0.05 * years[i]!));
      }
      case 'spread': {
        const [nearSymbol, farSymbol] = instrument.legs ?? [];
        const near = nearSymbol ? catalogue.resolve(nearSymbol) : null;
        const far = farSymbol ? catalogue.resolve(farSymbol) : null;
        const nearValues = near && knots(near, day, from, to);
        const farValues = far && knots(far, day, from, to);
        if (!nearValues || !farValues) return null;
        return each(farValues, (value, i) => value - nearValues[i]!);
      }
      case 'option': {
        const underlying = instrument.underlying ? catalogue.resolve(instrument.underlying) : null;
        const forward = underlying && knots(underlying, day, from, to);
        if (!forward) return null;
        const years = yearsLeft(instrument, day, from, to);
        return each(forward, (price, i) => black76(price, instrument.strike!, years[i]!, instrument.optionType!));
      }
      case 'index':
        return paths.has(product) ? driver(product) : null;
      case 'bond': {
        const base = bondBase(product);
        if (!paths.has(base)) return null;
        // AL30 in pesos, AL30D in MEP dollars, AL30C in cable dollars: one dollar value, three lines.
        let usd = driver(base);
        if (!product.endsWith('D')) {
          const mep = driver('mep');
          if (product.endsWith('C')) {
            const ccl = driver('ccl');
            usd = each(usd, (value, i) => (value * mep[i]!) / ccl[i]!);
          } else usd = each(usd, (value, i) => value * mep[i]!);
        }
        return instrument.term === 'CI' ? cashTerm(usd) : usd;
      }
      case 'stock':
        if (!paths.has(product)) return null;
        return instrument.term === 'CI' ? cashTerm(driver(product)) : driver(product);
      case 'other':
        return null;
    }

    /** Cash (CI) trades a day's carry below the 24hs line. */
    function cashTerm(values: Float64Array): Float64Array {
      const rate = driver('rate');
      return each(values, (value, i) => value * (1 - rate[i]! / 365));
    }
  }

  return { knots, expiresAt };
}

export type FairValues = ReturnType<typeof createFairValues>;
