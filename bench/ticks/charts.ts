// bench:visor --page charts (issue 19, "Performance"): a visor of two live charts (one candle
// series, one formula line), a futures curve and a 50-row board; what its sections are, how
// long each chart's last candle took from the feed to the screen, and how long a chart of
// 2,520 daily candles takes to draw from the Dexie cache.
import type { Browser, Page } from '@playwright/test';
import type { Catalogue } from '../../server/market/catalogue.js';
import type { Section } from '../../src/protocol/workspace.js';
import type { FeedServer } from './feedServer.js';
import type { PageSamples } from './instrument.js';

/** The chart sections of the visor and what their one series is. */
export type ChartSeries = { section: string; kind: 'symbol'; symbol: string } | { section: string; kind: 'spread'; plus: string; minus: string };

export interface ChartsVisor {
  secciones: Section[];
  /** Every symbol the visor holds (board, charts, curve and its spot): the feed updates them all. */
  symbols: string[];
  boardSymbols: string[];
  charts: ChartSeries[];
}

/** The live dollar futures of the catalogue today, nearest first. */
function dollarMonths(catalogue: Catalogue, now: Date): string[] {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  return catalogue.instruments
    .filter((instrument) => instrument.kind === 'future' && instrument.product === 'DLR' && instrument.maturityDate != null && instrument.maturityDate >= day)
    .sort((a, b) => a.maturityDate!.localeCompare(b.maturityDate!))
    .map((instrument) => instrument.instrumentId.symbol);
}

/**
 * The charts visor: a board of `board` symbols (left), a candle chart of the nearest dollar
 * future and a line of the pase between the first two months (right), and the DLR curve
 * against the A3500 (below the board). Minute candles of today (range 1d, interval 1m), so
 * every tick moves the last candle.
 */
export function chartsVisor(catalogue: Catalogue, board: string[], now: Date): ChartsVisor {
  const months = dollarMonths(catalogue, now);
  if (months.length < 2) throw new Error('bench:visor: the catalogue lists fewer than two live dollar futures');
  const spot = catalogue.resolve('ROFEX:DLR/SPOT')?.instrumentId.symbol;
  if (!spot) throw new Error('bench:visor: the catalogue has no ROFEX:DLR/SPOT');
  const [near, next] = [months[0]!, months[1]!];
  // A formula names its legs with their market (ROFEX:DLR/DIC26); the worker subscribes them by
  // that name, so the feed updates them as symbols of their own.
  const plus = `ROFEX:${next}`;
  const minus = `ROFEX:${near}`;
  const charts: ChartSeries[] = [
    { section: 'bench-candles', kind: 'symbol', symbol: near },
    { section: 'bench-pase', kind: 'spread', plus, minus },
  ];
  const secciones: Section[] = [
    {
      id: 'bench-board',
      type: 'quotes',
      title: `Cotizaciones (${board.length})`,
      layout: { x: 0, y: 0, w: 6, h: 12 },
      config: { rows: board.map((symbol) => ({ kind: 'symbol' as const, symbol })), columns: ['bid', 'ask', 'last', 'change_pct', 'volume'] },
    },
    { id: 'bench-candles', type: 'chart', title: near, layout: { x: 6, y: 0, w: 6, h: 8 }, config: { series: [near], interval: '1m', range: '1d' } },
    {
      id: 'bench-pase',
      type: 'chart',
      title: `Pase ${next} − ${near}`,
      layout: { x: 6, y: 8, w: 6, h: 8 },
      config: { series: [`${plus} - ${minus}`], interval: '1m', range: '1d' },
    },
    {
      id: 'bench-curve',
      type: 'curve',
      title: 'Curva DLR',
      layout: { x: 0, y: 12, w: 6, h: 10 },
      config: { product: 'DLR', spot, dayCount: 'calendar', rate: 'tna' },
    },
  ];
  return { secciones, symbols: [...new Set([...board, ...months, spot, plus, minus])], boardSymbols: board, charts };
}

/** A legend's number as the app writes it (es-AR: `1.234,50`, `−0,25`). */
export function legendNumber(text: string): { value: number; step: number } | null {
  const clean = text
    .replace(/\s/g, '')
    .replace(/\u2212/g, '-')
    .replace(/\./g, '')
    .replace(',', '.');
  if (!/^-?\d+(?:\.\d+)?$/.test(clean)) return null;
  const decimals = clean.includes('.') ? clean.length - clean.indexOf('.') - 1 : 0;
  return { value: Number(clean), step: 10 ** -decimals };
}

/** The value each update made of a chart's series, in the order sent: (epoch ms, value). */
function seriesTimeline(feed: FeedServer, chart: ChartSeries): { at: number[]; value: number[] } {
  const at: number[] = [];
  const value: number[] = [];
  if (chart.kind === 'symbol') {
    const sends = feed.sends(chart.symbol);
    for (let i = 1; sends && i < sends.count; i++) {
      at.push(sends.sentAt[i]!);
      value.push(sends.price[i]!);
    }
    return { at, value };
  }
  // A spread moves when either leg does: both legs' updates merged by time.
  const plus = feed.sends(chart.plus);
  const minus = feed.sends(chart.minus);
  if (!plus || !minus) return { at, value };
  let i = 1;
  let j = 1;
  let a = plus.price[0]!;
  let b = minus.price[0]!;
  while (i < plus.count || j < minus.count) {
    if (j >= minus.count || (i < plus.count && plus.sentAt[i]! <= minus.sentAt[j]!)) {
      a = plus.price[i]!;
      at.push(plus.sentAt[i++]!);
    } else {
      b = minus.price[j]!;
      at.push(minus.sentAt[j++]!);
    }
    value.push(a - b);
  }
  return { at, value };
}

/**
 * Each chart's tick-to-paint: for every change of its legend's value (the value put into the
 * series in the same frame), the latest update sent at or before the change whose value the
 * legend shows, and the end of the first frame at or after the change in which the chart's
 * canvas drew. Changes no update explains (the history's last close at the start) are counted
 * apart.
 */
export function chartLatencies(samples: PageSamples, feed: FeedServer, chart: ChartSeries): { latencies: number[]; unexplained: number; undrawn: number } {
  const timeline = seriesTimeline(feed, chart);
  const draws = samples.chartDraws[chart.section] ?? [];
  const latencies: number[] = [];
  let unexplained = 0;
  let undrawn = 0;
  let cursor = 0;
  for (const change of samples.chartChanges) {
    if (change.section !== chart.section || change.series !== 0) continue;
    const shown = legendNumber(change.text);
    let sent = -1;
    if (shown) {
      let k = timeline.at.length - 1;
      while (k >= 0 && timeline.at[k]! > change.at) k--;
      for (; k >= 0; k--) {
        if (Math.abs(timeline.value[k]! - shown.value) <= shown.step / 2 + 1e-9) {
          sent = timeline.at[k]!;
          break;
        }
      }
    }
    if (sent < 0) {
      unexplained += 1;
      continue;
    }
    while (cursor < draws.length && draws[cursor]! < change.frame) cursor++;
    const painted = cursor < draws.length ? samples.frameEnds[draws[cursor]!] : undefined;
    if (painted == null || !Number.isFinite(painted) || painted === 0) undrawn += 1;
    else latencies.push(painted - sent);
  }
  return { latencies, unexplained, undrawn };
}

// ------------------------------------------------------------------ drawn from the cache

/**
 * Runs in the page before its scripts: when a chart root first says its mode (mountChart ran
 * and asked for its history in the same task) and when the frame that draws it with `bars`
 * bars has rendered, in ms of performance.now().
 */
function cachedDrawProbe(bars: number): void {
  const w = window as unknown as { __chartDraw: { mounted: number; drawn: number } };
  const state = { mounted: 0, drawn: 0 };
  w.__chartDraw = state;
  const observer = new MutationObserver(() => {
    const root = document.querySelector<HTMLElement>('[data-mode]');
    if (!root) return;
    if (state.mounted === 0) state.mounted = performance.now();
    if (root.dataset.bars === String(bars) && state.drawn === 0) {
      observer.disconnect();
      // lightweight-charts draws in the next animation frame after setData: a callback asked
      // for now runs after its own, and a task posted there runs after that frame rendered.
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          state.drawn = performance.now();
        };
        channel.port2.postMessage(0);
      });
    }
  });
  // The document itself: an init script runs before the document has its root element.
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-mode', 'data-bars'] });
}

/**
 * A chart of `bars` daily candles drawn from the Dexie cache: the visor is opened once (the
 * worker fetches the history and keeps it), then `times` times in a new tab (a new data
 * worker) with the history calls refused at the proxy, so only the cache can draw it.
 * Milliseconds from the chart's mount to the frame that showed its bars, each time.
 */
export async function cachedDrawTimes(
  browser: Browser,
  openContext: () => ReturnType<Browser['newContext']>,
  feed: FeedServer,
  address: string,
  bars: number,
  times: number,
): Promise<{ drawMs: number[]; firstBars: string }> {
  const context = await openContext();
  try {
    await context.addInitScript(cachedDrawProbe, bars);
    const first = await context.newPage();
    await first.goto(address);
    await first.waitForSelector('[data-mode][data-state="current"]', { timeout: 60_000 });
    const firstBars = (await first.getAttribute('[data-mode]', 'data-bars')) ?? '';
    await first.close();
    feed.refuse(/^\/api\/(?:visores\/search\/symbol\/history|get_intradia)$/);
    const drawMs: number[] = [];
    try {
      for (let i = 0; i < times; i++) {
        const page: Page = await context.newPage();
        await page.goto(address);
        const { mounted, drawn } = await page
          .waitForFunction(
            () => {
              const probe = (window as unknown as { __chartDraw?: { mounted: number; drawn: number } }).__chartDraw;
              return probe && probe.drawn > 0 ? probe : null;
            },
            undefined,
            { timeout: 30_000 },
          )
          .then((handle) => handle.jsonValue() as Promise<{ mounted: number; drawn: number }>)
          .catch(async (error: unknown) => {
            const root = await page.evaluate(
              () =>
                `${JSON.stringify((window as unknown as { __chartDraw?: unknown }).__chartDraw)} ${document.querySelector('[data-mode]')?.outerHTML.slice(0, 200) ?? 'no chart'}`,
            );
            throw new Error(`bench:visor: the cached chart did not draw ${bars} candles within 30 s (first visit: ${firstBars}): ${root}`, { cause: error });
          });
        drawMs.push(drawn - mounted);
        await page.close();
      }
    } finally {
      feed.refuse(null);
    }
    return { drawMs, firstBars };
  } finally {
    await context.close();
  }
}
