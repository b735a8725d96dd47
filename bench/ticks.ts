// npm run bench:ticks [-- --rate 50000 --seconds 20 --symbols 200 --tabs 3 --per-message 10 --port 8342]
//
// Real Chromium (/usr/bin/chromium), the real app build (dist/, built first), three tabs each
// showing the same 200 symbols on the quote board (/test), fed by a local socket server
// (bench/ticks/feedServer.ts) pushing 50,000 symbol updates a second for 20 s over the
// /ws/market protocol. Prints per tab: ticks applied per second (volume cells changed),
// tick-to-paint p50/p95 on the rows in view (send → end of the rendering of the frame that shows it;
// rows out of view are not painted: their send-to-text lag is shown apart), main-thread
// busy time (CDP Performance.getMetrics TaskDuration), long tasks, frame time p95; the data
// worker's CPU (V8 sampling profiler on the SharedWorker target); whether every symbol's final
// state on screen is the last one sent. Then the naive design (bench/ticks/naivePage.ts: a
// socket per tab, a React state update per message) on the same load, and the ratio of
// main-thread time. Figures only; nothing here asserts.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { quoteCells } from '../src/features/quoteBoard/quoteCells.js';
import { BENCH_TOKEN, BENCH_USER, startFeedServer, type FeedServer } from './ticks/feedServer.js';
import type { PageSamples } from './ticks/instrument.js';
import { naiveFiles } from './ticks/naiveHtml.js';
import { benchContext, fmt, launchChromium, metrics, openTabs, paintLatencies, percentile, printRunTotals, processCpu } from './ticks/tabs.js';
import { profileSharedWorker, type WorkerProfile } from './ticks/workerCpu.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '50000' },
    seconds: { type: 'string', default: '20' },
    symbols: { type: 'string', default: '200' },
    tabs: { type: 'string', default: '3' },
    'per-message': { type: 'string', default: '10' },
    port: { type: 'string', default: process.env.BENCH_PORT ?? '8342' },
    'skip-build': { type: 'boolean', default: false },
    'skip-naive': { type: 'boolean', default: false },
  },
});
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const SYMBOLS = Array.from({ length: Number(values.symbols) }, (_, i) => `BENCH-${String(i + 1).padStart(3, '0')}`);
const TABS = Number(values.tabs);
const PER_MESSAGE = Number(values['per-message']);
const root = path.resolve(import.meta.dirname, '..');
/** Longest wait after the load for every tab to show the last update. */
const DRAIN_LIMIT_S = 90;

interface TabResult {
  samples: PageSamples;
  taskSeconds: number;
  scriptSeconds: number;
  layoutSeconds: number;
  styleSeconds: number;
  finalWrong: string[];
}

/** What each row shows, read from the screen: bid, offer, last, volume. */
async function shownRows(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(() => {
    const rows: Record<string, string[]> = {};
    for (const row of document.querySelectorAll<HTMLElement>('[role="row"][data-symbol]')) {
      rows[row.dataset.symbol!] = ['bid', 'offer', 'last', 'volume'].map((field) => row.querySelector(`[data-field="${field}"]`)?.textContent ?? '');
    }
    return rows;
  });
}

async function runDesign(
  browser: Browser,
  feed: FeedServer,
  design: 'ours' | 'naive',
): Promise<{ tabs: TabResult[]; worker: WorkerProfile | null; sockets: number; sent: number; drainSeconds: number; cpuLine: string }> {
  feed.reset(SYMBOLS);
  const context: BrowserContext = await benchContext(browser, BENCH_TOKEN, BENCH_USER);
  const list = encodeURIComponent(SYMBOLS.join(','));
  const address = design === 'ours' ? `${feed.url}/test?simbolos=${list}` : `${feed.url}/naive.html?simbolos=${list}`;
  // Each tab in a window of its own, all on screen (openTabs).
  const pages: Page[] = await openTabs(browser, context, address, TABS);
  pages.forEach((page, i) => page.on('pageerror', (error) => console.error(`[${design} tab ${i + 1}] ${error.message}`)));
  for (const page of pages) {
    await page.waitForFunction((count) => document.querySelectorAll('[role="row"][data-symbol][data-stale="false"]').length === count, SYMBOLS.length, {
      timeout: 60_000,
    });
  }
  const sockets = feed.marketSockets().filter((socket) => socket.symbols > 0).length;
  const sessions = await Promise.all(pages.map((page) => context.newCDPSession(page)));
  for (const cdp of sessions) await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const worker = design === 'ours' ? await profileSharedWorker(browser) : null;
  const cpuByProcess = await processCpu(browser);
  const cpuBefore = await cpuByProcess.read();
  const feedCpuBefore = process.cpuUsage();
  const before = await Promise.all(sessions.map(metrics));
  for (const page of pages) await page.evaluate(() => (window as unknown as { __bench: { start(): void } }).__bench.start());

  if (process.env.BENCH_TRACE && design === 'ours') {
    await browser.startTracing(pages[0], {
      path: process.env.BENCH_TRACE,
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'v8'],
    });
  }
  const run = await feed.run({ symbols: SYMBOLS, rate: RATE, seconds: SECONDS, perMessage: PER_MESSAGE });
  if (process.env.BENCH_TRACE && design === 'ours') await browser.stopTracing();

  const expected = new Map(
    [...feed.lastSent()].map(([symbol, md]) => {
      const cells = quoteCells({ md });
      return [symbol, [cells.bid, cells.offer, cells.last, cells.volume]];
    }),
  );
  const wrongOn = async (page: Page) => {
    const shown = await shownRows(page);
    return SYMBOLS.filter((symbol) => JSON.stringify(shown[symbol]) !== JSON.stringify(expected.get(symbol)));
  };
  // The load is over when every tab shows the last update sent (or after DRAIN_LIMIT_S): a
  // design that fell behind pays for its backlog here, in main-thread time and drain time.
  const loadEnded = Date.now();
  while (Date.now() - loadEnded < DRAIN_LIMIT_S * 1000) {
    const wrong = await Promise.all(pages.map(wrongOn));
    if (wrong.every((list) => list.length === 0)) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const drainSeconds = (Date.now() - loadEnded) / 1000;
  const after = await Promise.all(sessions.map(metrics));
  const cpuAfter = await cpuByProcess.read();
  const feedCpu = process.cpuUsage(feedCpuBefore);
  const cpu = [...cpuAfter].map(([type, seconds]) => `${type} ${fmt(seconds - (cpuBefore.get(type) ?? 0), 1)} s`).join(', ');
  const cpuLine = `CPU by process (load and drain): ${cpu}; feed server (this process) ${fmt((feedCpu.user + feedCpu.system) / 1e6, 1)} s`;
  await cpuByProcess.close();
  const workerProfile = worker ? await worker.stop() : null;
  const tabs: TabResult[] = [];
  for (let i = 0; i < pages.length; i++) {
    const page = pages[i]!;
    const samples = await page.evaluate(() => (window as unknown as { __bench: { stop(): PageSamples } }).__bench.stop());
    const finalWrong = await wrongOn(page);
    const delta = (name: string) => (after[i]![name] ?? 0) - (before[i]![name] ?? 0);
    tabs.push({
      samples,
      taskSeconds: delta('TaskDuration'),
      scriptSeconds: delta('ScriptDuration'),
      layoutSeconds: delta('LayoutDuration'),
      styleSeconds: delta('RecalcStyleDuration'),
      finalWrong,
    });
  }
  await context.close();
  return { tabs, worker: workerProfile, sockets, sent: run.updatesSent, drainSeconds, cpuLine };
}

function report(label: string, feed: FeedServer, result: Awaited<ReturnType<typeof runDesign>>): number {
  console.log(
    `\n${label}: ${result.sockets} market socket(s) subscribed, ${result.sent.toLocaleString('en')} updates sent in ${SECONDS} s; ` +
      `every tab showed the last one ${fmt(result.drainSeconds, 1)} s after the load ended${result.drainSeconds >= DRAIN_LIMIT_S ? ' (gave up waiting)' : ''}`,
  );
  let busy = 0;
  result.tabs.forEach((tab, index) => {
    const { samples } = tab;
    // Tick-to-paint is measured on rows in the viewport: only they are painted. A row out of
    // view only has its text changed (the app sends those every OFF_SCREEN_INTERVAL_MS): its
    // lag from send to that change is shown apart.
    const { latencies, offScreenLags, rowsInView } = paintLatencies(samples, (symbol, sequence) => feed.sentAt(symbol, sequence));
    busy += tab.taskSeconds;
    console.log(
      `  tab ${index + 1}: ticks applied ${fmt(samples.applied / samples.seconds, 0)}/s · tick-to-paint (${rowsInView} rows in view) p50 ${fmt(percentile(latencies, 50))} ms, p95 ${fmt(percentile(latencies, 95))} ms` +
        ` · rows out of view, send to text p50 ${fmt(percentile(offScreenLags, 50))} ms, p95 ${fmt(percentile(offScreenLags, 95))} ms` +
        ` · main thread ${fmt(tab.taskSeconds, 2)} s (script ${fmt(tab.scriptSeconds, 2)}, style ${fmt(tab.styleSeconds, 2)}, layout ${fmt(tab.layoutSeconds, 2)})` +
        ` · long tasks ${samples.longTasks} (${fmt(samples.longTaskMs, 0)} ms) · frame p95 ${fmt(percentile(samples.frameIntervals, 95))} ms (${samples.frameIntervals.length} frames)` +
        ` · final state ${tab.finalWrong.length === 0 ? `right for all ${SYMBOLS.length}` : `WRONG for ${tab.finalWrong.length}: ${tab.finalWrong.slice(0, 5).join(', ')}`}`,
    );
  });
  printRunTotals(result, busy);
  return busy;
}

async function main() {
  if (!values['skip-build']) execFileSync('npx', ['vite', 'build'], { cwd: root, stdio: 'ignore' });
  const feed = await startFeedServer({ port: Number(values.port), distDir: path.join(root, 'dist'), extraFiles: await naiveFiles(root) });
  const browser = await launchChromium();
  console.log(
    `bench:ticks — ${TABS} tabs × ${SYMBOLS.length} symbols, ${RATE.toLocaleString('en')} updates/s for ${SECONDS} s, ${PER_MESSAGE} symbols per message`,
  );
  console.log(
    `machine: ${cpus().length} cores, load average before ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  try {
    const ours = report('ours (one SharedWorker socket, paced batches, rows writing their own text nodes)', feed, await runDesign(browser, feed, 'ours'));
    if (!values['skip-naive']) {
      const naive = report('naive (a socket per tab, a React state update per message)', feed, await runDesign(browser, feed, 'naive'));
      console.log(`\nmain-thread time, naive / ours: ${fmt(naive / ours, 1)}× (${fmt(naive, 2)} s / ${fmt(ours, 2)} s)`);
    }
    console.log(
      `load average after: ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await browser.close();
    await feed.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
