// A simulated instrument's quote: each trade near the fair value, a book around it, and the
// session's open, high, low, volume and previous close, which start again each trading day in
// Buenos Aires. And the quote as the exchange's market data.
import type { MarketData } from '../../../src/protocol/market.js';
import type { Instrument } from '../catalogue.js';
import { normal, roundToTick } from '../random.js';

export interface QuoteState {
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

/** The trading day of an instant in Buenos Aires (UTC−3, no daylight saving): days since the epoch. */
const sessionDayOf = (ms: number) => Math.floor((ms - 3 * 3_600_000) / 86_400_000);

/** The quote after a trade at about `fairValue` (the first one when there is no `previous`). */
export function nextQuote(instrument: Instrument, previous: QuoteState | undefined, fairValue: number, random: () => number, now: () => number): QuoteState {
  const tick = instrument.minPriceIncrement;
  const fair = Math.max(fairValue, tick);
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

export function marketDataOf(instrument: Instrument, state: QuoteState): MarketData {
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
