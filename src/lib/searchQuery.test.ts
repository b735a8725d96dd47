import { describe, expect, it } from 'vitest';
import { paths } from './paths';
import { readSearchQuery, searchDetailPath } from './searchQuery';

const queryOf = (path: string) => path.slice(path.indexOf('?'));

describe('the search route’s query', () => {
  it('is the whole text, as the header’s search writes it', () => {
    expect(readSearchQuery('?DLR')).toEqual({ text: 'DLR', symbol: null });
    expect(readSearchQuery(queryOf(paths.search('dólar mep')))).toEqual({ text: 'dólar mep', symbol: null });
    expect(readSearchQuery('?d%C3%B3lar+mep')).toEqual({ text: 'dólar mep', symbol: null });
    expect(readSearchQuery('')).toEqual({ text: '', symbol: null });
  });

  it('carries the open detail’s symbol after the text, both read back as written', () => {
    const path = searchDetailPath('DLR', 'DLR/DIC26');
    expect(path).toBe('/backend/pages/generic/search?DLR&symbol=DLR%2FDIC26');
    expect(readSearchQuery(queryOf(path))).toEqual({ text: 'DLR', symbol: 'DLR/DIC26' });
    expect(readSearchQuery(queryOf(searchDetailPath('al30', 'MERV - XMEV - AL30 - 24hs')))).toEqual({ text: 'al30', symbol: 'MERV - XMEV - AL30 - 24hs' });
  });

  it('keeps a text with `&` and `symbol=` in it whole: paths.search encodes them', () => {
    const text = 'a&symbol=b';
    expect(readSearchQuery(queryOf(paths.search(text)))).toEqual({ text, symbol: null });
    expect(readSearchQuery(queryOf(searchDetailPath(text, 'DLR/SPOT')))).toEqual({ text, symbol: 'DLR/SPOT' });
  });

  it('reads a hand-typed `&` without `symbol=` as part of the text, and an empty symbol as none', () => {
    expect(readSearchQuery('?AT&T')).toEqual({ text: 'AT&T', symbol: null });
    expect(readSearchQuery('?DLR&symbol=')).toEqual({ text: 'DLR', symbol: null });
    expect(readSearchQuery('?&symbol=GGAL')).toEqual({ text: '', symbol: 'GGAL' });
  });

  it('reads a malformed escape as written instead of failing', () => {
    expect(readSearchQuery('?100%')).toEqual({ text: '100%', symbol: null });
    expect(readSearchQuery('?x&symbol=%E0')).toEqual({ text: 'x', symbol: '%E0' });
  });
});
