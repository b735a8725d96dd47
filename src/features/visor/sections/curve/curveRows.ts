// The rows of a futures curve at one moment: each live month with its days to expiry, price
// (and where it came from), basis, implied devaluation and its change since the previous
// closes (in percentage points: a rate's change is never a percent of itself), TNA, TEA and
// the forward rate from the month before. Built from the contracts, the quotes the tab holds
// and the day count; pure, so the table and the chart read the same numbers.
import type { CurveContract } from '../../../../lib/futuresCurve';
import { curvePrice, daysToExpiry, forwardRate, impliedRates, type CurvePrice, type DayCount, type ImpliedRates } from '../../../../lib/impliedRates';
import { closePrice } from '../../../../lib/quoteColumns';
import { formatChange, type ValueChange } from '../../../../lib/valueChange';
import type { MarketData } from '../../../../protocol/market';

export interface QuoteLike {
  md: MarketData;
  live: boolean;
}

export interface CurveRow {
  contract: CurveContract;
  /** Days to expiry in the section's day count. */
  days: number;
  /** Calendar days to expiry (where the chart places the month). */
  calendarDays: number;
  price: CurvePrice | null;
  /** The price comes from the live feed (not the local cache, not a closed market). */
  live: boolean;
  rates: ImpliedRates | null;
  /**
   * The implied devaluation's change since the future's and the spot's previous closes, in
   * percentage points; null without either close or without rates now.
   */
  devaluationChange: ValueChange | null;
  /** Nominal annual forward rate from the previous month; null for the first month. */
  forward: number | null;
}

export interface CurveSnapshot {
  spot: CurvePrice | null;
  spotLive: boolean;
  rows: CurveRow[];
}

export function curveSnapshot(
  contracts: readonly CurveContract[],
  spotSymbol: string,
  quoteOf: (symbol: string) => QuoteLike | null | undefined,
  today: Date,
  dayCount: DayCount,
): CurveSnapshot {
  const spotQuote = spotSymbol ? quoteOf(spotSymbol) : null;
  const spot = curvePrice(spotQuote?.md);
  const spotClose = closePrice(spotQuote);
  let previous: CurveRow | null = null;
  const rows = contracts.map((contract) => {
    const quote = quoteOf(contract.symbol);
    const price = curvePrice(quote?.md);
    const days = daysToExpiry(today, contract.expiry, dayCount);
    const rates = impliedRates(spot?.price, price?.price, days, dayCount);
    const atClose = impliedRates(spotClose, closePrice(quote), days, dayCount);
    const row: CurveRow = {
      contract,
      days,
      calendarDays: daysToExpiry(today, contract.expiry, 'calendar'),
      price,
      live: quote?.live ?? false,
      rates,
      // Both in percent: their difference is the points.
      devaluationChange: rates && atClose ? formatChange('rate', rates.devaluation * 100, atClose.devaluation * 100) : null,
      forward: previous ? forwardRate({ price: previous.price?.price, days: previous.days }, { price: price?.price, days }, dayCount) : null,
    };
    previous = row;
    return row;
  });
  return { spot, spotLive: spotQuote?.live ?? false, rows };
}
