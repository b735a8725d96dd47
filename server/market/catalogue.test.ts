import { describe, expect, it } from 'vitest';
import { FORMULA_PRESETS } from '../../src/lib/formulaPresets.js';
import { parseFormula } from '../../src/lib/formula.js';
import { exchangeSymbol } from '../../src/lib/symbolNames.js';
import { buildCatalogue, searchInstruments } from './catalogue.js';

const settings = { spot: 1450, mep: 1480, ccl: 1510 };
const today = new Date(Date.UTC(2026, 10, 22)); // 22 Nov 2026

describe('catalogue', () => {
  const catalogue = buildCatalogue(today, settings);

  it('lists dollar futures for the next 12 months, expiring the last business day, multiplier 1000 in ARS', () => {
    const dlr = catalogue.instruments.filter((i) => i.kind === 'future' && i.product === 'DLR');
    expect(dlr.map((i) => i.instrumentId.symbol)).toEqual([
      'DLR/NOV26',
      'DLR/DIC26',
      'DLR/ENE27',
      'DLR/FEB27',
      'DLR/MAR27',
      'DLR/ABR27',
      'DLR/MAY27',
      'DLR/JUN27',
      'DLR/JUL27',
      'DLR/AGO27',
      'DLR/SEP27',
      'DLR/OCT27',
    ]);
    expect(dlr[0]).toMatchObject({
      maturityDate: '20261130',
      contractMultiplier: 1000,
      currency: 'ARS',
      cficode: 'FXXXSX',
      segment: { marketSegmentId: 'DDF', marketId: 'ROFX' },
    });
    expect(dlr[11]!.maturityDate).toBe('20271029'); // 30 and 31 Oct 2027 are a weekend
  });

  it('starts the curve at the next month once this month has expired', () => {
    const later = buildCatalogue(new Date(Date.UTC(2026, 9, 31)), settings); // Saturday after the last business day
    expect(later.instruments.find((i) => i.product === 'DLR' && i.kind === 'future')!.instrumentId.symbol).toBe('DLR/NOV26');
  });

  it('lists 500 instruments of every kind', () => {
    const kinds = new Set(catalogue.instruments.map((i) => i.kind));
    expect(catalogue.instruments).toHaveLength(500);
    expect([...kinds].sort()).toEqual(['bond', 'future', 'index', 'option', 'spot', 'spread', 'stock']);
    const symbols = catalogue.instruments.map((i) => i.instrumentId.symbol);
    expect(new Set(symbols).size).toBe(symbols.length);
  });

  it('prices a calendar spread as the far future minus the near one', () => {
    const spread = catalogue.resolve('ROFEX:DLR/DIC26/ENE27')!;
    expect(spread).toMatchObject({ kind: 'spread', legs: ['DLR/DIC26', 'DLR/ENE27'], maturityDate: '20261230' }); // 31 December does not trade
  });

  it('has index, agricultural and option contracts, BYMA lines and indices', () => {
    for (const symbol of [
      'GGAL/DIC26',
      'WTI/ENE27',
      'ORO/FEB27',
      'SOJ.ROS/NOV26 330 C',
      'MERV - XMEV - AAPL - 24hs',
      'RFX20/DIC26',
      'SOJ.ROS/ENE27',
      'MAI.ROS/NOV26',
      'TRI.ROS/MAR27',
      'I.RFX20',
      'I.MERVAL',
      'DLR/SPOT',
      'MERV - XMEV - GGAL - CI',
      'MERV - XMEV - AL30D - 24hs',
      'MERV - XMEV - GD30C - CI',
      'MERV - XMEV - AE38 - 24hs',
    ]) {
      expect(catalogue.resolve(symbol), symbol).not.toBeNull();
    }
    const option = catalogue.instruments.find((i) => i.kind === 'option')!;
    expect(option.instrumentId.symbol).toMatch(/^DLR\/NOV26 \d+ [CP]$/);
    expect(option).toMatchObject({ cficode: expect.stringMatching(/^O[CP]AFXS$/), underlying: 'DLR/NOV26', maturityDate: '20261130' });
  });

  it('resolves the exchange-prefixed forms to the same instrument, ignoring case and spacing', () => {
    const dec = catalogue.resolve('DLR/DIC26');
    expect(catalogue.resolve('ROFEX:DLR/DIC26')).toBe(dec);
    expect(catalogue.resolve('rofex:dlr/dic26')).toBe(dec);
    expect(catalogue.resolve('BYMA:AL30')).toBe(catalogue.resolve('MERV - XMEV - AL30 - 24hs'));
    expect(catalogue.resolve('BYMA:AL30 - CI')).toBe(catalogue.resolve('MERV  -  XMEV - AL30 - CI'));
    expect(catalogue.resolve('DLR/DIC99')).toBeNull();
  });

  it('ranks exact tickers first in a search, then prefixes, then descriptions', () => {
    const results = searchInstruments(catalogue, 'al30').map((i) => i.instrumentId.symbol);
    expect(results[0]).toBe('MERV - XMEV - AL30 - 24hs');
    expect(results).toContain('MERV - XMEV - AL30D - 24hs');
    expect(searchInstruments(catalogue, 'soja')[0]!.product).toBe('SOJ.ROS');
    expect(searchInstruments(catalogue, 'dlr/dic26')[0]!.instrumentId.symbol).toBe('DLR/DIC26');
    expect(searchInstruments(catalogue, '   ')).toEqual([]);
  });
});

describe('the formula presets of the visor (issue 18)', () => {
  const catalogue = buildCatalogue(today, settings);

  it.each(FORMULA_PRESETS.map((preset) => [preset.name, preset.expression] as const))('%s names instruments the catalogue lists', (_name, expression) => {
    const parsed = parseFormula(expression);
    expect(parsed.ok).toBe(true);
    for (const symbol of parsed.symbols) expect(catalogue.resolve(symbol), symbol).not.toBeNull();
    // The board looks up decimals and kinds by the exchange's name of each leg.
    for (const symbol of parsed.symbols) expect(catalogue.resolve(exchangeSymbol(symbol))?.instrumentId.symbol).toBe(exchangeSymbol(symbol));
  });
});
