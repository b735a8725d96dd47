import { describe, expect, it } from 'vitest';
import { EXPRESSION_REQUIRED, NAME_REQUIRED, NAME_TAKEN, formulaFormProblem, symbolsToCheck } from './formulaInput';

describe('a formula typed in a form', () => {
  it('accepts a named formula that parses', () => {
    expect(formulaFormProblem({ name: 'MEP', expression: 'BYMA:AL30 / BYMA:AL30D' }, ['CCL'])).toBeNull();
  });

  it.each([
    [{ name: ' ', expression: 'BYMA:AL30' }, [], 'name', NAME_REQUIRED],
    [{ name: 'mep', expression: 'BYMA:AL30' }, ['MEP'], 'name', NAME_TAKEN],
    [{ name: 'x'.repeat(101), expression: 'BYMA:AL30' }, [], 'name', 'El nombre no puede superar 100 caracteres'],
    [{ name: 'MEP', expression: '' }, [], 'expression', EXPRESSION_REQUIRED],
    [
      { name: 'MEP', expression: 'BYMA:AL30 / AL30D' },
      [],
      'expression',
      'Falta el mercado de «AL30D»: escriba MERCADO:TICKER (BYMA:AL30, ROFEX:DLR/DIC26) (posición 13)',
    ],
    [{ name: 'MEP', expression: '(BYMA:AL30' }, [], 'expression', 'Falta cerrar un paréntesis (posición 11)'],
  ])('says what is wrong with %j in place', (formula, taken, field, message) => {
    expect(formulaFormProblem(formula, taken)).toEqual({ field, message });
  });
});

describe('the symbols a form checks against the catalogue', () => {
  it("are all of a new formula's", () => {
    expect(symbolsToCheck('BYMA:NOEXISTE / 2')).toEqual(['BYMA:NOEXISTE']);
    expect(symbolsToCheck('BYMA:AL30 / BYMA:AL30D')).toEqual(['BYMA:AL30', 'BYMA:AL30D']);
  });

  it('of an edited one, only those it did not name before: a symbol saved earlier that the catalogue lost does not block a rename', () => {
    expect(symbolsToCheck('(ROFEX:DLR/NOV26 / ROFEX:DLR/SPOT - 1) * 100', '(ROFEX:DLR/NOV26 / ROFEX:DLR/SPOT - 1) * 100')).toEqual([]);
    expect(symbolsToCheck('ROFEX:DLR/DIC26 / ROFEX:DLR/SPOT', 'ROFEX:DLR/NOV26 / ROFEX:DLR/SPOT')).toEqual(['ROFEX:DLR/DIC26']);
  });
});
