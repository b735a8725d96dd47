// The default feed: a seeded random walk on each instrument's tick size that keeps markets
// coherent. Shared drivers move slowly (spot dollar, implied rate, MEP, CCL, each bond's
// dollar value, each share, each crop) and every price is derived from them, so the DLR
// curve sits above spot at the implied rate and AL30 / AL30D, AL30 / AL30C imply MEP and CCL.
import { calendarDaysBetween, parseYyyymmdd } from '../../src/lib/calendar.js';
import type { MarketData, MarketUpdate } from '../../src/protocol/market.js';
import { REFERENCE_PRICES, type Catalogue, type Instrument } from './catalogue.js';
import { hashText, normal, roundToTick, seededRandom } from './random.js';

export interface SimulatorSettings {
  seed: number;
  /** Price changes per second across all the instruments of this feed. */
  ticksPerSecond: number;
  /** The DLR curve's implied nominal annual rate (0.30 = 30 %) it drifts around. */
  dlrRate: number;
  spot: number;
  mep: number;
  ccl: number;
}

interface QuoteState {
  last: number;
  lastSize: number;
  lastTime: number;
  bid: number;
  ask: number;
  bidSize: number;
  askSize: number;
  open: number;
  high: number;
  low: number;
  previousClose: number;
  volume: number;
  openInterest: number;
}

const OPTION_VOLATILITY = 0.25;

/** The trading day of an instant in Buenos Aires (UTC−3, no daylight saving): days since the epoch. */
const sessionDayOf = (ms: number) => Math.floor((ms - 3 * 3_600_000) / 86_400_000);

/** How a driver wanders around its reference: the spread it settles into, and how fast it returns. */
interface DriverModel {
  /** Standard deviation around the reference (log terms for prices, points for the rate). */
  sd: number;
  halfLifeHours: number;
}

const DRIVER_MODELS = {
  /** The official dollar: ±1.5 % around SIM_SPOT, half way back in a day. */
  spot: { sd: 0.015, halfLifeHours: 24 },
  /** The DLR curve's implied rate: ±2 points around SIM_DLR_RATE_PCT. */
  rate: { sd: 0.02, halfLifeHours: 2 },
  /** MEP and CCL: ±1 % around their settings. */
  dollar: { sd: 0.01, halfLifeHours: 4 },
  share: { sd: 0.06, halfLifeHours: 48 },
  /** A bond's dollar value. */
  bond: { sd: 0.03, halfLifeHours: 48 },
  index: { sd: 0.04, halfLifeHours: 48 },
  /** Crops, commodities, CEDEARs. */
  other: { sd: 0.04, halfLifeHours: 48 },
} satisfies Record<string, DriverModel>;

/** Normal CDF (Abramowitz–Stegun 7.1.26), for option prices. */
function normalCdf(x: number): number {
  const t = 1 / (1 + 0.3275911 * Math.abs(x) / Math.SQRT2);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Black-76 price of an option on a future. */
function black76(forward: number, strike: number, years: number, type: 'C' | 'P'): number {
  if (years <= 0) return Math.max(0, type === 'C' ? forward - strike : strike - forward);
  const sd = OPTION_VOLATILITY * Math.sqrt(years);
  const d1 = (Math.log(forward / strike) + (sd * sd) / 2) / sd;
  const d2 = d1 - sd;
  return type === 'C' ? forward * normalCdf(d1) - strike * normalCdf(d2) : strike * normalCdf(-d2) - forward * normalCdf(-d1);
}

export function createSimulator(catalogue: Catalogue, listed: Instrument[], initial: SimulatorSettings, now: () => number = Date.now) {
  /** The instruments it moves: the feed's list, which changes when the catalogue rolls. */
  let instruments = [...listed];
  let settings = { ...initial };
  const random = seededRandom(settings.seed);
  const drivers = {
    spot: settings.spot,
    rate: settings.dlrRate,
    mep: settings.mep,
    ccl: settings.ccl,
    /** Per product: share price, bond USD value, crop price, index level. */
    level: new Map<string, number>(),
  };
  for (const [ticker, price] of Object.entries(REFERENCE_PRICES.stocks)) drivers.level.set(ticker, price);
  for (const [ticker, usd] of Object.entries(REFERENCE_PRICES.bonds)) drivers.level.set(ticker, usd);
  for (const [ticker, price] of Object.entries(REFERENCE_PRICES.cedears)) drivers.level.set(ticker, price);
  for (const [product, price] of Object.entries(REFERENCE_PRICES.agro)) drivers.level.set(product, price);
  for (const [product, price] of Object.entries(REFERENCE_PRICES.commodities)) drivers.level.set(product, price);
  drivers.level.set('I.RFX20', REFERENCE_PRICES.rfx20);
  drivers.level.set('I.MERVAL', REFERENCE_PRICES.merval);

  const yearsTo = (instrument: Instrument): number => {
    const maturity = instrument.maturityDate ? parseYyyymmdd(instrument.maturityDate) : null;
    return maturity ? Math.max(0, calendarDaysBetween(new Date(now()), maturity)) / 365 : 0;
  };

  /** AL30D and AL30C are lines of AL30 (no bond ticker of the catalogue ends in D or C). */
  const bondBase = (ticker: string): string => ticker.replace(/[DC]$/, '');

  /** The price the drivers imply for an instrument now. */
  function fairValue(instrument: Instrument): number {
    const { product } = instrument;
    switch (instrument.kind) {
      case 'spot':
        return drivers.spot;
      case 'future': {
        const years = yearsTo(instrument);
        if (product === 'DLR') return drivers.spot * (1 + drivers.rate * years);
        if (product === 'RFX20') return drivers.level.get('I.RFX20')! * (1 + drivers.rate * 0.9 * years);
        // Single-stock futures carry at the peso rate; crops and commodities at a dollar rate.
        if ((REFERENCE_PRICES.stockFutures as readonly string[]).includes(product)) return drivers.level.get(product)! * (1 + drivers.rate * years);
        return (drivers.level.get(product) ?? 1) * (1 + 0.05 * years);
      }
      case 'spread': {
        const [near, far] = instrument.legs!;
        return fairValue(catalogue.resolve(far)!) - fairValue(catalogue.resolve(near)!);
      }
      case 'option': {
        const underlying = catalogue.resolve(instrument.underlying!)!;
        return black76(fairValue(underlying), instrument.strike!, yearsTo(instrument), instrument.optionType!);
      }
      case 'index': {
        if (product === 'I.RFX20') return drivers.level.get('I.RFX20')!;
        return drivers.level.get('I.MERVAL')!;
      }
      case 'bond': {
        // AL30 in pesos, AL30D in MEP dollars, AL30C in cable dollars: one dollar value, three lines.
        const usd = drivers.level.get(bondBase(product)) ?? 1;
        const price = product.endsWith('D') ? usd : product.endsWith('C') ? (usd * drivers.mep) / drivers.ccl : usd * drivers.mep;
        // Cash (CI) trades a day's carry below the 24hs line.
        return instrument.term === 'CI' ? price * (1 - drivers.rate / 365) : price;
      }
      case 'other':
        // Unclassified exchange listings have no model: they hold their own level.
        return drivers.level.get(product) ?? 1;
      case 'stock': {
        const price = drivers.level.get(product) ?? 1;
        return instrument.term === 'CI' ? price * (1 - drivers.rate / 365) : price;
      }
    }
  }

  /**
   * The simulator's own clock, in seconds: each tick is 1/ticksPerSecond of it, so a quiet
   * market and a benchmark at thousands of ticks a second move as much per minute.
   */
  let clock = 0;
  /** When (on that clock) each driver last moved. */
  const movedAt = new Map<string, number>();
  /** What each level driver returns to: its reference price. */
  const references = new Map(drivers.level);

  /**
   * One exact step of an Ornstein–Uhlenbeck walk of `x` around `mean` over the time since the
   * driver `key` last moved: it settles into a spread `sd` around the mean and returns half way
   * to it in `halfLifeHours`, so nothing drifts away however long the server runs.
   */
  function wander(key: string, x: number, mean: number, { sd, halfLifeHours }: DriverModel): number {
    const dt = clock - (movedAt.get(key) ?? clock);
    movedAt.set(key, clock);
    if (dt <= 0) return x;
    const keep = Math.exp((-Math.LN2 * dt) / (halfLifeHours * 3600));
    return mean + (x - mean) * keep + sd * Math.sqrt(1 - keep * keep) * normal(random);
  }
  /** `wander` of a price, in log terms around its reference. */
  const wanderPrice = (key: string, price: number, reference: number, model: DriverModel) => Math.exp(wander(key, Math.log(price), Math.log(reference), model));

  /** Moves the drivers an instrument depends on to the simulator's clock. */
  function moveDrivers(instrument: Instrument): void {
    clock += 1 / Math.max(settings.ticksPerSecond, 1e-6);
    drivers.spot = wanderPrice('spot', drivers.spot, settings.spot, DRIVER_MODELS.spot);
    drivers.rate = wander('rate', drivers.rate, settings.dlrRate, DRIVER_MODELS.rate);
    drivers.mep = wanderPrice('mep', drivers.mep, settings.mep, DRIVER_MODELS.dollar);
    drivers.ccl = wanderPrice('ccl', drivers.ccl, settings.ccl, DRIVER_MODELS.dollar);
    // Shares, bonds and crops have a level of their own, moved when they trade; indices follow the shares.
    const own = instrument.kind === 'bond' ? bondBase(instrument.product) : instrument.product;
    const reference = references.get(own);
    if (instrument.kind !== 'index' && reference != null) {
      const model = instrument.kind === 'stock' ? DRIVER_MODELS.share : instrument.kind === 'bond' ? DRIVER_MODELS.bond : DRIVER_MODELS.other;
      drivers.level.set(own, wanderPrice(own, drivers.level.get(own)!, reference, model));
    }
    if (instrument.kind === 'stock' || instrument.kind === 'index' || instrument.product === 'RFX20') {
      for (const index of ['I.MERVAL', 'I.RFX20']) drivers.level.set(index, wanderPrice(index, drivers.level.get(index)!, references.get(index)!, DRIVER_MODELS.index));
    }
  }

  const states = new Map<string, QuoteState>();
  function quoteFrom(instrument: Instrument, previous: QuoteState | undefined): QuoteState {
    const tick = instrument.minPriceIncrement;
    const fair = Math.max(fairValue(instrument), tick);
    const last = Math.max(tick, roundToTick(fair + tick * Math.round(normal(random)), tick));
    const halfSpread = tick * (1 + Math.floor(random() * 3));
    const lotScale = instrument.kind === 'stock' || instrument.kind === 'bond' ? 100 : 1;
    const lastSize = (1 + Math.floor(random() * 20)) * lotScale;
    const at = now();
    // A new day in Buenos Aires is a new session: yesterday's last is the close it compares to.
    const carried = previous && sessionDayOf(previous.lastTime) === sessionDayOf(at) ? previous : undefined;
    const base = carried ?? {
      last,
      lastSize,
      lastTime: at,
      bid: last,
      ask: last,
      bidSize: 0,
      askSize: 0,
      open: last,
      high: last,
      low: last,
      previousClose: previous ? previous.last : roundToTick(last * Math.exp(0.01 * normal(random)), tick),
      volume: 0,
      openInterest: previous ? previous.openInterest : instrument.kind === 'future' || instrument.kind === 'option' ? 1000 + Math.floor(random() * 50_000) : 0,
    };
    return {
      ...base,
      last,
      lastSize,
      lastTime: at,
      bid: roundToTick(Math.max(tick, last - halfSpread), tick),
      ask: roundToTick(last + halfSpread, tick),
      bidSize: (1 + Math.floor(random() * 50)) * lotScale,
      askSize: (1 + Math.floor(random() * 50)) * lotScale,
      high: Math.max(base.high, last),
      low: Math.min(base.low, last),
      volume: base.volume + (carried ? lastSize : 0),
    };
  }

  function marketDataOf(instrument: Instrument, state: QuoteState): MarketData {
    const md: MarketData = {
      BI: [{ price: state.bid, size: state.bidSize }],
      OF: [{ price: state.ask, size: state.askSize }],
      LA: { price: state.last, size: state.lastSize, date: state.lastTime },
      OP: state.open,
      HI: state.high,
      LO: state.low,
      CL: { price: state.previousClose },
      TV: state.volume,
    };
    if (instrument.kind === 'future' || instrument.kind === 'option') {
      md.SE = { price: state.previousClose };
      md.OI = { size: state.openInterest };
    }
    if (instrument.kind === 'index') {
      md.IV = state.last;
      delete md.BI;
      delete md.OF;
    }
    return md;
  }

  for (const instrument of instruments) states.set(instrument.instrumentId.symbol, quoteFrom(instrument, undefined));

  const listeners = new Set<(update: MarketUpdate) => void>();
  let timer: NodeJS.Timeout | null = null;
  let carry = 0;
  let lastStep = now();
  let ticksTotal = 0;

  function tickOne(): void {
    const instrument = instruments[Math.floor(random() * instruments.length)]!;
    moveDrivers(instrument);
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
      for (const instrument of next) if (!states.has(instrument.instrumentId.symbol)) states.set(instrument.instrumentId.symbol, quoteFrom(instrument, undefined));
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
      return { spot: drivers.spot, rate: drivers.rate, mep: drivers.mep, ccl: drivers.ccl };
    },
  };
}
export type Simulator = ReturnType<typeof createSimulator>;
