import { describe, expect, it } from 'vitest';
import { markPosition, pnlSign, pointValueOf, totalsByCurrency } from './positionsPnl';

const position = (buySize: number, buyPrice: number, sellSize = 0, sellPrice = 0, symbol = 'DLR/DIC26') => ({ symbol, buySize, buyPrice, sellSize, sellPrice });

describe('markPosition', () => {
  it('marks a long at the last price: P&L and P&L % against the average buy', () => {
    const mark = markPosition(position(10, 1500), 1530, { pointValue: 1000, currency: 'ARS' });
    expect(mark.quantity).toBe(10);
    expect(mark.averagePrice).toBe(1500);
    expect(mark.cost).toBe(15_000_000);
    expect(mark.pnl).toBe(300_000); // (1530 − 1500) × 10 × 1000
    expect(mark.pnlPct).toBeCloseTo(2, 10);
  });

  it('marks a short against the average sell: a price that falls is a gain', () => {
    const mark = markPosition(position(0, 0, 5, 1600), 1580, { pointValue: 1000, currency: 'ARS' });
    expect(mark.quantity).toBe(-5);
    expect(mark.averagePrice).toBe(1600);
    expect(mark.pnl).toBe(100_000); // (1580 − 1600) × −5 × 1000
    expect(mark.pnlPct).toBeCloseTo(1.25, 10);
  });

  it('nets buys and sells: a long partly sold keeps its average buy', () => {
    const mark = markPosition(position(1000, 80, 300, 85, 'MERV - XMEV - AL30 - 24hs'), 90, { pointValue: 0.01, currency: 'ARS' });
    expect(mark.quantity).toBe(700);
    expect(mark.averagePrice).toBe(80);
    expect(mark.pnl).toBeCloseTo(70, 10); // (90 − 80) × 700 × 0.01
    expect(mark.pnlPct).toBeCloseTo(12.5, 10);
  });

  it('has no P&L without a last price, nor when flat', () => {
    const unpriced = markPosition(position(10, 1500), null);
    expect(unpriced.pnl).toBeNull();
    expect(unpriced.pnlPct).toBeNull();
    expect(unpriced.lastPrice).toBeNull();
    const flat = markPosition(position(5, 100, 5, 110), 120);
    expect(flat.quantity).toBe(0);
    expect(flat.averagePrice).toBeNull();
    expect(flat.pnl).toBeNull();
    expect(flat.cost).toBe(0);
  });

  it('takes a point value of 1 for an unknown instrument, and no % over an average of 0', () => {
    const mark = markPosition(position(2, 0), 10);
    expect(mark.pnl).toBe(20);
    expect(mark.pnlPct).toBeNull();
    expect(mark.currency).toBeNull();
  });
});

describe('pointValueOf', () => {
  it('is the contract multiplier, per 100 nominal for a bond', () => {
    expect(pointValueOf(1000, 'FFXCSX')).toBe(1000);
    expect(pointValueOf(1, 'ESXXXX')).toBe(1);
    expect(pointValueOf(1, 'DBXXXX')).toBe(0.01);
    expect(pointValueOf(0, 'FFXCSX')).toBe(1);
  });
});

describe('totalsByCurrency', () => {
  it('adds P&L and cost per currency, never pesos and dollars together', () => {
    const marks = [
      markPosition(position(10, 1500), 1530, { pointValue: 1000, currency: 'ARS' }),
      markPosition(position(0, 0, 5, 1600), 1580, { pointValue: 1000, currency: 'ARS' }),
      markPosition(position(100, 60, 0, 0, 'GD30D'), 57, { pointValue: 1, currency: 'USD' }),
    ];
    const totals = totalsByCurrency(marks);
    expect(totals.map((total) => total.currency)).toEqual(['ARS', 'USD']);
    expect(totals[0]!.pnl).toBe(400_000);
    expect(totals[0]!.cost).toBe(23_000_000);
    expect(totals[0]!.pnlPct).toBeCloseTo((400_000 / 23_000_000) * 100, 10);
    expect(totals[1]!.pnl).toBe(-300);
    expect(totals[1]!.pnlPct).toBeCloseTo(-5, 10);
  });

  it('counts positions without a price apart and leaves flat ones out', () => {
    const totals = totalsByCurrency([
      markPosition(position(10, 1500), null, { pointValue: 1000, currency: 'ARS' }),
      markPosition(position(5, 100, 5, 100), 101, { pointValue: 1, currency: 'ARS' }),
    ]);
    expect(totals).toEqual([{ currency: 'ARS', pnl: 0, cost: 0, pnlPct: null, unmarked: 1 }]);
  });
});

describe('pnlSign', () => {
  it('is the sign of a P&L, 0 for none', () => {
    expect(pnlSign(3)).toBe(1);
    expect(pnlSign(-0.5)).toBe(-1);
    expect(pnlSign(0)).toBe(0);
    expect(pnlSign(null)).toBe(0);
    expect(pnlSign(Number.NaN)).toBe(0);
  });
});
