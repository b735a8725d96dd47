// npm run bench:visor [-- --rate 8000 --ratio-rate 50000 --seconds 20 --symbols 200 --formulas 10 --port 8343
//                        --skip-build --skip-naive --skip-ratio --one-tab --dist dist --page visor|test]
//
// A real visor under live load (issue 18, "Performance"): Chromium on the real app build
// (dist/, built first) opening /visor/{id} — a visor of a real server (in this process, on a
// throw-away SQLite database) holding a quote board of 200 catalogue symbols and a formula
// section of 10 formulas — while the bench feed (bench/ticks/feedServer.ts) pushes updates over
// /ws/market. The feed server serves dist/ and its own /ws/market and passes /api and /emoji to
// the real server, so the app signs in, reads its workspace and opens the visor for real; only
// the market socket is the bench's (the real server merges each symbol every 25 ms: that is
// its ceiling, and `--rate 8000` for 200 symbols is every symbol every 25 ms).
// Runs: 1 tab at --rate, then the same without the probe (instrument.ts: its frame callback
// and observers cost the tab 1.5–2.5 points of a core; this run's main thread is the app's
// alone, the figure for the target), 3 tabs at --rate, then 3 tabs of the visor and of the naive page
// (bench/ticks/naivePage.ts: a socket per tab, a React state update per message) at
// --ratio-rate for the main-thread ratio. Per tab: tick-to-paint p50/p95 of the rows in view,
// frame p95, main-thread busy (CDP TaskDuration) in seconds and in % of one core, long tasks,
// whether the tab shows the last update of every symbol and how long after the load ended.
// `--page test` runs the same on the /test board (for the bench's own checks). BENCH_TRACE=file
// writes a Chromium trace of the one-tab run (load only); BENCH_PROFILE=1 prints where its main
// thread's script time went (ticks/pageProfile.ts). Figures only; nothing here asserts.
// `--page charts` (issue 19): a visor of two live charts (the nearest dollar future's minute
// candles, and a formula line: the pase between the first two months), the DLR curve and a
// board of --board-rows symbols, every symbol it holds updated every 25 ms (the real server's
// ceiling; --rate overrides), 1 tab: tick-to-paint of the board and of each chart's last
// candle, frame p95, main thread; then a chart of 2,520 daily candles drawn from the Dexie
// cache (bench/ticks/charts.ts), five times.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from '@playwright/test';
import { buildApp, type BuiltApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import type { Catalogue } from '../server/market/catalogue.js';
import type { NamedFormula, Section } from '../src/protocol/workspace.js';
import { startFeedServer, type FeedServer } from './ticks/feedServer.js';
import type { PageSamples } from './ticks/instrument.js';
import { naiveFiles } from './ticks/naiveHtml.js';
import { cachedDrawTimes, chartLatencies, chartsVisor, type ChartSeries } from './ticks/charts.js';
import { benchContext, fmt, launchChromium, metrics, openTabs, paintLatencies, percentile, printRunTotals, processCpu } from './ticks/tabs.js';
import { machineSpeedLine } from './machineSpeed.js';
import { startPageProfile } from './ticks/pageProfile.js';
import { profileSharedWorker, type WorkerProfile } from './ticks/workerCpu.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string' },
    'board-rows': { type: 'string', default: '50' },
    'ratio-rate': { type: 'string', default: '50000' },
    seconds: { type: 'string', default: '20' },
    symbols: { type: 'string', default: '200' },
    formulas: { type: 'string', default: '10' },
    'per-message': { type: 'string', default: '10' },
    port: { type: 'string', default: process.env.BENCH_PORT ?? '8343' },
    page: { type: 'string', default: 'visor' },
    'skip-build': { type: 'boolean', default: false },
    'skip-naive': { type: 'boolean', default: false },
    'skip-ratio': { type: 'boolean', default: false },
    'one-tab': { type: 'boolean', default: false },
    dist: { type: 'string', default: 'dist' },
  },
});
const PAGE = values.page === 'test' ? 'test' : values.page === 'charts' ? 'charts' : 'visor';
/** Updates a second: --rate, else every symbol every 25 ms for the charts visor, else 8,000. */
const rateFor = (symbolCount: number) => (values.rate ? Number(values.rate) : PAGE === 'charts' ? 40 * symbolCount : 8000);
const RATIO_RATE = Number(values['ratio-rate']);
const SECONDS = Number(values.seconds);
const SYMBOL_COUNT = Number(values.symbols);
const CHART_BOARD_ROWS = Number(values['board-rows']);
const FORMULA_COUNT = Number(values.formulas);
const PER_MESSAGE = Number(values['per-message']);
const root = path.resolve(import.meta.dirname, '..');
/** Longest wait after the load for every tab to show the last update. */
const DRAIN_LIMIT_S = 90;
/** How long the final check waits, at each stop of its scroll, for the rows in view to show the last update sent. */
const FINAL_STATE_WAIT_MS = 2_000;
/** How long the app has to show the board once the page loaded. */
const BOARD_TIMEOUT_MS = 30_000;

// ------------------------------------------------------------------ the visor

/**
 * `count` symbols of the catalogue as a trader's board holds them: bonds in pesos, MEP and
 * cable, shares and CEDEARs (both terms), then dollar futures. Their canonical names, so the
 * worker subscribes to exactly what the feed updates.
 */
function boardSymbols(catalogue: Catalogue, count: number): string[] {
  const rank = (kind: string) => ({ bond: 0, stock: 1, future: 2 })[kind] ?? 3;
  const list = catalogue.instruments
    .filter((instrument) => instrument.kind === 'bond' || instrument.kind === 'stock' || (instrument.kind === 'future' && instrument.product === 'DLR'))
    .sort((a, b) => rank(a.kind) - rank(b.kind))
    .map((instrument) => instrument.instrumentId.symbol);
  if (list.length < count) throw new Error(`bench:visor: the catalogue has ${list.length} such symbols, fewer than --symbols ${count}`);
  return list.slice(0, count);
}

/** MEP and CCL of the bonds on the board, in BYMA's long form (the symbols the feed updates), `count` of them. */
function boardFormulas(symbols: string[], count: number): NamedFormula[] {
  const on = new Set(symbols);
  const line = (ticker: string) => `MERV - XMEV - ${ticker} - 24hs`;
  const formulas: NamedFormula[] = [];
  for (const bond of ['AL30', 'GD30', 'AL35', 'GD35', 'AL29', 'GD29', 'AE38', 'GD38', 'AL41', 'GD41', 'GD46']) {
    if (on.has(line(bond)) && on.has(line(`${bond}D`)))
      formulas.push({ name: `MEP ${bond}`, expression: `${line(bond)} / ${line(`${bond}D`)}`, unit: 'price' });
    if (on.has(line(bond)) && on.has(line(`${bond}C`)))
      formulas.push({ name: `CCL ${bond}`, expression: `${line(bond)} / ${line(`${bond}C`)}`, unit: 'price' });
  }
  if (formulas.length < count) throw new Error(`bench:visor: the board's bonds make ${formulas.length} formulas, fewer than --formulas ${count}`);
  return formulas.slice(0, count);
}

interface RealServer {
  built: BuiltApp;
  url: string;
  token: string;
  user: { _id: string };
  visorId: string;
  /** Every symbol the visor holds: the feed updates them all. */
  symbols: string[];
  /** The board's symbols (the final state is checked on them). */
  boardSymbols: string[];
  /** --page charts: the charts' series, a visor of one 2,520-candle chart, and each symbol's price on the real server. */
  charts: ChartSeries[];
  cacheVisorId: string | null;
  prices: Map<string, number>;
  close(): Promise<void>;
}

/** The real server on a throw-away database, with a bench user and its visor (board and formulas). */
async function startRealServer(): Promise<RealServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-client'),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    SEED_DEMO_USERS: 'false',
  });
  const built = await buildApp(config);
  const close = async () => {
    await built.app.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // The browser's market socket is the bench feed's: the simulator only costs CPU here.
    built.ctx.market.feeds.stopAll();
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
    const password = 'bench-password-1';
    const { auth } = built.ctx;
    await auth.users.create({ username: 'bench', passwordHash: await auth.hashPassword(password), firstName: 'Bench', lastName: 'Mark', role: 'user' });
    const call = async <T>(method: string, route: string, body: unknown, token?: string): Promise<T> => {
      const response = await fetch(`${url}/api${route}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`bench:visor: ${method} ${route} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as T;
    };
    const { token, user } = await call<{ token: string; user: { _id: string } }>('POST', '/login', { username: 'bench', password });
    const { catalogue } = built.ctx.market;
    const newVisor = async (title: string) =>
      (await call<{ data: { id_visor: string } }>('POST', `/visores/${user._id}/new`, { title, emoji: '⏱️', folder_id: null }, token)).data.id_visor;
    const visorId = await newVisor('Banco de pruebas');
    if (PAGE === 'charts') {
      const visor = chartsVisor(catalogue, boardSymbols(catalogue, CHART_BOARD_ROWS), new Date());
      await call('PUT', `/visores/${visorId}/update_secciones`, { secciones: visor.secciones }, token);
      // One chart of ten years of daily candles (2,520), for the drawing from the cache.
      const cacheVisorId = await newVisor('Diez años');
      const al30 = catalogue.resolve('BYMA:AL30')!.instrumentId.symbol;
      const chart: Section = {
        id: 'bench-10y',
        type: 'chart',
        title: al30,
        layout: { x: 0, y: 0, w: 12, h: 12 },
        config: { series: [al30], interval: '1d', range: '10Y' },
      };
      await call('PUT', `/visores/${cacheVisorId}/update_secciones`, { secciones: [chart] }, token);
      // The live prices start where the history ends (the real server's reference prices).
      const prices = new Map(
        visor.symbols.flatMap((symbol) => (catalogue.referencePrice.has(symbol) ? [[symbol, catalogue.referencePrice.get(symbol)!] as const] : [])),
      );
      return { built, url, token, user, visorId, symbols: visor.symbols, boardSymbols: visor.boardSymbols, charts: visor.charts, cacheVisorId, prices, close };
    }
    const symbols = boardSymbols(catalogue, SYMBOL_COUNT);
    const secciones: Section[] = [
      {
        id: 'bench-board',
        type: 'quotes',
        title: `Cotizaciones (${symbols.length})`,
        layout: { x: 0, y: 0, w: 8, h: 20 },
        config: { rows: symbols.map((symbol) => ({ kind: 'symbol' as const, symbol })), columns: ['bid', 'ask', 'last', 'change_pct', 'volume'] },
      },
      {
        id: 'bench-formulas',
        type: 'formula',
        title: `Fórmulas (${FORMULA_COUNT})`,
        layout: { x: 8, y: 0, w: 4, h: 20 },
        config: { formulas: boardFormulas(symbols, FORMULA_COUNT) },
      },
    ];
    await call('PUT', `/visores/${visorId}/update_secciones`, { secciones }, token);
    return { built, url, token, user, visorId, symbols, boardSymbols: symbols, charts: [], cacheVisorId: null, prices: new Map(), close };
  } catch (error) {
    await close();
    throw error;
  }
}

// ------------------------------------------------------------------ the page

/** The volume (the feed's sequence number) each rendered row shows, by symbol; NaN when it shows none. */
async function shownSequences(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const shown: Record<string, number> = {};
    for (const row of document.querySelectorAll<HTMLElement>('[role="row"][data-symbol]')) {
      const digits = (row.querySelector('[data-field="volume"]')?.textContent ?? '').replace(/\D/g, '');
      shown[row.dataset.symbol!] = digits ? Number(digits) : Number.NaN;
    }
    return shown;
  });
}

/**
 * Every symbol's volume, the rows out of view included: a virtual list renders only the rows
 * in view, so the board is scrolled page by page (after the measurement) and read at each stop.
 */
async function allSequences(page: Page, expected: ReadonlyMap<string, number>): Promise<Record<string, number>> {
  const wanted = Object.fromEntries(expected);
  const shown: Record<string, number> = {};
  for (let step = 0; step < 100; step++) {
    Object.assign(shown, await shownSequences(page));
    const moved = await page.evaluate((first) => {
      const row = document.querySelector<HTMLElement>('[role="row"][data-symbol]');
      let box: HTMLElement | null = row?.parentElement ?? null;
      while (box && !(box.scrollHeight > box.clientHeight + 1 && /(auto|scroll)/.test(getComputedStyle(box).overflowY))) box = box.parentElement;
      const scroller = box ?? document.scrollingElement!;
      if (first) {
        scroller.scrollTop = 0;
        return true;
      }
      const before = scroller.scrollTop;
      scroller.scrollTop = before + Math.max(100, scroller.clientHeight - 40);
      return scroller.scrollTop !== before;
    }, step === 0);
    if (!moved && step > 0) break;
    // Rows that come into view render from the store, and a symbol that was off screen may still
    // be on its way (the worker sends off-screen symbols every 500 ms; one back in view leaves
    // with the next batch, then waits for the tab's paint): wait until each rendered row shows
    // the last update sent, FINAL_STATE_WAIT_MS at most, and two frames; a row still behind then
    // is read as it is, and counts as wrong.
    await page
      .waitForFunction(
        (last) =>
          [...document.querySelectorAll<HTMLElement>('[role="row"][data-symbol]')].every(
            (row) => Number((row.querySelector('[data-field="volume"]')?.textContent ?? '').replace(/\D/g, '')) === last[row.dataset.symbol!],
          ),
        wanted,
        { timeout: FINAL_STATE_WAIT_MS, polling: 'raf' },
      )
      .catch(() => undefined);
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  }
  return shown;
}

/** Waits for the board: its rows, each with a live value; fails saying what is missing. */
async function waitForBoard(page: Page, design: string, address: string, expectAll: boolean): Promise<void> {
  try {
    await page.waitForSelector('[role="row"][data-symbol]', { timeout: BOARD_TIMEOUT_MS });
  } catch {
    const text = (await page.evaluate(() => (document.querySelector('main') ?? document.body).textContent).catch(() => '')) ?? '';
    throw new Error(
      `bench:visor: ${address} shows no quote board rows ([role="row"][data-symbol]) after ${BOARD_TIMEOUT_MS / 1000} s (${design}). ` +
        `Is the visor screen built (issue 18, /visor/:id with a Cotizaciones section whose rows keep the /test board's hooks: ` +
        `role="row", data-symbol, data-stale and a data-field="volume" cell)? The page says: «${text.replace(/\s+/g, ' ').trim().slice(0, 200)}»`,
    );
  }
  try {
    await page.waitForFunction(
      ([count, all]) => {
        const rows = [...document.querySelectorAll<HTMLElement>('[role="row"][data-symbol]')];
        return rows.length > 0 && (!all || rows.length === count) && rows.every((row) => row.dataset.stale === 'false');
      },
      [SYMBOL_COUNT, expectAll] as const,
      { timeout: 60_000 },
    );
  } catch {
    const states = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[role="row"][data-symbol]')].map((row) => row.dataset.stale ?? 'none'),
    );
    throw new Error(
      `bench:visor: the board on ${address} did not go live within 60 s (${design}): ${states.length} rows, data-stale ${JSON.stringify([...new Set(states)])}` +
        (expectAll ? ` (expected all ${SYMBOL_COUNT} rows)` : ''),
    );
  }
  const hasVolume = await page.evaluate(() => document.querySelector('[role="row"][data-symbol] [data-field="volume"]') != null);
  if (!hasVolume) throw new Error(`bench:visor: the board's rows on ${address} have no data-field="volume" cell: the bench reads each update's sequence there`);
}

/** Waits for each chart to draw its history and show a live value in its legend, and for the curve's rows. */
async function waitForCharts(page: Page, charts: ChartSeries[]): Promise<void> {
  for (const chart of charts) {
    const root = `[data-section-id="${chart.section}"] [data-mode]`;
    try {
      await page.waitForFunction(
        (selector) => {
          const element = document.querySelector<HTMLElement>(selector);
          const value = element?.querySelector('[data-series-index="0"] [data-field="value"]')?.textContent ?? '';
          return Number(element?.dataset.bars ?? 0) > 0 && /\d/.test(value);
        },
        root,
        { timeout: 60_000 },
      );
    } catch {
      const state = await page.evaluate((selector) => document.querySelector(selector)?.outerHTML.slice(0, 300) ?? 'none', root);
      throw new Error(`bench:visor: the chart ${chart.section} drew nothing within 60 s: ${state}`);
    }
  }
  await page.waitForSelector('[data-section-id="bench-curve"] tbody tr', { timeout: 60_000 });
}

// ------------------------------------------------------------------ a run

type Design = 'visor' | 'test' | 'naive' | 'charts';

interface TabResult {
  samples: PageSamples;
  taskSeconds: number;
  scriptSeconds: number;
  styleSeconds: number;
  layoutSeconds: number;
  /** Seconds after the load ended when the tab showed the last update on every rendered row (NaN: never, within the limit). */
  caughtUpSeconds: number;
  rowsRendered: number;
  /** Symbols whose final volume is not the last update sent (all rows, scrolled through). */
  finalWrong: string[];
}

interface RunResult {
  label: string;
  design: Design;
  rate: number;
  tabs: TabResult[];
  worker: WorkerProfile | null;
  subscribed: number;
  sent: number;
  wallSeconds: number;
  drainSeconds: number;
  cpuLine: string;
  charts: ChartSeries[];
  boardRows: number;
}

async function runDesign(
  browser: Browser,
  feed: FeedServer,
  server: RealServer,
  design: Design,
  tabCount: number,
  rate: number,
  probe = true,
): Promise<RunResult> {
  const symbols = server.symbols;
  feed.reset(symbols, server.prices);
  const context = await benchContext(browser, server.token, server.user, probe);
  const list = encodeURIComponent(symbols.join(','));
  const address =
    design === 'visor' || design === 'charts'
      ? `${feed.url}/visor/${server.visorId}`
      : design === 'test'
        ? `${feed.url}/test?simbolos=${list}`
        : `${feed.url}/naive.html?simbolos=${list}`;
  try {
    const pages = await openTabs(browser, context, address, tabCount);
    pages.forEach((page, i) => page.on('pageerror', (error) => console.error(`[${design} tab ${i + 1}] ${error.message}`)));
    for (const page of pages) await waitForBoard(page, design, address, design !== 'visor' && design !== 'charts');
    if (design === 'charts') for (const page of pages) await waitForCharts(page, server.charts);
    // Wait until the worker has subscribed every symbol, the rows out of view too (at most 10 s).
    for (const until = Date.now() + 10_000; Date.now() < until;) {
      if (Math.max(0, ...feed.marketSockets().map((socket) => socket.symbols)) >= symbols.length) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const subscribed = Math.max(0, ...feed.marketSockets().map((socket) => socket.symbols));
    const sessions = await Promise.all(pages.map((page) => context.newCDPSession(page)));
    for (const cdp of sessions) await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const worker = design === 'naive' ? null : await profileSharedWorker(browser);
    const cpuByProcess = await processCpu(browser);
    const cpuBefore = await cpuByProcess.read();
    const feedCpuBefore = process.cpuUsage();
    const before = await Promise.all(sessions.map(metrics));
    const startedAt = Date.now();
    for (const page of pages) await page.evaluate(() => (window as unknown as { __bench: { start(): void } }).__bench.start());

    const tracing = process.env.BENCH_TRACE && design !== 'naive' && tabCount === 1;
    if (tracing) {
      await browser.startTracing(pages[0], {
        path: process.env.BENCH_TRACE,
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'v8'],
      });
    }
    const profiling =
      process.env.BENCH_PROFILE && tabCount === 1 && design !== 'naive'
        ? await startPageProfile(sessions[0]!, path.resolve(root, values.dist, 'assets'))
        : null;
    const run = await feed.run({ symbols, rate, seconds: SECONDS, perMessage: PER_MESSAGE });
    if (profiling) console.log(await profiling.stop());
    if (tracing) await browser.stopTracing();

    const last = new Map([...feed.lastSent()].map(([symbol, md]) => [symbol, md.TV as number]));
    const wrongIn = (shown: Record<string, number>) => Object.entries(shown).filter(([symbol, sequence]) => sequence !== last.get(symbol));
    // The load is over; each tab has caught up when every row it renders shows the last update
    // sent (a design that fell behind pays for its backlog here, in main-thread time).
    const loadEnded = Date.now();
    const caughtUp: number[] = pages.map(() => Number.NaN);
    while (Date.now() - loadEnded < DRAIN_LIMIT_S * 1000 && caughtUp.some(Number.isNaN)) {
      const shown = await Promise.all(pages.map(shownSequences));
      const at = (Date.now() - loadEnded) / 1000;
      shown.forEach((rows, i) => {
        if (Number.isNaN(caughtUp[i]!) && Object.keys(rows).length > 0 && wrongIn(rows).length === 0) caughtUp[i] = at;
      });
      if (caughtUp.some(Number.isNaN)) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const drainSeconds = (Date.now() - loadEnded) / 1000;
    const after = await Promise.all(sessions.map(metrics));
    const wallSeconds = (Date.now() - startedAt) / 1000;
    const cpuAfter = await cpuByProcess.read();
    const feedCpu = process.cpuUsage(feedCpuBefore);
    await cpuByProcess.close();
    const cpu = [...cpuAfter].map(([type, seconds]) => `${type} ${fmt(seconds - (cpuBefore.get(type) ?? 0), 1)} s`).join(', ');
    const cpuLine = `CPU by process (load and drain): ${cpu}; this process (feed and real server) ${fmt((feedCpu.user + feedCpu.system) / 1e6, 1)} s`;
    const workerProfile = worker ? await worker.stop() : null;

    const tabs: TabResult[] = [];
    for (let i = 0; i < pages.length; i++) {
      const page = pages[i]!;
      const samples = await page.evaluate(() => (window as unknown as { __bench: { stop(): PageSamples } }).__bench.stop());
      const rowsRendered = Object.keys(await shownSequences(page)).length;
      const shown = await allSequences(page, last);
      const finalWrong = server.boardSymbols.filter((symbol) => shown[symbol] !== last.get(symbol));
      const delta = (name: string) => (after[i]![name] ?? 0) - (before[i]![name] ?? 0);
      tabs.push({
        samples,
        taskSeconds: delta('TaskDuration'),
        scriptSeconds: delta('ScriptDuration'),
        styleSeconds: delta('RecalcStyleDuration'),
        layoutSeconds: delta('LayoutDuration'),
        caughtUpSeconds: caughtUp[i]!,
        rowsRendered,
        finalWrong,
      });
    }
    const label = `${design === 'naive' ? 'naive page' : design === 'test' ? '/test board' : design === 'charts' ? 'charts visor' : 'visor'}, ${tabCount} tab${tabCount > 1 ? 's' : ''}, ${rate.toLocaleString('en')} updates/s`;
    return {
      label,
      design,
      rate,
      tabs,
      worker: workerProfile,
      subscribed,
      sent: run.updatesSent,
      wallSeconds,
      drainSeconds,
      cpuLine,
      charts: server.charts,
      boardRows: server.boardSymbols.length,
    };
  } finally {
    await context.close();
  }
}

function report(feed: FeedServer, result: RunResult): number {
  const every = result.tabs.every((tab) => Number.isFinite(tab.caughtUpSeconds));
  console.log(
    `\n${result.label}: ${result.sent.toLocaleString('en')} updates sent in ${SECONDS} s; the market socket held ${result.subscribed} symbols; ` +
      `${every ? `every tab showed the last update ${fmt(result.drainSeconds, 2)} s after the load ended` : `not every tab caught up within ${DRAIN_LIMIT_S} s`}`,
  );
  let busy = 0;
  result.tabs.forEach((tab, index) => {
    const { samples } = tab;
    // Tick-to-paint on rows in the viewport (only they are painted); rows out of view that are
    // rendered (the virtual list's overscan, or /test's rows) have their text lag shown apart.
    const { latencies, offScreenLags, rowsInView } = paintLatencies(samples, (symbol, sequence) => feed.sentAt(symbol, sequence));
    busy += tab.taskSeconds;
    const wrong = tab.finalWrong;
    console.log(
      `  tab ${index + 1}: tick-to-paint (${rowsInView} rows in view of ${tab.rowsRendered} rendered) p50 ${fmt(percentile(latencies, 50))} ms, p95 ${fmt(percentile(latencies, 95))} ms` +
        ` · frame p95 ${fmt(percentile(samples.frameIntervals, 95))} ms (${samples.frameIntervals.length} frames)` +
        ` · main thread busy ${fmt((100 * tab.taskSeconds) / result.wallSeconds, 1)} % of a core: ${fmt(tab.taskSeconds, 2)} s of ${fmt(result.wallSeconds, 1)} s` +
        ` (script ${fmt(tab.scriptSeconds, 2)}, style ${fmt(tab.styleSeconds, 2)}, layout ${fmt(tab.layoutSeconds, 2)})` +
        ` · long tasks ${samples.longTasks} (${fmt(samples.longTaskMs, 0)} ms)` +
        ` · rendered rows out of view, send to text p95 ${fmt(percentile(offScreenLags, 95))} ms` +
        ` · showed the last update ${Number.isFinite(tab.caughtUpSeconds) ? `${fmt(tab.caughtUpSeconds, 2)} s after the load` : 'NEVER'}` +
        ` · final state of all ${result.boardRows} ${wrong.length === 0 ? 'right' : `WRONG for ${wrong.length}: ${wrong.slice(0, 4).join(', ')}`}`,
    );
  });
  if (result.design === 'charts') {
    result.tabs.forEach((tab, index) => {
      for (const chart of result.charts) {
        const { latencies, unexplained, undrawn } = chartLatencies(tab.samples, feed, chart);
        const what = chart.kind === 'symbol' ? `candles of ${chart.symbol}` : `line ${chart.plus} − ${chart.minus}`;
        console.log(
          `  tab ${index + 1}, chart ${chart.section} (${what}): last candle tick-to-paint p50 ${fmt(percentile(latencies, 50))} ms, p95 ${fmt(percentile(latencies, 95))} ms` +
            ` (${latencies.length} legend changes painted; ${undrawn} never drawn; ${unexplained} not from an update of the run)`,
        );
      }
    });
  }
  printRunTotals(result, busy);
  return busy;
}

/** A run without the probe (instrument.ts): its main thread is the app's alone. */
function reportMainThread(result: RunResult): void {
  console.log(`\n${result.label}, the same run without the bench's probe (no frame callback, no observers): the app's main thread alone`);
  result.tabs.forEach((tab, index) =>
    console.log(
      `  tab ${index + 1}: main thread busy ${fmt((100 * tab.taskSeconds) / result.wallSeconds, 1)} % of a core: ${fmt(tab.taskSeconds, 2)} s of ${fmt(result.wallSeconds, 1)} s` +
        ` (script ${fmt(tab.scriptSeconds, 2)}, style ${fmt(tab.styleSeconds, 2)}, layout ${fmt(tab.layoutSeconds, 2)})` +
        ` · showed the last update ${Number.isFinite(tab.caughtUpSeconds) ? `${fmt(tab.caughtUpSeconds, 2)} s after the load` : 'NEVER'}` +
        ` · final state of all ${result.boardRows} ${tab.finalWrong.length === 0 ? 'right' : `WRONG for ${tab.finalWrong.length}`}`,
    ),
  );
}

async function main() {
  if (!values['skip-build'])
    execFileSync('npx', ['vite', 'build', '--outDir', path.resolve(root, values.dist), '--emptyOutDir'], { cwd: root, stdio: 'ignore' });
  const server = await startRealServer();
  let feed: FeedServer | null = null;
  let browser: Browser | null = null;
  try {
    feed = await startFeedServer({
      port: Number(values.port),
      distDir: path.resolve(root, values.dist),
      extraFiles: await naiveFiles(root),
      apiProxy: server.url,
    });
    browser = await launchChromium();
    const RATE = rateFor(server.symbols.length);
    const formulas = PAGE === 'visor' ? `, a formula section of ${FORMULA_COUNT}` : '';
    const what =
      PAGE === 'charts'
        ? `a visor (${feed.url}/visor/${server.visorId}): a board of ${server.boardSymbols.length} symbols, two charts and the DLR curve, ${server.symbols.length} symbols in all`
        : PAGE === 'visor'
          ? `a visor (${feed.url}/visor/${server.visorId}): a board of ${SYMBOL_COUNT} symbols${formulas}`
          : `/test with ${SYMBOL_COUNT} symbols`;
    console.log(
      `bench:visor — ${what}; ` +
        `${RATE.toLocaleString('en')} updates/s (every symbol every ${fmt((1000 * server.symbols.length) / RATE, 0)} ms) for ${SECONDS} s, ${PER_MESSAGE} symbols per message`,
    );
    console.log(
      `machine: ${cpus().length} cores, load average before ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}`,
    );
    console.log(machineSpeedLine());
    const design: Design = PAGE;
    report(feed, await runDesign(browser, feed, server, design, 1, RATE));
    reportMainThread(await runDesign(browser, feed, server, design, 1, RATE, false));
    if (design === 'charts' && server.cacheVisorId) {
      const { drawMs, firstBars } = await cachedDrawTimes(
        browser,
        () => benchContext(browser!, server.token, server.user),
        feed,
        `${feed.url}/visor/${server.cacheVisorId}`,
        2520,
        5,
      );
      console.log(
        `\na chart of ${firstBars} daily candles (ten years of BYMA:AL30) drawn from the Dexie cache, the server's history refused, 5 new tabs: ` +
          `${drawMs.map((ms) => fmt(ms, 0)).join(', ')} ms from the chart's mount to the frame that showed it (median ${fmt(percentile(drawMs, 50), 0)} ms)`,
      );
    }
    if (design !== 'charts' && !values['one-tab']) report(feed, await runDesign(browser, feed, server, design, 3, RATE));
    if (!values['skip-ratio'] && !values['one-tab'] && design !== 'charts') {
      const ours = report(feed, await runDesign(browser, feed, server, design, 3, RATIO_RATE));
      if (!values['skip-naive']) {
        const naive = report(feed, await runDesign(browser, feed, server, 'naive', 3, RATIO_RATE));
        console.log(
          `\nmain-thread time at ${RATIO_RATE.toLocaleString('en')} updates/s, 3 tabs, naive / ours: ${fmt(naive / ours, 1)}× (${fmt(naive, 2)} s / ${fmt(ours, 2)} s)`,
        );
      }
    }
    console.log(
      `load average after: ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await browser?.close();
    await feed?.close();
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error && error.message.startsWith('bench:visor') ? error.message : error);
  process.exit(1);
});
