// Dates of the Argentine market: Spanish month codes and business days. Pure, no I/O.
// Business days skip Saturday and Sunday (spec section 9); exchange holidays are not known
// here, so a real calendar (the Primary API's maturityDate) wins wherever one is available.

export const SPANISH_MONTHS = ['ENE', 'FEB', 'MAR', 'ABR', 'MAY', 'JUN', 'JUL', 'AGO', 'SEP', 'OCT', 'NOV', 'DIC'] as const;
/** International futures month letters, January to December (spec section 3). */
export const MONTH_LETTERS = ['F', 'G', 'H', 'J', 'K', 'M', 'N', 'Q', 'U', 'V', 'X', 'Z'] as const;

export interface YearMonth {
  year: number;
  /** 0 = January. */
  month: number;
}

/** `DIC26` for December 2026. */
export function monthCode({ year, month }: YearMonth): string {
  return `${SPANISH_MONTHS[month]}${String(year % 100).padStart(2, '0')}`;
}

/** `DIC26` → {year: 2026, month: 11}; null when it is not a month code. */
export function parseMonthCode(code: string): YearMonth | null {
  const match = /^([A-Z]{3})(\d{2})$/.exec(code);
  if (!match) return null;
  const month = SPANISH_MONTHS.indexOf(match[1] as (typeof SPANISH_MONTHS)[number]);
  return month < 0 ? null : { year: 2000 + Number(match[2]), month };
}

export function addMonths({ year, month }: YearMonth, count: number): YearMonth {
  const index = year * 12 + month + count;
  return { year: Math.floor(index / 12), month: index % 12 };
}

function isWeekend(date: Date): boolean {
  const day = date.getUTCDay();
  return day === 0 || day === 6;
}

/** The last weekday of the month, as a UTC date. */
export function lastBusinessDay({ year, month }: YearMonth): Date {
  const date = new Date(Date.UTC(year, month + 1, 0));
  while (isWeekend(date)) date.setUTCDate(date.getUTCDate() - 1);
  return date;
}

/** `20261231` */
export function yyyymmdd(date: Date): string {
  return `${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}${String(date.getUTCDate()).padStart(2, '0')}`;
}

/** `20261231` → UTC date, or null when it is not a real date. */
export function parseYyyymmdd(text: string): Date | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const date = new Date(Date.UTC(year, month, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month && date.getUTCDate() === day ? date : null;
}

/** `2026-12-31` (or `20261231`) → UTC date, or null. */
export function parseIsoDate(text: string): Date | null {
  const compact = /^\d{4}-\d{2}-\d{2}$/.test(text) ? text.replaceAll('-', '') : text;
  return parseYyyymmdd(compact);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Calendar days from `from` to `to` (UTC dates; negative when `to` is earlier). */
export function calendarDaysBetween(from: Date, to: Date): number {
  const start = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  const end = Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), to.getUTCDate());
  return Math.round((end - start) / DAY_MS);
}

/** Weekdays after `from` up to and including `to` (spec: day counts skip Saturday and Sunday). */
export function weekdaysBetween(from: Date, to: Date): number {
  const days = calendarDaysBetween(from, to);
  if (days <= 0) return 0;
  let count = 0;
  const cursor = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  for (let i = 0; i < days; i++) {
    cursor.setUTCDate(cursor.getUTCDate() + 1);
    if (!isWeekend(cursor)) count += 1;
  }
  return count;
}
