// The simulator's drivers: the few slow quantities every price is derived from (spot dollar,
// the DLR curve's implied rate, MEP, CCL, and a level per share, bond, crop and index). Each
// wanders around its reference in an Ornstein–Uhlenbeck walk, so nothing drifts away however
// long the server runs.
import type { Instrument } from '../catalogue.js';
import { REFERENCE_PRICES } from '../catalogue.js';
import { normal } from '../random.js';

/** The references the drivers return to, and the simulator's pace. */
export interface DriverSettings {
  /** Price changes per second across all the instruments of this feed. */
  ticksPerSecond: number;
  /** The DLR curve's implied nominal annual rate (0.30 = 30 %) it drifts around. */
  dlrRate: number;
  spot: number;
  mep: number;
  ccl: number;
}

/** The drivers' values now. */
export interface DriverValues {
  spot: number;
  rate: number;
  mep: number;
  ccl: number;
  /** Per product: share price, bond USD value, crop price, index level. */
  level: Map<string, number>;
}

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

/** AL30D and AL30C are lines of AL30 (no bond ticker of the catalogue ends in D or C). */
export const bondBase = (ticker: string): string => ticker.replace(/[DC]$/, '');

export function createDrivers(initial: DriverSettings, random: () => number) {
  const values: DriverValues = { spot: initial.spot, rate: initial.dlrRate, mep: initial.mep, ccl: initial.ccl, level: new Map() };
  for (const [ticker, price] of Object.entries(REFERENCE_PRICES.stocks)) values.level.set(ticker, price);
  for (const [ticker, usd] of Object.entries(REFERENCE_PRICES.bonds)) values.level.set(ticker, usd);
  for (const [ticker, price] of Object.entries(REFERENCE_PRICES.cedears)) values.level.set(ticker, price);
  for (const [product, price] of Object.entries(REFERENCE_PRICES.agro)) values.level.set(product, price);
  for (const [product, price] of Object.entries(REFERENCE_PRICES.commodities)) values.level.set(product, price);
  values.level.set('I.RFX20', REFERENCE_PRICES.rfx20);
  values.level.set('I.MERVAL', REFERENCE_PRICES.merval);

  /**
   * The simulator's own clock, in seconds: each tick is 1/ticksPerSecond of it, so a quiet
   * market and a benchmark at thousands of ticks a second move as much per minute.
   */
  let clock = 0;
  /** When (on that clock) each driver last moved. */
  const movedAt = new Map<string, number>();
  /** What each level driver returns to: its reference price. */
  const references = new Map(values.level);

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

  return {
    values,

    /** Moves the clock one tick and the drivers an instrument depends on to it. */
    move(instrument: Instrument, settings: DriverSettings): void {
      clock += 1 / Math.max(settings.ticksPerSecond, 1e-6);
      values.spot = wanderPrice('spot', values.spot, settings.spot, DRIVER_MODELS.spot);
      values.rate = wander('rate', values.rate, settings.dlrRate, DRIVER_MODELS.rate);
      values.mep = wanderPrice('mep', values.mep, settings.mep, DRIVER_MODELS.dollar);
      values.ccl = wanderPrice('ccl', values.ccl, settings.ccl, DRIVER_MODELS.dollar);
      // Shares, bonds and crops have a level of their own, moved when they trade; indices follow the shares.
      const own = instrument.kind === 'bond' ? bondBase(instrument.product) : instrument.product;
      const reference = references.get(own);
      if (instrument.kind !== 'index' && reference != null) {
        const model = instrument.kind === 'stock' ? DRIVER_MODELS.share : instrument.kind === 'bond' ? DRIVER_MODELS.bond : DRIVER_MODELS.other;
        values.level.set(own, wanderPrice(own, values.level.get(own)!, reference, model));
      }
      if (instrument.kind === 'stock' || instrument.kind === 'index' || instrument.product === 'RFX20') {
        for (const index of ['I.MERVAL', 'I.RFX20'])
          values.level.set(index, wanderPrice(index, values.level.get(index)!, references.get(index)!, DRIVER_MODELS.index));
      }
    },
  };
}
