// What is wrong with a named formula typed in a form, said before anything is saved (both
// sections' forms; src/lib/formula.ts parses). Pure: tested without a DOM.
import { parseFormula } from '../../../../lib/formula';
import type { NamedFormula } from '../../../../protocol/workspace';

export const NAME_REQUIRED = 'El nombre no puede estar vacío';
export const NAME_TAKEN = 'Ya hay una fórmula con ese nombre';
export const EXPRESSION_REQUIRED = 'La fórmula no puede estar vacía';

/** What is wrong with a formula about to be saved, or null. `taken`: names already used. */
export function formulaFormProblem(
  formula: Pick<NamedFormula, 'name' | 'expression'>,
  taken: readonly string[],
): { field: 'name' | 'expression'; message: string } | null {
  const name = formula.name.trim();
  if (!name) return { field: 'name', message: NAME_REQUIRED };
  if (name.length > 100) return { field: 'name', message: 'El nombre no puede superar 100 caracteres' };
  if (taken.some((other) => other.toLowerCase() === name.toLowerCase())) return { field: 'name', message: NAME_TAKEN };
  const expression = formula.expression.trim();
  if (!expression) return { field: 'expression', message: EXPRESSION_REQUIRED };
  if (expression.length > 500) return { field: 'expression', message: 'La fórmula no puede superar 500 caracteres' };
  const parsed = parseFormula(expression);
  return parsed.ok ? null : { field: 'expression', message: parsed.error };
}

/**
 * The symbols of a formula that must be checked against the catalogue: all of a new one's; of
 * an edited one, those its old expression did not name, so a formula saved over a symbol the
 * catalogue no longer lists (an expired month) can still be renamed or given its unit.
 */
export function symbolsToCheck(expression: string, before?: string): string[] {
  const parsed = parseFormula(expression);
  const old = before == null ? [] : parseFormula(before).symbols;
  return parsed.symbols.filter((symbol) => !old.includes(symbol));
}
