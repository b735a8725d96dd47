// Charts' history in the worker (issue 19): daily candles from POST
// /visores/search/symbol/history, minute candles of the last sessions from POST /get_intradia,
// kept in Dexie per symbol and request (which the tab reads itself first: shared/chartCache.ts),
// and gathered into the chart's interval here, so a tab gets the candles it draws. Before today has data (a weekend, just after midnight) the
// minutes walk back to the last days that have them.
import { dayTime, historyKey, historyRequest, MARKET_OFFSET_SECONDS, marketDate, marketSeconds, type Candle, type HistoryRequest } from '../lib/candles';
import { HistoryResponse, IntradayResponse } from '../protocol/market';
import type { ChartInterval, ChartRange } from '../protocol/workspace';
import { shapeHistory, type ChartHistory } from '../shared/chartCache';
import type { ChartHistoryRecord } from '../shared/db';
import type { HttpClient } from '../shared/http';

export type { ChartHistory };

/** The part of Dexie's chartHistory table used here. */
export interface ChartHistoryTable {
  get(key: [string, string]): Promise<ChartHistoryRecord | undefined>;
  put(record: ChartHistoryRecord): Promise<unknown>;
  clear(): Promise<unknown>;
  count(): Promise<number>;
  orderBy(index: 'fetchedAt'): { limit(count: number): { primaryKeys(): Promise<[string, string][]> } };
  bulkDelete(keys: [string, string][]): Promise<unknown>;
}

/**
 * The time limit of one history request (the worker's other requests have REQUEST_TIMEOUT_MS):
 * up to ten years of daily candles, or a day of minutes, on a slow line.
 */
export const HISTORY_TIMEOUT_MS = 60_000;

/** Records kept at most: the charts of many visores, a few megabytes at worst. */
export const MAX_CACHED_HISTORIES = 200;

export interface ChartHistoryDeps {
  http: HttpClient;
  table: ChartHistoryTable | null;
  now?: () => number;
}

const DAY_SECONDS = 86_400;
/** Days asked at once when walking back for sessions with minutes (a weekend and a holiday fit). */
const EXTRA_DAYS = 3;
/** How many such batches before giving up (a long closure). */
const MAX_BATCHES = 4;

export function createChartHistory(deps: ChartHistoryDeps) {
  const now = deps.now ?? Date.now;
  /** One request per symbol and shape at a time: two charts of one symbol share it. */
  const inFlight = new Map<string, Promise<ChartHistoryRecord>>();

  async function daily(symbol: string, limit: number): Promise<Candle[]> {
    const { body } = await deps.http.request('POST', '/visores/search/symbol/history', {
      body: { symbol, limit },
      schema: HistoryResponse,
      timeoutMs: HISTORY_TIMEOUT_MS,
    });
    return body.data.flatMap(({ time, ...rest }) => {
      const at = dayTime(time);
      return at == null ? [] : [{ time: at, ...rest }];
    });
  }

  async function minutesOf(symbol: string, date: string): Promise<Candle[]> {
    const { body } = await deps.http.request('POST', '/get_intradia', { body: { symbol, date }, schema: IntradayResponse, timeoutMs: HISTORY_TIMEOUT_MS });
    return body.data.map((candle) => ({ ...candle, time: candle.time - MARKET_OFFSET_SECONDS }));
  }

  /** The minutes of the last `sessions` days that have any, walking back from today (the market's day). */
  async function intraday(symbol: string, sessions: number): Promise<Candle[]> {
    const today = Math.floor(marketSeconds(now()) / DAY_SECONDS) * DAY_SECONDS;
    const found: Candle[][] = [];
    let back = 0;
    for (let batch = 0; batch < MAX_BATCHES && found.length < sessions; batch++) {
      const count = sessions - found.length + EXTRA_DAYS;
      const dates = Array.from({ length: count }, (_, i) => marketDate(today - (back + i) * DAY_SECONDS));
      back += count;
      const days = await Promise.all(dates.map((date) => minutesOf(symbol, date)));
      for (const day of days) if (day.length > 0 && found.length < sessions) found.push(day);
    }
    return found.reverse().flat();
  }

  /** Stores the record, then forgets the oldest beyond MAX_CACHED_HISTORIES. */
  async function keep(record: ChartHistoryRecord): Promise<void> {
    const table = deps.table;
    if (!table) return;
    await table.put(record);
    const extra = (await table.count()) - MAX_CACHED_HISTORIES;
    if (extra > 0) await table.bulkDelete(await table.orderBy('fetchedAt').limit(extra).primaryKeys());
  }

  /**
   * The minutes of the last session drawn (and of today, when that is another day) asked again
   * and put in place of the cached ones: the minutes that closed since become the server's (the
   * facts), not what the chart built from the ticks it saw. The whole record when none is cached.
   */
  async function refreshToday(symbol: string, request: HistoryRequest & { kind: 'intraday' }): Promise<ChartHistoryRecord> {
    const key = historyKey(request);
    const cached = await deps.table?.get([symbol, key]).catch(() => undefined);
    if (!cached) return fetchRecord(symbol, request);
    const today = Math.floor(marketSeconds(now()) / DAY_SECONDS) * DAY_SECONDS;
    const lastDrawn = cached.candles.at(-1)?.time;
    const lastDay = lastDrawn == null ? today : Math.floor(lastDrawn / DAY_SECONDS) * DAY_SECONDS;
    const days = [...new Set([lastDay, today])].sort((a, b) => a - b);
    const minutes = (await Promise.all(days.map((day) => minutesOf(symbol, marketDate(day))))).flat();
    const record: ChartHistoryRecord = { symbol, key, candles: [...cached.candles.filter((candle) => candle.time < days[0]!), ...minutes], fetchedAt: now() };
    await keep(record).catch(() => undefined);
    return record;
  }

  async function fetchRecord(symbol: string, request: HistoryRequest): Promise<ChartHistoryRecord> {
    const key = historyKey(request);
    const candles = request.kind === 'daily' ? await daily(symbol, request.limit) : await intraday(symbol, request.sessions);
    const record: ChartHistoryRecord = { symbol, key, candles, fetchedAt: now() };
    // The cache is a convenience: a full or closed database must not fail the chart.
    await keep(record).catch(() => undefined);
    return record;
  }

  return {
    /**
     * Asks the server, keeps the answer in the cache, and answers the chart's candles.
     * `today`: only today's minutes are asked again (an intraday chart whose minute closed).
     */
    async fetch(symbol: string, range: ChartRange, interval: ChartInterval, options: { today?: boolean } = {}): Promise<ChartHistory> {
      const request = historyRequest(range, interval);
      const today = options.today === true && request.kind === 'intraday';
      const id = `${symbol}\n${historyKey(request)}${today ? '\ntoday' : ''}`;
      let pending = inFlight.get(id);
      if (!pending) {
        pending = (request.kind === 'intraday' && today ? refreshToday(symbol, request) : fetchRecord(symbol, request)).finally(() => inFlight.delete(id));
        inFlight.set(id, pending);
      }
      return shapeHistory(await pending, range, interval);
    },

    /** The logout: another user's charts must not draw from this one's cache. */
    wipe: async (): Promise<void> => {
      await deps.table?.clear();
    },
  };
}

export type ChartHistoryService = ReturnType<typeof createChartHistory>;
