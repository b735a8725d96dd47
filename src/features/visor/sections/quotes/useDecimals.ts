// Each instrument's price decimals, from the catalogue (read once per tab; offline, the one the
// data worker kept); the spec's 4 decimals where no catalogue was ever read here or it does not
// list the symbol.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { marketQueries } from '../../../../data/queries/market';
import { DEFAULT_DECIMALS } from '../../../../lib/numberFormat';
import { exchangeSymbol } from '../../../../lib/symbolNames';

export function useDecimals(): (symbol: string) => number {
  const { data } = useQuery(marketQueries.instruments());
  return useMemo(() => {
    const precision = new Map((data ?? []).map((instrument) => [instrument.instrumentId.symbol, instrument.instrumentPricePrecision]));
    return (symbol: string) => precision.get(exchangeSymbol(symbol)) ?? DEFAULT_DECIMALS;
  }, [data]);
}
