// Candles for the visor's charts (issue 19), as pure functions: what a range asks the server
// for, minute candles gathered into 5m/15m/1h, a formula's candles from its legs' aligned by
// time, and the live last candle a tick moves or a boundary opens.
//
// Times are "market seconds": Buenos Aires wall-clock time written as if it were UTC (epoch
// seconds minus three hours), so a chart drawn in UTC reads the exchange's hours, an hour
// candle starts on the exchange's hour, and a daily candle (its date at 00:00) is the day
// the exchange traded it.
import type { ChartInterval, ChartRange } from '../protocol/workspace';
import { evaluateFormula, parseFormula, type FormulaNode } from './formula';

export interface Candle {
  /** Market seconds of the period's start. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** A line point; `value` null is a gap (a leg had no candle at that time). */
export interface LinePoint {
  time: number;
  value: number | null;
}

/** Buenos Aires is UTC−3 all year (no daylight saving). */
export const MARKET_OFFSET_SECONDS = 3 * 3600;
const DAY_SECONDS = 86_400;

/** Market seconds of an epoch-ms instant. */
export function marketSeconds(epochMs: number): number {
  return Math.floor(epochMs / 1000) - MARKET_OFFSET_SECONDS;
}

/** Market seconds of a daily candle's `YYYY-MM-DD` (00:00 of that day), or null. */
export function dayTime(isoDate: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) return null;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(ms) ? null : ms / 1000;
}

/** `YYYY-MM-DD` of the market day a market-seconds time falls in. */
export function marketDate(time: number): string {
  return new Date(Math.floor(time / DAY_SECONDS) * DAY_SECONDS * 1000).toISOString().slice(0, 10);
}

export const INTERVAL_SECONDS: Record<ChartInterval, number> = { '1m': 60, '5m': 300, '15m': 900, '1h': 3600, '1d': DAY_SECONDS };

/** The start of the interval's period that `time` falls in (periods aligned on the market's clock). */
export function periodStart(time: number, interval: ChartInterval): number {
  const size = INTERVAL_SECONDS[interval];
  return Math.floor(time / size) * size;
}

/** What a range asks the server: the minutes of the last `sessions` days that have them, or `limit` daily candles. */
export type HistoryRequest = { kind: 'intraday'; sessions: number } | { kind: 'daily'; limit: number };

/** Daily candles per range: about 21 sessions a month, 252 a year, the spec's 2,520 at most. */
const DAILY_LIMIT: Record<ChartRange, number> = { '1d': 1, '5d': 5, '1M': 22, '3M': 66, '6M': 130, '1Y': 252, '5Y': 1260, '10Y': 2520 };

/** Ranges whose intraday intervals the server can give (one minute request per session). */
export const INTRADAY_RANGES: readonly ChartRange[] = ['1d', '5d'];

export function isIntradayInterval(interval: ChartInterval): boolean {
  return interval !== '1d';
}

/**
 * The range and interval a chart draws: an intraday interval only with a range of one or five
 * sessions (longer ones would cost a minute request per day), so a long range draws daily.
 */
export function effectiveInterval(range: ChartRange, interval: ChartInterval): ChartInterval {
  return isIntradayInterval(interval) && !INTRADAY_RANGES.includes(range) ? '1d' : interval;
}

export function historyRequest(range: ChartRange, interval: ChartInterval): HistoryRequest {
  if (isIntradayInterval(effectiveInterval(range, interval))) return { kind: 'intraday', sessions: range === '1d' ? 1 : 5 };
  return { kind: 'daily', limit: DAILY_LIMIT[range] };
}

/** The cache key of what a range and interval fetch (the minutes serve every intraday interval). */
export function historyKey(request: HistoryRequest): string {
  return request.kind === 'intraday' ? `intraday:${request.sessions}` : `daily:${request.limit}`;
}

/**
 * Candles gathered into the interval's periods, oldest first: open of the first, close of
 * the last, the highest high, the lowest low, the volumes added. Input oldest first.
 */
export function aggregateCandles(candles: readonly Candle[], interval: ChartInterval): Candle[] {
  const out: Candle[] = [];
  let current: Candle | null = null;
  for (const candle of candles) {
    const start = periodStart(candle.time, interval);
    if (current && current.time === start) {
      current.high = Math.max(current.high, candle.high);
      current.low = Math.min(current.low, candle.low);
      current.close = candle.close;
      current.volume += candle.volume;
    } else {
      current = { time: start, open: candle.open, high: candle.high, low: candle.low, close: candle.close, volume: candle.volume };
      out.push(current);
    }
  }
  return out;
}

/**
 * A formula's line from its legs' candles: at every time any leg has a candle, the formula
 * of the legs' closes at that time. A time where a leg has no candle is a gap (null), never
 * a zero; so is a division by zero.
 */
export function formulaLine(ast: FormulaNode, legs: ReadonlyMap<string, readonly Candle[]>): LinePoint[] {
  const closes = new Map<string, Map<number, number>>();
  const times = new Set<number>();
  for (const [symbol, candles] of legs) {
    const bySymbol = new Map<number, number>();
    for (const candle of candles) {
      bySymbol.set(candle.time, candle.close);
      times.add(candle.time);
    }
    closes.set(symbol, bySymbol);
  }
  return [...times]
    .sort((a, b) => a - b)
    .map((time) => {
      const value = evaluateFormula(ast, (symbol) => closes.get(symbol)?.get(time) ?? null);
      return { time, value: value != null && Number.isFinite(value) ? value : null };
    });
}

/**
 * The live last candle after a trade at `price`, `time` (market seconds): the same candle
 * moved when the trade is in its period, a new one opened at the period's start when the
 * trade crossed the interval's boundary. `traded` is the volume since the previous tick
 * (tradedSince), added to the candle. A trade older than the last candle changes nothing
 * (null). `isNew` says which.
 */
export function liveCandle(last: Candle | null, price: number, time: number, interval: ChartInterval, traded = 0): { candle: Candle; isNew: boolean } | null {
  const start = periodStart(time, interval);
  if (last && start < last.time) return null;
  if (last && start === last.time) {
    return {
      candle: { ...last, high: Math.max(last.high, price), low: Math.min(last.low, price), close: price, volume: last.volume + traded },
      isNew: false,
    };
  }
  return { candle: { time: start, open: price, high: price, low: price, close: price, volume: traded }, isNew: true };
}

/**
 * The volume traded between two readings of a session's total volume (the feed's `TV`): the
 * difference; the whole total when it fell (a new session started from zero); none when either
 * reading is missing (the first tick seen has nothing to compare with).
 */
export function tradedSince(previousTotal: number | null | undefined, total: number | null | undefined): number {
  if (previousTotal == null || total == null || !Number.isFinite(previousTotal) || !Number.isFinite(total)) return 0;
  return total >= previousTotal ? total - previousTotal : Math.max(total, 0);
}

/** The live last point of a line (a formula's value now), following the same boundaries. */
export function livePoint(last: LinePoint | null, value: number, time: number, interval: ChartInterval): { point: LinePoint; isNew: boolean } | null {
  const start = periodStart(time, interval);
  if (last && start < last.time) return null;
  return { point: { time: start, value }, isNew: !last || start !== last.time };
}

/** A series as the legend reads it, without copying it: `length` entries, the i-th through `at`. */
export interface SeriesReader {
  length: number;
  time(index: number): number;
  value(index: number): number | null;
}

/** The index of the last entry at or before `time` (entries ascending by time), or -1. */
export function indexAtOrBefore(series: SeriesReader, time: number): number {
  let low = 0;
  let high = series.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (series.time(mid) <= time) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/**
 * The value at `time` (the last at or before it; the last of all when null) and its change
 * against the value before it (the previous bar's close), skipping gaps. Reads from the end
 * without copying: the legend runs it every frame.
 */
export function valueAndChange(
  series: SeriesReader,
  time: number | null = null,
): { time: number; value: number; change: number | null; changePct: number | null } | null {
  let at = time == null ? series.length - 1 : indexAtOrBefore(series, time);
  while (at >= 0 && series.value(at) == null) at -= 1;
  if (at < 0) return null;
  const value = series.value(at)!;
  let before = at - 1;
  while (before >= 0 && series.value(before) == null) before -= 1;
  if (before < 0) return { time: series.time(at), value, change: null, changePct: null };
  const base = series.value(before)!;
  return { time: series.time(at), value, change: value - base, changePct: base === 0 ? null : ((value - base) / base) * 100 };
}

/** A reader of line points. */
export function pointsReader(points: readonly LinePoint[]): SeriesReader {
  return { length: points.length, time: (i) => points[i]!.time, value: (i) => points[i]!.value };
}

/** A reader of candles, by their closes. */
export function candlesReader(candles: readonly Candle[]): SeriesReader {
  return { length: candles.length, time: (i) => candles[i]!.time, value: (i) => candles[i]!.close };
}

/**
 * True when the series' magnitudes differ enough that one price scale would flatten some of
 * them (the largest typical level over ten times the smallest): the chart then draws percent.
 */
export function needsPercentScale(levels: readonly (number | null)[]): boolean {
  const known = levels.filter((level): level is number => level != null && Number.isFinite(level) && level !== 0).map(Math.abs);
  if (known.length < 2) return false;
  return Math.max(...known) / Math.min(...known) > 10;
}

/** A chart series as the config writes it: a symbol, or a formula of symbols. */
export type ChartSeriesSpec =
  | { kind: 'symbol'; symbol: string }
  | { kind: 'formula'; expression: string; ast: FormulaNode; symbols: string[] }
  | { kind: 'invalid'; expression: string; error: string };

/**
 * What a series' text is: a formula when it parses with operators (`BYMA:AL30/BYMA:AL30D`),
 * otherwise a symbol as the exchange writes it (`DLR/DIC26`, whose slash is no division).
 */
export function chartSeriesSpec(expression: string): ChartSeriesSpec {
  const text = expression.trim();
  const parsed = parseFormula(text);
  if (parsed.ok && parsed.hasOperators) return { kind: 'formula', expression: text, ast: parsed.ast, symbols: parsed.symbols };
  if (parsed.ok && parsed.ast.kind === 'symbol') return { kind: 'symbol', symbol: parsed.ast.symbol };
  // A symbol the parser does not take (a catalogue name without its market) has no spaces,
  // except BYMA's long form; `DLR/DIC26 - DLR/NOV26` is a formula missing its markets, and its
  // error says so.
  const symbolLike = !/\s/.test(text) || /^MERV\s*-\s*XMEV\s*-/i.test(text);
  if (!parsed.ok && !/[*+()]/.test(text) && text.length > 0 && symbolLike) return { kind: 'symbol', symbol: text };
  return { kind: 'invalid', expression: text, error: parsed.ok ? 'La serie no es un símbolo ni una fórmula' : parsed.error };
}

/** The round step (1, 2 or 5 times a power of ten) at or above `value` (> 0): 0.37 → 0.5, 130 → 200. */
export function roundStep(value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const unit = value / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

/** A session's window in epoch ms and its day (`YYYY-MM-DD`), as the market socket tells it. */
export interface SessionWindow {
  day: string;
  opensAt: number;
  closesAt: number;
}

/** Whether a trade at `at` (epoch ms) belongs to the session: only then is it history a chart may draw. */
export function inSession(session: SessionWindow, at: number): boolean {
  return at >= session.opensAt && at < session.closesAt;
}

/**
 * A session's daily candle from a quote's session figures (open, high, low, volume so far, the
 * last trade as the close): what the server's history holds for the day, exactly, however many
 * ticks were merged on the way. Null without them (no trade yet this session).
 */
export function sessionCandle(
  session: SessionWindow,
  md: { OP?: number | null; HI?: number | null; LO?: number | null; TV?: number | null; LA?: { price: number; date: number } | null },
): Candle | null {
  const time = dayTime(session.day);
  if (time == null || md.OP == null || md.HI == null || md.LO == null || !md.LA || !inSession(session, md.LA.date)) return null;
  return { time, open: md.OP, high: md.HI, low: md.LO, close: md.LA.price, volume: md.TV ?? 0 };
}

/** The change of a value against a reference (the previous close), as valueAndChange gives it; null without one. */
export function changeAgainst(value: number, reference: number | null | undefined): { change: number; changePct: number | null } | null {
  if (reference == null || !Number.isFinite(reference)) return null;
  return { change: value - reference, changePct: reference === 0 ? null : ((value - reference) / reference) * 100 };
}
