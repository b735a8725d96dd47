// Market server state: the instrument search (POST /visores/search), a symbol's daily history
// (POST /visores/search/symbol/history) and the catalogue (GET /visores/primary/instruments,
// through the data worker, which keeps the last one for offline).
import { queryOptions } from '@tanstack/react-query';
import { FormulaSymbolsResponse, HistoryResponse, SearchResponse, type DailyCandle, type SearchHit } from '../../protocol/market';
import type { Catalogue } from '../../workers/api';
import { toPlainError } from '../../shared/errors';
import { ApiError, apiRequest } from '../api';
import { getToken } from '../session';
import { dataWorker } from '../worker';
import { marketKeys } from './keys';

async function search(text: string, signal: AbortSignal): Promise<SearchHit[]> {
  const answer = await apiRequest('/visores/search', { method: 'POST', token: getToken(), body: { symbol: text.trim() }, signal, schema: SearchResponse });
  return answer.data;
}

async function dailyHistory(symbol: string, limit: number, signal: AbortSignal): Promise<DailyCandle[]> {
  const answer = await apiRequest('/visores/search/symbol/history', {
    method: 'POST',
    token: getToken(),
    body: { symbol, limit },
    signal,
    schema: HistoryResponse,
  });
  return answer.data;
}

/** The worker's answer (its PlainError, plain data, rethrown as the tab's ApiError so a failure is retried like any request's). */
async function catalogue(): Promise<Catalogue> {
  try {
    return await dataWorker().catalogue();
  } catch (error) {
    throw new ApiError(toPlainError(error));
  }
}

/**
 * The symbols of a formula the server's catalogue does not list (POST /search_symbols_formula):
 * asked when the tab's copy of the catalogue lacks one, since the server's may have grown since
 * (the real exchange's instruments join it as they are seen). Throws ApiError when it cannot answer.
 */
export async function unknownFormulaSymbols(formula: string): Promise<string[]> {
  const answer = await apiRequest('/search_symbols_formula', { method: 'POST', token: getToken(), body: { formula }, schema: FormulaSymbolsResponse });
  return answer.data.unknown;
}

export const marketQueries = {
  /**
   * The catalogue (each instrument's price precision, for the quote board's decimals; a curve's
   * months). It changes once a day at most: read once per tab and kept. The data worker keeps
   * the last one in Dexie and answers it when the server cannot be reached: then it is stale at
   * once, so it is read again when the server answers again (refetchOnReconnect).
   */
  instruments: () =>
    queryOptions({
      queryKey: marketKeys.instruments(),
      queryFn: catalogue,
      select: (answer) => answer.instruments,
      staleTime: (query) => (query.state.data?.stale === false ? Number.POSITIVE_INFINITY : 0),
      gcTime: Number.POSITIVE_INFINITY,
    }),

  /**
   * Instruments matching a text, best first. TanStack's signal aborts the request once
   * nobody waits for it (the text changed before the answer came).
   */
  search: (text: string) =>
    queryOptions({
      queryKey: marketKeys.search(text),
      queryFn: ({ signal }) => search(text, signal),
    }),

  /**
   * The symbol's last `limit` daily candles, oldest first (the search page's small chart). The
   * closes of past days do not change; five minutes keep today's close near enough.
   */
  dailyHistory: (symbol: string, limit: number) =>
    queryOptions({
      queryKey: marketKeys.dailyHistory(symbol, limit),
      queryFn: ({ signal }) => dailyHistory(symbol, limit, signal),
      staleTime: 5 * 60_000,
    }),

  /**
   * The search a submitted text runs once more (the quote board's Agregar): always asked
   * anew, not retried (the user waits for it, and offline the text is added as written at
   * once), and kept under its own key so it neither joins a live search of the same text
   * still on its way nor answers for it.
   */
  submittedSearch: (text: string) =>
    queryOptions({
      queryKey: marketKeys.submittedSearch(text),
      queryFn: ({ signal }) => search(text, signal),
      staleTime: 0,
      gcTime: 0,
      retry: false,
    }),
};
