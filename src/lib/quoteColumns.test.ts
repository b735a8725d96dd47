import { describe, expect, it } from 'vitest';
import { cellNumber, cellText, changeDirection, defaultColumns, EMPTY_CELL } from './quoteColumns';
import type { Quote } from './quote';

// Noon in Buenos Aires.
const now = new Date(Date.UTC(2026, 10, 25, 15));
const quote: Quote = {
  md: {
    BI: [{ price: 1450.5, size: 12 }],
    OF: [{ price: 1451, size: 3 }],
    LA: { price: 1451, size: 1, date: Date.UTC(2026, 10, 25, 14, 5, 9) },
    CL: { price: 1460 },
    TV: 1234567,
    OI: { size: 4200 },
  },
  expiration: new Date(Date.UTC(2026, 11, 30)),
};

describe('quote board cells', () => {
  it('writes prices with the decimals given, sizes whole, change signed and the percentage with 2 decimals', () => {
    expect(cellText('bid', quote, 1, now)).toBe('1.450,5');
    expect(cellText('ask', quote, 4, now)).toBe('1.451,0000');
    expect(cellText('bid_size', quote, 4, now)).toBe('12');
    expect(cellText('change', quote, 2, now)).toBe('-9,00');
    expect(cellText('change_pct', quote, 4, now)).toBe('-0,62%');
    expect(cellText('volume', quote, 2, now)).toBe('1.234.567');
    expect(cellText('open_interest', quote, 2, now)).toBe('4.200');
    expect(changeDirection(quote)).toBe(-1);
  });

  it('writes the expiry as a date, days to it, and the time of the last trade in Buenos Aires', () => {
    expect(cellText('expiration', quote, 2, now)).toBe('30/12/2026');
    expect(cellText('days_to_expiry', quote, 2, now)).toBe('35');
    expect(cellText('time', quote, 2, now)).toBe('11:05:09');
    // 22:30 in Buenos Aires is the next day in UTC: the days still count from the market's day.
    expect(cellText('days_to_expiry', quote, 2, new Date(Date.UTC(2026, 11, 29, 1, 30)))).toBe('2');
  });

  it('shows a dash, never 0 or NaN, where the quote has nothing', () => {
    for (const column of ['open', 'high', 'settlement', 'expiration'] as const) expect(cellText(column, { md: {} }, 2, now)).toBe(EMPTY_CELL);
    expect(cellText('last', null, 2, now)).toBe(EMPTY_CELL);
    expect(cellText('change_pct', { md: { LA: { price: 10, size: 1, date: 0 }, CL: { price: 0 } } }, 2, now)).toBe(EMPTY_CELL);
    expect(cellNumber('last', { md: { IV: 2_000_000 } }, now)).toBe(2_000_000);
  });

  it("reads a formula row's change by its unit: a rate's and a ratio's in points, never in percent of themselves", () => {
    // An implied devaluation of 1,30 % at the close, 0,0889 % now.
    const rate = { md: { LA: { price: 0.0889, size: 0, date: 0 }, CL: { price: 1.3 } } };
    expect(cellText('last', rate, 4, now, 'rate')).toBe('0,09 %');
    expect(cellText('close', rate, 4, now, 'rate')).toBe('1,30 %');
    expect(cellText('change', rate, 4, now, 'rate')).toBe('-1,21 pp');
    expect(cellText('change_pct', rate, 4, now, 'rate')).toBe('-1,21 pp');
    expect(cellText('change_pct', rate, 4, now)).toBe('-93,16%');
    expect(cellNumber('change_pct', rate, now, 'rate')).toBeCloseTo(-1.2111, 9);
    // The canje from 1,0523 to 1,0558: its premium, +0,35 pp.
    const ratio = { md: { LA: { price: 1.0558, size: 0, date: 0 }, CL: { price: 1.0523 } } };
    expect(cellText('last', ratio, 4, now, 'ratio')).toBe('1,0558');
    expect(cellText('change', ratio, 4, now, 'ratio')).toBe('+0,0035');
    expect(cellText('change_pct', ratio, 4, now, 'ratio')).toBe('+0,35 pp');
    // A rate that closed at 0 % still has a change; a price that closed at 0 has none.
    const fromZero = { md: { LA: { price: 0.25, size: 0, date: 0 }, CL: { price: 0 } } };
    expect(cellText('change', fromZero, 2, now, 'rate')).toBe('+0,25 pp');
    expect(cellText('change', fromZero, 2, now)).toBe(EMPTY_CELL);
  });

  it('defaults the columns by the kinds on the board, in the columns order', () => {
    expect(defaultColumns(['spot'])).toEqual(['last', 'change', 'change_pct', 'time']);
    expect(defaultColumns(['formula', 'stock'])).toEqual(['bid_size', 'bid', 'ask', 'ask_size', 'last', 'change', 'change_pct', 'volume']);
    expect(defaultColumns([])).toEqual(['bid', 'ask', 'last', 'change_pct', 'volume']);
  });
});
