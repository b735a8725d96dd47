import { describe, expect, it } from 'vitest';
import { addMonths, calendarDaysBetween, lastBusinessDay, monthCode, parseIsoDate, parseMonthCode, parseYyyymmdd, weekdaysBetween, yyyymmdd } from './calendar';

describe('month codes', () => {
  it('writes and reads Spanish month codes', () => {
    expect(monthCode({ year: 2026, month: 11 })).toBe('DIC26');
    expect(monthCode({ year: 2027, month: 0 })).toBe('ENE27');
    expect(parseMonthCode('AGO27')).toEqual({ year: 2027, month: 7 });
    expect(parseMonthCode('DEC26')).toBeNull();
    expect(parseMonthCode('DIC2026')).toBeNull();
  });

  it('adds months across years', () => {
    expect(addMonths({ year: 2026, month: 10 }, 3)).toEqual({ year: 2027, month: 1 });
    expect(addMonths({ year: 2026, month: 0 }, -1)).toEqual({ year: 2025, month: 11 });
  });
});

describe('business days', () => {
  it('finds the last weekday of a month', () => {
    expect(yyyymmdd(lastBusinessDay({ year: 2026, month: 11 }))).toBe('20261231'); // Thursday
    expect(yyyymmdd(lastBusinessDay({ year: 2026, month: 9 }))).toBe('20261030'); // 31 Oct is a Saturday
    expect(yyyymmdd(lastBusinessDay({ year: 2027, month: 1 }))).toBe('20270226'); // 28 Feb is a Sunday
  });

  it('counts calendar days and weekdays', () => {
    const friday = parseIsoDate('2026-11-20')!;
    const monday = parseIsoDate('2026-11-23')!;
    expect(calendarDaysBetween(friday, monday)).toBe(3);
    expect(weekdaysBetween(friday, monday)).toBe(1);
    expect(weekdaysBetween(monday, friday)).toBe(0);
    expect(weekdaysBetween(parseIsoDate('2026-11-02')!, parseIsoDate('2026-11-30')!)).toBe(20);
  });

  it('parses only real dates', () => {
    expect(parseYyyymmdd('20260230')).toBeNull();
    expect(parseYyyymmdd('2026-02-28')).toBeNull();
    expect(parseIsoDate('2026-02-28')?.toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(parseIsoDate('hoy')).toBeNull();
  });
});
