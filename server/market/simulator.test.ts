import { describe, expect, it } from 'vitest';
import type { MarketUpdate } from '../../src/protocol/market.js';
import { createTradingCalendar, marketDayOf } from './calendar.js';
import { buildCatalogue } from './catalogue.js';
import { createMarketModel } from './model/market.js';
import { createSimulator } from './simulator.js';

const settings = { seed: 42, dlrRate: 0.3, spot: 1450, mep: 1480, ccl: 1510 };
const calendar = createTradingCalendar();
/** Epoch ms of a Buenos Aires wall-clock time. */
const ba = (iso: string, hhmm: string) => Date.parse(`${iso}T${hhmm}:00-03:00`);
const friday = ba('2026-11-27', '14:30');
const catalogue = buildCatalogue(new Date(marketDayOf(friday) * 86_400_000), settings, calendar);
const model = createMarketModel(catalogue, calendar, settings);

function make(options: { calendar?: 'demo' | 'real'; clock: { now: number }; symbols?: string[]; rate?: number }) {
  const instruments = options.symbols ? options.symbols.map((symbol) => catalogue.resolve(symbol)!) : catalogue.instruments.filter((i) => i.feed === 'rofex');
  const simulator = createSimulator({
    catalogue,
    // Another model of the same settings: what another process (or this one after a restart) would compute.
    model: createMarketModel(catalogue, calendar, settings),
    instruments,
    ticksPerSecond: options.rate ?? 50,
    calendar: options.calendar ?? 'demo',
    seed: 1,
    now: () => options.clock.now,
  });
  const updates: MarketUpdate[] = [];
  simulator.onUpdate((update) => updates.push(update));
  return { simulator, updates };
}

describe('simulator', () => {
  it("plays the model's tape: the last trade, the session and the previous close are the history's", () => {
    const clock = { now: friday };
    const { simulator } = make({ clock });
    for (const symbol of ['DLR/DIC26', 'DLR/SPOT', 'DLR/DIC26 1500 C']) {
      const instrument = catalogue.resolve(symbol)!;
      const md = simulator.snapshot(symbol)!;
      const session = model.session(instrument, friday).candle!;
      const last = model.lastTrade(instrument, friday, true)!;
      expect(md.LA, symbol).toEqual({ price: last.price, size: last.size, date: last.time });
      expect([md.OP, md.HI, md.LO], symbol).toEqual([session.open, session.high, session.low]);
      if (instrument.kind !== 'spot') expect(md.TV, symbol).toBe(session.volume);
      expect(md.CL, symbol).toEqual({ price: model.previousClose(instrument, friday)!.close });
    }
  });

  it('publishes every trade as time passes, in order, and the session so far with it', () => {
    const clock = { now: friday };
    const dollar = catalogue.resolve('DLR/DIC26')!;
    const { simulator, updates } = make({ clock, symbols: ['DLR/DIC26'], rate: 1000 });
    simulator.snapshot('DLR/DIC26');
    const seen = new Set<number>();
    const step = 100;
    for (let i = 0; i < 1200; i++) {
      clock.now += step;
      simulator.advance(1);
      const date = updates.at(-1)?.marketData.LA?.date;
      if (date != null) seen.add(date);
    }
    // Every trade that is the last of its step was published (two in one step: the later).
    const lastOfStep = new Map<number, number>();
    for (let minute = Math.floor(friday / 60_000); minute * 60_000 <= clock.now; minute++) {
      for (const trade of model.tradesUpTo(dollar, Math.min(clock.now, minute * 60_000 + 59_999))) {
        if (trade.time > friday) lastOfStep.set(Math.ceil((trade.time - friday) / step), trade.time);
      }
    }
    expect(lastOfStep.size).toBeGreaterThan(10);
    for (const time of lastOfStep.values()) expect(seen.has(time), String(time)).toBe(true);
    const md = simulator.snapshot('DLR/DIC26')!;
    const session = model.session(dollar, clock.now).candle!;
    expect([md.OP, md.HI, md.LO, md.TV]).toEqual([session.open, session.high, session.low, session.volume]);
  });

  it('agrees with another process at the same instant (a feed taken over goes on where it was)', () => {
    const clock = { now: friday };
    const first = make({ clock });
    first.simulator.advance(500);
    clock.now += 90_000;
    first.simulator.advance(500);
    const second = make({ clock });
    for (const symbol of ['DLR/DIC26', 'DLR/ENE27', 'RFX20/DIC26']) {
      const a = first.simulator.snapshot(symbol)!;
      const b = second.simulator.snapshot(symbol)!;
      expect([a.LA, a.OP, a.HI, a.LO, a.CL, a.TV], symbol).toEqual([b.LA, b.OP, b.HI, b.LO, b.CL, b.TV]);
    }
  });

  it('prices on the tick size, with the bid below the offer and the high and low around the last', () => {
    const clock = { now: friday };
    const { simulator, updates } = make({ clock });
    simulator.advance(2000);
    expect(updates).toHaveLength(2000);
    for (const { instrumentId, marketData: md } of updates) {
      const instrument = catalogue.resolve(instrumentId.symbol)!;
      const steps = md.LA!.price / instrument.minPriceIncrement;
      expect(Math.abs(steps - Math.round(steps))).toBeLessThan(1e-6);
      if (md.BI && md.OF) expect(md.BI[0]!.price).toBeLessThan(md.OF[0]!.price);
      if (md.HI != null && md.LA!.date >= ba('2026-11-27', '10:00')) {
        expect(md.HI).toBeGreaterThanOrEqual(md.LA!.price);
        expect(md.LO!).toBeLessThanOrEqual(md.LA!.price);
      }
    }
  });

  it('in the real calendar, publishes nothing outside the session and holds the last prices', () => {
    const clock = { now: ba('2026-11-28', '12:00') };
    const { simulator, updates } = make({ clock, calendar: 'real' });
    const before = simulator.snapshot('DLR/DIC26')!;
    simulator.advance(500);
    clock.now += 3_600_000;
    simulator.advance(500);
    expect(updates).toHaveLength(0);
    const after = simulator.snapshot('DLR/DIC26')!;
    expect(after.LA).toEqual(before.LA);
    // Friday's session, closed: its last trade is Friday's close.
    const friday = model.dailyCandles(catalogue.resolve('DLR/DIC26')!, 1, clock.now)[0]!;
    expect(after.LA!.price).toBe(friday.close);
    expect(after.HI).toBe(friday.high);
  });

  it('in the demo calendar, keeps trading at any hour without touching the session', () => {
    const clock = { now: ba('2026-11-28', '12:00') };
    const { simulator, updates } = make({ clock });
    simulator.advance(100);
    expect(updates).toHaveLength(100);
    const md = simulator.snapshot('DLR/DIC26')!;
    expect(md.LA!.date).toBeGreaterThan(ba('2026-11-28', '11:00'));
    const friday = model.dailyCandles(catalogue.resolve('DLR/DIC26')!, 1, clock.now)[0]!;
    expect([md.OP, md.HI, md.LO, md.TV]).toEqual([friday.open, friday.high, friday.low, friday.volume]);
  });

  it('publishes at its pace: none at 0, as many as asked by advance', () => {
    const clock = { now: friday };
    const { simulator, updates } = make({ clock, rate: 0 });
    simulator.start();
    simulator.stop();
    simulator.advance(7);
    expect(updates).toHaveLength(7);
  });
});
