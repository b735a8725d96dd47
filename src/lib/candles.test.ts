import { describe, expect, it } from 'vitest';
import {
  roundStep,
  aggregateCandles,
  chartSeriesSpec,
  dayTime,
  effectiveInterval,
  formulaLine,
  historyKey,
  historyRequest,
  liveCandle,
  tradedSince,
  livePoint,
  marketDate,
  marketSeconds,
  candlesReader,
  indexAtOrBefore,
  pointsReader,
  valueAndChange,
  needsPercentScale,
  sessionCandle,
  inSession,
  changeAgainst,
  type Candle,
} from './candles';
import { parseFormula } from './formula';

const minute = (hh: number, mm: number) => Date.UTC(2026, 10, 20, hh, mm) / 1000; // market seconds of 2026-11-20 hh:mm
const candle = (time: number, open: number, high: number, low: number, close: number, volume = 10): Candle => ({ time, open, high, low, close, volume });

describe('market time', () => {
  it('writes Buenos Aires wall-clock time as if it were UTC', () => {
    // 14:00 UTC is 11:00 in Buenos Aires.
    expect(marketSeconds(Date.UTC(2026, 10, 20, 14, 0, 30))).toBe(minute(11, 0) + 30);
    expect(dayTime('2026-11-20')).toBe(minute(0, 0));
    expect(dayTime('20261120')).toBeNull();
    expect(marketDate(minute(16, 59))).toBe('2026-11-20');
  });
});

describe('range → request', () => {
  it('asks the minutes of the last 1 or 5 sessions for intraday intervals', () => {
    expect(historyRequest('1d', '1m')).toEqual({ kind: 'intraday', sessions: 1 });
    expect(historyRequest('5d', '15m')).toEqual({ kind: 'intraday', sessions: 5 });
    expect(historyKey(historyRequest('5d', '5m'))).toBe(historyKey(historyRequest('5d', '1h')));
  });

  it('asks daily candles by the range, never more than the spec’s 2,520', () => {
    expect(historyRequest('1M', '1d')).toEqual({ kind: 'daily', limit: 22 });
    expect(historyRequest('3M', '1d')).toEqual({ kind: 'daily', limit: 66 });
    expect(historyRequest('1Y', '1d')).toEqual({ kind: 'daily', limit: 252 });
    expect(historyRequest('10Y', '1d')).toEqual({ kind: 'daily', limit: 2520 });
    expect(historyRequest('5d', '1d')).toEqual({ kind: 'daily', limit: 5 });
  });

  it('draws a long range daily even when the interval asked is intraday', () => {
    expect(effectiveInterval('3M', '5m')).toBe('1d');
    expect(effectiveInterval('5d', '5m')).toBe('5m');
    expect(historyRequest('6M', '1h')).toEqual({ kind: 'daily', limit: 130 });
  });
});

describe('aggregateCandles', () => {
  const minutes = [
    candle(minute(11, 0), 10, 11, 9, 10.5, 1),
    candle(minute(11, 1), 10.5, 12, 10, 11, 2),
    candle(minute(11, 4), 11, 11.5, 8, 9, 3),
    candle(minute(11, 5), 9, 9.5, 8.5, 9.2, 4),
    candle(minute(11, 59), 9.2, 9.3, 9.1, 9.25, 5),
    candle(minute(12, 0), 9.25, 9.4, 9.2, 9.3, 6),
  ];

  it('gathers minutes into 5-minute periods: first open, last close, extremes, volumes added', () => {
    expect(aggregateCandles(minutes, '5m')).toEqual([
      candle(minute(11, 0), 10, 12, 8, 9, 6),
      candle(minute(11, 5), 9, 9.5, 8.5, 9.2, 4),
      candle(minute(11, 55), 9.2, 9.3, 9.1, 9.25, 5),
      candle(minute(12, 0), 9.25, 9.4, 9.2, 9.3, 6),
    ]);
  });

  it('starts hours on the market’s hour and 15 minutes on the quarter', () => {
    expect(aggregateCandles(minutes, '1h').map((c) => [c.time, c.open, c.close, c.volume])).toEqual([
      [minute(11, 0), 10, 9.25, 15],
      [minute(12, 0), 9.25, 9.3, 6],
    ]);
    expect(aggregateCandles(minutes, '15m').map((c) => c.time)).toEqual([minute(11, 0), minute(11, 45), minute(12, 0)]);
  });

  it('leaves minutes as they are at 1m and answers nothing for nothing', () => {
    expect(aggregateCandles(minutes, '1m')).toEqual(minutes);
    expect(aggregateCandles([], '1h')).toEqual([]);
  });
});

describe('formulaLine', () => {
  const parsed = parseFormula('BYMA:AL30/BYMA:AL30D');
  if (!parsed.ok) throw new Error(parsed.error);

  it('divides the legs’ closes at each time and leaves a gap where a leg has no candle, not a zero', () => {
    const legs = new Map([
      ['BYMA:AL30', [candle(1, 0, 0, 0, 1000), candle(2, 0, 0, 0, 1100), candle(4, 0, 0, 0, 1200)]],
      ['BYMA:AL30D', [candle(1, 0, 0, 0, 1), candle(3, 0, 0, 0, 1.1), candle(4, 0, 0, 0, 1.2)]],
    ]);
    expect(formulaLine(parsed.ast, legs)).toEqual([
      { time: 1, value: 1000 },
      { time: 2, value: null },
      { time: 3, value: null },
      { time: 4, value: 1000 },
    ]);
  });

  it('is a gap on a division by zero and empty when the legs are', () => {
    const legs = new Map([
      ['BYMA:AL30', [candle(1, 0, 0, 0, 5)]],
      ['BYMA:AL30D', [candle(1, 0, 0, 0, 0)]],
    ]);
    expect(formulaLine(parsed.ast, legs)).toEqual([{ time: 1, value: null }]);
    expect(formulaLine(parsed.ast, new Map())).toEqual([]);
  });
});

describe('live candle', () => {
  const last = candle(minute(11, 0), 10, 11, 9, 10.5, 100);

  it('moves the last candle while a trade is in its period', () => {
    expect(liveCandle(last, 12, minute(11, 4) + 59, '5m')).toEqual({ candle: { ...last, high: 12, close: 12 }, isNew: false });
    expect(liveCandle(last, 8, minute(11, 3), '5m')).toEqual({ candle: { ...last, low: 8, close: 8 }, isNew: false });
  });

  it('opens a new candle at the interval’s boundary', () => {
    expect(liveCandle(last, 10.7, minute(11, 5), '5m')).toEqual({ candle: candle(minute(11, 5), 10.7, 10.7, 10.7, 10.7, 0), isNew: true });
    expect(liveCandle(last, 10.7, minute(11, 7) + 12, '5m')?.candle.time).toBe(minute(11, 5));
    expect(liveCandle(last, 10.7, minute(11, 59), '1h')?.isNew).toBe(false);
    expect(liveCandle(last, 10.7, minute(12, 0), '1h')?.isNew).toBe(true);
    expect(liveCandle(candle(minute(0, 0), 1, 1, 1, 1), 2, minute(23, 59), '1d')?.isNew).toBe(false);
    expect(liveCandle(candle(minute(0, 0), 1, 1, 1, 1), 2, minute(23, 59) + 60, '1d')?.isNew).toBe(true);
  });

  it('ignores a trade older than the last candle, and opens the first one', () => {
    expect(liveCandle(last, 12, minute(10, 59), '1m')).toBeNull();
    expect(liveCandle(null, 12, minute(10, 59) + 7, '1m')).toEqual({ candle: candle(minute(10, 59), 12, 12, 12, 12, 0), isNew: true });
  });

  it('adds the volume traded since the previous tick to the live candle, and opens a new one with it', () => {
    expect(liveCandle(last, 12, minute(11, 4), '5m', 300)?.candle.volume).toBe(last.volume + 300);
    expect(liveCandle(last, 12, minute(11, 5), '5m', 300)?.candle).toEqual(candle(minute(11, 5), 12, 12, 12, 12, 300));
  });

  it('reads the volume traded between two session totals: the rise, the whole total after a new session, none without both', () => {
    expect(tradedSince(1000, 1300)).toBe(300);
    expect(tradedSince(1000, 1000)).toBe(0);
    expect(tradedSince(90_000, 200)).toBe(200);
    expect(tradedSince(null, 1300)).toBe(0);
    expect(tradedSince(1000, undefined)).toBe(0);
    expect(tradedSince(1000, Number.NaN)).toBe(0);
  });

  it('moves a line’s last point the same way', () => {
    const point = { time: minute(11, 0), value: 1000 };
    expect(livePoint(point, 1001, minute(11, 0) + 30, '1m')).toEqual({ point: { time: minute(11, 0), value: 1001 }, isNew: false });
    expect(livePoint(point, 1002, minute(11, 1), '1m')).toEqual({ point: { time: minute(11, 1), value: 1002 }, isNew: true });
    expect(livePoint(point, 1002, minute(10, 0), '1m')).toBeNull();
  });
});

describe('legend and scale', () => {
  const line = (values: (number | null)[]) => pointsReader(values.map((value, i) => ({ time: (i + 1) * 10, value })));

  it('says the last value and its change against the previous one, skipping gaps', () => {
    expect(valueAndChange(line([100, null, 110, null]))).toEqual({ time: 30, value: 110, change: 10, changePct: 10 });
    expect(valueAndChange(line([5]))).toEqual({ time: 10, value: 5, change: null, changePct: null });
    expect(valueAndChange(line([null]))).toBeNull();
    expect(valueAndChange(candlesReader([candle(1, 0, 0, 0, 50), candle(2, 0, 0, 0, 40)]))).toEqual({ time: 2, value: 40, change: -10, changePct: -20 });
  });

  it('says the value at a hovered time: the last at or before it', () => {
    expect(valueAndChange(line([100, 105, 110]), 25)).toEqual({ time: 20, value: 105, change: 5, changePct: 5 });
    expect(valueAndChange(line([100, 105, 110]), 30)?.value).toBe(110);
    expect(valueAndChange(line([100, 105, 110]), 5)).toBeNull();
    expect(indexAtOrBefore(line([1, 2, 3]), 29)).toBe(1);
    expect(indexAtOrBefore(line([1, 2, 3]), 9)).toBe(-1);
  });

  it('asks for a percent scale when magnitudes differ more than tenfold', () => {
    expect(needsPercentScale([1000, 1050])).toBe(false);
    expect(needsPercentScale([1000, 85])).toBe(true);
    expect(needsPercentScale([1000, null])).toBe(false);
  });
});

describe('chartSeriesSpec', () => {
  it('reads a formula with operators as a formula and anything else as a symbol', () => {
    expect(chartSeriesSpec('BYMA:AL30 / BYMA:AL30D')).toMatchObject({ kind: 'formula', symbols: ['BYMA:AL30', 'BYMA:AL30D'] });
    expect(chartSeriesSpec('DLR/DIC26')).toEqual({ kind: 'symbol', symbol: 'DLR/DIC26' });
    expect(chartSeriesSpec('BYMA:AL30')).toEqual({ kind: 'symbol', symbol: 'BYMA:AL30' });
    expect(chartSeriesSpec('MERV - XMEV - AL30 - 24hs')).toEqual({ kind: 'symbol', symbol: 'MERV - XMEV - AL30 - 24hs' });
    expect(chartSeriesSpec('(BYMA:AL30 *')).toMatchObject({ kind: 'invalid' });
  });

  it('says what a formula of catalogue names lacks instead of taking it for one unknown symbol', () => {
    expect(chartSeriesSpec('DLR/ENE27 - DLR/DIC26')).toMatchObject({ kind: 'invalid', error: expect.stringContaining('Falta el mercado') });
    expect(chartSeriesSpec('ROFEX:DLR/ENE27 - ROFEX:DLR/DIC26')).toMatchObject({ kind: 'formula', symbols: ['ROFEX:DLR/ENE27', 'ROFEX:DLR/DIC26'] });
  });
});

describe('roundStep', () => {
  it('is the round step at or above a value', () => {
    expect(roundStep(0.37)).toBeCloseTo(0.5);
    expect(roundStep(130)).toBe(200);
    expect(roundStep(1)).toBe(1);
    expect(roundStep(7)).toBe(10);
    expect(roundStep(0.0012)).toBeCloseTo(0.002);
    expect(roundStep(0)).toBe(1);
    expect(roundStep(Number.NaN)).toBe(1);
  });
});

describe('the session candle', () => {
  const session = { day: '2026-11-27', opensAt: Date.parse('2026-11-27T10:00:00-03:00'), closesAt: Date.parse('2026-11-27T17:00:00-03:00') };
  const md = { OP: 1510, HI: 1521.5, LO: 1509, TV: 2000, LA: { price: 1515, date: Date.parse('2026-11-27T14:02:00-03:00') } };

  it("is the session's figures at the day's time: the history's candle, whatever ticks were merged", () => {
    expect(sessionCandle(session, md)).toEqual({ time: dayTime('2026-11-27'), open: 1510, high: 1521.5, low: 1509, close: 1515, volume: 2000 });
  });

  it('is none before the first trade, or for a trade outside the session (a demo market moving after hours)', () => {
    expect(sessionCandle(session, { ...md, OP: null })).toBeNull();
    expect(sessionCandle(session, { ...md, LA: { price: 1520, date: Date.parse('2026-11-27T18:30:00-03:00') } })).toBeNull();
    expect(inSession(session, session.closesAt)).toBe(false);
    expect(inSession(session, session.opensAt)).toBe(true);
  });

  it('measures a change against a reference', () => {
    expect(changeAgainst(1515, 1500)).toEqual({ change: 15, changePct: 1 });
    expect(changeAgainst(1515, null)).toBeNull();
    expect(changeAgainst(2, 0)).toEqual({ change: 2, changePct: null });
  });
});
