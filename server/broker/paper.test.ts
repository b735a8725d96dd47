import { describe, expect, it } from 'vitest';
import { buildCatalogue, marketOf, type Instrument } from '../market/catalogue.js';
import { createPaperAccount, type PriceSource } from './paper.js';

const catalogue = buildCatalogue(new Date(Date.UTC(2026, 10, 27)), { spot: 1450, mep: 1480, ccl: 1510 });

function account(trading: (instrument: Instrument) => boolean) {
  const prices: PriceSource = {
    last: (symbol) => catalogue.referencePrice.get(symbol) ?? null,
    previousClose: () => null,
    trading,
  };
  return createPaperAccount('DEMO-X', catalogue, prices, () => Date.UTC(2026, 10, 27, 15));
}

describe('the paper account’s fills', () => {
  it('fills only holdings whose market trades now, and nothing while every market is closed', () => {
    const closed = account(() => false);
    for (let i = 0; i < 20; i++) expect(closed.trade()).toBeNull();

    const bymaOnly = account((instrument) => marketOf(instrument) === 'byma');
    const fills = Array.from({ length: 40 }, () => bymaOnly.trade());
    expect(fills.every((fill) => fill != null)).toBe(true);
    for (const fill of fills) expect(marketOf(catalogue.resolve(fill!.instrumentId.symbol)!)).toBe('byma');
  });
});
