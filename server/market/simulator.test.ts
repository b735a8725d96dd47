import { describe, expect, it } from 'vitest';
import { calendarDaysBetween, parseYyyymmdd } from '../../src/lib/calendar.js';
import type { MarketUpdate } from '../../src/protocol/market.js';
import { buildCatalogue } from './catalogue.js';
import { createSimulator } from './simulator.js';

const now = Date.UTC(2026, 10, 22, 15);
const settings = { seed: 42, ticksPerSecond: 100, dlrRate: 0.3, spot: 1450, mep: 1480, ccl: 1510 };
const catalogue = buildCatalogue(new Date(now), settings);
const make = () => createSimulator(catalogue, catalogue.instruments, settings, () => now);
const last = (sim: ReturnType<typeof make>, symbol: string) => sim.lastPrice(symbol)!;

describe('simulator', () => {
  it('keeps the DLR curve above spot at an implied rate near the setting', () => {
    const sim = make();
    sim.advance(20_000);
    const spot = last(sim, 'DLR/SPOT');
    const futures = catalogue.instruments.filter((i) => i.kind === 'future' && i.product === 'DLR');
    let previous = spot;
    for (const future of futures.slice(1)) {
      const price = last(sim, future.instrumentId.symbol);
      expect(price, future.instrumentId.symbol).toBeGreaterThan(previous);
      previous = price;
      const days = calendarDaysBetween(new Date(now), parseYyyymmdd(future.maturityDate!)!);
      const tna = ((price / spot - 1) * 365) / days;
      expect(tna, future.instrumentId.symbol).toBeGreaterThan(0.2);
      expect(tna, future.instrumentId.symbol).toBeLessThan(0.4);
    }
  });

  it('makes AL30 / AL30D imply MEP and AL30 / AL30C imply CCL near their settings', () => {
    const sim = make();
    sim.advance(20_000);
    const mep = last(sim, 'BYMA:AL30') / last(sim, 'BYMA:AL30D');
    const ccl = last(sim, 'BYMA:AL30') / last(sim, 'BYMA:AL30C');
    expect(Math.abs(mep / settings.mep - 1)).toBeLessThan(0.05);
    expect(Math.abs(ccl / settings.ccl - 1)).toBeLessThan(0.05);
    expect(ccl).toBeGreaterThan(mep * 0.99);
  });

  it('prices on the tick size, with bid below ask and the high/low bracketing the last', () => {
    const sim = make();
    const updates: MarketUpdate[] = [];
    sim.onUpdate((u) => updates.push(u));
    sim.advance(2000);
    expect(updates).toHaveLength(2000);
    for (const update of updates) {
      const instrument = catalogue.resolve(update.instrumentId.symbol)!;
      const md = update.marketData;
      const steps = md.LA!.price / instrument.minPriceIncrement;
      expect(Math.abs(steps - Math.round(steps))).toBeLessThan(1e-6);
      if (md.BI && md.OF) expect(md.BI[0]!.price).toBeLessThan(md.OF[0]!.price);
      expect(md.HI!).toBeGreaterThanOrEqual(md.LA!.price);
      expect(md.LO!).toBeLessThanOrEqual(md.LA!.price);
    }
  });

  it('keeps a calendar spread at the difference of its legs', () => {
    const sim = make();
    sim.advance(20_000);
    const spread = last(sim, 'DLR/DIC26/ENE27');
    const difference = last(sim, 'DLR/ENE27') - last(sim, 'DLR/DIC26');
    expect(Math.abs(spread - difference)).toBeLessThan(5);
    expect(spread).toBeGreaterThan(0);
  });

  it('gives the same market for the same seed', () => {
    const a = make();
    const b = make();
    a.advance(500);
    b.advance(500);
    expect(a.snapshot('DLR/DIC26')).toEqual(b.snapshot('DLR/DIC26'));
    expect(a.snapshot('BYMA:GGAL')).toEqual(b.snapshot('BYMA:GGAL'));
  });
});
