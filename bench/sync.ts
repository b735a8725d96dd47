// npm run bench:sync [-- --devices 20 --users 200 --writes 60 --rate 10 --redis redis://127.0.0.1:6379 --skip-redis --skip-browser]
//
// How soon a change made on one device shows on the user's other devices. Starts the real server
// (a child process, as `npm start` runs it, serving the build in dist/), and devices that are the
// app's own data worker (src/workers/dataLayer.ts, each with its own Dexie database over
// fake-indexeddb, its own session and its own market socket), as a browser runs it, minus the
// tabs. One device of a user writes through its worker (a rename of a visor, or a save of a
// small section, in turn); each other device of that user counts the change as shown when its
// database holds it (what its tabs render from: a live query fires on it). With --skip-browser
// left out, one device is a real Chromium page (/usr/bin/chromium, the built app): it counts
// the change when the new title is painted in its sidebar (a MutationObserver's time).
//
// Two loads, each on one server process and then on two processes sharing one Redis (the
// writer on the first, half of the other devices on each):
//   one user   --devices devices of one user (the Chromium page one of them), --writes writes
//              one after another, each waiting until every device shows it
//   many users --users users of two devices each (a writer and a reader) on different
//              processes, --writes writes (at least one per user) at --rate a second in all,
//              round-robin over the users
// For each it prints p50/p95/max from the write's start (the device's call) to the change shown
// on another device, and the p95 target (1 s). The figures are this machine's: its speed is
// printed first (the reference job). Nothing here asserts.
import 'fake-indexeddb/auto';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from '@playwright/test';
import { liveQuery, type Subscription } from 'dexie';
import { Redis } from 'ioredis';
import { WebSocket } from 'ws';
import { globEscape } from '../server/market/redisHub.js';
import { VisoresDb } from '../src/shared/db.js';
import type { DataWorkerApi } from '../src/workers/api.js';
import { createDataWorkerApi } from '../src/workers/dataLayer.js';
import { createEventLog } from '../src/workers/eventLog.js';
import type { OpenSocket } from '../src/workers/socketTransport.js';
import { machineSpeedLine } from './machineSpeed.js';
import { percentile } from './percentile.js';
import { startServer, type BenchServer } from './serverProcess.js';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '20' },
    users: { type: 'string', default: '200' },
    writes: { type: 'string', default: '60' },
    rate: { type: 'string', default: '10' },
    redis: { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
    'skip-redis': { type: 'boolean', default: false },
    'skip-browser': { type: 'boolean', default: false },
  },
});
const DEVICES = Number(values.devices);
const USERS = Number(values.users);
const WRITES = Number(values.writes);
const RATE = Number(values.rate);
const TARGET_P95_MS = 1000;
/** A change not shown on a device within this long counts as never shown (and is reported). */
const SHOWN_WITHIN_MS = 30_000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const ADMIN = { username: 'admin', password: 'admin1234' };

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const running = new Set<BenchServer>();
let browser: Browser | null = null;
async function cleanUp(): Promise<void> {
  await browser?.close().catch(() => undefined);
  await Promise.all([...running].map((server) => server.stop()));
}
process.on('SIGINT', () => void cleanUp().then(() => process.exit(130)));

const openWsSocket: OpenSocket = (url, handlers) => {
  const socket = new WebSocket(url);
  socket.on('open', () => handlers.open());
  socket.on('message', (data: WebSocket.RawData) => handlers.message(data.toString()));
  socket.on('close', (code, reason) => handlers.close(code, reason.toString()));
  socket.on('error', () => undefined); // a close follows
  return { send: (data) => socket.send(data), close: (code, reason) => socket.close(code, reason) };
};

let addresses = 0;
/** Each device from an address of its own (TRUST_PROXY=1): the sign-in limits per address are not what is measured. */
const nextAddress = () => {
  addresses += 1;
  return `198.18.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

async function call(baseUrl: string, method: string, route: string, body: unknown, token: string | null, address: string): Promise<unknown> {
  for (;;) {
    const response = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    // The password checks are bounded (a queue with a cap): a refused sign-in waits as told.
    if (response.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
      continue;
    }
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as unknown;
  }
}

interface Account {
  username: string;
  password: string;
  userId: string;
}

async function createAccounts(baseUrl: string, count: number, label: string): Promise<Account[]> {
  const address = nextAddress();
  const admin = (await call(baseUrl, 'POST', '/api/login', ADMIN, null, address)) as { token: string };
  const accounts: Account[] = [];
  for (let i = 0; i < count; i += 1) {
    const username = `${label}${i}_${randomBytes(3).toString('hex')}`;
    const password = `pw-${username}`;
    const created = (await call(baseUrl, 'POST', '/api/admin/users', { firstName: 'Banco', lastName: 'Sync', username, password }, admin.token, address)) as {
      data: { _id: string };
    };
    accounts.push({ username, password, userId: created.data._id });
  }
  return accounts;
}

/** One device: the app's data worker, signed in with a session of its own, its socket on `server`. */
interface Device {
  api: DataWorkerApi;
  db: VisoresDb;
  userId: string;
  token: string;
  close(): Promise<void>;
}

async function openDevice(server: BenchServer, account: Account): Promise<Device> {
  const address = nextAddress();
  const login = (await call(server.baseUrl, 'POST', '/api/login', { username: account.username, password: account.password }, null, address)) as {
    token: string;
  };
  const db = new VisoresDb(`bench-sync-${randomBytes(6).toString('hex')}`);
  const wsBase = server.baseUrl.replace(/^http/, 'ws');
  const api = createDataWorkerApi({
    socketUrl: `${wsBase}/ws/market`,
    apiBase: `${server.baseUrl}/api`,
    openSocket: openWsSocket,
    fetch: (url, init) => fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': address } }),
    locks: null,
    quoteTable: null,
    log: quiet,
    positionsSocketUrl: `${wsBase}/ws/positions`,
    positionsBase: `${server.baseUrl}/api`,
    WebSocket,
    db,
    eventLog: createEventLog({ console: quiet }),
  });
  await api.setSession({ token: login.token, userId: account.userId });
  await waitUntil('the device connected', async () => (await api.getMarketStatus()).state === 'open');
  return {
    api,
    db,
    userId: account.userId,
    token: login.token,
    async close() {
      await api.setSession(null);
      await db.delete();
    },
  };
}

async function waitUntil(what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * When each of a device's visores takes a title or a section title: `seen(label)` resolves at
 * the moment its database holds a visor whose title, or one of whose sections' titles, is it.
 */
function watchDevice(device: Device): {
  seen(label: string): Promise<number>;
  seenWithin(label: string, timeoutMs: number): Promise<number | null>;
  stop(): void;
} {
  const waiting = new Map<string, (at: number) => void>();
  const shown = new Map<string, number>();
  const subscription: Subscription = liveQuery(() => device.db.visores.where('userId').equals(device.userId).toArray()).subscribe({
    next(records) {
      const at = Date.now();
      for (const record of records) {
        for (const label of [record.title, ...record.secciones.map((section) => section.title)]) {
          if (shown.has(label)) continue;
          shown.set(label, at);
          waiting.get(label)?.(at);
        }
      }
    },
  });
  return {
    seen(label) {
      const at = shown.get(label);
      if (at != null) return Promise.resolve(at);
      return new Promise((resolve) => waiting.set(label, resolve));
    },
    /** As seen(), or null when not shown within `timeoutMs` (its timer cleared once shown). */
    seenWithin(label, timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)));
      return Promise.race([this.seen(label), late]).finally(() => clearTimeout(timer));
    },
    stop: () => subscription.unsubscribe(),
  };
}

/** A Chromium page signed in as `account`, on Inicio, recording when each sidebar title is first painted. */
async function openBrowserDevice(server: BenchServer, account: Account): Promise<Page> {
  browser ??= await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto('/auth/signin');
  await page.getByLabel('Usuario').fill(account.username);
  await page.getByLabel('Contraseña').fill(account.password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await page.getByRole('heading', { name: 'Inicio', level: 1 }).waitFor();
  // In the page, as text: tsx names the functions it compiles (`__name`), which the page lacks.
  await page.evaluate(`(() => {
    const painted = {};
    window.benchPainted = painted;
    new MutationObserver(() => {
      for (const name of document.querySelectorAll('.tree__name')) {
        const text = name.textContent || '';
        // The frame after the mutation is when it is on screen.
        if (!(text in painted)) requestAnimationFrame(() => { painted[text] ??= Date.now(); });
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
  return page;
}

async function paintedAt(page: Page, label: string, timeoutMs: number): Promise<number | null> {
  const handle = await page
    .waitForFunction((text) => (globalThis as unknown as { benchPainted: Record<string, number> }).benchPainted[text] ?? null, label, { timeout: timeoutMs })
    .catch(() => null);
  return handle ? ((await handle.jsonValue()) as number) : null;
}

interface Row {
  deployment: string;
  load: string;
  shownBy: string;
  samples: number[];
  missed: number;
}

function row(result: Row): string {
  const sorted = [...result.samples].sort((a, b) => a - b);
  const p95 = percentile(sorted, 95);
  const meets = result.missed === 0 && sorted.length > 0 && p95 <= TARGET_P95_MS;
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '—');
  return `| ${result.deployment} | ${result.load} | ${result.shownBy} | ${sorted.length} | ${f(percentile(sorted, 50))} | ${f(p95)} | ${f(sorted.at(-1) ?? NaN)} | ${result.missed} | ${meets ? 'yes' : 'no'} |`;
}

/** The writer's next change of `visorId`: a rename, or a small section saved, in turn. Answers the label the others will show. */
async function write(writer: Device, visorId: string, n: number): Promise<string> {
  const label = `Cambio ${n} ${randomBytes(2).toString('hex')}`;
  if (n % 2 === 0) {
    await writer.api.updateVisor(visorId, { title: label });
  } else {
    const visor = await writer.db.visores.get([writer.userId, visorId]);
    const base = visor!.secciones;
    const section = {
      id: 's1',
      type: 'formula' as const,
      title: label,
      layout: { x: 0, y: 0, w: 6, h: 4 },
      config: { formulas: [{ name: 'MEP', expression: 'BYMA:AL30/BYMA:AL30D', unit: 'price' as const }] },
    };
    await writer.api.saveSecciones(visorId, { base, sections: [section], version: visor!.version });
  }
  return label;
}

async function oneUser(servers: BenchServer[], deployment: string): Promise<Row[]> {
  const [account] = await createAccounts(servers[0]!.baseUrl, 1, 'uno');
  const writer = await openDevice(servers[0]!, account!);
  const others: Device[] = [];
  const browserDevice = !values['skip-browser'] && existsSync(CHROMIUM) && existsSync(path.join(dist, 'index.html'));
  const workers = DEVICES - 1 - (browserDevice ? 1 : 0);
  for (let i = 0; i < workers; i += 1) others.push(await openDevice(servers[(i + 1) % servers.length]!, account!));
  const page = browserDevice ? await openBrowserDevice(servers[servers.length - 1]!, account!) : null;
  const watches = others.map(watchDevice);
  const { visorId } = await writer.api.createVisor({ title: 'Para medir', emoji: '', color: '#22c55e' }, null);
  // Every device has it before the first measured write.
  await Promise.all(watches.map((watch) => watch.seen('Para medir')));
  const inWorkers: number[] = [];
  const painted: number[] = [];
  let missed = 0;
  let paintedMissed = 0;
  for (let n = 0; n < WRITES; n += 1) {
    const started = Date.now();
    const label = await write(writer, visorId, n);
    const shown = await Promise.all(watches.map((watch) => watch.seenWithin(label, SHOWN_WITHIN_MS)));
    for (const at of shown)
      if (at == null) missed += 1;
      else inWorkers.push(at - started);
    // A rename is painted in the sidebar; a section's title only on the visor's own screen.
    if (page && n % 2 === 0) {
      const at = await paintedAt(page, label, SHOWN_WITHIN_MS);
      if (at == null) paintedMissed += 1;
      else painted.push(at - started);
    }
  }
  for (const watch of watches) watch.stop();
  await Promise.all([writer, ...others].map((device) => device.close()));
  await page?.context().close();
  const rows: Row[] = [{ deployment, load: `1 user, ${DEVICES} devices`, shownBy: `${others.length} workers' databases`, samples: inWorkers, missed }];
  if (page) rows.push({ deployment, load: `1 user, ${DEVICES} devices`, shownBy: 'Chromium, painted (renames)', samples: painted, missed: paintedMissed });
  return rows;
}

async function manyUsers(servers: BenchServer[], deployment: string): Promise<Row[]> {
  const accounts = await createAccounts(servers[0]!.baseUrl, USERS, 'muchos');
  const pairs: Array<{ writer: Device; reader: Device; watch: ReturnType<typeof watchDevice>; visorId: string }> = [];
  for (const account of accounts) {
    const writer = await openDevice(servers[0]!, account);
    const reader = await openDevice(servers[servers.length - 1]!, account);
    const watch = watchDevice(reader);
    const { visorId } = await writer.api.createVisor({ title: `Medir ${account.username}`, emoji: '', color: '#22c55e' }, null);
    await watch.seen(`Medir ${account.username}`);
    pairs.push({ writer, reader, watch, visorId });
  }
  const samples: number[] = [];
  let missed = 0;
  const pending: Promise<void>[] = [];
  // Every user writes at least once.
  const total = Math.max(WRITES, pairs.length);
  for (let n = 0; n < total; n += 1) {
    const pair = pairs[n % pairs.length]!;
    const started = Date.now();
    pending.push(
      write(pair.writer, pair.visorId, Math.floor(n / pairs.length)).then(async (label) => {
        const at = await pair.watch.seenWithin(label, SHOWN_WITHIN_MS);
        if (at == null) missed += 1;
        else samples.push(at - started);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000 / RATE));
  }
  await Promise.all(pending);
  for (const pair of pairs) pair.watch.stop();
  await Promise.all(pairs.flatMap((pair) => [pair.writer.close(), pair.reader.close()]));
  return [{ deployment, load: `${USERS} users, 2 devices each, ${RATE} writes/s`, shownBy: 'the reader worker’s database', samples, missed }];
}

async function deployment(processes: number, redisUrl: string | null): Promise<BenchServer[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-bench-sync-'));
  const prefix = `visores-bench-sync-${randomBytes(4).toString('hex')}:`;
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    STATIC_DIR: dist,
    TRUST_PROXY: '1',
    SIM_TICKS_PER_SECOND: '20',
    // Every device of the one-user load on one process (the cap counts sockets per process).
    SOCKETS_PER_USER: String(Math.max(20, DEVICES + 2)),
    ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_PREFIX: prefix } : {}),
  };
  const servers: BenchServer[] = [];
  for (let i = 0; i < processes; i += 1) {
    const server = await startServer({ env });
    running.add(server);
    servers.push(server);
  }
  const stop = servers.map((server) => server.stop.bind(server));
  for (const [i, server] of servers.entries()) {
    server.stop = async (graceMs) => {
      await stop[i]!(graceMs);
      running.delete(server);
      if (i === servers.length - 1) {
        rmSync(dataDir, { recursive: true, force: true });
        if (redisUrl) {
          const redis = new Redis(redisUrl);
          const keys = await redis.keys(`${globEscape(prefix)}*`);
          if (keys.length > 0) await redis.del(...keys);
          redis.disconnect();
        }
      }
    };
  }
  return servers;
}

console.log(`bench:sync: ${DEVICES} devices of one user; ${USERS} users of 2 devices; ${WRITES} writes each load, ${RATE}/s across users`);
console.log(machineSpeedLine());
const rows: Row[] = [];
const runs: Array<[string, number, string | null]> = [['1 process', 1, null]];
if (!values['skip-redis']) runs.push(['2 processes, Redis', 2, values.redis]);
try {
  for (const [label, processes, redisUrl] of runs) {
    const servers = await deployment(processes, redisUrl);
    try {
      for (const result of [...(await oneUser(servers, label)), ...(await manyUsers(servers, label))]) {
        rows.push(result);
        console.log(row(result));
      }
    } finally {
      for (const server of servers) await server.stop();
    }
  }
} finally {
  await cleanUp();
}
console.log(`\nFrom a write's start on one device to the change shown on another (ms). Target: p95 ≤ ${TARGET_P95_MS} ms, nothing missed.`);
console.log('| deployment | load | shown in | n | p50 | p95 | max | missed | meets target |');
console.log('|---|---|---|---:|---:|---:|---:|---:|---|');
for (const result of rows) console.log(row(result));
console.log(`\n${machineSpeedLine()}`);
