import { describe, expect, it } from 'vitest';
import { Catalogue } from '../catalogue.js';
import { instrumentKindOfCfi } from './cfi.js';

describe('instrumentKindOfCfi', () => {
  it('classifies by the ISO 10962 category letter', () => {
    expect(instrumentKindOfCfi('FXXXSX')).toBe('future');
    expect(instrumentKindOfCfi('FFICSX')).toBe('future');
    expect(instrumentKindOfCfi('OCAFXS')).toBe('option');
    expect(instrumentKindOfCfi('OPAFXS')).toBe('option');
    expect(instrumentKindOfCfi('ESXXXX')).toBe('stock');
    expect(instrumentKindOfCfi('DBXXXX')).toBe('bond');
    expect(instrumentKindOfCfi('KFXXXX')).toBe('spread');
  });

  it("keeps the exchange's own groups: FM spreads and MRI indices", () => {
    expect(instrumentKindOfCfi('FMXXXX')).toBe('spread');
    expect(instrumentKindOfCfi('MRIXXX')).toBe('index');
  });

  it('reads lower case and surrounding blanks', () => {
    expect(instrumentKindOfCfi(' fxxxsx ')).toBe('future');
    expect(instrumentKindOfCfi('dbxxxx')).toBe('bond');
  });

  it("files an unknown, missing or empty code as 'other', not as a future", () => {
    for (const code of ['', '   ', null, undefined, 'XXXXXX', 'MRCXXX', 'JFXXXX', 'SRXXXX', '?']) {
      expect(instrumentKindOfCfi(code), String(code)).toBe('other');
    }
  });
});

describe('Catalogue.addExchangeInstrument', () => {
  const detail = (symbol: string, cficode?: string) => ({ instrumentId: { marketId: 'ROFX', symbol }, ...(cficode == null ? {} : { cficode }) });

  it('files each listed instrument by its CFI code', () => {
    const catalogue = new Catalogue();
    catalogue.addExchangeInstrument(detail('ZZZ/ENE30', 'FXXXSX'));
    catalogue.addExchangeInstrument(detail('ZZZ/ENE30 100 C', 'OCAFXS'));
    catalogue.addExchangeInstrument(detail('MYSTERY', 'XXXXXX'));
    catalogue.addExchangeInstrument(detail('NOCODE'));
    expect(catalogue.resolve('ZZZ/ENE30')?.kind).toBe('future');
    expect(catalogue.resolve('ZZZ/ENE30 100 C')?.kind).toBe('option');
    expect(catalogue.resolve('MYSTERY')).toMatchObject({ kind: 'other', cficode: 'XXXXXX', feed: 'rofex' });
    expect(catalogue.resolve('NOCODE')).toMatchObject({ kind: 'other', cficode: '' });
  });
});
