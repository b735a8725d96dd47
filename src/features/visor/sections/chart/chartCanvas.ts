// The chart section's canvas (issue 19), outside React: one lightweight-charts instance per
// mount, its series, the live last candle, the legend's text and the visor's shared
// crosshair. History goes in with setData when it arrives (the cache, then the server);
// ticks go in with update() on the last bar, at most once per animation frame. Everything
// it made is released by the function mountChart returns.
import {
  CandlestickSeries,
  ColorType,
  createChart,
  CrosshairMode,
  HistogramSeries,
  LineSeries,
  PriceScaleMode,
  type IChartApi,
  type ISeriesApi,
  type MouseEventParams,
  type SeriesType,
  type Time,
  type UTCTimestamp,
  type AutoscaleInfoProvider,
} from 'lightweight-charts';
import { sessionOfQuote, subscribeQuotes, type QuoteState } from '../../../../data/store';
import { holdSymbol } from '../../../../data/worker';
import {
  roundStep,
  candlesReader,
  formulaLine,
  pointsReader,
  valueAndChange,
  type SeriesReader,
  marketSeconds,
  liveCandle,
  tradedSince,
  livePoint,
  inSession,
  sessionCandle,
  changeAgainst,
  needsPercentScale,
  type Candle,
  type ChartSeriesSpec,
  type LinePoint,
} from '../../../../lib/candles';
import { evaluateFormula } from '../../../../lib/formula';
import { ALTERNATE_COLORS } from '../../../../lib/palette';
import { closePrice, lastPrice } from '../../../../lib/quoteColumns';
import { inferFormulaUnit, type ChartInterval, type ChartRange } from '../../../../protocol/workspace';
import type { ValueUnit } from '../../../../lib/valueChange';
import { joinCrosshairSync, syncAnchor } from './crosshairSync';
import { loadHistory, refreshToday, type HistoryStatus } from '../../../../data/chartHistory';
import { formatChartTime, formatLegendChange, formatLegendValue } from './chartFormat';

export interface ChartSeriesView {
  spec: ChartSeriesSpec;
  color: string;
}

export interface MountChartOptions {
  /** Where the canvas goes (sized by its grid cell). */
  container: HTMLElement;
  /** The section's chart root: its legend rows and the crosshair's data attribute. */
  root: HTMLElement;
  series: readonly ChartSeriesView[];
  range: ChartRange;
  /** The interval drawn (lib/candles effectiveInterval). */
  interval: ChartInterval;
  onStatus(status: HistoryStatus): void;
}

const UP = '#22c55e';
const DOWN = '#ef4444';

/** The page's colours where the chart is (the light or dark palette of styles.css). */
function themeOf(element: HTMLElement) {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return { background: read('--surface', '#ffffff'), text: read('--text-muted', '#5c6375'), border: read('--border', '#dcdfe6') };
}

function themeOptions(element: HTMLElement) {
  const theme = themeOf(element);
  return {
    layout: { background: { type: ColorType.Solid, color: theme.background }, textColor: theme.text },
    grid: { vertLines: { color: theme.border }, horzLines: { color: theme.border } },
    rightPriceScale: { borderColor: theme.border },
    timeScale: { borderColor: theme.border },
  } as const;
}

/** One series on the canvas: its data as drawn and its lightweight-charts series. */
interface Drawn {
  view: ChartSeriesView;
  api: ISeriesApi<SeriesType> | null;
  candles: Candle[] | null;
  points: LinePoint[] | null;
  legend: { value: Text; change: HTMLElement; changeText: Text } | null;
  shown: { value: string; change: string; sign: string };
  /** The session's total volume at the last tick applied (the feed's `TV`), for the live bar's volume. */
  totalVolume: number | null;
  /** What the series' value is: a formula may be a rate or a ratio, whose change reads in points. */
  unit: ValueUnit;
}

/** Prices as the legend writes them (the decimals their size needs), on the price scale and its labels. */
const PRICE_FORMAT = { type: 'custom', minMove: 0.01, formatter: (price: number) => formatLegendValue(price) } as const;
const volumeFormat = new Intl.NumberFormat('es-AR', { maximumFractionDigits: 0 });
const formatVolume = (value: number) => volumeFormat.format(value);

const ts = (time: number) => time as UTCTimestamp;

/**
 * The price scale's range rounded out to a round step (about an eighth of the range): a tick
 * that moves the last bar inside it leaves the scale, its labels and its width as they are.
 * Without it every new high or low of the live bar moved the scale, and lightweight-charts
 * rebuilt and measured its labels (bench:visor --page charts: its largest cost).
 */
const steadyScale: AutoscaleInfoProvider = (original) => {
  const info = original();
  const range = info?.priceRange;
  if (!info || !range) return info;
  const span = range.maxValue - range.minValue || Math.abs(range.maxValue) / 100 || 1;
  const step = roundStep(span / 8);
  return { ...info, priceRange: { minValue: Math.floor(range.minValue / step) * step, maxValue: Math.ceil(range.maxValue / step) * step } };
};

export function mountChart(options: MountChartOptions): () => void {
  const { container, root, series, interval } = options;
  const intraday = interval !== '1d';
  const candleMode = series.length === 1 && series[0]!.spec.kind === 'symbol';
  const chart: IChartApi = createChart(container, {
    autoSize: true,
    ...themeOptions(root),
    crosshair: { mode: CrosshairMode.Normal },
    localization: { locale: 'es-AR' },
    timeScale: { ...themeOptions(root).timeScale, timeVisible: intraday, secondsVisible: false },
  });
  // lightweight-charts lays its panes and scales out in a <table>: layout, not data.
  chart.chartElement().querySelector('table')?.setAttribute('role', 'presentation');

  const drawn: Drawn[] = series.map((view, index) => {
    const row = root.querySelector<HTMLElement>(`[data-series-index="${index}"]`);
    const valueNode = row?.querySelector('[data-field="value"]');
    const changeNode = row?.querySelector<HTMLElement>('[data-field="change"]');
    const legend =
      valueNode?.firstChild && changeNode?.firstChild
        ? { value: valueNode.firstChild as Text, change: changeNode, changeText: changeNode.firstChild as Text }
        : null;
    let api: ISeriesApi<SeriesType> | null = null;
    if (view.spec.kind !== 'invalid') {
      api = candleMode
        ? chart.addSeries(
            CandlestickSeries,
            {
              upColor: UP,
              downColor: DOWN,
              wickUpColor: UP,
              wickDownColor: DOWN,
              borderVisible: false,
              autoscaleInfoProvider: steadyScale,
              priceFormat: PRICE_FORMAT,
            },
            0,
          )
        : chart.addSeries(
            LineSeries,
            { color: view.color, lineWidth: 2, priceLineVisible: false, autoscaleInfoProvider: steadyScale, priceFormat: PRICE_FORMAT },
            0,
          );
    }
    const unit = view.spec.kind === 'formula' ? inferFormulaUnit('', view.spec.expression) : 'price';
    return { view, api, candles: null, points: null, legend, shown: { value: '', change: '', sign: '' }, totalVolume: null, unit };
  });
  // Volume as a histogram in a pane of its own, on its own scale: the alternate palette.
  const volume =
    candleMode && drawn[0]!.api
      ? chart.addSeries(
          HistogramSeries,
          // Whole contracts, as the board writes them (the chart's price formatter has decimals).
          { color: ALTERNATE_COLORS[0], priceFormat: { type: 'custom', minMove: 1, formatter: formatVolume }, priceLineVisible: false },
          1,
        )
      : null;
  chart.panes()[1]?.setStretchFactor(0.25);

  root.dataset.mode = candleMode ? 'candles' : 'lines';
  /**
   * How many bars the first series has, and its last candle (time, close, volume), on the root for
   * tests and support (written when they change): a trade at the price before moves no number on
   * screen but the volume pane's last bar.
   */
  const countBars = () => {
    const first = drawn[0];
    const bars = String(first ? (first.candles?.length ?? first.points?.length ?? 0) : 0);
    if (root.dataset.bars !== bars) root.dataset.bars = bars;
    const last = first?.candles?.at(-1);
    const lastBar = last ? `${last.time} ${last.close} ${last.volume}` : '';
    if (root.dataset.lastBar !== lastBar) root.dataset.lastBar = lastBar;
  };
  const timeText = root.querySelector('[data-field="crosshair-time"]')?.firstChild as Text | null | undefined;
  let disposed = false;
  let fitted = false;
  let hoverTime: number | null = null;

  // ── Data ────────────────────────────────────────────────────────────────────────
  const symbolCandles = new Map<string, Candle[]>();
  const legsOf = (spec: ChartSeriesSpec): string[] => (spec.kind === 'symbol' ? [spec.symbol] : spec.kind === 'formula' ? spec.symbols : []);

  /** The series as the legend and the crosshair read it (closes of candles, a line's points). */
  const readerOf = (item: Drawn): SeriesReader => (item.points ? pointsReader(item.points) : candlesReader(item.candles ?? []));

  function redraw(): void {
    for (const item of drawn) {
      const { spec } = item.view;
      if (!item.api || spec.kind === 'invalid') continue;
      const legs = legsOf(spec);
      if (!legs.every((symbol) => symbolCandles.has(symbol))) continue;
      if (spec.kind === 'symbol' && candleMode) {
        item.candles = symbolCandles.get(spec.symbol)!.map((candle) => ({ ...candle }));
        item.api.setData(item.candles.map((candle) => ({ time: ts(candle.time), open: candle.open, high: candle.high, low: candle.low, close: candle.close })));
        volume?.setData(
          item.candles.map((candle) => ({
            time: ts(candle.time),
            value: candle.volume,
            color: candle.close >= candle.open ? ALTERNATE_COLORS[2] : ALTERNATE_COLORS[3],
          })),
        );
      } else {
        item.points =
          spec.kind === 'symbol'
            ? symbolCandles.get(spec.symbol)!.map((candle) => ({ time: candle.time, value: candle.close }))
            : formulaLine(spec.ast, new Map(legs.map((symbol) => [symbol, symbolCandles.get(symbol)!])));
        // A gap is whitespace: no point, no line through it.
        item.api.setData(item.points.map((point) => (point.value == null ? { time: ts(point.time) } : { time: ts(point.time), value: point.value })));
      }
    }
    // Series of very different levels (a bond and the dollar) share one scale in percent.
    const levels = drawn.map((item) => valueAndChange(readerOf(item))?.value ?? null);
    chart.priceScale('right').applyOptions({ mode: !candleMode && needsPercentScale(levels) ? PriceScaleMode.Percentage : PriceScaleMode.Normal });
    if (!fitted && drawn.some((item) => item.candles ?? item.points)) {
      fitted = true;
      chart.timeScale().fitContent();
    }
    applyLive();
    writeLegend();
    countBars();
  }

  const symbols = [...new Set(drawn.flatMap((item) => legsOf(item.view.spec)))];
  const stopHistory = loadHistory(symbols, options.range, interval, {
    onCandles(symbol, candles) {
      if (disposed) return;
      symbolCandles.set(symbol, candles);
      redraw();
    },
    onStatus: (status) => {
      if (!disposed) options.onStatus(status);
    },
  });

  /**
   * A minute (or 5m, 15m, 1h period) of an intraday chart closed: the server's minutes of today
   * replace those built from the ticks seen (merged ticks may have missed a trade), a moment later
   * so the server has the minute whole. Two charts of one symbol then agree on every closed minute.
   */
  const REFRESH_DELAY_MS = 1500;
  const refreshTimers = new Map<string, ReturnType<typeof setTimeout>>();
  function scheduleRefresh(symbol: string): void {
    if (!intraday || refreshTimers.has(symbol)) return;
    refreshTimers.set(
      symbol,
      setTimeout(() => {
        refreshTimers.delete(symbol);
        refreshToday(symbol, options.range, interval)
          .then((candles) => {
            if (disposed) return;
            symbolCandles.set(symbol, candles);
            redraw();
          })
          // The chart keeps what it drew; the next closed minute asks again.
          .catch(() => undefined);
      }, REFRESH_DELAY_MS),
    );
  }

  // ── Live ────────────────────────────────────────────────────────────────────────
  // subscribeQuotes tells once per batch of ticks, and the tab applies a batch in an animation
  // frame (data/paintPacer.ts): the series take it in that frame, so lightweight-charts draws
  // it in the next one (a frame of our own in between would cost one more).
  let states: ReadonlyMap<string, QuoteState | null> = new Map();
  const stopQuotes = subscribeQuotes(symbols, (next) => {
    states = next;
    if (!disposed) onTicks();
  });
  const releases = symbols.map((symbol) => holdSymbol(symbol, container));

  function onTicks(): void {
    applyLive();
    countBars();
    if (hoverTime == null) writeLegend();
  }

  /**
   * Whether a quote's last trade may be drawn: inside its market's session (history keeps the
   * sessions alone, so a demo market moving after hours does not draw), or when the session is
   * not known (a server that does not say).
   */
  function drawable(state: QuoteState | null | undefined): boolean {
    const quote = state?.quote;
    const at = quote?.md.LA?.date;
    const session = sessionOfQuote(quote);
    return session == null || typeof at !== 'number' || inSession(session, at);
  }

  /** The series' value now and the time of its latest trade (epoch ms), or null (none, or outside the session). */
  function liveValue(spec: ChartSeriesSpec): { value: number; at: number } | null {
    const quoteOf = (symbol: string) => states.get(symbol)?.quote;
    if (spec.kind === 'symbol') {
      const price = lastPrice(quoteOf(spec.symbol));
      if (price == null || !drawable(states.get(spec.symbol))) return null;
      return { value: price, at: quoteOf(spec.symbol)?.md.LA?.date ?? Date.now() };
    }
    if (spec.kind !== 'formula' || !spec.symbols.every((symbol) => drawable(states.get(symbol)))) return null;
    const value = evaluateFormula(spec.ast, (symbol) => lastPrice(quoteOf(symbol)));
    if (value == null || !Number.isFinite(value)) return null;
    const times = spec.symbols.map((symbol) => quoteOf(symbol)?.md.LA?.date).filter((at): at is number => typeof at === 'number');
    return { value, at: times.length > 0 ? Math.max(...times) : Date.now() };
  }

  /** The candle a tick makes: a daily chart's is the session's own figures (exact), an intraday one's grows from the ticks. */
  function nextCandle(item: Drawn, live: { value: number; at: number }): { candle: Candle; isNew: boolean; traded: number } | null {
    const last = item.candles!.at(-1) ?? null;
    const { spec } = item.view;
    const total = spec.kind === 'symbol' ? states.get(spec.symbol)?.quote?.md.TV : null;
    if (!intraday && spec.kind === 'symbol') {
      const quote = states.get(spec.symbol)?.quote;
      const session = sessionOfQuote(quote);
      const candle = session && quote ? sessionCandle(session, quote.md) : null;
      if (candle) {
        if (last && candle.time < last.time) return null;
        const isNew = !last || candle.time !== last.time;
        return { candle, isNew, traded: isNew ? candle.volume : candle.volume - last.volume };
      }
    }
    const traded = tradedSince(item.totalVolume, total);
    const next = liveCandle(last, live.value, marketSeconds(live.at), interval, traded);
    item.totalVolume = total ?? null;
    return next && { ...next, traded };
  }

  function applyLive(): void {
    for (const item of drawn) {
      if (!item.api) continue;
      const live = liveValue(item.view.spec);
      if (!live) continue;
      const time = marketSeconds(live.at);
      if (item.candles) {
        const next = nextCandle(item, live);
        if (!next) continue;
        const previous = item.candles.at(-1);
        if (next.isNew) item.candles.push(next.candle);
        else item.candles[item.candles.length - 1] = next.candle;
        const { candle, traded } = next;
        item.api.update({ time: ts(candle.time), open: candle.open, high: candle.high, low: candle.low, close: candle.close });
        // The volume bar only when it moved or changed colour (a pane less to redraw otherwise).
        const rising = candle.close >= candle.open;
        if (volume && (next.isNew || traded > 0 || rising !== previous!.close >= previous!.open)) {
          volume.update({ time: ts(candle.time), value: candle.volume, color: rising ? ALTERNATE_COLORS[2] : ALTERNATE_COLORS[3] });
        }
        if (next.isNew && previous && item.view.spec.kind === 'symbol') scheduleRefresh(item.view.spec.symbol);
      } else if (item.points) {
        const next = livePoint(item.points.at(-1) ?? null, live.value, time, interval);
        if (!next) continue;
        if (next.isNew) item.points.push(next.point);
        else item.points[item.points.length - 1] = next.point;
        item.api.update({ time: ts(next.point.time), value: live.value });
        if (next.isNew && item.points.length > 1) for (const symbol of legsOf(item.view.spec)) scheduleRefresh(symbol);
      }
    }
  }

  /** The series' previous close: a symbol's, or the formula of its legs' (null when one is missing). */
  function previousClose(spec: ChartSeriesSpec): number | null {
    const quoteOf = (symbol: string) => states.get(symbol)?.quote;
    if (spec.kind === 'symbol') return closePrice(quoteOf(spec.symbol));
    if (spec.kind !== 'formula') return null;
    const value = evaluateFormula(spec.ast, (symbol) => closePrice(quoteOf(symbol)));
    return value != null && Number.isFinite(value) ? value : null;
  }

  // ── Legend ──────────────────────────────────────────────────────────────────────
  /**
   * Each series' value at `time` (the last at or before it) against the bar before, or its last
   * value against the previous close, as the board and the formula cards measure it.
   */
  function writeLegend(time: number | null = null): void {
    for (const item of drawn) {
      if (!item.legend) continue;
      const found = valueAndChange(readerOf(item), time);
      const againstClose = found && time == null ? changeAgainst(found.value, previousClose(item.view.spec)) : null;
      const summary = found && againstClose ? { ...found, ...againstClose } : found;
      const value = summary ? formatLegendValue(summary.value) : '—';
      const change = summary ? formatLegendChange(summary.value, summary.change, summary.changePct, item.unit) : ' ';
      const sign = summary?.change == null ? '0' : String(Math.sign(summary.change));
      if (value !== item.shown.value) item.legend.value.nodeValue = item.shown.value = value;
      if (change !== item.shown.change) item.legend.changeText.nodeValue = item.shown.change = change;
      if (sign !== item.shown.sign) item.legend.change.dataset.sign = item.shown.sign = sign;
    }
    if (timeText) timeText.nodeValue = time == null ? ' ' : formatChartTime(time, intraday);
  }

  // ── Crosshair, shared with the visor's other charts ─────────────────────────────
  let hovered = false;
  const onEnter = () => {
    hovered = true;
  };
  const onLeave = () => {
    hovered = false;
    showHover(null);
    sync.publish(null);
  };
  container.addEventListener('pointerenter', onEnter);
  container.addEventListener('pointerleave', onLeave);

  function showHover(time: number | null): void {
    hoverTime = time;
    if (time == null) delete root.dataset.crosshairTime;
    else root.dataset.crosshairTime = String(time);
    writeLegend(time);
  }

  const onCrosshairMove = (param: MouseEventParams<Time>) => {
    if (!hovered) return;
    const time = typeof param.time === 'number' ? param.time : null;
    showHover(time);
    sync.publish(time);
  };
  chart.subscribeCrosshairMove(onCrosshairMove);

  const sync = joinCrosshairSync(syncAnchor(container), (time) => {
    if (disposed || hovered) return;
    const first = drawn.find((item) => item.api && (item.candles ?? item.points));
    const found = time == null || !first ? null : valueAndChange(readerOf(first), time);
    if (found == null || !first?.api) {
      chart.clearCrosshairPosition();
      showHover(null);
      return;
    }
    const { value, time: at } = found;
    chart.setCrosshairPosition(value, ts(at), first.api);
    showHover(at);
  });

  // ── Theme ───────────────────────────────────────────────────────────────────────
  const themeWatch = new MutationObserver(() => chart.applyOptions(themeOptions(root)));
  themeWatch.observe(root.ownerDocument.documentElement, { attributes: true, attributeFilter: ['data-theme', 'data-color-theme'] });

  return () => {
    disposed = true;
    stopHistory();
    for (const timer of refreshTimers.values()) clearTimeout(timer);
    stopQuotes();
    releases.forEach((release) => release());
    sync.leave();
    themeWatch.disconnect();
    container.removeEventListener('pointerenter', onEnter);
    container.removeEventListener('pointerleave', onLeave);
    chart.unsubscribeCrosshairMove(onCrosshairMove);
    chart.remove();
    delete root.dataset.crosshairTime;
    delete root.dataset.bars;
    delete root.dataset.lastBar;
  };
}
