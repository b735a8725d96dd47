// The two data centers of the spec (issue 4): `rofex` (futures exchange) and `tv` (BYMA
// securities), each a source of market updates into the hub. The simulator is the default
// source; the admin can stop, start and pace each feed.
import { yyyymmdd } from '../../src/lib/calendar.js';
import type { MarketUpdate } from '../../src/protocol/market.js';
import { FeedName } from '../../src/protocol/market.js';
import { createTradingCalendar, DAY_MS, marketDayOf, type TradingCalendar } from './calendar.js';
import { buildCatalogue, type Catalogue, type Instrument } from './catalogue.js';
import type { Hub } from './hub.js';
import { createMarketModel, type MarketModel } from './model/market.js';
import { createSimulator, type Simulator, type SimulatorSettings } from './simulator.js';
import { createPrimaryFeed, type PrimaryFeed, type PrimarySettings } from './primaryFeed.js';
import { createExchangeHistory, type ExchangeHistory } from './exchangeHistory.js';
import type { StreamStateName } from './primary/types.js';

export const FEED_NAMES: readonly FeedName[] = FeedName.options;

/** How often the catalogue checks whether a day has passed (contracts expire, new months list). */
const ROLL_CHECK_MS = 60_000;

export interface FeedStatus {
  name: FeedName;
  source: 'simulator' | 'primary';
  state: 'running' | 'stopped';
  /** Configured pace, ticks per second. */
  rate: number;
  /** Updates published per second, averaged over the last minute. */
  ticksPerSecond: number;
  /** Updates published per second over the last few seconds (METER_RECENT_SECONDS). */
  recentTicksPerSecond: number;
  /** Updates per second of each METER_SAMPLE_SECONDS over the last METER_HISTORY_SECONDS, oldest first. */
  samples: number[];
  /** Epoch ms since the feed is in its state (started or stopped) in this process. */
  since: number;
  instruments: number;
  lastError: string | null;
}

/** Seconds of history a feed's meter keeps: the admin's sparkline of the last minutes. */
export const METER_HISTORY_SECONDS = 600;
/** Seconds each sample of the history averages. */
export const METER_SAMPLE_SECONDS = 10;
/** Seconds the "now" rate averages: short, so a new pace shows within seconds. */
export const METER_RECENT_SECONDS = 5;

/** Counts events per second over the last METER_HISTORY_SECONDS seconds (a ring of per-second buckets). */
export function createRateMeter(now: () => number) {
  const size = METER_HISTORY_SECONDS;
  const buckets = new Array<number>(size).fill(0);
  let currentSecond = Math.floor(now() / 1000);
  const roll = () => {
    const second = Math.floor(now() / 1000);
    for (let s = currentSecond + 1; s <= second && s <= currentSecond + size; s++) buckets[s % size] = 0;
    currentSecond = Math.max(currentSecond, second);
  };
  /** Events of the `count` whole seconds that end `endAgo` seconds before the current one. */
  const sum = (count: number, endAgo: number) => {
    let total = 0;
    for (let back = endAgo; back < endAgo + count; back++) total += buckets[(((currentSecond - back) % size) + size) % size]!;
    return total;
  };
  return {
    add(): void {
      roll();
      buckets[currentSecond % size]! += 1;
    },
    /** Averaged over the last minute (the current second included). */
    perSecond(): number {
      roll();
      return sum(60, 0) / 60;
    },
    /** Averaged over the last METER_RECENT_SECONDS whole seconds. */
    recent(): number {
      roll();
      return sum(METER_RECENT_SECONDS, 1) / METER_RECENT_SECONDS;
    },
    /** Per second, averaged over each METER_SAMPLE_SECONDS of the history's whole seconds, oldest first. */
    samples(): number[] {
      roll();
      const count = Math.floor((size - 1) / METER_SAMPLE_SECONDS);
      return Array.from({ length: count }, (_, index) => sum(METER_SAMPLE_SECONDS, 1 + (count - 1 - index) * METER_SAMPLE_SECONDS) / METER_SAMPLE_SECONDS);
    },
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

export function createFeeds(options: {
  hub: Hub;
  simulator: Omit<SimulatorSettings, 'ticksPerSecond'>;
  ticksPerSecond: number;
  now: () => number;
  /** When set, the rofex feed is the real exchange instead of the simulator. */
  primary?: PrimarySettings | null;
  /** Trading days and session hours (the default hours when not given). */
  calendar?: TradingCalendar;
  /** 'demo' (default): the simulator trades at any hour; 'real': only in each market's session. */
  simCalendar?: 'demo' | 'real';
  log?: { warn(obj: unknown, msg: string): void; info?(msg: string): void };
}) {
  const { hub, now } = options;
  const calendar = options.calendar ?? createTradingCalendar();
  /** Today where the market is, as the UTC midnight of that date (the catalogue's days). */
  const marketToday = () => new Date(marketDayOf(now()) * DAY_MS);
  const catalogue: Catalogue = buildCatalogue(marketToday(), options.simulator, calendar);
  const model: MarketModel = createMarketModel(catalogue, calendar, options.simulator);
  const feeds = new Map<FeedName, { simulator: Simulator; meter: ReturnType<typeof createRateMeter>; instruments: Instrument[] }>();
  /** Counts an update on the feed's meter and hands it to the hub. */
  const publisher = (meter: ReturnType<typeof createRateMeter>) => (update: MarketUpdate) => {
    meter.add();
    hub.publish(update);
  };

  for (const [index, name] of FEED_NAMES.entries()) {
    const instruments = catalogue.instruments.filter((instrument) => instrument.feed === name);
    const simulator = createSimulator({
      catalogue,
      model,
      instruments,
      ticksPerSecond: options.ticksPerSecond,
      calendar: options.simCalendar ?? 'demo',
      seed: options.simulator.seed + index,
      now,
    });
    const meter = createRateMeter(now);
    simulator.onUpdate(publisher(meter));
    feeds.set(name, { simulator, meter, instruments });
  }

  const feed = (name: FeedName) => feeds.get(name)!;
  /** Each feed's state as last seen, and since when. */
  const states = new Map<FeedName, { running: boolean; since: number }>(FEED_NAMES.map((name) => [name, { running: false, since: now() }]));
  const isRunning = (name: FeedName) => (usesExchange(name) ?? feed(name).simulator).running;
  /** Notes a change of the feed's state, with its time. */
  const mark = (name: FeedName) => {
    const running = isRunning(name);
    if (states.get(name)!.running !== running) states.set(name, { running, since: now() });
    return states.get(name)!;
  };

  /** The market's day (YYYYMMDD) the list of contracts is for. */
  let listedFor = yyyymmdd(marketToday());
  let rollTimer: NodeJS.Timeout | null = null;

  /**
   * A new day: contracts that expired are taken off the list (they no longer resolve, are not
   * found, stop trading) and the months that now fall within the curve are listed, so a server
   * that runs for months keeps DLR/MMMYY for the next 12 months. The same date always lists the
   * same contracts, in every process.
   */
  function roll(): void {
    const today = marketToday();
    const day = yyyymmdd(today);
    if (day === listedFor) return;
    listedFor = day;
    const fresh = buildCatalogue(today, options.simulator, calendar);
    // A contract still trades on its expiry day.
    const expired = catalogue.instruments.filter((instrument) => instrument.maturityDate != null && instrument.maturityDate < day);
    const listed = fresh.instruments.filter((instrument) => !catalogue.resolve(instrument.instrumentId.symbol));
    for (const instrument of expired) catalogue.remove(instrument.instrumentId.symbol);
    for (const instrument of listed) catalogue.add(instrument, fresh.referencePrice.get(instrument.instrumentId.symbol) ?? 0);
    const gone = new Set(expired);
    for (const [name, entry] of feeds) {
      // The simulator's own contracts only: what the exchange lists beside them has no model here.
      entry.instruments = [...entry.instruments.filter((instrument) => !gone.has(instrument)), ...listed.filter((instrument) => instrument.feed === name)];
      entry.simulator.setInstruments(entry.instruments);
      // A running simulated feed publishes its new contracts at once, as it did all at its start.
      if (!entry.simulator.running) continue;
      for (const instrument of listed) {
        if (instrument.feed !== name) continue;
        const md = entry.simulator.snapshot(instrument.instrumentId.symbol);
        if (md) hub.publish({ instrumentId: instrument.instrumentId, marketData: md, timestamp: now() });
      }
    }
    primaryRofex?.refreshInstruments();
    if (expired.length > 0 || listed.length > 0) options.log?.info?.(`catalogue for ${day}: ${expired.length} expired, ${listed.length} listed`);
  }

  let primaryRofex: PrimaryFeed | null = null;
  if (options.primary) {
    primaryRofex = createPrimaryFeed({
      settings: options.primary,
      hub,
      catalogue,
      log: options.log ?? { warn: () => {} },
      onUpdate: publisher(feed('rofex').meter),
    });
  }
  const usesExchange = (name: FeedName): PrimaryFeed | null => (name === 'rofex' ? primaryRofex : null);
  /** The exchange's history, for the instruments of the feed it runs. */
  const exchangeHistory: ExchangeHistory | null = primaryRofex ? createExchangeHistory({ trades: primaryRofex.trades, calendar }) : null;

  /** Starts a feed, first publishing every instrument's state so subscriptions answer a snapshot at once. */
  function start(name: FeedName): void {
    const exchange = usesExchange(name);
    if (exchange) {
      exchange.start();
      mark(name);
      return;
    }
    const { simulator, instruments } = feed(name);
    if (simulator.running) return;
    for (const instrument of instruments) {
      const md = simulator.snapshot(instrument.instrumentId.symbol);
      if (md) hub.publish({ instrumentId: instrument.instrumentId, marketData: md, timestamp: now() });
    }
    simulator.start();
    mark(name);
  }

  return {
    catalogue,
    /** The simulated market: its history, sessions and prices at any instant. */
    model,
    /** The history of an instrument of a feed the real exchange runs, or null (the model's then). */
    exchangeHistoryOf(instrument: Instrument): ExchangeHistory | null {
      return usesExchange(instrument.feed) ? exchangeHistory : null;
    },
    calendar,
    isFeed(name: string): name is FeedName {
      return (FEED_NAMES as string[]).includes(name);
    },
    startAll(): void {
      for (const name of FEED_NAMES) start(name);
    },
    stopAll(): void {
      for (const { simulator } of feeds.values()) simulator.stop();
      primaryRofex?.close();
      for (const name of FEED_NAMES) mark(name);
      if (rollTimer) clearInterval(rollTimer);
      rollTimer = null;
    },
    /** Checks every minute whether a day has passed, and rolls the catalogue when one has. */
    keepListed(): void {
      if (rollTimer) return;
      rollTimer = setInterval(roll, ROLL_CHECK_MS);
      rollTimer.unref();
    },
    roll,
    start,
    /** Stops a feed here; with Redis, another process may run it from now on. */
    stop(name: FeedName): void {
      const exchange = usesExchange(name);
      if (exchange) exchange.stop();
      else feed(name).simulator.stop();
      mark(name);
      hub.released(feed(name).instruments.map((instrument) => instrument.instrumentId.symbol));
    },
    /** The pace of a simulated feed; false for a feed on the real exchange, which sets its own. */
    setRate(name: FeedName, ticksPerSecond: number): boolean {
      if (usesExchange(name)) return false;
      feed(name).simulator.setRate(ticksPerSecond);
      return true;
    },
    /** Moves a feed's market by `count` ticks at once (tests and benchmarks). */
    advance(name: FeedName, count: number): void {
      feed(name).simulator.advance(count);
    },
    status(name: FeedName): FeedStatus {
      const { simulator, meter } = feed(name);
      const exchange = usesExchange(name);
      const { running, since } = mark(name);
      return {
        name,
        source: exchange ? 'primary' : 'simulator',
        state: running ? 'running' : 'stopped',
        rate: exchange ? 0 : simulator.ticksPerSecond,
        ticksPerSecond: round1(meter.perSecond()),
        recentTicksPerSecond: round1(meter.recent()),
        samples: meter.samples().map(round1),
        since,
        instruments: catalogue.instruments.filter((instrument) => instrument.feed === name).length,
        lastError: exchange ? exchange.lastError : null,
      };
    },
    /** The exchange connection of a feed on the real exchange; null for a simulated feed. */
    connection(name: FeedName): StreamStateName | null {
      return usesExchange(name)?.connection ?? null;
    },
    /** The last traded price a feed knows for a symbol (any written form). */
    lastPrice(symbol: string): number | null {
      const instrument = catalogue.resolve(symbol);
      if (!instrument) return null;
      const exchange = usesExchange(instrument.feed);
      return (exchange ?? feed(instrument.feed).simulator).lastPrice(instrument.instrumentId.symbol);
    },
  };
}
export type Feeds = ReturnType<typeof createFeeds>;
