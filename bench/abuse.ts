// npm run bench:abuse [-- --attack socket-deep,login-deep,… --seconds 12 --visores 300 --sockets 1500
//                        --database postgres://… --redis redis://… --processes 2 --rss-cap-mb 4096]
//
// Can one user, or a stranger, stall the server for everyone? Starts the real server (a child
// process, as `npm start` runs it: SQLite in a temporary folder by default; with --database and
// --redis, PostgreSQL (a fresh schema) and Redis, and --processes 2 runs two processes on them:
// the attacks go to the first, the legitimate client's requests alternate between both). A
// legitimate client (in a worker thread of its own, so the attackers' work in this process does
// not delay its clock) signs in as demo and, one request after another with a short pause,
// reads its profile (GET /api/profile), a JavaScript file of the build (dist/assets) and signs in
// again (POST /api/login): first alone (quiet), then during each attack:
//
//   socket-deep     signed in, /ws/market: {"action":[[[…]]]} nested ~32,700 levels (64 KB), 48
//                   messages a second on 1 socket
//   socket-deep-3   the same on 3 sockets (each at 48/s)
//   login-deep      no account: POST /api/login with a 1 MB {"username":[[[…520,000 levels…]]]}, 4
//                   at a time
//   signin-flood    no account: POST /api/login with random usernames and passwords, 8 at a time
//   spraying        30 password guesses over 6 accounts from one address (5 each)
//   sockets         1,500 sockets opened and authenticated with one token, held open
//   storage-create  a user creates visores of ~1 MB of sections each (--visores, 300), 2 at a
//                   time, as fast as the server answers
//   storage-list    then that user's list (GET /api/visores/{self}) 5 at a time
//
// The attackers are not throttled by the bench: a refusal (429, 400, a closed socket) is counted
// and the attacker goes on at its rate (a closed socket is opened again). Each attacker comes
// from its own address (X-Forwarded-For, with TRUST_PROXY), the legitimate client from another.
// Per attack it prints the legitimate client's p50/p95/max per request, p95 against quiet, the
// target (p95 ≤ 3× quiet and no request over 1 s nor failed), the server's peak RSS (VmRSS of
// /proc/<pid>/status, sampled every 100 ms) against 1 GB, and what the server answered the
// attacker (statuses, socket events and closes), which shows that the attack reached it. A
// server that dies is reported and started again for the next attack; one whose RSS passes
// --rss-cap-mb is killed (this machine is shared). Figures only; nothing here asserts.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { WebSocket } from 'ws';
import { machineSpeedLine } from './machineSpeed.js';
import { benchSchema } from './pgSchema.js';

const ATTACKS = ['socket-deep', 'socket-deep-3', 'login-deep', 'signin-flood', 'spraying', 'sockets', 'storage-create', 'storage-list'] as const;
type AttackName = (typeof ATTACKS)[number];

const { values } = parseArgs({
  options: {
    attack: { type: 'string', multiple: true },
    seconds: { type: 'string', default: '12' },
    visores: { type: 'string', default: '300' },
    sockets: { type: 'string', default: '1500' },
    database: { type: 'string' },
    redis: { type: 'string' },
    processes: { type: 'string', default: '1' },
    'rss-cap-mb': { type: 'string', default: '4096' },
    'trust-proxy': { type: 'string', default: '1' },
    dist: { type: 'string', default: 'dist' },
    // A folder: each server process writes its CPU profile there when it stops (node --cpu-prof).
    'cpu-prof': { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const VISORES = Number(values.visores);
const SOCKETS = Number(values.sockets);
const PROCESSES = Number(values.processes);
const RSS_CAP_MB = Number(values['rss-cap-mb']);
const root = path.resolve(import.meta.dirname, '..');
const distDir = path.resolve(root, values.dist);
const chosen: AttackName[] = (values.attack ?? [...ATTACKS])
  .flatMap((name) => name.split(','))
  .map((name) => {
    if (!(ATTACKS as readonly string[]).includes(name)) throw new Error(`unknown attack ${name}: one of ${ATTACKS.join(', ')}`);
    return name as AttackName;
  });
// storage-list reads the visores storage-create made: it needs it first.
if (chosen.includes('storage-list') && !chosen.includes('storage-create')) chosen.splice(chosen.indexOf('storage-list'), 0, 'storage-create');
if (PROCESSES > 1 && !values.redis) throw new Error('--processes 2 needs --redis (and --database: SQLite is one process’s)');

const TARGET_RATIO = 3;
const TARGET_MAX_MS = 1000;
const RSS_TARGET_MB = 1024;
const LEGIT_ADDRESS = '198.51.100.7';
const LEGIT_TIMEOUT_MS = 10_000;
const DEMO = { username: 'demo', password: 'demo1234' };
const ADMIN = { username: 'admin', password: 'admin1234' };

// ---------------------------------------------------------------- the server

interface ServerProcess {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  /** The last lines it wrote, shown when it dies. */
  tail: string[];
  exit: { code: number | null; signal: string | null } | null;
  /** Resolves when it exits. */
  exited: Promise<void>;
  /** Killed by this bench for passing --rss-cap-mb. */
  capped: boolean;
}

interface Deployment {
  servers: ServerProcess[];
  dispose(): Promise<void>;
}

function startProcess(env: Record<string, string>): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const profile = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'])}`] : [];
    const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'server/main.ts'], { cwd: root, env: { ...process.env, ...env } });
    let exited = () => {};
    const server: ServerProcess = {
      child,
      pid: child.pid!,
      baseUrl: '',
      tail: [],
      exit: null,
      capped: false,
      exited: new Promise<void>((resolve) => (exited = resolve)),
    };
    let output = '';
    const keep = (chunk: Buffer) => {
      const text = chunk.toString();
      server.tail.push(...text.split('\n').filter(Boolean));
      if (server.tail.length > 40) server.tail.splice(0, server.tail.length - 40);
      if (!server.baseUrl) {
        output += text;
        const match = /running at http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
        if (match) {
          server.baseUrl = `http://127.0.0.1:${match[1]}`;
          resolve(server);
        }
      }
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.on('exit', (code, signal) => {
      server.exit = { code, signal };
      exited();
      if (!server.baseUrl) reject(new Error(`server exited (${code ?? signal}) before it started:\n${output}`));
    });
  });
}

async function deploy(): Promise<Deployment> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-abuse-'));
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    STATIC_DIR: distDir,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: values['trust-proxy'],
    SEED_DEMO_USERS: 'true',
  };
  const schema = values.database ? await benchSchema(values.database, 'abuse') : null;
  if (schema) env.DATABASE_URL = schema.databaseUrl;
  if (values.redis) Object.assign(env, { REDIS_URL: values.redis, REDIS_PREFIX: `visores-abuse-${randomBytes(4).toString('hex')}:` });
  const servers: ServerProcess[] = [];
  // One after the other: the first migrates and seeds the demo accounts.
  for (let i = 0; i < PROCESSES; i++) servers.push(await startProcess(env));
  return {
    servers,
    async dispose() {
      await Promise.all(servers.map((server) => stopProcess(server)));
      rmSync(dataDir, { recursive: true, force: true });
      await schema?.drop();
    },
  };
}

function stopProcess(server: ServerProcess): Promise<void> {
  if (server.exit) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
    server.child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    server.child.kill('SIGTERM');
  });
}

function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0; // gone
  }
}

// ---------------------------------------------------------------- HTTP

/** Answers counted by status (or by the error that stood for one): what the server told an attacker. */
class Tally {
  private counts = new Map<string, number>();
  add(key: string, n = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }
  get total(): number {
    return [...this.counts.values()].reduce((sum, n) => sum + n, 0);
  }
  toString(): string {
    return [...this.counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([key, n]) => `${key} ×${n}`)
      .join(', ');
  }
}

function errorKey(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  const name = (error as { name?: string }).name;
  if (name === 'TimeoutError') return 'timeout';
  if (name === 'AbortError') return 'aborted';
  return cause?.code ?? name ?? 'error';
}

interface CallOptions {
  method?: string;
  token?: string;
  address?: string;
  json?: unknown;
  raw?: string;
  signal?: AbortSignal;
}

/** One request; its body is read (and dropped) whole, and its status counted in `tally`. */
async function call(baseUrl: string, urlPath: string, options: CallOptions, tally?: Tally): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.address) headers['x-forwarded-for'] = options.address;
  const body = options.raw ?? (options.json === undefined ? undefined : JSON.stringify(options.json));
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(baseUrl + urlPath, { method: options.method ?? 'GET', headers, body, signal: options.signal });
    tally?.add(String(response.status));
    // A list of 300 MB is counted, not kept.
    let kept = '';
    let bytes = 0;
    const decoder = new TextDecoder();
    for await (const chunk of response.body ?? []) {
      bytes += (chunk as Uint8Array).length;
      if (kept.length < 4096) kept += decoder.decode(chunk as Uint8Array, { stream: true });
    }
    return { status: response.status, body: bytes > 4096 ? kept.slice(0, 4096) : kept };
  } catch (error) {
    tally?.add(errorKey(error));
    return { status: 0, body: '' };
  }
}

async function signIn(baseUrl: string, credentials: { username: string; password: string }, address: string): Promise<string> {
  const { status, body } = await call(baseUrl, '/api/login', { method: 'POST', json: credentials, address });
  if (status !== 200) throw new Error(`sign-in of ${credentials.username} answered ${status}: ${body}`);
  return (JSON.parse(body) as { token: string }).token;
}

async function newAccount(baseUrl: string, adminToken: string, username: string): Promise<{ username: string; password: string; token: string; id: string }> {
  const password = `clave-${randomBytes(6).toString('hex')}`;
  const created = await call(baseUrl, '/api/admin/users', { method: 'POST', token: adminToken, address: LEGIT_ADDRESS, json: { username, password } });
  if (created.status !== 201) throw new Error(`creating ${username} answered ${created.status}: ${created.body}`);
  const { status, body } = await call(baseUrl, '/api/login', { method: 'POST', json: { username, password }, address: LEGIT_ADDRESS });
  if (status !== 200) throw new Error(`sign-in of ${username} answered ${status}: ${body}`);
  const parsed = JSON.parse(body) as { token: string; user: { _id: string } };
  return { username, password, token: parsed.token, id: parsed.user._id };
}

/** Runs `work` in `parallel` loops until `signal` aborts. */
async function loops(parallel: number, signal: AbortSignal, work: () => Promise<unknown>): Promise<void> {
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (!signal.aborted) await work();
    }),
  );
}

// ---------------------------------------------------------------- the legitimate client

// Plain JavaScript in a worker thread: its own event loop, so the attackers' work here does not
// sit in its timings. One request after another, 100 ms between rounds; each kind's times in ms.
const LEGIT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { baseUrls, token, asset, credentials, address, timeoutMs } = workerData;
let running = false;
let samples = {};
let failures = {};
let turn = 0;
const record = (kind, ms, ok, why) => {
  (samples[kind] ??= []).push(ms);
  if (!ok) (failures[kind] ??= {})[why] = ((failures[kind] ??= {})[why] ?? 0) + 1;
};
async function timed(kind, url, init) {
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    record(kind, performance.now() - started, response.status === 200, String(response.status));
  } catch (error) {
    record(kind, performance.now() - started, false, error.name === 'TimeoutError' ? 'timeout' : (error.cause?.code ?? error.name));
  }
}
async function loop() {
  while (running) {
    const base = baseUrls[turn++ % baseUrls.length];
    const headers = { authorization: 'Bearer ' + token, 'x-forwarded-for': address };
    await timed('profile', base + '/api/profile', { headers });
    if (asset) await timed('asset', base + asset, { headers: { 'x-forwarded-for': address } });
    await timed('login', base + '/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify(credentials),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
let done = Promise.resolve();
parentPort.on('message', async (message) => {
  if (message === 'start') {
    samples = {};
    failures = {};
    running = true;
    done = loop();
  } else if (message === 'stop') {
    running = false;
    await done;
    parentPort.postMessage({ samples, failures });
  } else if (message === 'exit') {
    process.exit(0);
  }
});
`;

interface LegitResult {
  samples: Record<string, number[]>;
  failures: Record<string, Record<string, number>>;
}

class LegitClient {
  private worker: Worker;
  constructor(data: { baseUrls: string[]; token: string; asset: string | null }) {
    this.worker = new Worker(LEGIT_WORKER, {
      eval: true,
      workerData: { ...data, credentials: DEMO, address: LEGIT_ADDRESS, timeoutMs: LEGIT_TIMEOUT_MS },
    });
  }
  start(): void {
    this.worker.postMessage('start');
  }
  stop(): Promise<LegitResult> {
    return new Promise((resolve) => {
      this.worker.once('message', (result: LegitResult) => resolve(result));
      this.worker.postMessage('stop');
    });
  }
  async close(): Promise<void> {
    this.worker.postMessage('exit');
    await new Promise((resolve) => this.worker.once('exit', resolve));
  }
}

// ---------------------------------------------------------------- attacks

interface Target {
  /** Where the attacks go: the first process. */
  baseUrl: string;
  wsUrl: string;
  adminToken: string;
  attacker: { token: string; id: string };
  /** storage-create's visores, for storage-list: those saved with ~1 MB of sections, and all it created. */
  storage: { made: number; created: number };
  /** spraying's accounts. */
  victims: string[];
}

/** What an attack did and what the server answered. */
interface AttackReport {
  sent: string;
  answers: Tally;
}

const LEVELS_SOCKET = 32_700;
const LEVELS_LOGIN = 520_000;

/** Sockets of one token, each sending `payload` at `perSecond` once authenticated; reopened when closed. */
async function socketFlood(target: Target, sockets: number, perSecond: number, signal: AbortSignal): Promise<AttackReport> {
  const payload = `{"action":${'['.repeat(LEVELS_SOCKET)}${']'.repeat(LEVELS_SOCKET)}}`;
  const answers = new Tally();
  let sent = 0;
  let opened = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      opened += 1;
      const socket = new WebSocket(target.wsUrl, { origin: new URL(target.baseUrl).origin });
      let timer: NodeJS.Timeout | null = null;
      const stop = () => socket.terminate();
      signal.addEventListener('abort', stop, { once: true });
      socket.on('open', () => socket.send(JSON.stringify({ action: 'auth', token: target.attacker.token })));
      socket.on('message', (raw) => {
        const text = raw.toString();
        let event = 'message';
        try {
          const parsed = JSON.parse(text) as { event?: string; message?: string };
          event = parsed.event === 'error' ? `error "${String(parsed.message).slice(0, 48)}"` : (parsed.event ?? 'data');
        } catch {
          // counted as a message
        }
        if (event === 'authenticated' || event.startsWith('error')) answers.add(event);
        if (event === 'authenticated' && timer == null) {
          // The attacker's clock, not the server's answers: 48 a second, whatever it is told.
          const startedAt = performance.now();
          let due = 0;
          timer = setInterval(() => {
            const owed = Math.floor(((performance.now() - startedAt) / 1000) * perSecond);
            while (due < owed && socket.readyState === WebSocket.OPEN) {
              socket.send(payload);
              sent += 1;
              due += 1;
            }
          }, 5);
        }
      });
      socket.on('error', (error) => answers.add(`socket error ${(error as { code?: string }).code ?? error.message}`));
      socket.on('close', (code) => {
        if (!signal.aborted) answers.add(`close ${code}`);
        if (timer) clearInterval(timer);
        signal.removeEventListener('abort', stop);
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: sockets }, async () => {
      while (!signal.aborted) await one();
    }),
  );
  return { sent: `${sent} messages of ${(payload.length / 1024).toFixed(0)} KB on ${sockets} socket(s), ${opened} opened`, answers };
}

async function loginDeep(target: Target, signal: AbortSignal): Promise<AttackReport> {
  const body = `{"username":${'['.repeat(LEVELS_LOGIN)}${']'.repeat(LEVELS_LOGIN)}}`;
  const answers = new Tally();
  let sent = 0;
  await loops(4, signal, async () => {
    sent += 1;
    await call(target.baseUrl, '/api/login', { method: 'POST', raw: body, address: '203.0.113.20', signal }, answers);
  });
  return { sent: `${sent} bodies of ${(body.length / 1048576).toFixed(2)} MB, 4 at a time`, answers };
}

async function signInFlood(target: Target, signal: AbortSignal): Promise<AttackReport> {
  const answers = new Tally();
  let sent = 0;
  await loops(8, signal, async () => {
    sent += 1;
    const json = { username: `u${randomBytes(6).toString('hex')}`, password: randomBytes(9).toString('base64') };
    await call(target.baseUrl, '/api/login', { method: 'POST', json, address: '203.0.113.10', signal }, answers);
  });
  return { sent: `${sent} sign-ins of random usernames, 8 at a time`, answers };
}

/** spraying's six accounts, made before its phase (each is a slow password hash, not the attack's). */
async function sprayingVictims(target: Target): Promise<void> {
  for (let i = 1; i <= 6; i++)
    target.victims.push((await newAccount(target.baseUrl, target.adminToken, `victima${i}_${randomBytes(3).toString('hex')}`)).username);
}

async function spraying(target: Target, signal: AbortSignal): Promise<AttackReport> {
  const answers = new Tally();
  const victims = target.victims;
  const guesses = ['123456', 'password', 'qwerty123', 'Argentina2026', 'merval123'];
  let sent = 0;
  // Each guess over every account, as a sprayer does: 5 per account, under a per-account limit of 5.
  for (const password of guesses) {
    for (const username of victims) {
      if (signal.aborted) break;
      sent += 1;
      await call(target.baseUrl, '/api/login', { method: 'POST', json: { username, password }, address: '203.0.113.30', signal }, answers);
    }
  }
  return { sent: `${sent} guesses over ${victims.length} accounts from one address`, answers };
}

async function manySockets(target: Target, signal: AbortSignal): Promise<AttackReport> {
  const answers = new Tally();
  const open: WebSocket[] = [];
  let authenticated = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const socket = new WebSocket(target.wsUrl, { origin: new URL(target.baseUrl).origin });
      open.push(socket);
      // A server that answers nothing does not hold the attacker past the phase.
      signal.addEventListener('abort', () => resolve(), { once: true });
      socket.on('open', () => socket.send(JSON.stringify({ action: 'auth', token: target.attacker.token })));
      socket.on('message', (raw) => {
        try {
          const parsed = JSON.parse(raw.toString()) as { event?: string; message?: string };
          if (parsed.event === 'authenticated') {
            authenticated += 1;
            answers.add('authenticated');
            resolve();
          } else if (parsed.event === 'error') answers.add(`error "${String(parsed.message).slice(0, 48)}"`);
        } catch {
          // market data
        }
      });
      socket.on('error', (error) => answers.add(`socket error ${(error as { code?: string }).code ?? error.message}`));
      socket.on('close', (code) => {
        if (!signal.aborted) answers.add(`close ${code}`);
        resolve();
      });
    });
  // 100 at a time, as fast as the server takes them.
  for (let i = 0; i < SOCKETS && !signal.aborted; i += 100) await Promise.all(Array.from({ length: Math.min(100, SOCKETS - i) }, one));
  const openNow = open.filter((socket) => socket.readyState === WebSocket.OPEN).length;
  await new Promise((resolve) => (signal.aborted ? resolve(null) : signal.addEventListener('abort', resolve, { once: true })));
  const stillOpen = open.filter((socket) => socket.readyState === WebSocket.OPEN).length;
  for (const socket of open) socket.terminate();
  return { sent: `${open.length} sockets of one token (${authenticated} authenticated, ${openNow} open after opening, ${stillOpen} at the end)`, answers };
}

/** ~1 MB of sections: 100 formula sections of 18 formulas of ~550 bytes. */
function bigSections(): unknown[] {
  return Array.from({ length: 100 }, (_, s) => ({
    id: `s${s}`,
    type: 'formula',
    title: `Sección ${s}`,
    layout: { x: 0, y: s * 4, w: 6, h: 4 },
    config: {
      formulas: Array.from({ length: 18 }, (_, f) => ({
        name: `F${f}`.padEnd(100, 'x'),
        expression: `BYMA:AL30 / BYMA:AL30D + ${'1'.repeat(380)}`,
        unit: 'price',
      })),
    },
  }));
}

async function storageCreate(target: Target, signal: AbortSignal): Promise<AttackReport> {
  const answers = new Tally();
  const secciones = JSON.stringify({ secciones: bigSections() });
  let attempts = 0;
  let made = 0;
  let createdVisores = 0;
  const self = target.attacker.id;
  const create = async () => {
    attempts += 1;
    const created = await call(
      target.baseUrl,
      `/api/visores/${self}/new`,
      { method: 'POST', token: target.attacker.token, json: { title: `Grande ${attempts}` }, address: '203.0.113.40', signal },
      answers,
    );
    if (created.status !== 200 && created.status !== 201) return;
    createdVisores += 1;
    const id = (JSON.parse(created.body) as { data: { id_visor: string } }).data.id_visor;
    const saved = await call(
      target.baseUrl,
      `/api/visores/${id}/update_secciones`,
      { method: 'PUT', token: target.attacker.token, raw: secciones, address: '203.0.113.40', signal },
      answers,
    );
    if (saved.status === 200) made += 1;
  };
  await Promise.all(
    Array.from({ length: 2 }, async () => {
      while (!signal.aborted && attempts < VISORES) await create();
    }),
  );
  target.storage.made = made;
  target.storage.created = createdVisores;
  return { sent: `${attempts} visores tried (${made} saved with ${(secciones.length / 1048576).toFixed(2)} MB of sections), 2 at a time`, answers };
}

async function storageList(target: Target, signal: AbortSignal): Promise<AttackReport> {
  const answers = new Tally();
  let sent = 0;
  await loops(5, signal, async () => {
    sent += 1;
    await call(target.baseUrl, `/api/visores/${target.attacker.id}`, { token: target.attacker.token, address: '203.0.113.40', signal }, answers);
  });
  const { made, created } = target.storage;
  return { sent: `${sent} lists of ${created} visores (${made} of them with ~1 MB of sections), 5 at a time`, answers };
}

const RUN: Record<AttackName, (target: Target, signal: AbortSignal) => Promise<AttackReport>> = {
  'socket-deep': (target, signal) => socketFlood(target, 1, 48, signal),
  'socket-deep-3': (target, signal) => socketFlood(target, 3, 48, signal),
  'login-deep': loginDeep,
  'signin-flood': signInFlood,
  spraying,
  sockets: manySockets,
  'storage-create': storageCreate,
  'storage-list': storageList,
};

/** What an attack needs made before its phase starts. */
const SETUP: Partial<Record<AttackName, (target: Target) => Promise<void>>> = { spraying: sprayingVictims };

/** Attacks that end when they are done (within a cap), not after --seconds. */
const UNTIL_DONE: Partial<Record<AttackName, number>> = { spraying: 60_000, 'storage-create': 180_000 };

// ---------------------------------------------------------------- phases

interface PhaseResult {
  name: string;
  seconds: number;
  legit: LegitResult;
  peakRssMb: number;
  report: AttackReport | null;
  /** Why the server is gone, when it died during the phase. */
  died: string | null;
}

async function phase(name: string, deployment: Deployment, legit: LegitClient, target: Target, attack: AttackName | null): Promise<PhaseResult> {
  let peakRssMb = 0;
  const sampler = setInterval(() => {
    for (const server of deployment.servers) {
      const rss = rssMb(server.pid);
      peakRssMb = Math.max(peakRssMb, rss);
      if (rss > RSS_CAP_MB && !server.exit) {
        server.capped = true;
        server.child.kill('SIGKILL');
      }
    }
  }, 100);
  const controller = new AbortController();
  // Every socket of an attack listens for its end: 1,500 of them on one signal is not a leak.
  setMaxListeners(0, controller.signal);
  const started = performance.now();
  legit.start();
  const running = attack ? RUN[attack](target, controller.signal) : Promise.resolve(null);
  const cap = attack && UNTIL_DONE[attack];
  const died = Promise.race(deployment.servers.map((server) => server.exited));
  // An attack that ends on its own (spraying, storage-create) runs until it does, within its cap;
  // the others for --seconds. Either way the phase ends when a server dies.
  await Promise.race([cap ? running.then(() => undefined) : sleep(SECONDS * 1000), cap ? sleep(cap) : new Promise(() => {}), died]);
  controller.abort();
  const report = await running;
  const result = await legit.stop();
  clearInterval(sampler);
  const gone = deployment.servers.find((server) => server.exit);
  const why = gone
    ? gone.capped
      ? `killed by the bench at ${RSS_CAP_MB} MB RSS`
      : `exited (${gone.exit!.code ?? gone.exit!.signal}): ${gone.tail.slice(-3).join(' | ').slice(0, 300)}`
    : null;
  return { name, seconds: (performance.now() - started) / 1000, legit: result, peakRssMb, report, died: why };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- report

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const KINDS = ['profile', 'asset', 'login'] as const;
const KIND_LABEL: Record<(typeof KINDS)[number], string> = { profile: 'GET /api/profile', asset: 'GET /assets/*.js', login: 'POST /api/login (demo)' };

function rows(result: PhaseResult, quiet: PhaseResult | null): string[] {
  const lines: string[] = [];
  let first = true;
  const verdicts: boolean[] = [];
  for (const kind of KINDS) {
    const samples = result.legit.samples[kind] ?? [];
    if (samples.length === 0 && kind === 'asset') continue;
    const p50 = percentile(samples, 50);
    const p95 = percentile(samples, 95);
    const max = samples.length ? Math.max(...samples) : NaN;
    const failures = result.legit.failures[kind] ?? {};
    const failed = Object.values(failures).reduce((sum, n) => sum + n, 0);
    const quietP95 = quiet ? percentile(quiet.legit.samples[kind] ?? [], 95) : NaN;
    const ratio = quiet ? p95 / quietP95 : NaN;
    const meets = samples.length > 0 && failed === 0 && max <= TARGET_MAX_MS && (quiet == null || ratio <= TARGET_RATIO) && result.died == null;
    verdicts.push(meets);
    const failText =
      failed === 0
        ? '0'
        : `${failed} (${Object.entries(failures)
            .map(([why, n]) => `${why} ×${n}`)
            .join(', ')})`;
    lines.push(
      [
        first ? result.name : '',
        KIND_LABEL[kind],
        String(samples.length),
        p50.toFixed(0),
        p95.toFixed(0),
        max.toFixed(0),
        quiet && quiet !== result ? `${ratio.toFixed(1)}×` : '—',
        failText,
        meets ? 'yes' : '**no**',
        first ? `${result.peakRssMb.toFixed(0)}${result.peakRssMb > RSS_TARGET_MB ? ' **over 1 GB**' : ''}` : '',
      ].join(' | '),
    );
    first = false;
  }
  return lines.map((line) => `| ${line} |`);
}

function commit(): string {
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim() !== '';
    return `${hash}${dirty ? ' (with uncommitted changes)' : ''}`;
  } catch {
    return 'unknown';
  }
}

// ---------------------------------------------------------------- main

function entryScript(): string | null {
  try {
    const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
    return /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? null;
  } catch {
    return null;
  }
}

async function prepare(deployment: Deployment): Promise<{ target: Target; legit: LegitClient }> {
  const first = deployment.servers[0]!;
  const adminToken = await signIn(first.baseUrl, ADMIN, LEGIT_ADDRESS);
  const attacker = await newAccount(first.baseUrl, adminToken, `atacante_${randomBytes(3).toString('hex')}`);
  const demoToken = await signIn(first.baseUrl, DEMO, LEGIT_ADDRESS);
  const asset = entryScript();
  const legit = new LegitClient({ baseUrls: deployment.servers.map((server) => server.baseUrl), token: demoToken, asset });
  const target: Target = {
    baseUrl: first.baseUrl,
    wsUrl: `${first.baseUrl.replace('http://', 'ws://')}/ws/market`,
    adminToken,
    attacker: { token: attacker.token, id: attacker.id },
    storage: { made: 0, created: 0 },
    victims: [],
  };
  return { target, legit };
}

async function main(): Promise<void> {
  const mode = values.database ? `PostgreSQL${values.redis ? ' + Redis' : ''}, ${PROCESSES} process(es)` : 'SQLite, 1 process';
  console.log(`abuse: ${chosen.join(', ')}; ${SECONDS} s per attack; ${mode}`);
  console.log(machineSpeedLine());
  console.log(`commit ${commit()}, ${new Date().toISOString()}`);
  if (!entryScript()) console.log(`(no build in ${distDir}: the asset request is left out; run npx vite build first)`);

  let deployment = await deploy();
  let { target, legit } = await prepare(deployment);
  const results: PhaseResult[] = [];
  const quiet = await phase('quiet', deployment, legit, target, null);
  results.push(quiet);
  console.log(`quiet: ${quiet.legit.samples.profile?.length ?? 0} rounds`);
  for (const attack of chosen) {
    if (attack === 'storage-list' && target.storage.made === 0) {
      console.log('storage-list: skipped, storage-create saved no visor');
      continue;
    }
    await SETUP[attack]?.(target);
    const result = await phase(attack, deployment, legit, target, attack);
    results.push(result);
    console.log(
      `${attack}: ${result.seconds.toFixed(1)} s; ${result.report?.sent}; server answered: ${result.report?.answers.toString() || 'nothing'}${result.died ? `; SERVER ${result.died}` : ''}`,
    );
    if (result.died) {
      // The next attack gets a server of its own (a fresh one).
      await legit.close();
      await deployment.dispose();
      deployment = await deploy();
      const kept = target.storage;
      ({ target, legit } = await prepare(deployment));
      if (attack !== 'storage-create') target.storage = kept;
    } else {
      await sleep(2000);
    }
  }
  await legit.close();
  await deployment.dispose();

  console.log('');
  console.log(
    `Legitimate client (demo, from its own address) alone and during each attack. Target: p95 ≤ ${TARGET_RATIO}× quiet, no request over ${TARGET_MAX_MS} ms nor failed; peak RSS ≤ 1 GB.`,
  );
  console.log('');
  console.log('| attack | request | n | p50 ms | p95 ms | max ms | p95 / quiet | failed | meets target | server peak RSS MB |');
  console.log('|---|---|---:|---:|---:|---:|---:|---|---|---:|');
  for (const result of results) for (const line of rows(result, result === quiet ? null : quiet)) console.log(line);
  console.log('');
  console.log('What the server answered each attacker:');
  console.log('');
  for (const result of results.slice(1))
    console.log(
      `- ${result.name}: ${result.report?.sent}; ${result.report?.answers.toString() || 'no answer'}${result.died ? `; **server ${result.died}**` : ''}`,
    );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
