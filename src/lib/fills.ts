// A broker's fills as a trader reads them (issue 19), pure: newest first, and Primary's
// transactTime (`20261122-13:11:04.214-0300`) as a date and time.
import type { Fill } from '../protocol/broker';
import { formatMarketDate, formatMarketTime } from './numberFormat';

const TRANSACT_TIME = /^(\d{4})(\d{2})(\d{2})-(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(?:([+-])(\d{2}):?(\d{2}))?$/;

/** Epoch ms of a Primary transactTime (no offset: Buenos Aires, UTC−3), or null when it does not parse. */
export function transactTimeMs(text: string): number | null {
  const match = TRANSACT_TIME.exec(text.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second, millis = '0', sign = '-', offsetHours = '03', offsetMinutes = '00'] = match;
  const utc = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), Number(millis.padEnd(3, '0')));
  const offset = (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000 * (sign === '-' ? -1 : 1);
  const ms = utc - offset;
  return Number.isFinite(ms) ? ms : null;
}

/** `22/11 13:11:04` in market time, whatever offset the broker wrote; the text itself when it does not parse. */
export function fillTimeText(text: string): string {
  const ms = transactTimeMs(text);
  return ms == null ? text : `${formatMarketDate(ms).slice(0, 5)} ${formatMarketTime(ms)}`;
}

/** The fills newest first: by time, and the later listed first among equal (or unreadable) times. */
export function newestFirst(fills: readonly Fill[]): Fill[] {
  return fills
    .map((fill, index) => ({ fill, index, time: transactTimeMs(fill.transactTime) ?? Number.NEGATIVE_INFINITY }))
    .sort((a, b) => b.time - a.time || b.index - a.index)
    .map(({ fill }) => fill);
}
