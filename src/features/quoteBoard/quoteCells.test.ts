import { describe, expect, it } from 'vitest';
import { EMPTY_CELL, quoteCells } from './quoteCells';

describe('quote board cells', () => {
  it('shows best bid and offer, last, change against the previous close and volume', () => {
    const cells = quoteCells({
      md: {
        BI: [{ price: 1020.5, size: 3 }, { price: 1019, size: 1 }],
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
});
