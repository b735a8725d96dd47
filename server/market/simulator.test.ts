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

  it('moves as much per minute at any pace: volatility is per second of its clock, not per tick', () => {
    const spotOnly = catalogue.instruments.filter((i) => i.instrumentId.symbol === 'DLR/SPOT');
    /** Mean absolute log change of spot over one simulated minute, across seeds. */
    const minuteMove = (ticksPerSecond: number) => {
      let total = 0;
      for (let seed = 1; seed <= 12; seed++) {
        const sim = createSimulator(catalogue, spotOnly, { ...settings, seed, ticksPerSecond }, () => now);
        sim.advance(1);
        const before = sim.drivers().spot;
        sim.advance(60 * ticksPerSecond);
        total += Math.abs(Math.log(sim.drivers().spot / before));
      }
      return total / 12;
    };
    const slow = minuteMove(10);
    const fast = minuteMove(250);
    expect(slow).toBeGreaterThan(0);
    expect(fast / slow).toBeGreaterThan(0.6);
    expect(fast / slow).toBeLessThan(1.6);
  });

  it('stays near its settings and references however long it runs (a simulated week)', () => {
    const few = catalogue.instruments.filter((i) =>
      ['DLR/SPOT', 'MERV - XMEV - GGAL - 24hs', 'MERV - XMEV - AL30 - 24hs', 'MERV - XMEV - AL30D - 24hs'].includes(i.instrumentId.symbol),
    );
    expect(few).toHaveLength(4);
    const sim = createSimulator(catalogue, few, { ...settings, ticksPerSecond: 0.5 }, () => now);
    const drivers = [];
    for (let day = 0; day < 7; day++) {
      sim.advance(43_200);
      drivers.push(sim.drivers());
    }
    // Each within five of the spreads it settles into.
    for (const { spot, mep, ccl, rate } of drivers) {
      expect(Math.abs(Math.log(spot / settings.spot))).toBeLessThan(0.075);
      expect(Math.abs(Math.log(mep / settings.mep))).toBeLessThan(0.05);
      expect(Math.abs(Math.log(ccl / settings.ccl))).toBeLessThan(0.05);
      expect(Math.abs(rate - settings.dlrRate)).toBeLessThan(0.1);
    }
    expect(Math.abs(Math.log(last(sim, 'BYMA:GGAL') / 6500))).toBeLessThan(0.3);
    // It does move: no two days end at the same spot.
    expect(new Set(drivers.map((d) => d.spot)).size).toBe(7);
  });

  it("starts a new session each day in Buenos Aires: the close is the last day's last, open, high and low start again, volume from zero", () => {
    let clock = Date.UTC(2026, 10, 23, 20); // 17:00 in Buenos Aires
    const ggal = catalogue.instruments.filter((i) => i.instrumentId.symbol === 'MERV - XMEV - GGAL - 24hs');
    const sim = createSimulator(catalogue, ggal, { ...settings, ticksPerSecond: 1 }, () => clock);
    sim.advance(500);
    const evening = sim.snapshot('BYMA:GGAL')!;
    expect(evening.TV).toBeGreaterThan(0);
    clock = Date.UTC(2026, 10, 24, 2, 59); // 23:59, the same day there
    sim.advance(1);
    const lastOfDay = sim.snapshot('BYMA:GGAL')!;
    expect(lastOfDay.CL).toEqual(evening.CL);
    expect(lastOfDay.TV).toBeGreaterThan(evening.TV!);
    clock = Date.UTC(2026, 10, 24, 14); // 11:00 the next day
    sim.advance(1);
    const morning = sim.snapshot('BYMA:GGAL')!;
    expect(morning.CL).toEqual({ price: lastOfDay.LA!.price });
    expect(morning.OP).toBe(morning.LA!.price);
    expect(morning.HI).toBe(morning.LA!.price);
    expect(morning.LO).toBe(morning.LA!.price);
    expect(morning.TV).toBe(0);
  });
});
