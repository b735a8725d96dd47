// The charts' history in the worker: the requests a range makes, the walk back to the last
// sessions with minutes, the cache a chart seen before draws from, and its wipe.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createHttpClient } from '../shared/http';
import { VisoresDb } from '../shared/db';
import { fakeFetch, type FetchCall } from '../../tests/fakes/worker/fakes';
import { readCachedHistory } from '../shared/chartCache';
import { createChartHistory, MAX_CACHED_HISTORIES } from './chartHistory';

const H = 3600;
/** Epoch seconds of 2026-11-23 (a Monday) at `hh`:`mm` UTC. */
const mondayUtc = (hh: number, mm = 0) => Date.UTC(2026, 10, 23, hh, mm) / 1000;

function minutes(date: string, count: number, from: number) {
  const day = Date.parse(`${date}T00:00:00Z`) / 1000;
  return Array.from({ length: count }, (_, i) => ({ time: day + from + i * 60, open: 10 + i, high: 11 + i, low: 9 + i, close: 10.5 + i, volume: 1 }));
}

function setup(now: number) {
  const db = new VisoresDb(`charts-${crypto.randomUUID()}`);
  const asked: string[] = [];
  const rest = fakeFetch('/api', {
    'POST /get_intradia': (call: FetchCall) => {
      const { date } = call.body as { date: string };
      asked.push(date);
      // Friday the 20th and Monday the 23rd (until 11:30 UTC) traded; the weekend did not.
      const data = date === '2026-11-20' ? minutes(date, 360, 14 * H) : date === '2026-11-23' ? minutes(date, 510, 3 * H) : [];
      return { status: 200, body: { status: 'success', data } };
    },
    'POST /visores/search/symbol/history': (call: FetchCall) => {
      const { limit } = call.body as { limit: number };
      const data = Array.from({ length: limit }, (_, i) => ({
        time: `2026-10-${String(i + 1).padStart(2, '0')}`,
        open: 1,
        high: 2,
        low: 0.5,
        close: 1.5,
        volume: 10,
      }));
      return { status: 200, body: { status: 'success', data } };
    },
  });
  const http = createHttpClient({ fetch: rest.fetch, baseUrl: '/api', getToken: () => 'tok' });
  const charts = createChartHistory({ http, table: db.chartHistory, now: () => now * 1000 });
  return { charts, db, rest, asked };
}

describe('chart history in the worker', () => {
  it("gives today's minutes in market time, gathered into the interval", async () => {
    const { charts } = setup(mondayUtc(11, 30));
    const { candles } = await charts.fetch('DLR/DIC26', '1d', '1h');
    // 03:00 UTC is 00:00 in Buenos Aires: 8.5 hours of minutes make 9 hour candles from 00:00.
    expect(candles).toHaveLength(9);
    expect(candles[0]!.time).toBe(Date.UTC(2026, 10, 23) / 1000);
    expect(candles[0]!.volume).toBe(60);
    expect(candles.at(-1)!.close).toBe(10.5 + 509);
  });

  it('walks back over the weekend to the last sessions that have minutes', async () => {
    const { charts, asked } = setup(mondayUtc(11, 30));
    const { candles } = await charts.fetch('DLR/DIC26', '5d', '1m');
    expect(candles).toHaveLength(510 + 360);
    // Friday's 11:00 in Buenos Aires is its first minute.
    expect(candles[0]!.time).toBe(Date.UTC(2026, 10, 20, 11) / 1000);
    expect(asked).toContain('2026-11-21');
    expect(new Set(asked).size).toBe(asked.length);
  });

  it("asks only today's minutes again when a minute closed, in place of the cached ones, keeping the days before", async () => {
    const { charts, asked } = setup(mondayUtc(11, 30));
    await charts.fetch('DLR/DIC26', '5d', '1m');
    asked.length = 0;
    const { candles } = await charts.fetch('DLR/DIC26', '5d', '1m', { today: true });
    expect(asked).toEqual(['2026-11-23']);
    // The last session drawn is another day than the browser's today (a market whose clock is behind): both are asked.
    const tuesday = setup(mondayUtc(11, 30) + 86_400);
    await tuesday.charts.fetch('DLR/DIC26', '5d', '1m');
    tuesday.asked.length = 0;
    await tuesday.charts.fetch('DLR/DIC26', '5d', '1m', { today: true });
    expect(tuesday.asked).toEqual(['2026-11-23', '2026-11-24']);
    expect(candles).toHaveLength(510 + 360);
    // Without a cached record there is nothing to merge into: the whole range.
    const fresh = setup(mondayUtc(11, 30));
    await fresh.charts.fetch('DLR/DIC26', '5d', '1m', { today: true });
    expect(fresh.asked.length).toBeGreaterThan(1);
  });

  it('asks daily candles by the range and keeps them where the tab reads them next time, offline too', async () => {
    const { charts, rest, db } = setup(mondayUtc(15));
    expect(await readCachedHistory(db.chartHistory, 'BYMA:AL30', '1M', '1d')).toBeNull();
    const fetched = await charts.fetch('BYMA:AL30', '1M', '5m');
    expect(rest.calls.at(-1)!.body).toEqual({ symbol: 'BYMA:AL30', limit: 22 });
    expect(fetched.candles).toHaveLength(22);
    expect(fetched.candles[0]!.time).toBe(Date.UTC(2026, 9, 1) / 1000);

    const calls = rest.calls.length;
    const cached = await readCachedHistory(db.chartHistory, 'BYMA:AL30', '1M', '1d');
    expect(cached).toEqual(fetched);
    expect(rest.calls.length).toBe(calls);

    await charts.wipe();
    expect(await db.chartHistory.count()).toBe(0);
    expect(await readCachedHistory(db.chartHistory, 'BYMA:AL30', '1M', '1d')).toBeNull();
  });

  it('keeps the latest histories and forgets the oldest beyond the cap', async () => {
    const { charts, db } = setup(mondayUtc(15));
    const old = Array.from({ length: MAX_CACHED_HISTORIES }, (_, i) => ({ symbol: `S${i}`, key: 'daily:22', candles: [], fetchedAt: i }));
    await db.chartHistory.bulkPut(old);
    await charts.fetch('BYMA:AL30', '1M', '1d');
    expect(await db.chartHistory.count()).toBe(MAX_CACHED_HISTORIES);
    expect(await db.chartHistory.get(['S0', 'daily:22'])).toBeUndefined();
    expect(await db.chartHistory.get(['S1', 'daily:22'])).toBeDefined();
    expect(await readCachedHistory(db.chartHistory, 'BYMA:AL30', '1M', '1d')).not.toBeNull();
  });

  it('shares one request between two charts of the same symbol and range', async () => {
    const { charts, rest } = setup(mondayUtc(15));
    await Promise.all([charts.fetch('BYMA:AL30', '3M', '1d'), charts.fetch('BYMA:AL30', '3M', '1d')]);
    expect(rest.calls.filter((call) => call.path === '/visores/search/symbol/history')).toHaveLength(1);
  });
});
