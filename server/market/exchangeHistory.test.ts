import { describe, expect, it } from 'vitest';
import { createTradingCalendar, dayOfIso, isoOfDay } from './calendar.js';
import { createExchangeHistory } from './exchangeHistory.js';
import type { PrimaryTrade, TradesRange } from './primary/types.js';

const ba = (date: string, hhmm: string) => Date.parse(`${date}T${hhmm}:00-03:00`);

/** An exchange that traded three times each session (10:00, 10:00:30, 10:01), and records what it was asked. */
function exchange() {
  const asked: (string | TradesRange)[] = [];
  const tradesOf = (date: string): PrimaryTrade[] =>
    [
      ['10:00', 100, 1],
      ['10:00', 103, 2],
      ['10:01', 99, 3],
    ].map(([time, price, size], i) => ({
      symbol: 'DLR/DIC26',
      servertime: ba(date, time as string) + i * 10_000,
      price: (price as number) + Number(date.slice(8)),
      size: size as number,
      datetime: `${date} ${time as string}:0${i}.000`,
    }));
  const trades = async (_symbol: string, date: string | TradesRange) => {
    asked.push(date);
    if (typeof date === 'string') return tradesOf(date);
    const out: PrimaryTrade[] = [];
    for (let day = dayOfIso(date.dateFrom)!; day <= dayOfIso(date.dateTo)!; day++) out.push(...tradesOf(isoOfDay(day)));
    return out;
  };
  return { trades, asked };
}

describe("the exchange's history", () => {
  const calendar = createTradingCalendar();

  it("makes daily candles of the exchange's trades, trading days only, asking a month at a time and closed days once", async () => {
    const { trades, asked } = exchange();
    const history = createExchangeHistory({ trades, calendar });
    const days = await history.dailyCandles('DLR/DIC26', 5, ba('2026-11-27', '12:00'));
    expect(days.map((candle) => isoOfDay(candle.day))).toEqual(['2026-11-20', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27']);
    expect(days[0]).toMatchObject({ open: 120, high: 123, low: 119, close: 119, volume: 6 });
    expect(asked).toHaveLength(1);
    // Again: only the session under way is asked.
    await history.dailyCandles('DLR/DIC26', 5, ba('2026-11-27', '12:05'));
    expect(asked.slice(1)).toEqual(['2026-11-27']);
  });

  it('makes minute candles of a day', async () => {
    const history = createExchangeHistory({ trades: exchange().trades, calendar });
    const minutes = await history.minuteCandles('DLR/DIC26', dayOfIso('2026-11-26')!);
    expect(minutes).toEqual([
      { time: ba('2026-11-26', '10:00'), open: 126, high: 129, low: 126, close: 129, volume: 3 },
      { time: ba('2026-11-26', '10:01'), open: 125, high: 125, low: 125, close: 125, volume: 3 },
    ]);
    expect(await history.minuteCandles('DLR/DIC26', dayOfIso('2026-11-28')!)).toEqual([]);
  });

  it("says the exchange's failure as its own", async () => {
    const history = createExchangeHistory({ trades: () => Promise.reject(new Error('Product DLR/XXX:ROFX does not exist')), calendar });
    await expect(history.minuteCandles('DLR/XXX', dayOfIso('2026-11-26')!)).rejects.toMatchObject({ message: /DLR\/XXX:ROFX/ });
  });
});
