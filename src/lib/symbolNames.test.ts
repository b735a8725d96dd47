import { describe, expect, it } from 'vitest';
import { displaySymbol, exchangeSymbol, symbolKind } from './symbolNames';

describe('symbols as a trader reads them', () => {
  it.each([
    ['MERV - XMEV - AL30 - 24hs', 'AL30 24hs'],
    ['MERV - XMEV - GGAL - CI', 'GGAL CI'],
    ['ROFEX:DLR/DIC26', 'DLR/DIC26'],
    ['DLR/DIC26', 'DLR/DIC26'],
    ['BYMA:AL30', 'AL30'],
    ['BYMA:AL30 - CI', 'AL30 CI'],
    ['DLR/DIC26 1450 C', 'DLR/DIC26 1450 C'],
  ])('%s → %s', (symbol, shown) => {
    expect(displaySymbol(symbol)).toBe(shown);
  });

  it.each([
    ['BYMA:AL30', 'MERV - XMEV - AL30 - 24hs'],
    ['BYMA:AL30 - CI', 'MERV - XMEV - AL30 - CI'],
    ['ROFEX:DLR/DIC26', 'DLR/DIC26'],
    ['ROFEX:DLR/SPOT', 'DLR/SPOT'],
    ['MERV - XMEV - AL30 - 24hs', 'MERV - XMEV - AL30 - 24hs'],
  ])('names %s as the exchange does: %s', (symbol, name) => {
    expect(exchangeSymbol(symbol)).toBe(name);
  });

  it.each([
    ['DLR/DIC26', 'future'],
    ['ROFEX:DLR/DIC26', 'future'],
    ['DLR/DIC26/ENE27', 'spread'],
    ['DLR/DIC26 1450 C', 'option'],
    ['MERV - XMEV - AL30 - 24hs', 'stock'],
    ['BYMA:GGAL', 'stock'],
    ['I.MERVAL', 'index'],
    ['DLR/SPOT', 'spot'],
    ['ALGO RARO', 'other'],
  ])('tells the kind of %s: %s', (symbol, kind) => {
    expect(symbolKind(symbol)).toBe(kind);
  });
});
