// The offline banner's time is market time, as the stale quotes' (issue 21): the same instant
// reads the same HH:MM in the banner and in a stale row's "último HH:MM:SS", whatever zone the
// browser's clock is set to.
import { afterEach, describe, expect, it } from 'vitest';
import { formatMarketTime } from '../lib/numberFormat';
import { OFFLINE_TEXTS } from './offlineTexts';

const zoneBefore = process.env.TZ;
afterEach(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

// 26 Nov 2026, 12:34:56 UTC: 09:34:56 in Buenos Aires (UTC-3 all year).
const AT = Date.UTC(2026, 10, 26, 12, 34, 56);

describe('the offline banner’s time', () => {
  it.each([
    ['Asia/Tokyo', 21],
    ['Europe/Madrid', 13],
    ['America/Los_Angeles', 4],
  ])('is Buenos Aires time, as the stale quotes’, with the browser in %s', (zone, browserHour) => {
    process.env.TZ = zone;
    // The browser's clock does read another hour: the banner must not take it.
    expect(new Date(AT).getHours()).toBe(browserHour);
    expect(OFFLINE_TEXTS.since(AT)).toBe('Sin conexión desde 09:34');
    // The quote rows' stale note writes the same instant with the same formatter.
    expect(formatMarketTime(AT)).toBe('09:34:56');
    expect(OFFLINE_TEXTS.since(AT)).toBe(`Sin conexión desde ${formatMarketTime(AT).slice(0, 5)}`);
  });

  it('says it does not know since when, when it does not', () => {
    expect(OFFLINE_TEXTS.since(null)).toBe('Sin conexión desde —');
  });
});
