// The default feed: a seeded random walk on each instrument's tick size that keeps markets
// coherent. Shared drivers move slowly (spot dollar, implied rate, MEP, CCL, each bond's
// dollar value, each share, each crop: simulator/drivers.ts) and every price is derived from
// them (simulator/fairValue.ts), so the DLR curve sits above spot at the implied rate and
// AL30 / AL30D, AL30 / AL30C imply MEP and CCL. Each tick trades one instrument near its fair
// value (simulator/quotes.ts); this file paces the ticks and answers for the feed.
import type { MarketData, MarketUpdate } from '../../src/protocol/market.js';
import type { Catalogue, Instrument } from './catalogue.js';
import { seededRandom } from './random.js';
import { createDrivers, type DriverSettings } from './simulator/drivers.js';
import { fairValueModel } from './simulator/fairValue.js';
import { marketDataOf, nextQuote, type QuoteState } from './simulator/quotes.js';

export interface SimulatorSettings extends DriverSettings {
  seed: number;
}

export function createSimulator(catalogue: Catalogue, listed: Instrument[], initial: SimulatorSettings, now: () => number = Date.now) {
  /** The instruments it moves: the feed's list, which changes when the catalogue rolls. */
  let instruments = [...listed];
  let settings = { ...initial };
  const random = seededRandom(settings.seed);
  const drivers = createDrivers(settings, random);
  const fairValue = fairValueModel(catalogue, drivers.values, now);

  const states = new Map<string, QuoteState>();
  const quoteFrom = (instrument: Instrument, previous: QuoteState | undefined): QuoteState =>
    nextQuote(instrument, previous, fairValue(instrument), random, now);

  for (const instrument of instruments) states.set(instrument.instrumentId.symbol, quoteFrom(instrument, undefined));

  const listeners = new Set<(update: MarketUpdate) => void>();
  let timer: NodeJS.Timeout | null = null;
  let carry = 0;
  let lastStep = now();
  let ticksTotal = 0;

  function tickOne(): void {
    const instrument = instruments[Math.floor(random() * instruments.length)]!;
    drivers.move(instrument, settings);
    const symbol = instrument.instrumentId.symbol;
    const state = quoteFrom(instrument, states.get(symbol));
    states.set(symbol, state);
    ticksTotal += 1;
    const update: MarketUpdate = { instrumentId: instrument.instrumentId, marketData: marketDataOf(instrument, state), timestamp: state.lastTime };
    for (const listener of listeners) listener(update);
  }

  function step(): void {
    const at = now();
    carry += (settings.ticksPerSecond * (at - lastStep)) / 1000;
    lastStep = at;
    // After a stall (a busy event loop), catch up at most one second of ticks.
    const count = Math.min(Math.floor(carry), Math.ceil(settings.ticksPerSecond));
    carry -= Math.floor(carry);
    for (let i = 0; i < count; i++) tickOne();
  }

  return {
    get running(): boolean {
      return timer != null;
    },
    get ticksPerSecond(): number {
      return settings.ticksPerSecond;
    },
    get ticksTotal(): number {
      return ticksTotal;
    },
    start(): void {
      if (timer || instruments.length === 0) return;
      lastStep = now();
      carry = 0;
      timer = setInterval(step, 20);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },
    setRate(ticksPerSecond: number): void {
      settings = { ...settings, ticksPerSecond };
    },
    onUpdate(listener: (update: MarketUpdate) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /**
     * The instruments it moves from now on (the catalogue rolled): a new one starts from its
     * fair value, one no longer listed stops trading and is forgotten.
     */
    setInstruments(next: Instrument[]): void {
      const symbols = new Set(next.map((instrument) => instrument.instrumentId.symbol));
      for (const symbol of states.keys()) if (!symbols.has(symbol)) states.delete(symbol);
      for (const instrument of next)
        if (!states.has(instrument.instrumentId.symbol)) states.set(instrument.instrumentId.symbol, quoteFrom(instrument, undefined));
      instruments = [...next];
    },
    /** Moves the market by `count` ticks at once (tests and benchmarks drive it this way). */
    advance(count: number): void {
      for (let i = 0; i < count; i++) tickOne();
    },
    snapshot(symbol: string): MarketData | null {
      const instrument = catalogue.resolve(symbol);
      const state = instrument ? states.get(instrument.instrumentId.symbol) : undefined;
      return instrument && state ? marketDataOf(instrument, state) : null;
    },
    lastPrice(symbol: string): number | null {
      const instrument = catalogue.resolve(symbol);
      return (instrument && states.get(instrument.instrumentId.symbol)?.last) ?? null;
    },
    drivers(): { spot: number; rate: number; mep: number; ccl: number } {
      const { spot, rate, mep, ccl } = drivers.values;
      return { spot, rate, mep, ccl };
    },
  };
}
export type Simulator = ReturnType<typeof createSimulator>;
