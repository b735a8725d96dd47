// The change of a value since a base (the previous close), read by what the value is
// (reference/argentine-market.md): a price moves in percent of itself; a rate (written in
// percent) and a ratio's premium over 1 move in percentage points (1 pp = 100 bp), never in
// percent of themselves: a devaluation from 0,10 % to 0,01 % is −0,09 pp, not −90 %. The
// formula cards, the quote board's formula rows and the curve read it here (the chart's
// legend too). Pure, no I/O.
import type { FormulaUnit } from '../protocol/workspace';
import { DEFAULT_DECIMALS, formatNumber, formatSigned } from './numberFormat';

export type ValueUnit = FormulaUnit;

/** How a change is measured: percent of the base, or percentage points. */
export type ChangeMeasure = '%' | 'pp';

export interface ValueChange {
  /** value − base, in the value's own unit (pesos for a price, percent for a rate). */
  delta: number;
  /** The change as it reads: percent of the base for a price; percentage points for a rate or a ratio. */
  amount: number;
  measure: ChangeMeasure;
  /** The same in basis points (pp × 100), for a rate or a ratio; null for a price. */
  basisPoints: number | null;
  /** `+1,20 %` (a price), `+0,35 pp` (a rate, a ratio). */
  text: string;
}

/** Each unit's name, where a formula is made and shown. */
export const UNIT_LABELS: Record<ValueUnit, string> = { price: 'Precio', ratio: 'Cociente', rate: 'Tasa (%)' };

/** What choosing each unit means, in the formula form. */
export const UNIT_HINTS: Record<ValueUnit, string> = {
  price: 'Un precio (p. ej. el dólar MEP): su variación, en % de sí mismo.',
  ratio: 'Un cociente de dos precios (p. ej. el canje): su prima sobre 1 varía en puntos porcentuales.',
  rate: 'Una tasa o un porcentaje, con el valor ya en % (p. ej. (A / B - 1) * 100): varía en puntos porcentuales.',
};

const finite = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * The change from `base` to `value` for a value of `unit`, or null when it cannot be said:
 * either is missing, or a price's base is not positive (a percent of zero or of a negative
 * price says nothing). `decimals`: of the amount in the text.
 */
export function formatChange(unit: ValueUnit, value: number | null | undefined, base: number | null | undefined, decimals = 2): ValueChange | null {
  if (!finite(value) || !finite(base)) return null;
  const delta = value - base;
  if (unit === 'price') {
    if (base <= 0) return null;
    const amount = (delta / base) * 100;
    return { delta, amount, measure: '%', basisPoints: null, text: `${formatSigned(amount, decimals)} %` };
  }
  // A rate is already in percent: its delta is the points. A ratio of 1,0523 is a premium of 5,23 %.
  const amount = unit === 'rate' ? delta : delta * 100;
  return { delta, amount, measure: 'pp', basisPoints: amount * 100, text: `${formatSigned(amount, decimals)} pp` };
}

/** A value as its unit reads: a rate with two decimals and `%`, a price or ratio with `decimals`. */
export function formatUnitValue(unit: ValueUnit, value: number, decimals: number = DEFAULT_DECIMALS): string {
  return unit === 'rate' ? `${formatNumber(value, 2)} %` : formatNumber(value, decimals);
}

/** The change's longer reading, for a hover text: `+0,35 pp (35 pb)`; a price's as its text. */
export function describeChange(change: ValueChange): string {
  return change.basisPoints == null ? change.text : `${change.text} (${formatSigned(change.basisPoints, 0)} pb)`;
}
