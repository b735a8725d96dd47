import { describe, expect, it } from 'vitest';
import { FORMULA_PRESETS } from './formulaPresets';
import { compileFormula, formulaProblem, formulaQuote, formulaValue } from './formulaValue';
import type { Quote } from './quote';

const priced = (last: number | null, close: number | null): Quote => ({
  md: { ...(last != null ? { LA: { price: last, size: 1, date: 1000 } } : {}), ...(close != null ? { CL: { price: close } } : {}) },
});

describe('formula values', () => {
  const mep = compileFormula('BYMA:AL30 / BYMA:AL30D');
  if (!mep.ok) throw new Error(mep.error);

  it('evaluates at the last prices and at the previous closes', () => {
    const quotes: Record<string, Quote> = { 'BYMA:AL30': priced(90000, 88000), 'BYMA:AL30D': priced(60, 59) };
    const result = formulaValue(mep, (symbol) => quotes[symbol]);
    expect(result.value).toBe(1500);
    expect(result.close).toBeCloseTo(88000 / 59);
    expect(formulaProblem(result)).toBeNull();
    expect(formulaQuote(result).md.LA?.price).toBe(1500);
  });

  it('names the legs without a price instead of a value', () => {
    const quotes: Record<string, Quote> = { 'BYMA:AL30': priced(90000, null) };
    const result = formulaValue(mep, (symbol) => quotes[symbol]);
    expect(result.value).toBeNull();
    expect(result.missing).toEqual(['BYMA:AL30D']);
    expect(formulaProblem(result)).toBe('Sin precio de AL30D');
    expect(formulaQuote(result).md.LA).toBeUndefined();
  });

  it('says a division by zero instead of Infinity', () => {
    const result = formulaValue(mep, (symbol) => priced(symbol === 'BYMA:AL30D' ? 0 : 5, null));
    expect(formulaProblem(result)).toBe('Sin valor: división por cero');
  });

  it('compiles every preset', () => {
    for (const preset of FORMULA_PRESETS) expect(compileFormula(preset.expression).ok, preset.name).toBe(true);
  });
});
