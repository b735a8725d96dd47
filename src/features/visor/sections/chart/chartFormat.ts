// How the chart section writes its numbers and times (es-AR, market time).
import type { ChartSeriesSpec } from '../../../../lib/candles';
import { formatNumber, formatSigned } from '../../../../lib/numberFormat';
import { displaySymbol } from '../../../../lib/symbolNames';
import { formatChange, type ValueUnit } from '../../../../lib/valueChange';

/** How a series is named on the legend and in the settings. */
export function seriesLabel(spec: ChartSeriesSpec): string {
  return spec.kind === 'symbol' ? displaySymbol(spec.symbol) : spec.expression;
}

/** Decimals by magnitude: 1.234,56 for prices, 0,8765 for ratios. */
function decimalsOf(value: number): number {
  return Math.abs(value) >= 1 ? 2 : 4;
}

export function formatLegendValue(value: number): string {
  return formatNumber(value, decimalsOf(value));
}

/**
 * '+12,50 (+1,05%)', with the decimals of the value it changed (blank when there is no change to
 * show); a rate or a ratio (a formula series that is one) in points: '+0,35 pp'.
 */
export function formatLegendChange(value: number, change: number | null, changePct: number | null, unit: ValueUnit = 'price'): string {
  if (change == null) return ' ';
  if (unit !== 'price') return formatChange(unit, value, value - change)?.text ?? ' ';
  const pct = changePct == null ? '' : ` (${formatSigned(changePct, 2)}%)`;
  return `${formatSigned(change, decimalsOf(value))}${pct}`;
}

/** A time of the chart (market seconds): 26/11/2026 14:35, or the day alone for daily candles. */
export function formatChartTime(time: number, withClock: boolean): string {
  const date = new Date(time * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${two(date.getUTCDate())}/${two(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
  return withClock ? `${day} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}` : day;
}
