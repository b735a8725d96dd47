// npm run bench:load [-- --runs 3 --port 0 --dist dist --skip-lighthouse]
//
// Issue 21's budgets (a benchmark, not a test): how much the app makes a browser load and how
// fast a visor shows. It builds nothing: it serves the dist/ there is (run `npx vite build`
// first; --dist names another build, e.g. an older one to compare) with the real server, started
// as a child process on its own port (a free one unless --port) and a throw-away data folder,
// whose demo account has the sample visores; the visor measured is demo's `Dólar: futuros y
// MEP` (every section type). Each run, in fresh Chromium profiles (/usr/bin/chromium):
// - the sign-in route's JavaScript: every script and modulepreload the page loads on `/` signed
//   out (it lands on /auth/signin), as Chromium fetched them, gzip-compressed here (level 9) when
//   the server sent them uncompressed; and the same for the visor's page, for comparison (the
//   page's scripts: the SharedWorker's script is fetched outside the page's events);
// - Lighthouse 12 (Node API, desktop preset) performance and accessibility on the sign-in page,
//   then on the visor after signing in through the form in the same profile
//   (`disableStorageReset`, so the session stays), with what costs points under 95;
// - time from navigation start to the visor's content (bench/load/content.ts says what counts):
//   cold (empty profile, the session's token already stored), warm (the same tab loads it again:
//   HTTP cache, Dexie, the service worker when there is one) and offline (again with the network
//   cut by a TCP proxy the visor is loaded through (tests/fakes/netProxy.ts), the data worker's
//   sockets and requests too: only a service worker and Dexie can serve it);
// and once, the precache: what dist/sw.js's manifest lists, when the build has a service worker.
// Figures are printed as the median and the spread (min–max) of the runs. Nothing here asserts.
// BENCH_LIGHTHOUSE_DIR=folder writes each Lighthouse report (JSON) there. --skip-lighthouse
// measures the loads alone (the Lighthouse rows say 'n/a'). BENCH_TRACE=file writes a Chromium
// trace (every process: the page, the service worker, the data worker) of the last run's offline
// load.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import lighthouse, { desktopConfig } from 'lighthouse';
import type { NetProxy } from '../tests/fakes/netProxy.js';
import { behindProxy } from '../tests/e2e/proxiedServer.js';
import { CONTENT_MARK, visorContentProbe } from './load/content.js';
import { machineSpeedLine } from './machineSpeed.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    port: { type: 'string', default: process.env.BENCH_PORT ?? '0' },
    dist: { type: 'string', default: 'dist' },
    'skip-lighthouse': { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a whole number from 1 (got ${values.runs})`);
const root = path.resolve(import.meta.dirname, '..');
const dist = path.resolve(root, values.dist);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];
/** How long the service worker has to install and activate after the cold load. */
const SW_ACTIVE_TIMEOUT_MS = 180_000;
/** How long a visor has to show its content before the load counts as failed. */
const CONTENT_TIMEOUT_MS = 60_000;
const DEMO = { username: 'demo', password: 'demo1234' };
const VISOR_TITLE = 'Dólar: futuros y MEP';

if (!existsSync(path.join(dist, 'index.html'))) {
  console.error(`bench:load measures the build in ${path.relative(root, dist) || '.'}/, and there is none: run \`npx vite build\` first.`);
  process.exit(1);
}

// ------------------------------------------------------------------ the server

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Server {
  url: string;
  stop(): Promise<void>;
}

/** The real server (`tsx server/main.ts`) on dist/ and a throw-away SQLite database. */
async function startServer(proxyUrl: string): Promise<Server> {
  const port = Number(values.port) || (await freePort());
  // Its own address and the proxy's: the websockets accept pages of both (PUBLIC_ORIGINS).
  const origins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`, proxyUrl].join(',');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-bench-load-'));
  const child: ChildProcess = spawn(path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: dist,
      LOG_LEVEL: 'warn',
      SEED_DEMO_USERS: 'true',
      PUBLIC_ORIGINS: origins,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode == null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode != null) throw new Error(`the server exited (${child.exitCode}) before answering on ${url}`);
    const ok = await fetch(`${url}/api/health`).then(
      (answer) => answer.status === 204,
      () => false,
    );
    if (ok) return { url, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer on ${url} within 60 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface Demo {
  token: string;
  user: { _id: string };
  visorId: string;
  sections: number;
}

/** Demo's session and its sample visor with every section type. */
async function demoVisor(url: string): Promise<Demo> {
  const call = async <T>(method: string, route: string, body?: unknown, token?: string): Promise<T> => {
    const answer = await fetch(`${url}/api${route}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!answer.ok) throw new Error(`${method} ${route}: ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as T;
  };
  const { token, user } = await call<{ token: string; user: { _id: string } }>('POST', '/login', DEMO);
  const { data } = await call<{ data: { visor_id: string; title: string; secciones: unknown[] }[] }>('GET', `/visores/${user._id}`, undefined, token);
  const visor = data.find((candidate) => candidate.title === VISOR_TITLE);
  if (!visor) throw new Error(`demo has no visor '${VISOR_TITLE}' (the server seeds it in an empty database)`);
  return { token, user, visorId: visor.visor_id, sections: visor.secciones.length };
}

// ------------------------------------------------------------------ JavaScript of a page

interface Script {
  url: string;
  bytes: number;
  gzip: number;
}

/** How long without a new script request counts as the page having loaded its code. */
const SCRIPTS_QUIET_MS = 1500;

/**
 * The scripts (and modulepreloads, and a worker's script) the page fetched from the app's origin
 * while `load` ran, then until no new one was asked for SCRIPTS_QUIET_MS. Their bytes are the
 * response bodies; a SharedWorker's script, whose body the page's events never finish, is read
 * from dist/ (the server sends the files as they are).
 */
async function scriptsOf(page: Page, origin: string, load: () => Promise<void>): Promise<Script[]> {
  const pending: Promise<Script | null>[] = [];
  let lastRequest = Date.now();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') lastRequest = Date.now();
  });
  page.on('response', (response) => {
    const request = response.request();
    if (request.resourceType() !== 'script' || !response.url().startsWith(origin)) return;
    const pathname = new URL(response.url()).pathname;
    pending.push(
      (async () => {
        const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000));
        const fromNetwork = await Promise.race([response.body().catch(() => null), timeout]);
        const body = fromNetwork ?? (existsSync(path.join(dist, pathname)) ? readFileSync(path.join(dist, pathname)) : null);
        if (!body) return null;
        const encoded = fromNetwork != null && (await response.headerValue('content-encoding')) != null;
        const gzip = encoded ? (await request.sizes()).responseBodySize : gzipSync(body, { level: 9 }).length;
        return { url: pathname, bytes: body.length, gzip };
      })(),
    );
  });
  await load();
  while (Date.now() - lastRequest < SCRIPTS_QUIET_MS) await page.waitForTimeout(250);
  return (await Promise.all(pending)).filter((script): script is Script => script != null);
}

const total = (scripts: Script[]) => scripts.reduce((sum, script) => sum + script.gzip, 0);

// ------------------------------------------------------------------ Lighthouse

interface LighthouseScores {
  performance: number;
  accessibility: number;
  /** What costs points, when a score is under 95: the audit (or Lighthouse's error) and its value in this run. */
  costs: { audit: string; value: string }[];
}

/** The first few elements an accessibility audit names (its details' node items), as ` — selector; selector…`. */
function failingNodes(details: unknown): string {
  const items = (details as { items?: { node?: { selector?: string } }[] } | undefined)?.items ?? [];
  const selectors = items.map((item) => item.node?.selector).filter((selector): selector is string => !!selector);
  if (selectors.length === 0) return '';
  return ` — ${selectors.slice(0, 3).join('; ')}${selectors.length > 3 ? `; and ${selectors.length - 3} more` : ''}`;
}

/** Performance and accessibility of `url` (desktop preset) in the Chromium listening on `port`. */
async function lighthouseScores(url: string, port: number, keepStorage: boolean): Promise<LighthouseScores> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], disableStorageReset: keepStorage },
    desktopConfig,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  if (process.env.BENCH_LIGHTHOUSE_DIR) {
    const file = path.join(process.env.BENCH_LIGHTHOUSE_DIR, `${new URL(url).pathname.split('/')[1] || 'root'}-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify(result.lhr));
  }
  const { categories, audits, runtimeError } = result.lhr;
  // A run Lighthouse could not finish has no score (null): NaN, left out of the spread, and its error said.
  const score = (id: string) => {
    const value = categories[id]?.score;
    return value == null ? Number.NaN : Math.round(value * 100);
  };
  const costs: LighthouseScores['costs'] = [];
  if (runtimeError) costs.push({ audit: `Lighthouse could not finish: ${runtimeError.code}`, value: runtimeError.message });
  for (const id of ['performance', 'accessibility']) {
    if (score(id) >= 95) continue;
    for (const ref of categories[id]?.auditRefs ?? []) {
      const audit = audits[ref.id];
      if (!audit || audit.score == null || audit.score >= 0.9 || audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'notApplicable')
        continue;
      costs.push({
        audit: `${id}: ${audit.title}${ref.weight > 0 ? ` [weight ${ref.weight}]` : ''}${id === 'accessibility' ? failingNodes(audit.details) : ''}`,
        value: `${audit.displayValue ?? ''}${ref.weight > 0 ? ` score ${audit.score.toFixed(2)}` : ''}`.trim(),
      });
    }
  }
  return { performance: score('performance'), accessibility: score('accessibility'), costs };
}

/**
 * Lighthouse on the sign-in page, then on the visor signed in: one Chromium profile (persistent,
 * so Lighthouse's tabs share its storage) listening on a free debugging port.
 */
async function lighthouseRun(server: Server, demo: Demo): Promise<{ signIn: LighthouseScores; visor: LighthouseScores }> {
  const port = await freePort();
  const profile = mkdtempSync(path.join(tmpdir(), 'visores-bench-lh-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  try {
    const signIn = await lighthouseScores(`${server.url}/auth/signin`, port, false);
    // Signed in as a person would, in this profile; the tab is closed again so the visor's
    // Lighthouse tab starts its own data worker (the SharedWorker ends with its last tab).
    const page = await context.newPage();
    await page.goto(`${server.url}/auth/signin`);
    await page.getByLabel('Usuario').fill(DEMO.username);
    await page.getByLabel('Contraseña').fill(DEMO.password);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.waitForURL(`${server.url}/`);
    // Inicio drawn from the data worker's first sync (the network never goes idle: the sockets).
    await page.getByRole('heading', { name: 'Inicio', level: 1 }).waitFor();
    await page.locator('nav[aria-label="Menú principal"]').waitFor();
    await page.close();
    const visor = await lighthouseScores(`${server.url}/visor/${demo.visorId}/edit`, port, true);
    return { signIn, visor };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------ loads to content

interface Loads {
  cold: number;
  warm: number;
  /** Whether the warm load's page was controlled by a service worker. */
  warmThroughWorker: boolean;
  /** null: no service worker controlled the page, so there is nothing to open offline. */
  offline: number | null | 'failed';
  /** Where the offline load's time went, when it showed the content. */
  offlineSteps: Steps | null;
  visorScripts: Script[];
}

/** Where a load's time went before the content: ms from navigation start (Navigation Timing). */
interface Steps {
  /** The service worker was running (its start, when it had to start, is before this). */
  workerStart: number;
  /** The HTML in hand (from the service worker, the HTTP cache or the server). */
  html: number;
  /** The document's own scripts (the entry and its static imports) ran. */
  domContentLoaded: number;
}

/** ms from navigation start to the visor's content, read from the probe's mark; `steps` is told where the time went. */
async function loadToContent(page: Page, url: string, steps?: (steps: Steps) => void): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  const handle = await page.waitForFunction((mark) => (window as unknown as Record<string, number | undefined>)[mark] ?? false, CONTENT_MARK, {
    timeout: CONTENT_TIMEOUT_MS,
  });
  if (steps)
    steps(
      await page.evaluate(() => {
        const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
        return { workerStart: entry?.workerStart ?? 0, html: entry?.responseEnd ?? 0, domContentLoaded: entry?.domContentLoadedEventEnd ?? 0 };
      }),
    );
  return (await handle.jsonValue()) as number;
}

async function visorLoads(browser: Browser, proxy: NetProxy, demo: Demo, tracePath: string | null): Promise<Loads> {
  const context = await browser.newContext({ viewport: { width: 1350, height: 940 } });
  try {
    // Signed in before the first load (the token and user the sign-in stores), so the cold
    // load is the visor's alone; the probe marks the content of every load.
    await context.addInitScript(
      ([token, user]) => {
        if (!localStorage.getItem('visores.token')) {
          localStorage.setItem('visores.token', token);
          localStorage.setItem('visores.user', user);
        }
      },
      [demo.token, JSON.stringify(demo.user)] as const,
    );
    // tsx (esbuild, keepNames) wraps named functions in __name(); the page needs that helper.
    await context.addInitScript('globalThis.__name = (fn) => fn;');
    await context.addInitScript(visorContentProbe, { mark: CONTENT_MARK, sections: demo.sections });
    const page = await context.newPage();
    const url = `${proxy.url}/visor/${demo.visorId}/edit`;
    let cold = Number.NaN;
    const visorScripts = await scriptsOf(page, proxy.url, async () => {
      cold = await loadToContent(page, url);
    });
    // The service worker installed and active, as for a trader's second visit (its install
    // precaches every built file while the visor streams: over 30 s on this machine some days).
    // navigator.serviceWorker.ready: waitForFunction takes an async predicate's promise as a
    // truthy answer, so polling getRegistration() did not wait at all. A build without a
    // service worker (or one that never activates within SW_ACTIVE_TIMEOUT_MS) has its warm
    // load from the HTTP cache, and no offline load.
    await page.evaluate(
      (timeout) =>
        navigator.serviceWorker
          ? Promise.race([navigator.serviceWorker.ready.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeout))])
          : false,
      SW_ACTIVE_TIMEOUT_MS,
    );
    const warm = await loadToContent(page, url);
    const warmThroughWorker = await page.evaluate(() => navigator.serviceWorker?.controller != null);
    let offline: Loads['offline'] = null;
    let offlineSteps: Steps | null = null;
    if (warmThroughWorker) {
      proxy.down();
      if (tracePath) await browser.startTracing(page, { path: tracePath, screenshots: true });
      offline = await loadToContent(page, url, (steps) => (offlineSteps = steps)).catch(() => 'failed' as const);
      if (tracePath) await browser.stopTracing();
      proxy.up();
    }
    return { cold, warm, warmThroughWorker, offline, offlineSteps, visorScripts };
  } finally {
    await context.close();
    proxy.up();
  }
}

// ------------------------------------------------------------------ precache

/** The files dist/sw.js precaches (Workbox's manifest in the script), or null without a service worker. */
function precache(): { files: number; bytes: number; gzip: number } | null {
  const swPath = path.join(dist, 'sw.js');
  if (!existsSync(swPath)) return null;
  const sw = readFileSync(swPath, 'utf8');
  const urls = new Set([...sw.matchAll(/["']?url["']?\s*:\s*["']([^"']+)["']/g)].map((match) => match[1]!));
  let bytes = 0;
  let gzip = 0;
  for (const url of urls) {
    const file = path.join(dist, decodeURIComponent(url.replace(/^\//, '').split(/[?#]/)[0]!));
    if (!existsSync(file) || !statSync(file).isFile()) continue;
    const content = readFileSync(file);
    bytes += content.length;
    gzip += gzipSync(content, { level: 9 }).length;
  }
  return { files: urls.size, bytes, gzip };
}

// ------------------------------------------------------------------ figures

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
/** "median (min–max)" of the runs' figures. */
function spread(list: number[], unit: (value: number) => string): string {
  const finite = list.filter(Number.isFinite);
  if (finite.length === 0) return 'n/a';
  if (finite.length === 1) return unit(finite[0]!);
  return `${unit(median(finite))} (${unit(Math.min(...finite))}–${unit(Math.max(...finite))})`;
}
const ms = (value: number) => `${Math.round(value)} ms`;
const plain = (value: number) => String(value);

async function main(): Promise<void> {
  console.log(
    `bench:load — ${RUNS} run(s) on ${path.relative(root, dist) || '.'}/ (built ${new Date(statSync(path.join(dist, 'index.html')).mtimeMs).toISOString()}), Chromium ${CHROMIUM}`,
  );
  console.log(
    `load average at start: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  console.log(machineSpeedLine());
  // The visor is loaded through a TCP proxy, so 'offline' cuts every connection for real:
  // context.setOffline does not reach the SharedWorker, which would go on reading the server.
  const network = await behindProxy(startServer);
  const { proxy, server } = network;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const signInJs: number[] = [];
  const visorJs: number[] = [];
  const scores = {
    signInPerformance: [] as number[],
    signInAccessibility: [] as number[],
    visorPerformance: [] as number[],
    visorAccessibility: [] as number[],
  };
  const costs = new Map<string, string[]>();
  const cold: number[] = [];
  const warm: number[] = [];
  const offline: number[] = [];
  let warmThroughWorker = false;
  let offlineFailed = 0;
  let lastSignInScripts: Script[] = [];
  let lastVisorScripts: Script[] = [];
  try {
    const demo = await demoVisor(server.url);
    for (let run = 1; run <= RUNS; run++) {
      // The sign-in route, signed out in a fresh context.
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts = await scriptsOf(page, server.url, async () => {
        await page.goto(`${server.url}/`);
        await page.getByRole('button', { name: 'Ingresar' }).waitFor();
      });
      if (!page.url().endsWith('/auth/signin')) throw new Error(`a signed-out visit of / ended on ${page.url()}, not the sign-in page`);
      await context.close();
      lastSignInScripts = scripts;
      signInJs.push(total(scripts));

      const loads = await visorLoads(browser, proxy, demo, run === RUNS ? (process.env.BENCH_TRACE ?? null) : null);
      visorJs.push(total(loads.visorScripts));
      lastVisorScripts = loads.visorScripts;
      cold.push(loads.cold);
      warm.push(loads.warm);
      warmThroughWorker ||= loads.warmThroughWorker;
      if (typeof loads.offline === 'number') offline.push(loads.offline);
      else if (loads.offline === 'failed') offlineFailed++;

      const lh = values['skip-lighthouse'] ? null : await lighthouseRun(server, demo);
      if (lh) {
        scores.signInPerformance.push(lh.signIn.performance);
        scores.signInAccessibility.push(lh.signIn.accessibility);
        scores.visorPerformance.push(lh.visor.performance);
        scores.visorAccessibility.push(lh.visor.accessibility);
        for (const [page, result] of [
          ['sign-in', lh.signIn],
          ['visor', lh.visor],
        ] as const) {
          for (const { audit, value } of result.costs) costs.set(`${page} ${audit}`, [...(costs.get(`${page} ${audit}`) ?? []), value || '—']);
        }
      }
      const steps = loads.offlineSteps;
      const offlineText =
        typeof loads.offline === 'number'
          ? `${ms(loads.offline)}${steps ? ` (service worker running ${ms(steps.workerStart)}, HTML ${ms(steps.html)}, DOMContentLoaded ${ms(steps.domContentLoaded)})` : ''}`
          : (loads.offline ?? 'unavailable');
      const lighthouseText = lh
        ? `; Lighthouse sign-in ${lh.signIn.performance}/${lh.signIn.accessibility}, visor ${lh.visor.performance}/${lh.visor.accessibility}`
        : '';
      console.log(
        `run ${run}: sign-in JS ${kb(total(scripts))} gzip; visor cold ${ms(loads.cold)}, warm ${ms(loads.warm)}${loads.warmThroughWorker ? ' (service worker)' : ''}, offline ${offlineText}${lighthouseText}`,
      );
    }
  } finally {
    await browser.close();
    await network.stop();
  }

  console.log("\nThe sign-in route's JavaScript (last run), as Chromium fetched it, gzip level 9:");
  for (const script of [...lastSignInScripts].sort((a, b) => b.gzip - a.gzip))
    console.log(`  ${kb(script.gzip).padStart(9)}  ${kb(script.bytes).padStart(9)} raw  ${script.url}`);
  const largest = [...lastVisorScripts].sort((a, b) => b.gzip - a.gzip);
  console.log(`\nThe visor's JavaScript (last run, cold): ${largest.length} scripts; the largest:`);
  for (const script of largest.slice(0, 8)) console.log(`  ${kb(script.gzip).padStart(9)}  ${kb(script.bytes).padStart(9)} raw  ${script.url}`);
  const cache = precache();
  console.log(`\n${RUNS} run(s): median (min–max)`);
  const rows: [string, string][] = [
    ['sign-in route JavaScript, gzip [≤ 150 KB]', spread(signInJs, kb)],
    ["visor page JavaScript, gzip (cold; the page's own scripts, not the data worker's)", spread(visorJs, kb)],
    ['precache', cache ? `${cache.files} files, ${kb(cache.bytes)} (${kb(cache.gzip)} gzip)` : 'no service worker in this build'],
    ['Lighthouse sign-in: performance [≥ 95]', spread(scores.signInPerformance, plain)],
    ['Lighthouse sign-in: accessibility [≥ 95]', spread(scores.signInAccessibility, plain)],
    ['Lighthouse visor: performance [≥ 95]', spread(scores.visorPerformance, plain)],
    ['Lighthouse visor: accessibility [≥ 95]', spread(scores.visorAccessibility, plain)],
    ['visor to content, cold', spread(cold, ms)],
    [`visor to content, warm${warmThroughWorker ? ' (through the service worker)' : ' (HTTP cache; no service worker)'}`, spread(warm, ms)],
    [
      'cached visor offline to content [≤ 500 ms]',
      offline.length > 0
        ? `${spread(offline, ms)}${offlineFailed ? `; ${offlineFailed} run(s) never showed it` : ''}`
        : offlineFailed
          ? `never showed it (${offlineFailed} run(s))`
          : 'unavailable: no service worker controls the page',
    ],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
  if (costs.size > 0) {
    console.log('\nWhat Lighthouse says costs points where a score is under 95 (how many runs, then the value in each run):');
    for (const [audit, runValues] of [...costs].sort((a, b) => b[1].length - a[1].length))
      console.log(`  ${runValues.length}×  ${audit}: ${runValues.join(' | ')}`);
  }
  console.log(
    `load average at the end: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
}

await main();
