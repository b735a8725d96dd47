// Market server state: the instrument search (POST /visores/search) and the catalogue (GET /visores/primary/instruments).
import { queryOptions } from '@tanstack/react-query';
import { InstrumentsResponse, SearchResponse, type PrimaryInstrument, type SearchHit } from '../../protocol/market';
import { apiRequest } from '../api';
import { getToken } from '../session';
import { marketKeys } from './keys';

async function search(text: string, signal: AbortSignal): Promise<SearchHit[]> {
  const answer = await apiRequest('/visores/search', { method: 'POST', token: getToken(), body: { symbol: text.trim() }, signal, schema: SearchResponse });
  return answer.data;
}

async function instruments(signal: AbortSignal): Promise<PrimaryInstrument[]> {
  const answer = await apiRequest('/visores/primary/instruments', { token: getToken(), signal, schema: InstrumentsResponse });
  return answer.instruments;
}

export const marketQueries = {
  /**
   * The catalogue (each instrument's price precision, for the quote board's decimals). It
   * changes once a day at most: read once per tab and kept.
   */
  instruments: () =>
    queryOptions({
      queryKey: marketKeys.instruments(),
      queryFn: ({ signal }) => instruments(signal),
      staleTime: Number.POSITIVE_INFINITY,
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
