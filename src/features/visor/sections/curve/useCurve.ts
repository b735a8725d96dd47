// The live data of a curve: the catalogue (read again every hour and on each new day, so the
// months roll without a reload), today's date where the market is, the product's months, and
// their quotes and the spot's, held through the data worker while the section shows and
// recomputed once per batch of ticks (the paint pacer applies at most one batch a frame).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { marketKeys } from '../../../../data/queries/keys';
import { marketQueries } from '../../../../data/queries/market';
import { isStaleQuote, type QuoteState, subscribeQuotes, useMarketStatus, useStaleMarkets } from '../../../../data/store';
import { holdSymbol } from '../../../../data/worker';
import { parseYyyymmdd, yyyymmdd } from '../../../../lib/calendar';
import { curveContracts, curveProducts, marketToday, spotCandidates, type CurveContract } from '../../../../lib/futuresCurve';
import type { DayCount } from '../../../../lib/impliedRates';
import type { PrimaryInstrument } from '../../../../protocol/market';
import { curveSnapshot, type CurveSnapshot } from './curveRows';

const CATALOGUE_REFRESH_MS = 60 * 60 * 1000;
// Reading the clock costs nothing, and the same day again changes no state (no render).
const DAY_CHECK_MS = 10 * 1000;

/** Today's date where the market is, as YYYYMMDD; changes at its midnight (checked every 10 s). */
function useMarketDay(): string {
  const [day, setDay] = useState(() => yyyymmdd(marketToday(Date.now())));
  useEffect(() => {
    const timer = setInterval(() => setDay(yyyymmdd(marketToday(Date.now()))), DAY_CHECK_MS);
    return () => clearInterval(timer);
  }, []);
  return day;
}

export interface CurveCatalogue {
  instruments: readonly PrimaryInstrument[] | undefined;
  loading: boolean;
  failed: boolean;
  today: Date;
  /** Products with two months or more. */
  products: string[];
  contracts: CurveContract[];
  spotCandidates: string[];
  /** Each symbol's catalogue entry. */
  bySymbol: ReadonlyMap<string, PrimaryInstrument>;
}

export function useCurveCatalogue(product: string): CurveCatalogue {
  const queryClient = useQueryClient();
  const { data, isPending, isError } = useQuery({ ...marketQueries.instruments(), refetchInterval: CATALOGUE_REFRESH_MS });
  const day = useMarketDay();
  const [firstDay] = useState(day);
  // A new day: contracts expired and the server listed new months; read its catalogue again.
  useEffect(() => {
    if (day !== firstDay) void queryClient.invalidateQueries({ queryKey: marketKeys.instruments() });
  }, [day, firstDay, queryClient]);

  return useMemo(() => {
    const today = parseYyyymmdd(day)!;
    const instruments = data ?? [];
    return {
      instruments: data,
      loading: isPending,
      failed: isError && data == null,
      today,
      products: curveProducts(instruments, today),
      contracts: curveContracts(instruments, product, today),
      spotCandidates: spotCandidates(instruments, product),
      bySymbol: new Map(instruments.map((instrument) => [instrument.instrumentId.symbol, instrument])),
    };
  }, [data, isPending, isError, day, product]);
}

/**
 * How often at most the curve is recomputed and drawn again while ticks arrive: a table and
 * chart of implied rates read at 4 changes a second, and each is a React render of the whole
 * table (bench:visor --page charts: about 4 % of a core at 20 a second, the tab's tick rate).
 */
export const CURVE_REFRESH_MS = 250;

/** The curve now, recomputed after the batches of ticks that moved its symbols, at most every CURVE_REFRESH_MS. */
export function useCurveSnapshot(contracts: readonly CurveContract[], spot: string, today: Date, dayCount: DayCount): CurveSnapshot & { marketLive: boolean } {
  const marketLive = useMarketStatus().state === 'open';
  // A contract of a market not running (stopped, silent, reconnecting, closed) is stale too.
  const staleMarkets = useStaleMarkets();
  const symbolsKey = useMemo(() => [...contracts.map((contract) => contract.symbol), ...(spot ? [spot] : [])].join('\n'), [contracts, spot]);
  const [states, setStates] = useState<{ key: string; quotes: ReadonlyMap<string, QuoteState | null> }>({ key: '', quotes: new Map() });

  useEffect(() => {
    if (!symbolsKey) return;
    const symbols = symbolsKey.split('\n');
    // Held as on screen: the chart draws every month whatever the table scrolls.
    const releases = symbols.map((symbol) => holdSymbol(symbol));
    // The first answer at once, then at most one every CURVE_REFRESH_MS, the latest quotes each time.
    let latest: ReadonlyMap<string, QuoteState | null> = new Map();
    let shownAt = -Infinity;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const show = () => {
      timer = null;
      shownAt = performance.now();
      setStates({ key: symbolsKey, quotes: new Map(latest) });
    };
    const stop = subscribeQuotes(symbols, (quotes) => {
      latest = quotes;
      if (timer !== null) return;
      const wait = shownAt + CURVE_REFRESH_MS - performance.now();
      if (wait <= 0) show();
      else timer = setTimeout(show, wait);
    });
    return () => {
      if (timer !== null) clearTimeout(timer);
      stop();
      releases.forEach((release) => release());
    };
  }, [symbolsKey]);

  return useMemo(() => {
    const quotes = states.key === symbolsKey ? states.quotes : new Map<string, QuoteState | null>();
    const quoteOf = (symbol: string) => {
      const state = quotes.get(symbol);
      return state ? { md: state.quote.md, live: marketLive && !isStaleQuote(state, staleMarkets) } : null;
    };
    return { ...curveSnapshot(contracts, spot, quoteOf, today, dayCount), marketLive };
  }, [states, symbolsKey, contracts, spot, today, dayCount, marketLive, staleMarkets]);
}
