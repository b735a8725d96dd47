import { describe, expect, it } from 'vitest';
import { createTradingCalendar, dayOfIso, isoOfDay, marketDayOf } from '../calendar.js';
import { buildCatalogue, type Catalogue } from '../catalogue.js';
import { createMarketModel, type Candle } from './market.js';

const settings = { seed: 20261122, dlrRate: 0.3, spot: 1450, mep: 1480, ccl: 1510 };
const calendar = createTradingCalendar();
/** Epoch ms of a Buenos Aires wall-clock time. */
const ba = (iso: string, hhmm: string) => Date.parse(`${iso}T${hhmm}:00-03:00`);
const catalogueOn = (at: number): Catalogue => buildCatalogue(new Date(marketDayOf(at) * 86_400_000), settings, calendar);
const fridayAfternoon = ba('2026-11-27', '14:30');
const catalogue = catalogueOn(fridayAfternoon);
const make = (cat = catalogue) => createMarketModel(cat, calendar, settings);
const instrument = (symbol: string, cat = catalogue) => cat.resolve(symbol)!;

/** The candle the minutes make: first open, last close, highest high, lowest low, volumes added. */
function aggregate(candles: Candle[]): Omit<Candle, 'time'> {
  return {
    open: candles[0]!.open,
    high: Math.max(...candles.map((c) => c.high)),
    low: Math.min(...candles.map((c) => c.low)),
    close: candles.at(-1)!.close,
    volume: candles.reduce((sum, c) => sum + c.volume, 0),
  };
}

describe('history is a fact', () => {
  const symbols = ['DLR/DIC26', 'BYMA:GGAL', 'BYMA:AL30D', 'DLR/SPOT', 'I.MERVAL', 'DLR/DIC26 1500 C', 'DLR/DIC26/ENE27', 'SOJ.ROS/ENE27'];

  it('answers the same candles whoever asks and whenever: another model, another order, a later hour', () => {
    const first = make();
    const second = make(catalogueOn(fridayAfternoon));
    for (const symbol of symbols) {
      // One asks for today's minutes first, the other for ten years of days first.
      const minutesFirst = first.minuteCandles(instrument(symbol), dayOfIso('2026-11-26')!, fridayAfternoon);
      const daysSecond = second.dailyCandles(instrument(symbol), 500, fridayAfternoon);
      const daysFirst = first.dailyCandles(instrument(symbol), 500, fridayAfternoon);
      const minutesSecond = second.minuteCandles(instrument(symbol), dayOfIso('2026-11-26')!, fridayAfternoon);
      expect(daysFirst, symbol).toEqual(daysSecond);
      expect(minutesFirst, symbol).toEqual(minutesSecond);
      expect(minutesFirst.length, symbol).toBeGreaterThan(0);
      // Two hours later: every closed day, and every minute that was closed, is the same.
      const later = make().dailyCandles(instrument(symbol), 500, fridayAfternoon + 2 * 3_600_000);
      expect(later.slice(0, -1), symbol).toEqual(daysFirst.slice(0, -1));
      const laterMinutes = make().minuteCandles(instrument(symbol), dayOfIso('2026-11-27')!, fridayAfternoon + 2 * 3_600_000);
      const closedMinutes = first.minuteCandles(instrument(symbol), dayOfIso('2026-11-27')!, fridayAfternoon).filter((c) => c.time + 60_000 <= fridayAfternoon);
      expect(laterMinutes.slice(0, closedMinutes.length), symbol).toEqual(closedMinutes);
    }
  });

  it('has no candle on a weekend or a holiday, and none before the session opens', () => {
    const model = make();
    for (const symbol of symbols) {
      const days = model.dailyCandles(instrument(symbol), 300, fridayAfternoon).map((c) => c.day);
      for (const day of days) expect(calendar.isTradingDay(day), `${symbol} ${isoOfDay(day)}`).toBe(true);
      expect(days.map(isoOfDay), symbol).not.toContain('2026-11-23');
      expect(days.map(isoOfDay), symbol).not.toContain('2026-11-06');
      for (const holiday of ['2026-11-28', '2026-11-23', '2026-11-06'])
        expect(model.minuteCandles(instrument(symbol), dayOfIso(holiday)!, ba('2026-11-30', '18:00')), `${symbol} ${holiday}`).toEqual([]);
    }
    // Before BYMA opens on Monday, Monday has no minute and no daily candle yet.
    const mondayMorning = ba('2026-11-30', '10:30');
    expect(model.minuteCandles(instrument('BYMA:GGAL'), dayOfIso('2026-11-30')!, mondayMorning)).toEqual([]);
    expect(isoOfDay(model.dailyCandles(instrument('BYMA:GGAL'), 5, mondayMorning).at(-1)!.day)).toBe('2026-11-27');
    // ROFEX opened at 10:00.
    expect(isoOfDay(model.dailyCandles(instrument('DLR/DIC26'), 5, mondayMorning).at(-1)!.day)).toBe('2026-11-30');
  });

  it('keeps minutes within the session: 10:00–17:00 for ROFEX, 11:00–17:00 for BYMA', () => {
    const model = make();
    const timeOf = (candle: Candle) => new Date(candle.time - 3 * 3_600_000).toISOString().slice(11, 16);
    const dlr = model.minuteCandles(instrument('DLR/DIC26'), dayOfIso('2026-11-26')!, fridayAfternoon);
    expect(timeOf(dlr[0]!)).toBe('10:00');
    expect(timeOf(dlr.at(-1)!)).toBe('16:59');
    const ggal = model.minuteCandles(instrument('BYMA:GGAL'), dayOfIso('2026-11-26')!, fridayAfternoon);
    expect(timeOf(ggal[0]!) >= '11:00').toBe(true);
    expect(timeOf(ggal.at(-1)!) <= '16:59').toBe(true);
  });

  it("makes each day's candle of its minutes, today's so far included", () => {
    const model = make();
    for (const symbol of symbols) {
      const days = model.dailyCandles(instrument(symbol), 3, fridayAfternoon);
      for (const day of days) {
        const minutes = model.minuteCandles(instrument(symbol), day.day, fridayAfternoon);
        expect({ open: day.open, high: day.high, low: day.low, close: day.close, volume: day.volume }, `${symbol} ${isoOfDay(day.day)}`).toEqual(
          aggregate(minutes),
        );
      }
      const today = model.session(instrument(symbol), fridayAfternoon);
      expect(today.open).toBe(true);
      expect(today.candle, symbol).toEqual({ ...days.at(-1)!, day: undefined, time: days.at(-1)!.time });
    }
  });

  it('measures the previous close as the last closed daily candle', () => {
    const model = make();
    for (const symbol of symbols) {
      const days = model.dailyCandles(instrument(symbol), 5, fridayAfternoon);
      expect(isoOfDay(days.at(-1)!.day)).toBe('2026-11-27');
      expect(model.previousClose(instrument(symbol), fridayAfternoon)?.close, symbol).toBe(days.at(-2)!.close);
    }
    // Saturday: Friday's session is still the current one (closed); the previous close is Thursday's.
    const saturday = ba('2026-11-28', '12:00');
    const days = model.dailyCandles(instrument('BYMA:GGAL'), 5, saturday);
    expect(isoOfDay(days.at(-1)!.day)).toBe('2026-11-27');
    expect(model.previousClose(instrument('BYMA:GGAL'), saturday)?.close).toBe(days.at(-2)!.close);
    expect(model.session(instrument('BYMA:GGAL'), saturday)).toMatchObject({ open: false, day: dayOfIso('2026-11-27') });
  });

  it('has trades that make exactly their minute', () => {
    const model = make();
    for (const symbol of symbols) {
      const minutes = model.minuteCandles(instrument(symbol), dayOfIso('2026-11-26')!, fridayAfternoon).slice(0, 40);
      for (const candle of minutes) {
        const trades = model.tradesUpTo(instrument(symbol), candle.time + 59_999);
        expect(trades.length, symbol).toBeGreaterThan(0);
        const made = aggregate(trades.map((t) => ({ time: t.time, open: t.price, high: t.price, low: t.price, close: t.price, volume: t.size })));
        expect(made, `${symbol} ${candle.time}`).toEqual({ open: candle.open, high: candle.high, low: candle.low, close: candle.close, volume: candle.volume });
      }
    }
  });
});

describe('a market that looks like the Argentine one', () => {
  const model = make();
  const ranges = (symbol: string) =>
    model
      .dailyCandles(instrument(symbol), 250, fridayAfternoon)
      .map((c) => (c.high - c.low) / c.close)
      .sort((a, b) => a - b);

  it('gives each kind its own daily range: a dollar future moves well under a share', () => {
    const dollar = ranges('DLR/DIC26');
    expect(dollar[Math.floor(dollar.length / 2)]).toBeLessThan(0.015);
    expect(dollar.at(-1)).toBeLessThan(0.04);
    const share = ranges('BYMA:GGAL');
    expect(share[Math.floor(share.length / 2)]).toBeGreaterThan(0.015);
    expect(share[Math.floor(share.length / 2)]).toBeLessThan(0.08);
    const volumes = model.dailyCandles(instrument('DLR/DIC26'), 20, fridayAfternoon).map((c) => c.volume);
    for (const volume of volumes) expect(volume).toBeGreaterThan(0);
  });

  it('keeps the DLR curve over spot at an implied rate near the setting, spreads at their legs, MEP and CCL of AL30', () => {
    const close = (symbol: string) => model.previousClose(instrument(symbol), fridayAfternoon)!.close;
    const spot = close('DLR/SPOT');
    let previous = spot;
    for (const future of catalogue.instruments.filter((i) => i.kind === 'future' && i.product === 'DLR')) {
      const price = close(future.instrumentId.symbol);
      expect(price, future.instrumentId.symbol).toBeGreaterThan(previous);
      previous = price;
      const days = dayOfIso(future.maturityDate!)! - marketDayOf(fridayAfternoon);
      const tna = ((price / spot - 1) * 365) / days;
      if (days > 20) {
        expect(tna, future.instrumentId.symbol).toBeGreaterThan(0.15);
        expect(tna, future.instrumentId.symbol).toBeLessThan(0.45);
      }
    }
    expect(Math.abs(close('DLR/DIC26/ENE27') - (close('DLR/ENE27') - close('DLR/DIC26')))).toBeLessThan(3);
    const mep = close('BYMA:AL30') / close('BYMA:AL30D');
    const ccl = close('BYMA:AL30') / close('BYMA:AL30C');
    expect(Math.abs(mep / settings.mep - 1)).toBeLessThan(0.12);
    expect(Math.abs(ccl / settings.ccl - 1)).toBeLessThan(0.12);
  });

  it('lists a contract months before its expiry and stops it at its expiry', () => {
    const days = model.dailyCandles(instrument('DLR/DIC26'), 2520, fridayAfternoon);
    expect(isoOfDay(days[0]!.day)).toBe('2025-12-01');
    // DLR/NOV26 expires on Monday 30 November at 17:00: the next day it has no trade.
    const tuesday = ba('2026-12-01', '12:00');
    const nov = instrument('DLR/NOV26');
    expect(model.minuteCandles(nov, dayOfIso('2026-11-30')!, tuesday).length).toBeGreaterThan(0);
    expect(model.lastTrade(nov, tuesday, true)!.time).toBeLessThanOrEqual(ba('2026-11-30', '17:00'));
  });

  it('answers ten years of days of a share, computed in slices', async () => {
    const fresh = make();
    const days = await fresh.dailyCandlesYielding(instrument('BYMA:GGAL'), 2520, fridayAfternoon);
    expect(days).toHaveLength(2520);
    expect(days).toEqual(fresh.dailyCandles(instrument('BYMA:GGAL'), 2520, fridayAfternoon));
  });
});

describe('the last trade', () => {
  it('is the last of the session in the real calendar, and of any minute in the demo one', () => {
    const model = make();
    const ggal = instrument('BYMA:GGAL');
    const saturday = ba('2026-11-28', '12:00');
    const sessionLast = model.lastTrade(ggal, saturday, false)!;
    const friday = model.dailyCandles(ggal, 1, saturday)[0]!;
    expect(sessionLast.price).toBe(friday.close);
    expect(sessionLast.time).toBeLessThan(ba('2026-11-27', '17:00'));
    const demoLast = model.lastTrade(ggal, saturday, true)!;
    expect(demoLast.time).toBeGreaterThan(ba('2026-11-28', '11:50'));
    expect(demoLast.time).toBeLessThanOrEqual(saturday);
  });
});
