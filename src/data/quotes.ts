// Quote hooks for components: a cell asks for its symbol and re-renders only when that
// symbol's quote (or the connection) changes. Mounting subscribes through the data worker,
// unmounting lets go; the tab batches these into one worker call per turn.
import { useEffect } from 'react';
import type { Quote } from '../lib/quote';
import type { MarketStatus } from '../workers/api';
import { useMarketStatus, useQuoteState } from './store';
import { holdSymbol } from './worker';

export interface QuoteView {
  quote: Quote | null;
  /** True while the quote is cached or the socket is not open: show it, marked as not live. */
  stale: boolean;
}

export function useQuote(symbol: string): QuoteView {
  const state = useQuoteState(symbol);
  const status = useMarketStatus();
  useEffect(() => holdSymbol(symbol), [symbol]);
  return { quote: state?.quote ?? null, stale: state == null || !state.live || status.state !== 'open' };
}

export function useMarketConnection(): MarketStatus {
  return useMarketStatus();
}
