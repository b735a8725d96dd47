// Browser plumbing shared by bench:ticks and bench:visor: Chromium, a signed-in context with
// the page instrumentation, tabs each in a window of its own, CDP metrics, CPU by process, and
// the figures' arithmetic.
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { instrumentPage, type PageSamples } from './instrument.js';
import type { WorkerProfile } from './workerCpu.js';

export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/**
 * A tab's samples split by where the row was: send-to-paint of rows in the viewport (only they
 * are painted), send-to-text of rendered rows out of it, and how many symbols were in view.
 */
export function paintLatencies(
  samples: Pick<PageSamples, 'symbols' | 'sequences' | 'paintedAt' | 'inView'>,
  sentAt: (symbol: string, sequence: number) => number | null | undefined,
): { latencies: number[]; offScreenLags: number[]; rowsInView: number } {
  const latencies: number[] = [];
  const offScreenLags: number[] = [];
  for (let i = 0; i < samples.symbols.length; i++) {
    const sent = sentAt(samples.symbols[i]!, samples.sequences[i]!);
    const painted = samples.paintedAt[i]!;
    if (sent != null && Number.isFinite(painted)) (samples.inView[i] ? latencies : offScreenLags).push(painted - sent);
  }
  return { latencies, offScreenLags, rowsInView: new Set(samples.symbols.filter((_, i) => samples.inView[i])).size };
}

export const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** CDP Performance.getMetrics, by name (TaskDuration, ScriptDuration… in seconds). */
export async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return Object.fromEntries(list.map((metric) => [metric.name, metric.value]));
}

/** A context whose pages are instrumented (instrument.ts; `probe` false: only timed) and signed in with `token` and `user`. */
export async function benchContext(browser: Browser, token: string, user: object, probe = true): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    reducedMotion: process.env.BENCH_REDUCED_MOTION ? 'reduce' : 'no-preference',
  });
  // tsx (esbuild, keepNames) wraps named functions in __name(); the page needs that helper.
  await context.addInitScript('globalThis.__name = (fn) => fn;');
  await context.addInitScript(instrumentPage, probe);
  await context.addInitScript(
    ([value, who]) => {
      localStorage.setItem('visores.token', value);
      localStorage.setItem('visores.user', who);
    },
    [token, JSON.stringify(user)] as const,
  );
  return context;
}

/**
 * `count` tabs on `address`. Headless Chromium makes frames only for the active tab of a window
 * (the others get about one a second), so each further tab opens in a window of its own (CDP
 * Target.createTarget with newWindow; window.open would share the opener's renderer process):
 * all on screen.
 */
export async function openTabs(browser: Browser, context: BrowserContext, address: string, count: number): Promise<Page[]> {
  const first = await context.newPage();
  await first.goto(address);
  const pages: Page[] = [first];
  const firstCdp = await context.newCDPSession(first);
  const { targetInfo } = (await firstCdp.send('Target.getTargetInfo')) as { targetInfo: { browserContextId: string } };
  const browserCdp = await browser.newBrowserCDPSession();
  for (let i = 1; i < count; i++) {
    const opened = context.waitForEvent('page');
    await browserCdp.send('Target.createTarget', { url: address, browserContextId: targetInfo.browserContextId, newWindow: true, width: 1280, height: 900 });
    pages.push(await opened);
  }
  await browserCdp.detach();
  await firstCdp.detach();
  return pages;
}

/** CPU seconds by Chromium process type (browser, renderer, GPU…), read twice around a run. */
export async function processCpu(browser: Browser): Promise<{ read(): Promise<Map<string, number>>; close(): Promise<void> }> {
  const cdp = await browser.newBrowserCDPSession();
  return {
    async read() {
      const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; cpuTime: number }[] };
      const byType = new Map<string, number>();
      for (const info of processInfo) byType.set(info.type, (byType.get(info.type) ?? 0) + info.cpuTime);
      return byType;
    },
    close: () => cdp.detach(),
  };
}

/** The lines after a run's tabs: the data worker's CPU (and its hottest functions with BENCH_PROFILE), CPU by process, all tabs' main thread. */
export function printRunTotals(result: { worker: WorkerProfile | null; cpuLine: string }, busySeconds: number): void {
  const { worker } = result;
  if (worker) {
    console.log(
      `  data worker: CPU ${fmt(worker.busyMs / 1000, 2)} s busy of ${fmt(worker.wallMs / 1000, 1)} s (${fmt((100 * worker.busyMs) / worker.wallMs, 0)} %, V8 sampling profiler)`,
    );
    if (process.env.BENCH_PROFILE) for (const [name, ms] of worker.top) console.log(`    ${fmt(ms, 0)} ms  ${name}`);
  }
  console.log(`  ${result.cpuLine}`);
  console.log(`  main thread, all tabs (load and drain): ${fmt(busySeconds, 2)} s`);
}
