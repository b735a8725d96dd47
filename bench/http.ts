// npm run bench:http [-- --seconds 60 --users 50 --only sqlite|postgres --database postgres://… --cpu-prof DIR
//                       --server-times --slowest 10]
//
// Does the database hold its tail under many signed-in users? Starts the real server (a child
// process, as `npm start` runs it) once per database: SQLite in a temporary folder, then
// PostgreSQL in a fresh schema of --database (default postgres://postgres@127.0.0.1:5432/test,
// dropped after). The admin creates --users users (POST /api/admin/users), each signs in and
// creates a visor holding one section of each type; then for --seconds every user loops, one
// request at a time: GET its tree (/api/visores/{userId}/folders), GET its visor
// (/api/visores/{visorId}/get), PUT its sections (/api/visores/{visorId}/update_secciones, a
// title changed so every save writes, If-Match the version it last read). Per database it prints
// requests, req/s, p50/p95/p99/max per kind of request and overall, answers other than 200 by
// status, and the server's CPU over the run; then both databases side by side.
//
// The server runs with USER_REQUESTS raised to 1,000,000 per 10 s: a user looping at full speed
// may pass the default 200 requests per 10 s, and this bench measures the database's tail, not
// the per-user budget (docs/abuse.md). Each user has one request in flight, within its
// USER_CONCURRENT_REQUESTS turns (default 2). `--cpu-prof DIR` writes each server's CPU profile
// there when it stops. `--server-times` also prints each kind's time inside the server (its
// request log, LOG_LEVEL debug, which costs it some CPU): a request's wait before the server
// reads it is in the client's time only. `--slowest N` lists the N slowest requests (kind, user,
// when sent). `--shared-pool` sends the run's requests through one pool of --users + 8
// connections instead, as the first version of this bench did. The client runs in this process
// on the same machine: its CPU and how late its event loop ran are printed (a stall here delays
// every request it times). Figures only, nothing here asserts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Agent, Client, request, type Dispatcher } from 'undici';
import type { Section } from '../src/protocol/workspace.js';
import { machineSpeedLine } from './machineSpeed.js';
import { percentile } from './percentile.js';
import { SECTIONS } from '../tests/sampleSections.js';
import { benchSchema } from './pgSchema.js';
import { cpuSeconds, startServer } from './serverProcess.js';

const DATABASES = ['sqlite', 'postgres'] as const;
type DatabaseName = (typeof DATABASES)[number];

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    users: { type: 'string', default: '50' },
    only: { type: 'string' },
    database: { type: 'string', default: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    'cpu-prof': { type: 'string' },
    'server-times': { type: 'boolean', default: false },
    'shared-pool': { type: 'boolean', default: false },
    slowest: { type: 'string', default: '0' },
  },
});
const SECONDS = Number(values.seconds);
/** How many of the slowest requests to list (kind, user, when sent). */
const SLOWEST = Number(values.slowest);
const USERS = Number(values.users);
const chosen: DatabaseName[] = values.only
  ? values.only.split(',').map((name) => {
      if (!(DATABASES as readonly string[]).includes(name)) throw new Error(`unknown database ${name}: one of ${DATABASES.join(', ')}`);
      return name as DatabaseName;
    })
  : [...DATABASES];
const ADMIN = { username: 'admin', password: 'admin1234' };
/** Sign-ins and account creations at once: within the 4 password checks an address may hold. */
const SETUP_PARALLEL = 4;

const KINDS = ['GET tree', 'GET visor', 'PUT sections'] as const;
type Kind = (typeof KINDS)[number];

// ---------------------------------------------------------------- the server

interface ServerProcess {
  pid: number;
  baseUrl: string;
  /** With --server-times: each request's time inside the server (Fastify's responseTime), by kind, while `measuring`. */
  serverTimes: Record<Kind, number[]>;
  measuring: boolean;
  dispose(): Promise<void>;
}

/** The kind of a request of the run, from its path. */
function kindOf(method: string, url: string): Kind | null {
  if (method === 'GET' && url.endsWith('/folders')) return 'GET tree';
  if (method === 'GET' && url.endsWith('/get')) return 'GET visor';
  if (method === 'PUT' && url.endsWith('/update_secciones')) return 'PUT sections';
  return null;
}

/**
 * Reads the server's request log (LOG_LEVEL debug): each "incoming request" line names the
 * request, its "request completed" line gives the time the server spent on it, from its
 * reading to its answer. Time before the server reads a request is not in it.
 */
function serverTimesReader(target: () => ServerProcess | null): (text: string) => void {
  const kinds = new Map<string, Kind>();
  let partial = '';
  return (text) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { reqId?: string; req?: { method: string; url: string }; responseTime?: number };
      if (entry.reqId === undefined) continue;
      if (entry.req) {
        const kind = kindOf(entry.req.method, entry.req.url);
        if (kind) kinds.set(entry.reqId, kind);
      } else if (entry.responseTime !== undefined) {
        const kind = kinds.get(entry.reqId);
        kinds.delete(entry.reqId);
        const server = target();
        if (kind && server?.measuring) server.serverTimes[kind].push(entry.responseTime);
      }
    }
  };
}

async function deploy(database: DatabaseName): Promise<ServerProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-http-'));
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-client'),
    // debug logs every request, with the time the server spent on it.
    LOG_LEVEL: values['server-times'] ? 'debug' : 'warn',
    SEED_DEMO_USERS: 'true',
    USER_REQUESTS: '1000000',
  };
  const schema = database === 'postgres' ? await benchSchema(values.database, 'bench_http') : null;
  if (schema) env.DATABASE_URL = schema.databaseUrl;
  const dropSchema = async () => {
    await schema?.drop();
  };
  try {
    let server: ServerProcess | null = null;
    const readTimes = values['server-times'] ? serverTimesReader(() => server) : () => {};
    const started = await startServer({
      env,
      nodeArgs: values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'])}`] : [],
      onOutput: (text) => {
        if (process.env.BENCH_SERVER_OUTPUT) process.stderr.write(text);
        readTimes(text);
      },
    });
    server = {
      pid: started.pid,
      baseUrl: started.baseUrl,
      serverTimes: { 'GET tree': [], 'GET visor': [], 'PUT sections': [] },
      measuring: false,
      async dispose() {
        await started.stop();
        rmSync(dataDir, { recursive: true, force: true });
        await dropSchema();
      },
    };
    return server;
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    await dropSchema();
    throw error;
  }
}

// ---------------------------------------------------------------- HTTP

// The setting up's requests. In the run each user has a connection of its own (a browser's),
// kept alive: through one shared pool, requests queued in this process behind other users' ones
// on a connection still opening, and the first seconds' times were the pool's.
const agent = new Agent({ keepAliveTimeout: 60_000 });
/** --shared-pool: the run's requests through one pool of at most USERS + 8 connections, as this bench first did, to compare. */
const sharedPool = values['shared-pool'] ? new Agent({ connections: USERS + 8, keepAliveTimeout: 60_000 }) : null;

interface Answer {
  status: number;
  body: string;
  etag: string | null;
}

async function call(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT',
  urlPath: string,
  options: { token?: string; json?: unknown; ifMatch?: string; dispatcher?: Dispatcher } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.ifMatch) headers['if-match'] = options.ifMatch;
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await request(baseUrl + urlPath, { method, headers, body, dispatcher: options.dispatcher ?? agent });
  const etag = response.headers.etag;
  return { status: response.statusCode, body: await response.body.text(), etag: typeof etag === 'string' ? etag : null };
}

function expectStatus(answer: Answer, status: number, what: string): void {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
}

/** Runs `work` on every item, `parallel` at a time. */
async function eachLimited<T, R>(items: readonly T[], parallel: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}

/** The API tests' sample sections but the positions one (no broker here), the first titled `title`. */
function sectionsTitled(title: string): Section[] {
  return SECTIONS.filter((section) => section.type !== 'positions').map((section, index) => (index === 0 ? { ...section, title } : section));
}

interface BenchUser {
  token: string;
  userId: string;
  visorId: string;
  version: number;
}

async function setUp(baseUrl: string): Promise<BenchUser[]> {
  const admin = await call(baseUrl, 'POST', '/api/login', { json: ADMIN });
  expectStatus(admin, 200, 'the admin sign-in');
  const adminToken = (JSON.parse(admin.body) as { token: string }).token;
  const names = Array.from({ length: USERS }, (_, i) => `bench${i + 1}`);
  return eachLimited(names, SETUP_PARALLEL, async (username) => {
    const password = `clave-${username}`;
    expectStatus(
      await call(baseUrl, 'POST', '/api/admin/users', { token: adminToken, json: { username, password, firstName: 'Bench', lastName: username } }),
      201,
      `creating ${username}`,
    );
    const login = await call(baseUrl, 'POST', '/api/login', { json: { username, password } });
    expectStatus(login, 200, `the sign-in of ${username}`);
    const { token, user } = JSON.parse(login.body) as { token: string; user: { _id: string } };
    const created = await call(baseUrl, 'POST', `/api/visores/${user._id}/new`, { token, json: { title: `Visor de ${username}`, folder_id: null } });
    expectStatus(created, 200, `the visor of ${username}`);
    const visorId = (JSON.parse(created.body) as { data: { id_visor: string } }).data.id_visor;
    const saved = await call(baseUrl, 'PUT', `/api/visores/${visorId}/update_secciones`, { token, json: { secciones: sectionsTitled('Dólar futuro') } });
    expectStatus(saved, 200, `the sections of ${username}`);
    return { token, userId: user._id, visorId, version: (JSON.parse(saved.body) as { data: { version: number } }).data.version };
  });
}

// ---------------------------------------------------------------- the run

interface RunResult {
  database: DatabaseName;
  seconds: number;
  times: Record<Kind, number[]>;
  /** The slowest requests: kind, user, when it was sent (s into the run), ms. */
  slowest: { kind: Kind; user: number; at: number; ms: number }[];
  /** Answers other than 200, and errors, by status or error code. */
  failures: Map<string, number>;
  serverCpuPercent: number;
  /** This process's CPU (the users' requests) over the run. */
  clientCpuPercent: number;
  /** The longest this process's event loop was late (its timers, its reading of answers). */
  clientLoopMaxMs: number;
  /** With --server-times, the time inside the server. */
  serverTimes: Record<Kind, number[]> | null;
}

async function run(database: DatabaseName): Promise<RunResult> {
  const server = await deploy(database);
  try {
    const users = await setUp(server.baseUrl);
    const connections: Dispatcher[] = users.map(() => sharedPool ?? new Client(server.baseUrl, { keepAliveTimeout: 60_000 }));
    const times: Record<Kind, number[]> = { 'GET tree': [], 'GET visor': [], 'PUT sections': [] };
    const failures = new Map<string, number>();
    const fail = (key: string) => failures.set(key, (failures.get(key) ?? 0) + 1);
    const slowest: RunResult['slowest'] = [];
    const keepSlow = (kind: Kind, user: number, sent: number) => {
      const took = performance.now() - sent;
      times[kind].push(took);
      if (SLOWEST > 0 && (slowest.length < SLOWEST || took > slowest.at(-1)!.ms)) {
        slowest.push({ kind, user, at: (sent - started) / 1000, ms: took });
        slowest.sort((a, b) => b.ms - a.ms);
        slowest.length = Math.min(slowest.length, SLOWEST);
      }
    };
    const timed = async (kind: Kind, user: number, send: () => Promise<Answer>): Promise<Answer | null> => {
      const sent = performance.now();
      try {
        const answer = await send();
        keepSlow(kind, user, sent);
        if (answer.status !== 200) fail(`${kind} ${answer.status}`);
        return answer;
      } catch (error) {
        keepSlow(kind, user, sent);
        fail(`${kind} ${(error as { code?: string }).code ?? (error as Error).name}`);
        return null;
      }
    };
    const base = server.baseUrl;
    const started = performance.now();
    const cpuBefore = cpuSeconds(server.pid);
    const clientCpuBefore = process.cpuUsage();
    // A stall of this process delays every request it times: its own loop's delay says so.
    const clientLoop = monitorEventLoopDelay({ resolution: 10 });
    clientLoop.enable();
    server.measuring = true;
    const deadline = started + SECONDS * 1000;
    let saves = 0;
    await Promise.all(
      users.map(async (user, index) => {
        const token = user.token;
        const dispatcher = connections[index]!;
        while (performance.now() < deadline) {
          await timed('GET tree', index, () => call(base, 'GET', `/api/visores/${user.userId}/folders`, { token, dispatcher }));
          const read = await timed('GET visor', index, () => call(base, 'GET', `/api/visores/${user.visorId}/get`, { token, dispatcher }));
          if (read?.status === 200) user.version = (JSON.parse(read.body) as { data: { version: number } }).data.version;
          const title = `Dólar futuro ${++saves}`;
          const saved = await timed('PUT sections', index, () =>
            call(base, 'PUT', `/api/visores/${user.visorId}/update_secciones`, {
              token,
              json: { secciones: sectionsTitled(title) },
              ifMatch: `"${user.version}"`,
              dispatcher,
            }),
          );
          if (saved?.status === 200) user.version = (JSON.parse(saved.body) as { data: { version: number } }).data.version;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    server.measuring = false;
    clientLoop.disable();
    const serverCpuPercent = ((cpuSeconds(server.pid) - cpuBefore) / elapsed) * 100;
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const clientCpuPercent = ((clientCpu.user + clientCpu.system) / 1e6 / elapsed) * 100;
    if (!sharedPool) await Promise.all(connections.map((connection) => connection.close()));
    return {
      database,
      seconds: elapsed,
      times,
      serverTimes: values['server-times'] ? server.serverTimes : null,
      slowest,
      failures,
      serverCpuPercent,
      clientCpuPercent,
      clientLoopMaxMs: clientLoop.max / 1e6,
    };
  } finally {
    await server.dispose();
  }
}

// ---------------------------------------------------------------- figures

interface Figures {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function figuresOf(samples: readonly number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

const ms = (value: number) => (Number.isNaN(value) ? '–' : Math.round(value).toLocaleString('en-US'));
const pad = (text: string, width: number) => text.padStart(width);

function overall(result: RunResult): Figures {
  return figuresOf(KINDS.flatMap((kind) => result.times[kind]));
}

function failuresText(result: RunResult): string {
  if (result.failures.size === 0) return 'none';
  return [...result.failures.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([key, n]) => `${key} ×${n}`)
    .join(', ');
}

function printRun(result: RunResult): void {
  const all = overall(result);
  console.log(
    `\n${result.database}: ${USERS} users, ${result.seconds.toFixed(1)} s, ${all.n.toLocaleString('en-US')} requests, ` +
      `${(all.n / result.seconds).toFixed(0)} req/s, CPU: server ${result.serverCpuPercent.toFixed(0)}%, client ${result.clientCpuPercent.toFixed(0)}% of a core`,
  );
  console.log(`  ${'request'.padEnd(13)}${pad('n', 8)}${pad('p50', 8)}${pad('p95', 8)}${pad('p99', 8)}${pad('max', 8)}  (ms)`);
  const row = (label: string, figures: Figures) =>
    console.log(
      `  ${label.padEnd(13)}${pad(figures.n.toLocaleString('en-US'), 8)}${pad(ms(figures.p50), 8)}${pad(ms(figures.p95), 8)}${pad(ms(figures.p99), 8)}${pad(ms(figures.max), 8)}`,
    );
  for (const kind of KINDS) row(kind, figuresOf(result.times[kind]));
  row('all', all);
  const serverTimes = result.serverTimes;
  if (serverTimes) {
    console.log('  inside the server (from reading the request to the answer):');
    for (const kind of KINDS) row(kind, figuresOf(serverTimes[kind]));
    row('all', figuresOf(KINDS.flatMap((kind) => serverTimes[kind])));
  }
  console.log(`  this process's event loop was late by ${ms(result.clientLoopMaxMs)} ms at most`);
  console.log(`  not 200: ${failuresText(result)}`);
  if (SLOWEST > 0) {
    console.log(
      `  slowest: ${result.slowest.map((slow) => `${slow.kind} of user ${slow.user + 1} sent at ${slow.at.toFixed(1)} s: ${ms(slow.ms)} ms`).join('; ')}`,
    );
  }
}

function printSideBySide(results: RunResult[]): void {
  const width = 16;
  console.log(`\n${''.padEnd(22)}${results.map((result) => pad(result.database, width)).join('')}`);
  const line = (label: string, cell: (result: RunResult) => string) =>
    console.log(`${label.padEnd(22)}${results.map((result) => pad(cell(result), width)).join('')}`);
  line('requests', (result) => overall(result).n.toLocaleString('en-US'));
  line('req/s', (result) => (overall(result).n / result.seconds).toFixed(0));
  for (const kind of KINDS) line(`${kind} p99 / max`, (result) => `${ms(figuresOf(result.times[kind]).p99)} / ${ms(figuresOf(result.times[kind]).max)}`);
  line('all p50 / p95', (result) => `${ms(overall(result).p50)} / ${ms(overall(result).p95)}`);
  line('all p99 / max', (result) => `${ms(overall(result).p99)} / ${ms(overall(result).max)}`);
  line('not 200', (result) => String([...result.failures.values()].reduce((sum, n) => sum + n, 0)));
  line('server CPU', (result) => `${result.serverCpuPercent.toFixed(0)}%`);
  line('client loop late max', (result) => `${ms(result.clientLoopMaxMs)} ms`);
}

console.log(`bench:http — ${USERS} users, ${SECONDS} s each: GET tree, GET visor, PUT sections in a loop`);
console.log(machineSpeedLine());
const results: RunResult[] = [];
try {
  for (const database of chosen) {
    const result = await run(database);
    printRun(result);
    results.push(result);
  }
  if (results.length > 1) printSideBySide(results);
} finally {
  await agent.close();
  await sharedPool?.close();
}
