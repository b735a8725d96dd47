import { describe, expect, it } from 'vitest';
import type { MarketsEvent, MarketStateEntry } from '../protocol/market';
import {
  applyCachedQuotes,
  applyTabMessage,
  dataStore,
  inStaleMarket,
  isStaleQuote,
  marketStatusAtom,
  markNotLive,
  quoteAtom,
  setHeldSymbols,
  shownMarketsAtom,
  staleMarketsKeyAtom,
  subscribeQuotes,
} from './store';

describe('tick store', () => {
  it('writes each symbol of a batch into its own atom, notifying only its listeners', () => {
    const notified: string[] = [];
    for (const symbol of ['A', 'B', 'C']) dataStore.sub(quoteAtom(symbol), () => notified.push(symbol));
    applyTabMessage({ type: 'ticks', quotes: { A: { md: { OP: 1 } }, B: { md: { OP: 2 } } } });
    expect(notified.sort()).toEqual(['A', 'B']);
    expect(dataStore.get(quoteAtom('A'))).toEqual({ quote: { md: { OP: 1 } }, live: true });
    expect(dataStore.get(quoteAtom('C'))).toBeNull();
  });

  it('shows a cached quote as stale until live data arrives, and never over live data', () => {
    applyCachedQuotes([{ symbol: 'DLR/DIC26', md: { OP: 1400 }, expiration: '20261231', receivedAt: 1 }, undefined]);
    expect(dataStore.get(quoteAtom('DLR/DIC26'))).toEqual({ quote: { md: { OP: 1400 }, expiration: new Date(Date.UTC(2026, 11, 31)) }, live: false });
    applyTabMessage({ type: 'ticks', quotes: { 'DLR/DIC26': { md: { OP: 1450 } } } });
    applyCachedQuotes([{ symbol: 'DLR/DIC26', md: { OP: 1400 }, receivedAt: 1 }]);
    expect(dataStore.get(quoteAtom('DLR/DIC26'))).toEqual({ quote: { md: { OP: 1450 } }, live: true });
  });

  it('marks a let-go symbol not live, keeping its last quote to show as stale until new data', () => {
    applyTabMessage({ type: 'ticks', quotes: { 'BYMA:AL30': { md: { OP: 60 } } } });
    markNotLive(['BYMA:AL30', 'NEVER:SEEN']);
    expect(dataStore.get(quoteAtom('BYMA:AL30'))).toEqual({ quote: { md: { OP: 60 } }, live: false });
    expect(dataStore.get(quoteAtom('NEVER:SEEN'))).toBeNull();
    applyTabMessage({ type: 'ticks', quotes: { 'BYMA:AL30': { md: { OP: 61 } } } });
    expect(dataStore.get(quoteAtom('BYMA:AL30'))).toEqual({ quote: { md: { OP: 61 } }, live: true });
  });

  it('keeps the market status', () => {
    applyTabMessage({ type: 'market-status', status: { state: 'open', reconnected: true, user: null } });
    expect(dataStore.get(marketStatusAtom)).toEqual({ state: 'open', reconnected: true, user: null });
  });

  it('calls a several-symbol listener at once, then once per batch that moved any of them, and never after the unsubscribe', async () => {
    const calls: (number | undefined)[][] = [];
    const stop = subscribeQuotes(['LEG:A', 'LEG:B'], (states) =>
      calls.push(['LEG:A', 'LEG:B'].map((symbol) => states.get(symbol)?.quote.md.OP as number | undefined)),
    );
    expect(calls).toEqual([[undefined, undefined]]);
    applyTabMessage({ type: 'ticks', quotes: { 'LEG:A': { md: { OP: 1 } }, 'LEG:B': { md: { OP: 2 } } } });
    expect(calls).toHaveLength(1);
    await Promise.resolve();
    expect(calls).toEqual([
      [undefined, undefined],
      [1, 2],
    ]);
    applyTabMessage({ type: 'ticks', quotes: { 'LEG:B': { md: { OP: 3 } } } });
    stop();
    await Promise.resolve();
    expect(calls).toHaveLength(2);
  });
});

describe('market states in the tab', () => {
  const session = { day: '2026-11-27', open: true, opensAt: 1, closesAt: 2, nextOpensAt: 3 };
  const entry = (market: MarketStateEntry['market'], state: MarketStateEntry['state']): MarketStateEntry => ({
    market,
    label: market.toUpperCase(),
    feed: market === 'byma' ? 'tv' : 'rofex',
    simulated: true,
    state,
    since: 1,
    lastUpdate: 1,
    session,
  });
  const markets = (rofex: MarketStateEntry['state'], byma: MarketStateEntry['state'] = 'running'): MarketsEvent => ({
    event: 'markets',
    simulated: true,
    calendar: 'demo',
    markets: [entry('rofex', rofex), entry('byma', byma), entry('a3500', rofex)],
  });

  it('knows which markets are not running, and that a quote of one of them is stale', () => {
    applyTabMessage({ type: 'markets', markets: markets('running') });
    expect(dataStore.get(staleMarketsKeyAtom)).toBe('');
    applyTabMessage({ type: 'markets', markets: markets('stopped') });
    expect(dataStore.get(staleMarketsKeyAtom)).toBe('rofex,a3500');
    const stale = new Set(['rofex', 'a3500'] as const);
    expect(inStaleMarket({ md: {}, market: 'rofex' }, stale)).toBe(true);
    expect(inStaleMarket({ md: {}, market: 'byma' }, stale)).toBe(false);
    expect(inStaleMarket({ md: {} }, stale)).toBe(false);
    // A quote is stale when it is not live, or live in a market not running.
    expect(isStaleQuote({ quote: { md: {}, market: 'byma' }, live: true }, stale)).toBe(false);
    expect(isStaleQuote({ quote: { md: {}, market: 'rofex' }, live: true }, stale)).toBe(true);
    expect(isStaleQuote({ quote: { md: {}, market: 'byma' }, live: false }, stale)).toBe(true);
    expect(isStaleQuote(null, stale)).toBe(true);
    applyTabMessage({ type: 'markets', markets: null });
    expect(dataStore.get(staleMarketsKeyAtom)).toBe('');
  });

  it('lists the markets of the symbols the tab shows, once live quotes named them', () => {
    applyTabMessage({ type: 'markets', markets: markets('stopped') });
    setHeldSymbols(['DLR/ENE27', 'BYMA:GD30']);
    expect(dataStore.get(shownMarketsAtom)?.shown).toEqual([]);
    applyTabMessage({
      type: 'ticks',
      quotes: { 'DLR/ENE27': { md: {}, market: 'rofex' }, 'BYMA:GD30': { md: {}, market: 'byma' }, OTHER: { md: {}, market: 'a3500' } },
    });
    expect(dataStore.get(shownMarketsAtom)?.shown.map((shown) => [shown.market, shown.state])).toEqual([
      ['rofex', 'stopped'],
      ['byma', 'running'],
    ]);
    setHeldSymbols(['BYMA:GD30']);
    expect(dataStore.get(shownMarketsAtom)?.shown.map((shown) => shown.market)).toEqual(['byma']);
  });
});
