import { describe, expect, it } from 'vitest';
import { evaluateFormula, hasOperators, parseFormula } from './formula';

function symbolsOf(formula: string) {
  const parsed = parseFormula(formula);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.symbols;
}

describe('parseFormula', () => {
  it('reads the MEP rate of AL30 as a division of two prefixed symbols', () => {
    expect(symbolsOf('BYMA:AL30 / BYMA:AL30D')).toEqual(['BYMA:AL30', 'BYMA:AL30D']);
  });

  it('keeps month codes inside futures symbols and divides elsewhere', () => {
    expect(symbolsOf('ROFEX:DLR/DIC26 / ROFEX:DLR/ENE27')).toEqual(['ROFEX:DLR/DIC26', 'ROFEX:DLR/ENE27']);
    expect(symbolsOf('ROFEX:DLR/DIC26/ROFEX:DLR/ENE27')).toEqual(['ROFEX:DLR/DIC26', 'ROFEX:DLR/ENE27']);
    expect(symbolsOf('ROFEX:DLR/ABR27/MAY27*2')).toEqual(['ROFEX:DLR/ABR27/MAY27']);
    expect(symbolsOf('ROFEX:DLR/DIC26A')).toEqual(['ROFEX:DLR/DIC26A']);
  });

  it('keeps /SPOT inside the spot dollar (the A3500) and divides by what follows it', () => {
    expect(symbolsOf('BYMA:AL30 / BYMA:AL30D / ROFEX:DLR/SPOT')).toEqual(['BYMA:AL30', 'BYMA:AL30D', 'ROFEX:DLR/SPOT']);
    expect(symbolsOf('rofex:dlr/spot/ROFEX:DLR/DIC26 - 1')).toEqual(['ROFEX:DLR/SPOT', 'ROFEX:DLR/DIC26']);
    expect(parseFormula('ROFEX:DLR/SPOTS').ok).toBe(false);
  });

  it("reads BYMA's long form with its spaces stripped", () => {
    expect(symbolsOf('MERV - XMEV - AL30 - CI / MERV - XMEV - AL30D - CI')).toEqual(['MERV - XMEV - AL30 - CI', 'MERV - XMEV - AL30D - CI']);
    expect(symbolsOf('MERV - XMEV - GGAL - 24hs')).toEqual(['MERV - XMEV - GGAL - 24hs']);
  });

  it('lists each symbol once, in order, and upper-cases them', () => {
    expect(symbolsOf('(byma:al30 - BYMA:AL30) * 100 + rofex:dlr/DIC26')).toEqual(['BYMA:AL30', 'ROFEX:DLR/DIC26']);
  });

  it('says why a formula does not parse', () => {
    const cases: [string, RegExp][] = [
      ['', /vacía/],
      ['BYMA:AL30 /', /termina antes de tiempo/],
      ['(BYMA:AL30', /paréntesis/],
      ['BYMA:AL30 ^ 2', /«\^»/],
      ['AL30 / AL30D', /mercado de «AL30»: escriba MERCADO:TICKER/],
      ['DLR/DIC26 - 1', /mercado de «DLR\/DIC26»/],
      ['BYMA:AL30 * x2', /mercado de «x2»/],
      ['BYMA:AL30 * 2 #', /«#»/],
    ];
    for (const [formula, message] of cases) {
      const parsed = parseFormula(formula);
      expect(parsed.ok, formula).toBe(false);
      if (!parsed.ok) expect(parsed.error).toMatch(message);
    }
  });

  it('tells whether a formula has operators', () => {
    expect(hasOperators('BYMA:AL30 / BYMA:AL30D')).toBe(true);
    expect(hasOperators('BYMA:AL30')).toBe(false);
    expect(parseFormula('MERV - XMEV - AL30 - CI').hasOperators).toBe(false);
    expect(parseFormula('MERV - XMEV - AL30 - CI * 2').hasOperators).toBe(true);
  });
});

describe('evaluateFormula', () => {
  const prices: Record<string, number> = { 'BYMA:AL30': 84000, 'BYMA:AL30D': 70, 'ROFEX:DLR/DIC26': 1013 };
  const value = (formula: string) => {
    const parsed = parseFormula(formula);
    if (!parsed.ok) throw new Error(parsed.error);
    return evaluateFormula(parsed.ast, (symbol) => prices[symbol]);
  };

  it('computes with precedence, parentheses and unary minus', () => {
    expect(value('BYMA:AL30 / BYMA:AL30D')).toBe(1200);
    expect(value('1 + 2 * 3')).toBe(7);
    expect(value('(1 + 2) * 3')).toBe(9);
    expect(value('-ROFEX:DLR/DIC26 + 13')).toBe(-1000);
    expect(value('10 - 4 - 3')).toBe(3);
    expect(value('100 / 10 / 5')).toBe(2);
  });

  it('answers null for a missing price or a division by zero', () => {
    expect(value('BYMA:GD30 / BYMA:AL30D')).toBeNull();
    expect(value('BYMA:AL30 / 0')).toBeNull();
  });
});

describe('the spot reference in formulas (issue 18)', () => {
  it('reads ROFEX:DLR/SPOT as one symbol, not a division by SPOT', () => {
    const parsed = parseFormula('(BYMA:AL30/BYMA:AL30D) / ROFEX:DLR/SPOT');
    expect(parsed.ok && parsed.symbols).toEqual(['BYMA:AL30', 'BYMA:AL30D', 'ROFEX:DLR/SPOT']);
    const prices: Record<string, number> = { 'BYMA:AL30': 120000, 'BYMA:AL30D': 100, 'ROFEX:DLR/SPOT': 1000 };
    expect(parsed.ok && evaluateFormula(parsed.ast, (symbol) => prices[symbol])).toBeCloseTo(1.2);
  });

  it('still divides by a symbol whose name starts with SPOT', () => {
    const parsed = parseFormula('ROFEX:DLR/SPOTX');
    expect(parsed.ok).toBe(false);
  });
});
