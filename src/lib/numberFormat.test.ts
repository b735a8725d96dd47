import { describe, expect, it } from 'vitest';
import { formatExact, formatExchangeDate, formatMarketDate, formatMarketDateTime, formatMarketTime } from './numberFormat';

describe('market dates', () => {
  // 2026-11-28 01:30 UTC is still the 27th in Buenos Aires (UTC−3).
  const lateFriday = Date.UTC(2026, 10, 28, 1, 30, 5);

  it('writes the day where the market is, not where the browser is', () => {
    expect(formatMarketDate(lateFriday)).toBe('27/11/2026');
    expect(formatMarketDate(Date.UTC(2026, 10, 28, 3, 0))).toBe('28/11/2026');
  });

  it('writes date and time in market time', () => {
    expect(formatMarketTime(lateFriday)).toBe('22:30:05');
    expect(formatMarketDateTime(lateFriday)).toBe('27/11/2026 22:30');
    expect(formatMarketDateTime(lateFriday, true)).toBe('27/11/2026 22:30:05');
  });

  it('writes an exchange date (YYYYMMDD) as day/month/year', () => {
    expect(formatExchangeDate('20261130')).toBe('30/11/2026');
    expect(formatExchangeDate('soon')).toBe('soon');
  });
});

describe('formatExact', () => {
  it.each([
    [1000, '1.000'],
    [0.5, '0,5'],
    [0.0001, '0,0001'],
    [0.05, '0,05'],
    [25, '25'],
    [1234.25, '1.234,25'],
    [0.1 + 0.2, '0,3'],
  ])('%s → %s', (value, text) => {
    expect(formatExact(value)).toBe(text);
  });
});
