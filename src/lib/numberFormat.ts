// Numbers as an Argentine trader reads them ('1.234.567,89'): dots between thousands, a
// decimal comma. Written out because a board formats thousands of numbers a second, and
// Intl.NumberFormat costs several times more per call (the tests pin the same output).
// Dates and times are the market's (Buenos Aires; marketTime.ts), whatever the browser's zone.
import { MARKET_OFFSET_MS } from './marketTime';

/** Spec section 9: the number formatter's precision when nothing better is known. */
export const DEFAULT_DECIMALS = 4;

export function formatNumber(value: number, decimals: number = DEFAULT_DECIMALS): string {
  const fixed = Math.abs(value).toFixed(decimals);
  const point = decimals > 0 ? fixed.length - decimals - 1 : fixed.length;
  let whole = fixed.slice(0, point);
  for (let at = whole.length - 3; at > 0; at -= 3) whole = `${whole.slice(0, at)}.${whole.slice(at)}`;
  const text = decimals > 0 ? `${whole},${fixed.slice(point + 1)}` : whole;
  return value < 0 && Number(fixed) !== 0 ? `-${text}` : text;
}

/** A signed change: '+1,25', '-0,50', '0,00'. */
export function formatSigned(value: number, decimals: number): string {
  const text = formatNumber(value, decimals);
  return value > 0 && /[1-9]/.test(text) ? `+${text}` : text;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** Hours and minutes (and seconds) of an epoch-ms instant in Buenos Aires time, where the market is. */
export function formatMarketTime(epochMs: number, withSeconds = true): string {
  const local = new Date(epochMs - MARKET_OFFSET_MS);
  const time = `${twoDigits(local.getUTCHours())}:${twoDigits(local.getUTCMinutes())}`;
  return withSeconds ? `${time}:${twoDigits(local.getUTCSeconds())}` : time;
}

/** `27/11/2026`: the date of an epoch-ms instant in Buenos Aires, the market's day (not the browser's). */
export function formatMarketDate(epochMs: number): string {
  const local = new Date(epochMs - MARKET_OFFSET_MS);
  return `${twoDigits(local.getUTCDate())}/${twoDigits(local.getUTCMonth() + 1)}/${local.getUTCFullYear()}`;
}

/** `27/11/2026 14:02`: date and time of an epoch-ms instant in Buenos Aires. */
export function formatMarketDateTime(epochMs: number, withSeconds = false): string {
  return `${formatMarketDate(epochMs)} ${formatMarketTime(epochMs, withSeconds)}`;
}

/** `20261130` (an exchange date, YYYYMMDD) → `30/11/2026`; the text itself when it is not one. */
export function formatExchangeDate(yyyymmdd: string): string {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(yyyymmdd);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : yyyymmdd;
}

/** A number with the decimals it has, up to 8 (a contract size, a tick): `1.000`, `0,5`, `0,0001`. */
export function formatExact(value: number): string {
  const decimals =
    value
      .toFixed(8)
      .replace(/\.?0+$/, '')
      .split('.')[1]?.length ?? 0;
  return formatNumber(value, decimals);
}
