// The rows of a futures curve at one moment: each live month with its days to expiry, price
// (and where it came from), basis, implied devaluation, TNA, TEA and the forward rate from the
// month before. Built from the contracts, the quotes the tab holds and the day count; pure,
// so the table and the chart read the same numbers.
import type { CurveContract } from '../../../../lib/futuresCurve';
import { curvePrice, daysToExpiry, forwardRate, impliedRates, type CurvePrice, type DayCount, type ImpliedRates } from '../../../../lib/impliedRates';
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
  let previous: CurveRow | null = null;
  const rows = contracts.map((contract) => {
    const quote = quoteOf(contract.symbol);
    const price = curvePrice(quote?.md);
    const days = daysToExpiry(today, contract.expiry, dayCount);
    const row: CurveRow = {
      contract,
      days,
      calendarDays: daysToExpiry(today, contract.expiry, 'calendar'),
      price,
      live: quote?.live ?? false,
      rates: impliedRates(spot?.price, price?.price, days, dayCount),
      forward: previous ? forwardRate({ price: previous.price?.price, days: previous.days }, { price: price?.price, days }, dayCount) : null,
    };
    previous = row;
    return row;
  });
  return { spot, spotLive: spotQuote?.live ?? false, rows };
}
