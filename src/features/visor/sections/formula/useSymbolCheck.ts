// The check of a formula's symbols against the instrument catalogue, where a formula is
// written (the Fórmulas section, the quote board's formula rows, the chart's formula series):
// the tab's copy of the catalogue first (kept by the data worker, so it answers offline too);
// a symbol it lacks is asked of the server, whose catalogue may have grown since (the real
// exchange's instruments join it as they are seen). Nothing checked, nothing taken: without
// a catalogue here and without the server, the form says so and keeps the text.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { marketKeys } from '../../../../data/queries/keys';
import { marketQueries, unknownFormulaSymbols } from '../../../../data/queries/market';
import { CATALOGUE_UNAVAILABLE, catalogueNames, unknownSymbols, unknownSymbolsMessage } from '../../../../lib/formulaSymbols';

/** What is wrong with the symbols of `expression` (only `symbols` of them are checked), or null. */
export type SymbolCheck = (expression: string, symbols: readonly string[]) => Promise<string | null>;

export function useSymbolCheck(): SymbolCheck {
  const queryClient = useQueryClient();
  const { data } = useQuery(marketQueries.instruments());
  const names = useMemo(() => (data ? catalogueNames(data) : null), [data]);
  return useCallback(
    async (expression, symbols) => {
      if (symbols.length === 0) return null;
      const local = names ? unknownSymbols(symbols, names) : null;
      if (local?.length === 0) return null;
      let unknown: string[];
      try {
        unknown = (await unknownFormulaSymbols(expression)).filter((symbol) => symbols.includes(symbol));
      } catch {
        return local ? unknownSymbolsMessage(local) : CATALOGUE_UNAVAILABLE;
      }
      // The server lists symbols the tab's copy lacks: that copy is old, read it again.
      if (local && unknown.length < local.length) void queryClient.invalidateQueries({ queryKey: marketKeys.instruments() });
      return unknownSymbolsMessage(unknown);
    },
    [names, queryClient],
  );
}
