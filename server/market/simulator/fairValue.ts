// The instruments' price model: the price the drivers imply for each kind of instrument (the
// DLR curve at the implied rate, bonds in pesos, MEP and cable dollars, options by Black-76).
import { calendarDaysBetween, parseYyyymmdd } from '../../../src/lib/calendar.js';
import { REFERENCE_PRICES, type Catalogue, type Instrument } from '../catalogue.js';
import { bondBase, type DriverValues } from './drivers.js';

const OPTION_VOLATILITY = 0.25;

/** Normal CDF (Abramowitz–Stegun 7.1.26), for option prices. */
function normalCdf(x: number): number {
  const t = 1 / (1 + (0.3275911 * Math.abs(x)) / Math.SQRT2);
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

/** The price the drivers imply for an instrument now. */
export function fairValueModel(catalogue: Catalogue, drivers: DriverValues, now: () => number) {
  const yearsTo = (instrument: Instrument): number => {
    const maturity = instrument.maturityDate ? parseYyyymmdd(instrument.maturityDate) : null;
    return maturity ? Math.max(0, calendarDaysBetween(new Date(now()), maturity)) / 365 : 0;
  };

  return function fairValue(instrument: Instrument): number {
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
  };
}
