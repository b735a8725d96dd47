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

  it('defaults the columns by the kinds on the board, in the columns order', () => {
    expect(defaultColumns(['spot'])).toEqual(['last', 'change', 'change_pct', 'time']);
    expect(defaultColumns(['formula', 'stock'])).toEqual(['bid_size', 'bid', 'ask', 'ask_size', 'last', 'change', 'change_pct', 'volume']);
    expect(defaultColumns([])).toEqual(['bid', 'ask', 'last', 'change_pct', 'volume']);
  });
});
