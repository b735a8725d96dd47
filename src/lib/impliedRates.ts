// Implied rates of a futures curve (the Curva section, issue 19): with S the spot reference,
// F a future's price and d the days to its expiry (reference/argentine-market.md):
//   implied devaluation to expiry  td  = F/S − 1
//   nominal annual rate            TNA = td × base / d
//   effective annual rate          TEA = (F/S)^(base/d) − 1
// and the forward rate between two consecutive months, nominal, from their prices and days:
//   fwd = (F₂/F₁ − 1) × base / (d₂ − d₁).
// `base` is 365 for calendar days and 252 for weekdays (the spec's weekday count skips
// Saturday and Sunday; 252 is the market's business-day year). Pure, no I/O. A figure that
// cannot be computed (no price, no spot, d ≤ 0, a result that is not a finite number) is
// null, never NaN or Infinity.
import type { MarketData } from '../protocol/market';
import { calendarDaysBetween, weekdaysBetween } from './calendar';

export type DayCount = 'calendar' | 'weekdays';

/** Days in a year in each day count. */
export const YEAR_BASE: Record<DayCount, number> = { calendar: 365, weekdays: 252 };

/** Days from `today` to `expiry` (UTC dates) in the day count; negative once it has passed (calendar). */
export function daysToExpiry(today: Date, expiry: Date, dayCount: DayCount): number {
  return dayCount === 'weekdays' ? weekdaysBetween(today, expiry) : calendarDaysBetween(today, expiry);
}

const positive = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;
const finiteOrNull = (value: number): number | null => (Number.isFinite(value) ? value : null);

export interface ImpliedRates {
  /** F − S, in the price's unit. */
  basis: number;
  /** F/S − 1, a fraction (0.013 is 1.3 %). */
  devaluation: number;
  /** Nominal annual rate, a fraction; null when d ≤ 0. */
  tna: number | null;
  /** Effective annual rate, a fraction; null when d ≤ 0. */
  tea: number | null;
}

/** The implied figures of a future against its spot, or null without a price or a spot. */
export function impliedRates(
  spot: number | null | undefined,
  price: number | null | undefined,
  days: number,
  dayCount: DayCount = 'calendar',
): ImpliedRates | null {
  if (!positive(spot) || !positive(price)) return null;
  const ratio = price / spot;
  const devaluation = ratio - 1;
  const annualize = Number.isFinite(days) && days > 0;
  const base = YEAR_BASE[dayCount];
  return {
    basis: price - spot,
    devaluation,
    tna: annualize ? finiteOrNull((devaluation * base) / days) : null,
    tea: annualize ? finiteOrNull(ratio ** (base / days) - 1) : null,
  };
}

/**
 * The nominal annual forward rate between two months: what the far contract yields over the
 * near one for the days between their expiries; null without both prices or when the far
 * one does not expire later.
 */
export function forwardRate(
  near: { price: number | null | undefined; days: number },
  far: { price: number | null | undefined; days: number },
  dayCount: DayCount = 'calendar',
): number | null {
  if (!positive(near.price) || !positive(far.price)) return null;
  const between = far.days - near.days;
  if (!Number.isFinite(between) || between <= 0) return null;
  return finiteOrNull((far.price / near.price - 1) * (YEAR_BASE[dayCount] / between));
}

export type PriceSource = 'last' | 'mid';

export interface CurvePrice {
  price: number;
  /** The last trade, or the middle of the best bid and offer when there is no trade. */
  source: PriceSource;
}

/** The price a curve reads from a quote: the last trade (or an index's value), else the bid/ask middle. */
export function curvePrice(md: MarketData | null | undefined): CurvePrice | null {
  if (!md) return null;
  const last = md.LA?.price ?? md.IV;
  if (positive(last)) return { price: last, source: 'last' };
  const bid = md.BI?.[0]?.price;
  const ask = md.OF?.[0]?.price;
  if (positive(bid) && positive(ask) && ask >= bid) return { price: (bid + ask) / 2, source: 'mid' };
  return null;
}
