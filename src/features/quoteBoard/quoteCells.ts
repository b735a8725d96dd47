// What a quote board row shows of a quote: the texts of its cells, computed without the DOM
// so rows can write them straight into text nodes (and tests can check them).
import type { Quote } from '../../lib/quote';

export const EMPTY_CELL = '—';

export interface QuoteCells {
  bid: string;
  offer: string;
  last: string;
  /** Change of the last price against the previous close, in percent. */
  change: string;
  /** -1, 0 or 1: the sign of the change, for its colour. */
  direction: -1 | 0 | 1;
  volume: string;
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * Argentine number format ('1.234.567,89'): dots between thousands, a decimal comma. Written
 * out because a board formats thousands of numbers a second, and Intl.NumberFormat costs
 * several times more per call (the tests pin the same output).
 */
export function formatNumber(value: number, decimals: number): string {
  const fixed = Math.abs(value).toFixed(decimals);
  const point = decimals > 0 ? fixed.length - decimals - 1 : fixed.length;
  let whole = fixed.slice(0, point);
  for (let at = whole.length - 3; at > 0; at -= 3) whole = `${whole.slice(0, at)}.${whole.slice(at)}`;
  const text = decimals > 0 ? `${whole},${fixed.slice(point + 1)}` : whole;
  return value < 0 && Number(fixed) !== 0 ? `-${text}` : text;
}

const formatPrice = (value: unknown) => (finite(value) ? formatNumber(value, 2) : EMPTY_CELL);

export function quoteCells(quote: Quote | null | undefined): QuoteCells {
  const md = quote?.md;
  const last = md?.LA?.price;
  const close = md?.CL?.price ?? md?.SE?.price;
  let change = EMPTY_CELL;
  let direction: QuoteCells['direction'] = 0;
  if (finite(last) && finite(close) && close !== 0) {
    const ratio = (last - close) / close;
    const text = formatNumber(ratio * 100, 2);
    change = `${ratio > 0 && text !== '0,00' ? '+' : ''}${text}%`;
    direction = ratio > 0 ? 1 : ratio < 0 ? -1 : 0;
  }
  return {
    bid: formatPrice(md?.BI?.[0]?.price),
    offer: formatPrice(md?.OF?.[0]?.price),
    last: formatPrice(last),
    change,
    direction,
    volume: finite(md?.TV) ? formatNumber(md.TV, 0) : EMPTY_CELL,
  };
}
