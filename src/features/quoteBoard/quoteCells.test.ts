import { describe, expect, it } from 'vitest';
import { EMPTY_CELL, formatNumber, quoteCells } from './quoteCells';

describe('quote board cells', () => {
  it('shows best bid and offer, last, change against the previous close and volume', () => {
    const cells = quoteCells({
      md: {
        BI: [
          { price: 1020.5, size: 3 },
          { price: 1019, size: 1 },
        ],
        OF: [{ price: 1021.25, size: 2 }],
        LA: { price: 1021, size: 1, date: 0 },
        CL: { price: 1000 },
        TV: 1234567,
      },
    });
    expect(cells).toEqual({ bid: '1.020,50', offer: '1.021,25', last: '1.021,00', change: '+2,10%', direction: 1, volume: '1.234.567' });
  });

  it('falls back to the settlement when there is no close, and shows a falling change', () => {
    expect(quoteCells({ md: { LA: { price: 990, size: 1, date: 0 }, SE: { price: 1000 } } })).toMatchObject({ change: '-1,00%', direction: -1 });
  });

  it('shows a dash for every missing value, and no change without a close', () => {
    expect(quoteCells(null)).toEqual({ bid: EMPTY_CELL, offer: EMPTY_CELL, last: EMPTY_CELL, change: EMPTY_CELL, direction: 0, volume: EMPTY_CELL });
    expect(quoteCells({ md: { LA: { price: 5, size: 1, date: 0 }, BI: [] } })).toMatchObject({ last: '5,00', bid: EMPTY_CELL, change: EMPTY_CELL });
  });

  it('formats numbers as Intl es-AR does, much faster', () => {
    const intl = (value: number, decimals: number) =>
      new Intl.NumberFormat('es-AR', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
    for (const value of [0, 0.004, 1, -1, 12.5, 999.999, 1000, 1234.5, -1234.567, 98765.4321, 1_000_000, 123_456_789.01, -0.5, 0.125, 1_234.375]) {
      for (const decimals of [0, 2]) expect(formatNumber(value, decimals), `${value} with ${decimals}`).toBe(intl(value, decimals));
    }
    // Unlike Intl ('-0'), a negative that rounds to zero shows no sign. (Halves that a double
    // cannot hold exactly, such as 1.005, round as toFixed does, not as Intl does.)
    expect(formatNumber(-0.004, 0)).toBe('0');
    expect(formatNumber(-0.004, 2)).toBe('0,00');
  });

  it('shows no sign on a change that rounds to zero', () => {
    expect(quoteCells({ md: { LA: { price: 100.001, size: 1, date: 0 }, CL: { price: 100 } } })).toMatchObject({ change: '0,00%' });
  });
});
