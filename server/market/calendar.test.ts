import { describe, expect, it } from 'vitest';
import { createTradingCalendar, dayOfIso, formatSessionHours, isoOfDay, marketDayOf, parseSessionHours } from './calendar.js';

const calendar = createTradingCalendar();
const day = (iso: string) => dayOfIso(iso)!;
/** Epoch ms of a Buenos Aires wall-clock time. */
const ba = (iso: string, hhmm: string) => Date.parse(`${iso}T${hhmm}:00-03:00`);

describe('trading days', () => {
  it.each([
    ['2026-11-27', true, 'a Friday'],
    ['2026-11-28', false, 'a Saturday'],
    ['2026-11-29', false, 'a Sunday'],
    ['2026-11-23', false, 'Día de la Soberanía Nacional (moved to Monday)'],
    ['2026-11-06', false, 'Día del Empleado Bancario (the exchanges\u2019 own day)'],
    ['2026-12-07', false, 'a día no laborable with tourist purposes'],
    ['2026-12-08', false, 'Inmaculada Concepción'],
    ['2026-12-24', false, 'Nochebuena'],
    ['2026-12-31', false, 'the last day of the year'],
    ['2026-12-30', true, 'a Wednesday'],
    ['2026-02-16', false, 'Carnaval'],
    ['2026-02-17', false, 'Carnaval'],
    ['2026-04-02', false, 'Malvinas and Jueves Santo'],
    ['2026-04-03', false, 'Viernes Santo'],
    ['2026-05-01', false, 'Día del Trabajador'],
    ['2027-01-04', true, 'the first Monday of 2027'],
    ['2025-11-21', false, 'a 2025 bridge holiday'],
  ])('%s trades: %s (%s)', (iso, trades) => {
    expect(calendar.isTradingDay(day(iso))).toBe(trades);
  });

  it('names why a weekday does not trade', () => {
    expect(calendar.closedReason(day('2026-11-06'))).toBe('Día del Empleado Bancario');
    expect(calendar.closedReason(day('2026-11-27'))).toBeNull();
  });

  it('steps over weekends and holidays', () => {
    expect(isoOfDay(calendar.previousTradingDay(day('2026-11-24')))).toBe('2026-11-20');
    expect(isoOfDay(calendar.nextTradingDay(day('2026-11-20')))).toBe('2026-11-24');
    expect(isoOfDay(calendar.tradingDayOnOrBefore(day('2026-11-29')))).toBe('2026-11-27');
    expect(calendar.tradingDaysUpTo(day('2026-11-27'), 5).map(isoOfDay)).toEqual(['2026-11-20', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27']);
    expect(calendar.tradingDaysUpTo(day('2026-11-27'), 5, day('2026-11-25')).map(isoOfDay)).toEqual(['2026-11-25', '2026-11-26', '2026-11-27']);
  });
});

describe('expiries', () => {
  it.each([
    [2026, 11, '2026-12-30', '31 December does not trade'],
    [2024, 11, '2024-12-30', 'DLR of December 2024 expired on the 30th'],
    [2026, 10, '2026-11-30', 'a Monday'],
    [2026, 9, '2026-10-30', '31 October is a Saturday'],
    [2027, 1, '2027-02-26', '28 February is a Sunday'],
  ])('the last trading day of %i-%i is %s (%s)', (year, month, expected) => {
    expect(isoOfDay(calendar.lastTradingDayOfMonth(year, month))).toBe(expected);
  });
});

describe('sessions', () => {
  it('rolls to a new session when it opens, not at midnight', () => {
    // Monday 30 November, before ROFEX opens: Friday's session is the current one, closed.
    expect(calendar.sessionAt('rofex', ba('2026-11-30', '09:59'))).toMatchObject({ day: day('2026-11-27'), open: false });
    expect(calendar.sessionAt('rofex', ba('2026-11-30', '10:00'))).toMatchObject({ day: day('2026-11-30'), open: true });
    // BYMA opens an hour later.
    expect(calendar.sessionAt('byma', ba('2026-11-30', '10:30'))).toMatchObject({ day: day('2026-11-27'), open: false });
    expect(calendar.sessionAt('byma', ba('2026-11-30', '16:59'))).toMatchObject({ day: day('2026-11-30'), open: true });
    expect(calendar.sessionAt('byma', ba('2026-11-30', '17:00'))).toMatchObject({ day: day('2026-11-30'), open: false });
    // The A3500 is fixed at 15:00.
    expect(calendar.sessionAt('a3500', ba('2026-11-30', '15:30'))).toMatchObject({ day: day('2026-11-30'), open: false });
  });

  it('keeps the last session over a weekend and a holiday, and knows the next opening', () => {
    const saturday = calendar.sessionAt('rofex', ba('2026-11-28', '12:00'));
    expect(saturday).toMatchObject({ day: day('2026-11-27'), open: false });
    expect(saturday.nextOpensAt).toBe(ba('2026-11-30', '10:00'));
    const holiday = calendar.sessionAt('byma', ba('2026-11-23', '12:00'));
    expect(holiday).toMatchObject({ day: day('2026-11-20'), open: false });
    expect(holiday.nextOpensAt).toBe(ba('2026-11-24', '11:00'));
  });

  it('moves a clock back to an hour of the last trading day, never ahead', () => {
    expect(ba('2026-11-28', '22:00') + calendar.shiftTo(13 * 60, ba('2026-11-28', '22:00'))).toBe(ba('2026-11-27', '13:00'));
    expect(ba('2026-11-27', '14:00') + calendar.shiftTo(13 * 60, ba('2026-11-27', '14:00'))).toBe(ba('2026-11-27', '13:00'));
    expect(ba('2026-11-27', '12:00') + calendar.shiftTo(13 * 60, ba('2026-11-27', '12:00'))).toBe(ba('2026-11-26', '13:00'));
    expect(ba('2026-11-24', '09:00') + calendar.shiftTo(13 * 60, ba('2026-11-24', '09:00'))).toBe(ba('2026-11-20', '13:00'));
  });

  it('reads and writes session hours', () => {
    expect(parseSessionHours('10:00-17:00')).toEqual({ open: 600, close: 1020 });
    expect(parseSessionHours(' 9:30 - 16:45 ')).toEqual({ open: 570, close: 1005 });
    expect(parseSessionHours('17:00-10:00')).toBeNull();
    expect(parseSessionHours('25:00-26:00')).toBeNull();
    expect(parseSessionHours('10-17')).toBeNull();
    expect(formatSessionHours({ open: 570, close: 1005 })).toBe('09:30-16:45');
  });

  it('counts days where the market is', () => {
    expect(isoOfDay(marketDayOf(Date.UTC(2026, 10, 28, 2, 59)))).toBe('2026-11-27');
    expect(isoOfDay(marketDayOf(Date.UTC(2026, 10, 28, 3, 0)))).toBe('2026-11-28');
    expect(dayOfIso('2026-02-30')).toBeNull();
    expect(dayOfIso('20261127')).toBe(day('2026-11-27'));
  });
});
