// The live value of a formula from the quotes of its legs (issue 18): each leg at its last
// price (an index at its value), the value at the legs' previous closes to measure the
// change, and the legs that have no price yet, named, so the screen never shows NaN or 0.
import { evaluateFormula, parseFormula, type FormulaNode } from './formula';
import { closePrice, lastPrice } from './quoteColumns';
import type { Quote } from './quote';
import { displaySymbol } from './symbolNames';

export type CompiledFormula = { ok: true; ast: FormulaNode; symbols: string[] } | { ok: false; error: string; symbols: string[] };

/** Parses once (a formula is evaluated on every tick of any of its legs). */
export function compileFormula(expression: string): CompiledFormula {
  const parsed = parseFormula(expression);
  return parsed.ok ? { ok: true, ast: parsed.ast, symbols: parsed.symbols } : { ok: false, error: parsed.error, symbols: parsed.symbols };
}

export interface FormulaValue {
  /** Null when a leg has no price or a division is by zero. */
  value: number | null;
  /** The value at the legs' previous closes, or null. */
  close: number | null;
  /** Legs without a price yet. */
  missing: string[];
  /** The latest trade time among the legs (epoch ms), or null. */
  time: number | null;
}

export function formulaValue(formula: Extract<CompiledFormula, { ok: true }>, quoteOf: (symbol: string) => Quote | null | undefined): FormulaValue {
  const missing: string[] = [];
  let time: number | null = null;
  for (const symbol of formula.symbols) {
    const quote = quoteOf(symbol);
    if (lastPrice(quote) == null) missing.push(symbol);
    const at = quote?.md.LA?.date;
    if (typeof at === 'number' && (time == null || at > time)) time = at;
  }
  const value = missing.length > 0 ? null : evaluateFormula(formula.ast, (symbol) => lastPrice(quoteOf(symbol)));
  const close = evaluateFormula(formula.ast, (symbol) => closePrice(quoteOf(symbol)));
  return { value: value != null && Number.isFinite(value) ? value : null, close: close != null && Number.isFinite(close) ? close : null, missing, time };
}

/** What a formula without a value says: "Sin precio de AL30D" (or the division by zero). */
export function formulaProblem(result: FormulaValue): string | null {
  if (result.missing.length > 0) return `Sin precio de ${result.missing.map(displaySymbol).join(', ')}`;
  if (result.value == null) return 'Sin valor: división por cero';
  return null;
}

/** A formula's value as a quote (last at its value, close at its close value), so board cells read it like a symbol. */
export function formulaQuote(result: FormulaValue): Quote {
  return {
    md: {
      ...(result.value != null ? { LA: { price: result.value, size: 0, date: result.time ?? Number.NaN } } : {}),
      ...(result.close != null ? { CL: { price: result.close } } : {}),
    },
  };
}
