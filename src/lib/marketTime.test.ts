import { describe, expect, it } from 'vitest';
import { marketDayStart, marketIsoDate, marketIsoString, marketToday } from './marketTime';

describe('the market clock (Buenos Aires, UTC−3)', () => {
  // 2026-11-28 01:30:05.120 UTC is still the 27th in Buenos Aires.
  const lateFriday = Date.UTC(2026, 10, 28, 1, 30, 5, 120);

  it('writes an instant in ISO at the market offset, and its market day', () => {
    expect(marketIsoString(lateFriday)).toBe('2026-11-27T22:30:05.120-03:00');
    expect(Date.parse(marketIsoString(lateFriday))).toBe(lateFriday);
    expect(marketIsoDate(lateFriday)).toBe('2026-11-27');
    expect(marketIsoDate(Date.UTC(2026, 10, 28, 3))).toBe('2026-11-28');
    expect(marketToday(lateFriday).toISOString()).toBe('2026-11-27T00:00:00.000Z');
  });

  it('starts a market day at 00:00 in Buenos Aires, 03:00 UTC', () => {
    expect(marketDayStart('2026-11-27')).toBe(Date.UTC(2026, 10, 27, 3));
    expect(marketDayStart('2024-02-29')).toBe(Date.UTC(2024, 1, 29, 3));
    expect(marketDayStart('2024-02-30')).toBeNull();
    expect(marketDayStart('20261127')).toBeNull();
    expect(marketDayStart('27/11/2026')).toBeNull();
  });
});
