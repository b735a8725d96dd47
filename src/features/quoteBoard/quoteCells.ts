// What a quote board row shows of a quote: the texts of its cells, computed without the DOM
// so rows can write them straight into text nodes (and tests can check them).
import { formatNumber } from '../../lib/numberFormat';
import type { Quote } from '../../lib/quote';

export { formatNumber };

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
