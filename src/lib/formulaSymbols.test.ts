import { describe, expect, it } from 'vitest';
import { parseFormula } from './formula';
import { catalogueNames, unknownSymbols, unknownSymbolsMessage } from './formulaSymbols';

const names = catalogueNames(
  ['MERV - XMEV - AL30 - 24hs', 'MERV - XMEV - AL30 - CI', 'MERV - XMEV - AL30D - 24hs', 'DLR/DIC26', 'DLR/SPOT', 'I.MERVAL', 'I.RFX20'].map((symbol) => ({
    instrumentId: { symbol },
  })),
);
const symbolsOf = (formula: string) => {
  const parsed = parseFormula(formula);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.symbols;
};

describe('the symbols of a formula the catalogue does not list', () => {
  it('knows symbols by the names formulas give them, as the server resolves them', () => {
    expect(unknownSymbols(symbolsOf('BYMA:AL30 / BYMA:AL30D'), names)).toEqual([]);
    expect(unknownSymbols(symbolsOf('(ROFEX:DLR/DIC26 / rofx:DLR/SPOT - 1) * 100'), names)).toEqual([]);
    expect(unknownSymbols(symbolsOf('MERV - XMEV - AL30 - CI / BYMA:I.MERVAL + ROFEX:I.RFX20'), names)).toEqual([]);
  });

  it('names each symbol it lacks, as the formula writes it', () => {
    expect(unknownSymbols(symbolsOf('BYMA:NOEXISTE / 2'), names)).toEqual(['BYMA:NOEXISTE']);
    expect(unknownSymbols(symbolsOf('BYMA:AL30 / BYMA:AL30C + ROFEX:DLR/ENE27'), names)).toEqual(['BYMA:AL30C', 'ROFEX:DLR/ENE27']);
    // A market the server has no alias for, and a future under BYMA's prefix: not what they name.
    expect(unknownSymbols(symbolsOf('MAE:AL30 + BYMA:DLR/DIC26'), names)).toEqual(['MAE:AL30', 'BYMA:DLR/DIC26']);
    expect(unknownSymbols(symbolsOf('MERV - XMEV - GD30 - 24hs * 2'), names)).toEqual(['MERV - XMEV - GD30 - 24hs']);
  });

  it('says which are wrong, one or several', () => {
    expect(unknownSymbolsMessage([])).toBeNull();
    expect(unknownSymbolsMessage(['BYMA:NOEXISTE'])).toBe(
      '«BYMA:NOEXISTE» no está en el catálogo de instrumentos: revise el nombre (p. ej. BYMA:AL30, ROFEX:DLR/DIC26)',
    );
    expect(unknownSymbolsMessage(['BYMA:A', 'BYMA:B', 'ROFEX:C'])).toBe(
      '«BYMA:A», «BYMA:B» y «ROFEX:C» no están en el catálogo de instrumentos: revise los nombres (p. ej. BYMA:AL30, ROFEX:DLR/DIC26)',
    );
  });
});
