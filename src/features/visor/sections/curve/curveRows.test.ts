import { describe, expect, it } from 'vitest';
import { parseIsoDate } from '../../../../lib/calendar';
import type { CurveContract } from '../../../../lib/futuresCurve';
import type { MarketData } from '../../../../protocol/market';
import { CurveConfig } from '../../../../protocol/workspace';
import { DEFAULT_CURVE, readCurveConfig } from './curveConfig';
import { curveSnapshot, type QuoteLike } from './curveRows';
import { formatExpiry, percent } from './curveFormat';

const contract = (symbol: string, expiry: string): CurveContract => ({ symbol, month: symbol.split('/')[1]!, expiry: parseIsoDate(expiry)! });
const last = (price: number): MarketData => ({ LA: { price, size: 1, date: 0 } });

describe('the rows of a curve', () => {
  const today = parseIsoDate('2026-11-20')!; // a Friday
  const contracts = [contract('DLR/NOV26', '2026-11-30'), contract('DLR/DIC26', '2026-12-31')];
  const quotes = new Map<string, QuoteLike>([
    ['DLR/SPOT', { md: last(1000), live: true }],
    ['DLR/NOV26', { md: last(1010), live: true }],
    ['DLR/DIC26', { md: { BI: [{ price: 1039, size: 1 }], OF: [{ price: 1041, size: 1 }] }, live: false }],
  ]);

  it('computes each month against the spot, and the forward from the month before', () => {
    const snapshot = curveSnapshot(contracts, 'DLR/SPOT', (symbol) => quotes.get(symbol), today, 'calendar');
    expect(snapshot.spot).toEqual({ price: 1000, source: 'last' });
    const [nov, dic] = snapshot.rows;
    expect(nov!.days).toBe(10);
    expect(nov!.rates!.tna).toBeCloseTo((0.01 * 365) / 10, 12);
    expect(nov!.forward).toBeNull();
    expect(dic!.days).toBe(41);
    expect(dic!.price).toEqual({ price: 1040, source: 'mid' });
    expect(dic!.live).toBe(false);
    expect(dic!.forward).toBeCloseTo((1040 / 1010 - 1) * (365 / 31), 12);
  });

  it("says the implied devaluation's change since the previous closes in percentage points", () => {
    const withCloses = new Map<string, QuoteLike>([
      ['DLR/SPOT', { md: { ...last(1000), CL: { price: 1000 } }, live: true }],
      // 1,30 % over the spot at the close, 1,00 % now: -0,30 pp (not -23 % of itself).
      ['DLR/NOV26', { md: { ...last(1010), CL: { price: 1013 } }, live: true }],
      ['DLR/DIC26', { md: last(1040), live: true }],
    ]);
    const [nov, dic] = curveSnapshot(contracts, 'DLR/SPOT', (symbol) => withCloses.get(symbol), today, 'calendar').rows;
    expect(nov!.devaluationChange).toMatchObject({ measure: 'pp', text: '-0,30 pp' });
    expect(nov!.devaluationChange!.amount).toBeCloseTo(-0.3, 9);
    // No close of the future: no change.
    expect(dic!.devaluationChange).toBeNull();
    // No close of the spot: none either.
    expect(curveSnapshot(contracts, 'DLR/SPOT', (symbol) => quotes.get(symbol), today, 'calendar').rows[0]!.devaluationChange).toBeNull();
  });

  it('counts weekdays when asked, keeping calendar days for the chart', () => {
    const [nov] = curveSnapshot(contracts, 'DLR/SPOT', (symbol) => quotes.get(symbol), today, 'weekdays').rows;
    expect(nov!.days).toBe(6);
    expect(nov!.calendarDays).toBe(10);
    expect(nov!.rates!.tna).toBeCloseTo((0.01 * 252) / 6, 12);
  });

  it('without a spot has no rates but keeps the forwards; without quotes has nothing', () => {
    const noSpot = curveSnapshot(contracts, '', (symbol) => quotes.get(symbol), today, 'calendar');
    expect(noSpot.spot).toBeNull();
    expect(noSpot.rows.map((row) => row.rates)).toEqual([null, null]);
    expect(noSpot.rows[1]!.forward).not.toBeNull();
    const empty = curveSnapshot(contracts, 'DLR/SPOT', () => null, today, 'calendar');
    expect(empty.rows.map((row) => [row.price, row.rates, row.forward])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
  });
});

describe('how the table writes figures', () => {
  it('writes percentages with two decimals and a dash for none', () => {
    expect(percent(0.52716)).toBe('52,72 %');
    expect(percent(-0.0123)).toBe('-1,23 %');
    expect(percent(null)).toBe('—');
    expect(percent(Number.NaN)).toBe('—');
    expect(percent(Number.POSITIVE_INFINITY)).toBe('—');
    expect(formatExpiry(parseIsoDate('2026-12-31')!)).toBe('31/12/2026');
  });
});

describe('the config the view reads', () => {
  it('fills what a stored config lacks and keeps what it has', () => {
    expect(readCurveConfig({ product: 'DLR', spot: 'USDARS', dayCount: 'weekdays' })).toEqual({
      product: 'DLR',
      spot: 'USDARS',
      dayCount: 'weekdays',
      rate: 'tna',
    });
    expect(readCurveConfig({ product: 'RFX20', spot: '', dayCount: 'calendar', rate: 'tea' })).toEqual({
      product: 'RFX20',
      spot: '',
      dayCount: 'calendar',
      rate: 'tea',
    });
    expect(readCurveConfig(undefined)).toEqual(DEFAULT_CURVE);
  });

  it('starts a new curve with a config the server takes as it is', () => {
    expect(CurveConfig.parse(DEFAULT_CURVE)).toEqual(DEFAULT_CURVE);
  });
});
