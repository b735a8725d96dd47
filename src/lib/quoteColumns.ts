// The columns of a quote board (issue 18): their names, the defaults for each kind of
// instrument, and the text and number of each cell computed from a quote, without the DOM
// (rows write the texts straight into text nodes; a header click sorts by the numbers).
import { QUOTE_COLUMNS, type QuoteColumn } from '../protocol/workspace';
import type { InstrumentKind } from '../protocol/market';
import { calendarDaysBetween } from './calendar';
import { marketToday } from './marketTime';
import { formatMarketTime, formatNumber, formatSigned } from './numberFormat';
import type { Quote } from './quote';
import { formatChange, formatUnitValue, type ValueUnit } from './valueChange';

export const EMPTY_CELL = '—';

/** Each column's name, in the settings and as the header's hover text. */
export const QUOTE_COLUMN_LABELS: Record<QuoteColumn, string> = {
  bid_size: 'Cantidad compra',
  bid: 'Compra',
  ask: 'Venta',
  ask_size: 'Cantidad venta',
  last: 'Último',
  change: 'Variación',
  change_pct: 'Variación %',
  open: 'Apertura',
  high: 'Máximo',
  low: 'Mínimo',
  close: 'Cierre anterior',
  settlement: 'Ajuste',
  volume: 'Volumen',
  open_interest: 'Interés abierto',
  expiration: 'Vencimiento',
  days_to_expiry: 'Días al vencimiento',
  time: 'Hora',
};

/** Each column's header, short enough for a narrow column. */
export const QUOTE_COLUMN_HEADERS: Record<QuoteColumn, string> = {
  ...QUOTE_COLUMN_LABELS,
  bid_size: 'Cant. C',
  ask_size: 'Cant. V',
  change: 'Var.',
  change_pct: 'Var. %',
  close: 'Cierre ant.',
  open_interest: 'Int. abierto',
  days_to_expiry: 'Días vto.',
};

/** Columns whose text is a price (the instrument's decimals). */
const PRICE_COLUMNS = new Set<QuoteColumn>(['bid', 'ask', 'last', 'change', 'open', 'high', 'low', 'close', 'settlement']);
/** Columns that do not flash: the previous session's close and settlement, dates and times. */
const STEADY_COLUMNS = new Set<QuoteColumn>(['close', 'settlement', 'expiration', 'days_to_expiry', 'time']);
/** Columns whose cell flashes when it changes: numbers a trader watches, not dates. */
export const FLASHING_COLUMNS = new Set<QuoteColumn>(QUOTE_COLUMNS.filter((column) => !STEADY_COLUMNS.has(column)));

/** What a trader watches first for each kind of instrument; formulas show their value and its change. */
const DEFAULTS: Record<InstrumentKind | 'formula', QuoteColumn[]> = {
  future: ['bid_size', 'bid', 'ask', 'ask_size', 'last', 'change_pct', 'volume', 'open_interest', 'days_to_expiry'],
  option: ['bid', 'ask', 'last', 'change_pct', 'volume', 'open_interest', 'expiration'],
  spread: ['bid', 'ask', 'last', 'change', 'volume'],
  stock: ['bid_size', 'bid', 'ask', 'ask_size', 'last', 'change_pct', 'volume'],
  bond: ['bid_size', 'bid', 'ask', 'ask_size', 'last', 'change_pct', 'volume'],
  index: ['last', 'change', 'change_pct', 'time'],
  spot: ['last', 'change', 'change_pct', 'time'],
  other: ['bid', 'ask', 'last', 'change_pct', 'volume'],
  formula: ['last', 'change', 'change_pct'],
};

/** The default columns of a board holding these kinds: every kind's defaults, in the columns' order. */
export function defaultColumns(kinds: Iterable<InstrumentKind | 'formula'>): QuoteColumn[] {
  const wanted = new Set<QuoteColumn>();
  for (const kind of kinds) for (const column of DEFAULTS[kind]) wanted.add(column);
  if (wanted.size === 0) for (const column of DEFAULTS.other) wanted.add(column);
  return QUOTE_COLUMNS.filter((column) => wanted.has(column));
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The price a quote trades at: the last trade, or an index's value. */
export function lastPrice(quote: Quote | null | undefined): number | null {
  const md = quote?.md;
  const last = md?.LA?.price ?? md?.IV;
  return finite(last) ? last : null;
}

/** The reference a change is measured against: the previous close, or the settlement. */
export function closePrice(quote: Quote | null | undefined): number | null {
  const md = quote?.md;
  const close = md?.CL?.price ?? md?.SE?.price;
  return finite(close) ? close : null;
}

/**
 * The number in a cell (what a header click sorts by), or null when there is none. `unit`:
 * what the row's value is (a formula's; a symbol's is a price): `change_pct` of a rate or a
 * ratio is its change in percentage points, not a percent of itself.
 */
export function cellNumber(column: QuoteColumn, quote: Quote | null | undefined, now: Date, unit: ValueUnit = 'price'): number | null {
  const md = quote?.md;
  if (!md) return null;
  let value: unknown;
  switch (column) {
    case 'bid_size':
      value = md.BI?.[0]?.size;
      break;
    case 'bid':
      value = md.BI?.[0]?.price;
      break;
    case 'ask':
      value = md.OF?.[0]?.price;
      break;
    case 'ask_size':
      value = md.OF?.[0]?.size;
      break;
    case 'last':
      return lastPrice(quote);
    case 'change': {
      const last = lastPrice(quote);
      const close = closePrice(quote);
      // A price closed at zero is no price; a rate can close at 0 %.
      return last == null || close == null || (close === 0 && unit === 'price') ? null : last - close;
    }
    case 'change_pct':
      return formatChange(unit, lastPrice(quote), closePrice(quote))?.amount ?? null;
    case 'open':
      value = md.OP;
      break;
    case 'high':
      value = md.HI;
      break;
    case 'low':
      value = md.LO;
      break;
    case 'close':
      value = md.CL?.price;
      break;
    case 'settlement':
      value = md.SE?.price;
      break;
    case 'volume':
      value = md.TV;
      break;
    case 'open_interest':
      value = md.OI?.size;
      break;
    case 'expiration':
      value = quote?.expiration?.getTime();
      break;
    case 'days_to_expiry':
      // From today where the market is: after 21:00 in Buenos Aires it is already tomorrow in UTC.
      return quote?.expiration ? calendarDaysBetween(marketToday(now.getTime()), quote.expiration) : null;
    case 'time':
      value = md.LA?.date;
      break;
  }
  return finite(value) ? value : null;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A cell's text: prices with the instrument's `decimals`, sizes and volume whole, change
 * with its sign, the expiry as a date, the time of the last trade in market time. A row whose
 * value is a rate (`unit`, a formula's) shows its values in % and its changes in points; a
 * ratio's `change_pct` is its premium's change in points.
 */
export function cellText(column: QuoteColumn, quote: Quote | null | undefined, decimals: number, now: Date, unit: ValueUnit = 'price'): string {
  const value = cellNumber(column, quote, now, unit);
  if (value == null) return EMPTY_CELL;
  if (column === 'change') return unit === 'rate' ? `${formatSigned(value, 2)} pp` : formatSigned(value, decimals);
  if (column === 'change_pct') return unit === 'price' ? `${formatSigned(value, 2)}%` : `${formatSigned(value, 2)} pp`;
  if (PRICE_COLUMNS.has(column)) return formatUnitValue(unit, value, decimals);
  if (column === 'expiration') {
    const date = new Date(value);
    return `${two(date.getUTCDate())}/${two(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
  }
  if (column === 'time') return formatMarketTime(value);
  return formatNumber(value, 0);
}

/** -1, 0 or 1: the sign of the change against the close, for the colour of change cells. */
export function changeDirection(quote: Quote | null | undefined): -1 | 0 | 1 {
  const last = lastPrice(quote);
  const close = closePrice(quote);
  if (last == null || close == null || last === close) return 0;
  return last > close ? 1 : -1;
}

/** Columns that take the colour of the change. */
export const SIGNED_COLUMNS = new Set<QuoteColumn>(['change', 'change_pct']);
