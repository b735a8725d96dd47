import { describe, expect, it } from 'vitest';
import { parseIsoDate } from './calendar';
import { curvePrice, daysToExpiry, forwardRate, impliedRates, YEAR_BASE } from './impliedRates';

const round = (fraction: number | null | undefined, decimals = 2) => (fraction == null ? null : Number((fraction * 100).toFixed(decimals)));

describe('implied rates of a future', () => {
  it('matches the worked check of reference/argentine-market.md (S 999.9999, F 1013, d 9)', () => {
    const rates = impliedRates(999.9999, 1013, 9)!;
    expect(round(rates.devaluation)).toBe(1.3);
    expect(round(rates.tna)).toBe(52.72);
    expect(round(rates.tea)).toBe(68.85);
    expect(rates.basis).toBeCloseTo(13.0001, 6);
  });

  it('annualizes weekdays over a 252-day year', () => {
    const rates = impliedRates(1000, 1010, 10, 'weekdays')!;
    expect(rates.tna).toBeCloseTo((0.01 * 252) / 10, 12);
    expect(rates.tea).toBeCloseTo(1.01 ** (252 / 10) - 1, 12);
    expect(YEAR_BASE).toEqual({ calendar: 365, weekdays: 252 });
  });

  it('gives a discount (future below spot) as a negative rate', () => {
    const rates = impliedRates(1000, 990, 30)!;
    expect(rates.basis).toBe(-10);
    expect(rates.tna!).toBeLessThan(0);
    expect(rates.tea!).toBeLessThan(0);
  });

  it('computes no rate on or after the expiry day, and nothing without a spot or a price', () => {
    const onExpiry = impliedRates(1000, 1001, 0)!;
    expect(onExpiry.basis).toBe(1);
    expect(onExpiry.tna).toBeNull();
    expect(onExpiry.tea).toBeNull();
    expect(impliedRates(1000, 1001, -3)!.tna).toBeNull();
    expect(impliedRates(null, 1013, 9)).toBeNull();
    expect(impliedRates(undefined, 1013, 9)).toBeNull();
    expect(impliedRates(0, 1013, 9)).toBeNull();
    expect(impliedRates(1000, null, 9)).toBeNull();
    expect(impliedRates(1000, Number.NaN, 9)).toBeNull();
    expect(impliedRates(1000, Number.POSITIVE_INFINITY, 9)).toBeNull();
  });

  it('never answers NaN or Infinity', () => {
    // A huge ratio over one day overflows the power: no TEA rather than Infinity.
    const rates = impliedRates(1e-300, 1e300, 1)!;
    expect(rates.tea).toBeNull();
    for (const value of Object.values(impliedRates(1, 2, 1)!)) expect(Number.isFinite(value)).toBe(true);
  });
});

describe('days to expiry', () => {
  const friday = parseIsoDate('2026-11-20')!;
  it('counts calendar days or weekdays (skipping Saturday and Sunday)', () => {
    const expiry = parseIsoDate('2026-11-30')!; // a Monday
    expect(daysToExpiry(friday, expiry, 'calendar')).toBe(10);
    expect(daysToExpiry(friday, expiry, 'weekdays')).toBe(6);
    expect(daysToExpiry(friday, friday, 'calendar')).toBe(0);
    expect(daysToExpiry(friday, friday, 'weekdays')).toBe(0);
    expect(daysToExpiry(friday, parseIsoDate('2026-11-23')!, 'weekdays')).toBe(1);
    expect(daysToExpiry(friday, parseIsoDate('2026-11-18')!, 'calendar')).toBe(-2);
  });
});

describe('forward rate between consecutive months', () => {
  it('is the far month over the near one for the days between them', () => {
    // 1030 in 31 days, 1060 in 61 days: 1060/1030 − 1 over 30 days.
    expect(forwardRate({ price: 1030, days: 31 }, { price: 1060, days: 61 })).toBeCloseTo((1060 / 1030 - 1) * (365 / 30), 12);
    expect(forwardRate({ price: 1030, days: 21 }, { price: 1060, days: 42 }, 'weekdays')).toBeCloseTo((1060 / 1030 - 1) * (252 / 21), 12);
  });

  it('agrees with the spot rates: compounding the near rate and the forward gives the far one', () => {
    const spot = 1000;
    const near = { price: 1020, days: 30 };
    const far = { price: 1045, days: 60 };
    const forward = forwardRate(near, far)!;
    const grown = spot * (1 + (impliedRates(spot, near.price, near.days)!.tna! * near.days) / 365) * (1 + (forward * (far.days - near.days)) / 365);
    expect(grown).toBeCloseTo(far.price, 9);
  });

  it('is null without both prices or when the far month does not expire later', () => {
    expect(forwardRate({ price: null, days: 30 }, { price: 1060, days: 61 })).toBeNull();
    expect(forwardRate({ price: 1030, days: 30 }, { price: undefined, days: 61 })).toBeNull();
    expect(forwardRate({ price: 1030, days: 30 }, { price: 1060, days: 30 })).toBeNull();
    expect(forwardRate({ price: 1030, days: 30 }, { price: 1060, days: 20 })).toBeNull();
  });
});

describe('the price a curve reads', () => {
  it('takes the last trade, else the middle of bid and ask, and says which', () => {
    expect(curvePrice({ LA: { price: 1013, size: 1, date: 0 }, BI: [{ price: 1010, size: 1 }], OF: [{ price: 1012, size: 1 }] })).toEqual({
      price: 1013,
      source: 'last',
    });
    expect(curvePrice({ BI: [{ price: 1010, size: 1 }], OF: [{ price: 1012, size: 1 }] })).toEqual({ price: 1011, source: 'mid' });
    expect(curvePrice({ LA: null, BI: [{ price: 1010, size: 1 }], OF: [{ price: 1012, size: 1 }] })).toEqual({ price: 1011, source: 'mid' });
    expect(curvePrice({ IV: 140000 })).toEqual({ price: 140000, source: 'last' });
  });

  it('has no price with one side only, a crossed book, or nothing', () => {
    expect(curvePrice({ BI: [{ price: 1010, size: 1 }] })).toBeNull();
    expect(curvePrice({ BI: [{ price: 1012, size: 1 }], OF: [{ price: 1010, size: 1 }] })).toBeNull();
    expect(curvePrice({})).toBeNull();
    expect(curvePrice(null)).toBeNull();
  });
});
