// How the curve's table writes its figures.
import { formatNumber } from '../../../../lib/numberFormat';
import { EMPTY_CELL } from '../../../../lib/quoteColumns';

/** A fraction as a percentage with two decimals: 0.5272 → `52,72 %`. */
export function percent(fraction: number | null | undefined): string {
  return fraction == null || !Number.isFinite(fraction) ? EMPTY_CELL : `${formatNumber(fraction * 100, 2)} %`;
}

/** 31/12/2026 */
export function formatExpiry(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getUTCDate())}/${two(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
}
