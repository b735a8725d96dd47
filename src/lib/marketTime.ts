// The market's clock: every date and time the app shows, and the days the operator log is
// filtered by, are Buenos Aires' (America/Argentina/Buenos_Aires), whatever the zone of the
// browser or of the server. Pure offset arithmetic, no time zone data: Buenos Aires is UTC−3
// all year (no daylight saving since 2009). The formatters are in numberFormat.ts.
import { parseIsoDate } from './calendar';

/** Buenos Aires' offset from UTC, in ms (the market's clock is UTC minus this). */
export const MARKET_OFFSET_MS = 3 * 60 * 60 * 1000;
/** The same offset as ISO 8601 writes it. */
export const MARKET_UTC_OFFSET = '-03:00';
/** A market day is always 24 hours (no daylight saving). */
export const MARKET_DAY_MS = 24 * 60 * 60 * 1000;

/** `2026-11-27T14:02:05.123-03:00`: an epoch-ms instant in ISO 8601 at the market's offset. */
export function marketIsoString(epochMs: number): string {
  return new Date(epochMs - MARKET_OFFSET_MS).toISOString().replace('Z', MARKET_UTC_OFFSET);
}

/** `2026-11-27`: the market's day of an epoch-ms instant. */
export function marketIsoDate(epochMs: number): string {
  return marketIsoString(epochMs).slice(0, 10);
}

/** The market's day of an epoch-ms instant as a UTC date (its 00:00 UTC), for calendar arithmetic. */
export function marketToday(epochMs: number): Date {
  return new Date(Date.parse(`${marketIsoDate(epochMs)}T00:00:00Z`));
}

/** Epoch ms at which a market day (`2026-11-27`) starts, 00:00 in Buenos Aires; null when it is not a real date. */
export function marketDayStart(isoDate: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate)) return null;
  const date = parseIsoDate(isoDate);
  return date == null ? null : date.getTime() + MARKET_OFFSET_MS;
}
