import { describe, expect, it } from 'vitest';
import { addMonths, lastBusinessDay, monthCode, parseIsoDate, yyyymmdd } from './calendar';
import { curveContracts, curveProducts, marketToday, spotCandidates, type CurveInstrument } from './futuresCurve';

const future = (symbol: string, maturityDate: string, cficode = 'FXXXSX'): CurveInstrument => ({
  instrumentId: { marketId: 'ROFX', symbol },
  cficode,
  maturityDate,
});
const plain = (symbol: string, cficode: string): CurveInstrument => ({ instrumentId: { marketId: 'ROFX', symbol }, cficode });

/** The months the server lists on a day: the next twelve from the first not expired. */
function dlrMonths(today: Date, count = 12): CurveInstrument[] {
  const first = { year: today.getUTCFullYear(), month: today.getUTCMonth() };
  return Array.from({ length: count }, (_, i) => {
    const month = addMonths(first, i);
    return future(`DLR/${monthCode(month)}`, yyyymmdd(lastBusinessDay(month)));
  });
}

const catalogue: CurveInstrument[] = [
  plain('DLR/SPOT', 'MRCXXX'),
  future('DLR/ENE27', '20270129'),
  future('DLR/DIC26', '20261231'),
  future('DLR/NOV26', '20261130'),
  future('DLR/DIC26A', '20261231'),
  future('DLR/DIC26/ENE27', '20261231', 'FMXXXX'),
  future('DLR/DIC26 1500 C', '20261231', 'OCAFXS'),
  future('RFX20/DIC26', '20261231'),
  future('RFX20/ENE27', '20270129'),
  future('WTI/DIC26', '20261231'),
  plain('I.RFX20', 'MRIXXX'),
  plain('MERV - XMEV - GGAL - 24hs', 'ESXXXX'),
  plain('MERV - XMEV - GGAL - CI', 'ESXXXX'),
];

describe('the months of a curve', () => {
  it("lists a product's outright futures not yet expired, nearest first", () => {
    const today = parseIsoDate('2026-11-26')!;
    expect(curveContracts(catalogue, 'DLR', today).map((c) => c.symbol)).toEqual(['DLR/NOV26', 'DLR/DIC26', 'DLR/ENE27']);
    expect(curveContracts(catalogue, 'DLR', today)[0]).toEqual({ symbol: 'DLR/NOV26', month: 'NOV26', expiry: parseIsoDate('2026-11-30')! });
  });

  it('keeps a contract on its expiry day and drops it the day after, without a new catalogue', () => {
    expect(curveContracts(catalogue, 'DLR', parseIsoDate('2026-11-30')!)[0]!.symbol).toBe('DLR/NOV26');
    expect(curveContracts(catalogue, 'DLR', parseIsoDate('2026-12-01')!).map((c) => c.symbol)).toEqual(['DLR/DIC26', 'DLR/ENE27']);
  });

  it('takes new months as the catalogue rolls', () => {
    const before = parseIsoDate('2026-11-30')!;
    const after = parseIsoDate('2026-12-01')!;
    const then = curveContracts(dlrMonths(before), 'DLR', after);
    const now = curveContracts(dlrMonths(after), 'DLR', after);
    expect(then).toHaveLength(11);
    expect(now).toHaveLength(12);
    expect(now.at(-1)!.symbol).toBe('DLR/NOV27');
  });

  it('offers the products with two months or more, DLR first', () => {
    expect(curveProducts(catalogue, parseIsoDate('2026-11-26')!)).toEqual(['DLR', 'RFX20']);
    // Once December has gone, RFX20 has one month left.
    expect(curveProducts(catalogue, parseIsoDate('2027-01-05')!)).toEqual([]);
  });

  it('finds the spot references of a product in the catalogue', () => {
    expect(spotCandidates(catalogue, 'DLR')).toEqual(['DLR/SPOT']);
    expect(spotCandidates(catalogue, 'RFX20')).toEqual(['I.RFX20']);
    expect(spotCandidates(catalogue, 'GGAL')).toEqual(['MERV - XMEV - GGAL - 24hs', 'MERV - XMEV - GGAL - CI']);
    expect(spotCandidates(catalogue, 'WTI')).toEqual([]);
  });
});

describe("the market's today", () => {
  it('is the date in Buenos Aires (UTC-3)', () => {
    expect(yyyymmdd(marketToday(Date.UTC(2026, 10, 27, 2, 30)))).toBe('20261126');
    expect(yyyymmdd(marketToday(Date.UTC(2026, 10, 27, 3, 0)))).toBe('20261127');
  });
});
