// npm run bench:fanout [-- --clients 1000 --symbols-per-client 20 --rate 5000 --seconds 30 --redis redis://127.0.0.1:6379 --skip-redis --skip-in-process --skip-two-processes --skip-peer]
//
// Starts the real server (a child process, as `npm start` runs it), connects N websocket
// clients each subscribed to 20 of the catalogue's 500 symbols, runs the simulator at R
// ticks per second in all, and prints: delivered messages and symbol updates per second,
// p50/p99 latency from trade to client (the updates carrying a trade a client had not seen:
// the simulator also publishes book updates between trades, which keep the last trade's time), updates the server merged (per symbol between two flushes, and for slow clients), server
// CPU and peak RSS. Then the same with REDIS_URL: one process that runs the feeds, publishes
// every tick to Redis and serves the clients (its own clients get its ticks at once); and two
// processes on that Redis, the feeds in one and every client on the other, so every tick a
// client gets went through Redis pub/sub (the server columns are the clients' process; the
// feed process's own figures follow the table).
//
// Then the same load through a peer: a socket.io server on @socket.io/redis-adapter, a room per
// symbol, playing Visores's own simulator at the same rate with the same payloads
// (bench/peer/socketioServer.ts), measured by the same client-side code (bench/fanout/measure.ts)
// with the same clients watching the same symbols. After the table, Visores's symbol updates per
// server CPU-second against the peer's, and the p99s side by side.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { WebSocket } from 'ws';
import { globEscape } from '../server/market/redisHub.js';
import { datesInBytes, measure, updatesWellFormed, type FanoutClient, type Result } from './fanout/measure.js';
import { machineSpeedLine } from './machineSpeed.js';
import { socketioClient } from './peer/socketioClient.js';
import { startServer, type BenchServer, type StartOptions } from './serverProcess.js';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    'symbols-per-client': { type: 'string', default: '20' },
    rate: { type: 'string', default: '5000' },
    seconds: { type: 'string', default: '30' },
    redis: { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
    'skip-redis': { type: 'boolean', default: false },
    'skip-in-process': { type: 'boolean', default: false },
    'skip-two-processes': { type: 'boolean', default: false },
    'skip-peer': { type: 'boolean', default: false },
  },
});
const CLIENTS = Number(values.clients);
const PER_CLIENT = Number(values['symbols-per-client']);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const PEER_LABEL = 'socket.io+redis';
/** After the peer's simulator starts: its start republishes every symbol's state at once, a burst the window leaves out. */
const PEER_WARMUP_MS = 2000;

// BENCH_SERVER_NODE_ARGS (e.g. `--cpu-prof`) profiles the servers under this load;
// BENCH_SERVER_OUTPUT=1 shows their own output (with `--trace-gc`, their collections).
const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const echo = process.env.BENCH_SERVER_OUTPUT ? (text: string) => void process.stderr.write(text) : () => {};

/** Servers started and not yet stopped, and the Redis prefixes of runs not yet cleaned: whatever ends a run (an error, Ctrl-C) ends them. */
const running = new Set<BenchServer>();
const prefixes = new Set<string>();

async function start(options: Omit<StartOptions, 'nodeArgs' | 'onOutput' | 'onStartup'>): Promise<BenchServer> {
  const server = await startServer({ ...options, nodeArgs, onOutput: echo, onStartup: echo });
  running.add(server);
  return server;
}

async function stopAll(): Promise<void> {
  await Promise.all(
    [...running].map(async (server) => {
      await server.stop();
      running.delete(server);
    }),
  );
}

/** Removes a run's keys (the servers' feed locks, latest states, sessions…), so a shared Redis keeps nothing of the bench. */
async function removeKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `${globEscape(prefix)}*`, count: 1000 })) keys.push(...(batch as string[]));
    for (let i = 0; i < keys.length; i += 1000) await redis.unlink(...keys.slice(i, i + 1000));
    prefixes.delete(prefix);
  } catch (error) {
    console.error(`could not remove the Redis keys ${prefix}*: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    redis.disconnect();
  }
}

/** Stops every server and removes the keys of the run under way. */
async function cleanUp(redisUrl: string | null): Promise<void> {
  await stopAll();
  if (redisUrl) for (const prefix of [...prefixes]) await removeKeys(redisUrl, prefix);
}

// Ctrl-C reaches npm and tsx as well, which pass a SIGTERM on: either signal, and any repeat of
// them while it cleans up, waits for the clean-up (at most 15 s) instead of ending the bench at once.
let interrupted = false;
const interrupt = () => {
  if (interrupted) return;
  interrupted = true;
  setTimeout(() => process.exit(130), 15_000).unref();
  void cleanUp(values.redis!).finally(() => process.exit(130));
};
process.on('SIGINT', interrupt);
process.on('SIGTERM', interrupt);

/** The settings the Visores server and the peer share: what their simulators play. */
function marketEnv(): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    // Two feeds (rofex, tv) share the rate.
    SIM_TICKS_PER_SECOND: String(Math.round(RATE / 2)),
  };
}

function runPrefix(): string {
  const prefix = `visores-bench-${randomBytes(4).toString('hex')}:`;
  prefixes.add(prefix);
  return prefix;
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The symbols of the run first measured: every run's clients must choose among the same ones, in the same order. */
let firstSymbols: string[] | null = null;
function sameSymbols(label: string, symbols: string[]): string[] {
  firstSymbols ??= symbols;
  if (symbols.join() !== firstSymbols.join())
    throw new Error(`${label}: the catalogue lists other symbols than the first run's: its clients would not watch the same ones`);
  return symbols;
}

/** GET /api/admin/feeds: every process's feeds, summed counters, and which process answered. */
interface FeedsAnswer {
  self: string;
  data: { name: string; state: string; process: string | null }[];
  stats: { coalesced: number; published: number };
}

/** The first message of /ws/market that is not a data frame is an event: `{"event":…}`. */
const EVENT_PREFIX = Buffer.from('{"event"');
const isEvent = (raw: Buffer) => raw.length >= EVENT_PREFIX.length && raw.compare(EVENT_PREFIX, 0, EVENT_PREFIX.length, 0, EVENT_PREFIX.length) === 0;

/** Visores's clients: /ws/market, the auth message, a subscribe per symbol; a frame is its bytes. */
function visoresClient(baseUrl: string, token: string): FanoutClient<Buffer> {
  const url = `${baseUrl.replace(/^http/, 'ws')}/ws/market`;
  return {
    open(symbols, hooks) {
      return new Promise((resolve, reject) => {
        const socket = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
        const unanswered = new Set(symbols);
        socket.on('open', () => socket.send(JSON.stringify({ action: 'auth', token })));
        socket.on('error', reject);
        socket.on('close', () => hooks.closed());
        socket.on('message', (raw: Buffer) => {
          if (unanswered.size > 0 || isEvent(raw)) {
            const message = JSON.parse(String(raw)) as Record<string, unknown> & { event?: string };
            if (message.event === 'authenticated') {
              for (const symbol of symbols) socket.send(JSON.stringify({ action: 'subscribe', symbol }));
              resolve({ close: () => socket.terminate() });
              return;
            }
            if (message.event) return;
            // Before its last snapshot, a client reads every frame for the snapshots' keys.
            for (const key in message) if (unanswered.delete(key)) hooks.subscribed(key);
          }
          hooks.frame(raw);
        });
      });
    },
    dates: datesInBytes,
    wellFormed(raw) {
      const text = String(raw);
      return updatesWellFormed(text, JSON.parse(text));
    },
  };
}

/** Resolves once the server at `baseUrl` runs both feeds (it took their locks). */
async function feedsRunning(baseUrl: string): Promise<void> {
  const base = `${baseUrl}/api`;
  const { token } = await json<{ token: string }>(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin1234' }),
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { data, self } = await json<FeedsAnswer>(`${base}/admin/feeds`, { headers: { authorization: `Bearer ${token}` } });
    if (data.every((feed) => feed.state === 'running' && feed.process === self)) return;
    if (Date.now() > deadline) throw new Error('the feed process did not start its feeds in 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function runVisores(label: string, redisUrl: string | null, twoProcesses = false): Promise<Result> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-bench-'));
  const env: Record<string, string> = {
    ...marketEnv(),
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-client'),
    // Every client is demo, on one token: the per-user cap (SOCKETS_PER_USER) must let them all in.
    SOCKETS_PER_USER: String(CLIENTS + 10),
    // Not this shell's REDIS_URL: the in-process run is without Redis.
    REDIS_URL: redisUrl ?? '',
  };
  if (redisUrl) env.REDIS_PREFIX = runPrefix();
  try {
    let feedProcess: BenchServer | null = null;
    if (twoProcesses) {
      // The first process takes both feed locks; the clients' process, started once it runs
      // both feeds, runs none.
      feedProcess = await start({ env });
      await feedsRunning(feedProcess.baseUrl);
    }
    const server = await start({ env });
    const base = `${server.baseUrl}/api`;
    const login = (username: string, password: string) =>
      json<{ token: string }>(`${base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
    const { token } = await login('demo', 'demo1234');
    const { token: adminToken } = await login('admin', 'admin1234');
    const { instruments } = await json<{ instruments: { instrumentId: { symbol: string } }[] }>(`${base}/visores/primary/instruments`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const feeds = () => json<FeedsAnswer>(`${base}/admin/feeds`, { headers: { authorization: `Bearer ${adminToken}` } });
    const clientsProcess = await feeds();
    if (feedProcess && clientsProcess.data.some((feed) => feed.process === clientsProcess.self))
      throw new Error("the clients' process runs a feed: the feed process did not take the locks");
    return await measure({
      label,
      clients: CLIENTS,
      perClient: PER_CLIENT,
      seconds: SECONDS,
      symbols: sameSymbols(
        label,
        instruments.map((instrument) => instrument.instrumentId.symbol),
      ),
      client: visoresClient(server.baseUrl, token),
      serverPid: server.pid,
      ...(feedProcess ? { feedPid: feedProcess.pid } : {}),
      // Summed over the processes: updates merged (between flushes and for slow clients) where the clients are, ticks where they are published.
      stats: async () => (await feeds()).stats,
    });
  } finally {
    await cleanUp(redisUrl);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function runPeer(redisUrl: string): Promise<Result> {
  const env = { ...marketEnv(), REDIS_URL: redisUrl, REDIS_PREFIX: runPrefix() };
  try {
    const peer = await start({ env, script: 'bench/peer/socketioServer.ts' });
    return await measure({
      label: PEER_LABEL,
      clients: CLIENTS,
      perClient: PER_CLIENT,
      seconds: SECONDS,
      symbols: sameSymbols(PEER_LABEL, await json<string[]>(`${peer.baseUrl}/instruments`)),
      client: socketioClient(peer.baseUrl),
      serverPid: peer.pid,
      stats: () => json<{ coalesced: number; published: number }>(`${peer.baseUrl}/stats`),
      // Its simulator starts once every client has its snapshots (see socketioServer.ts).
      start: async () => void (await json(`${peer.baseUrl}/start`, { method: 'POST' })),
      warmupMs: PEER_WARMUP_MS,
    });
  } finally {
    await cleanUp(redisUrl);
  }
}

async function redisReachable(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

const results: Result[] = [];
console.log(`fan-out: ${CLIENTS} clients × ${PER_CLIENT} symbols of 500, ${RATE} ticks/s, ${SECONDS} s per run`);
console.log(machineSpeedLine());
try {
  if (!values['skip-in-process']) results.push(await runVisores('in-process', null));
  const redisRuns: [string, boolean][] = [];
  if (!values['skip-redis']) redisRuns.push(['redis', false]);
  if (!values['skip-two-processes']) redisRuns.push(['redis ×2', true]);
  if (redisRuns.length > 0 || !values['skip-peer']) {
    if (await redisReachable(values.redis!)) {
      for (const [label, twoProcesses] of redisRuns) results.push(await runVisores(label, values.redis!, twoProcesses));
      if (!values['skip-peer']) results.push(await runPeer(values.redis!));
    } else console.log(`Redis at ${values.redis} is not reachable: the Redis runs and the socket.io peer (on its redis adapter) are skipped`);
  }
} finally {
  await cleanUp(values.redis!);
}

const fixed = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
console.log(
  '\nrun                msgs/s    updates/s  p50 ms  p99 ms  coalesced  ticks published  server CPU %  peak RSS MB  generator CPU %  server µs/update  server µs/msg  generator µs/msg',
);
for (const r of results) {
  console.log(
    `${r.label.padEnd(16)} ${fixed(r.messagesPerSecond).padStart(8)} ${fixed(r.updatesPerSecond).padStart(12)} ${fixed(r.p50).padStart(7)} ${fixed(r.p99).padStart(7)} ${String(r.coalesced).padStart(10)} ${String(r.published).padStart(16)} ${fixed(r.cpuPercent).padStart(12)} ${fixed(r.peakRssMb).padStart(12)} ${fixed(r.generatorCpuPercent).padStart(16)} ${fixed(r.serverMicrosPerUpdate, 2).padStart(17)} ${fixed(r.serverMicrosPerMessage, 2).padStart(14)} ${fixed(r.generatorMicrosPerMessage, 2).padStart(17)}`,
  );
}
for (const r of results) {
  if (r.feedProcess)
    console.log(
      `${r.label}: the feed process (publishing every tick to Redis, no clients) used ${fixed(r.feedProcess.cpuPercent)} % CPU, peak RSS ${fixed(r.feedProcess.peakRssMb)} MB`,
    );
}

/**
 * Symbol updates delivered per CPU-second of the server: of its one process, or of both in a
 * two-process run (the peer runs its simulator in its one process too). Redis's own CPU is in
 * neither.
 */
const updatesPerCpuSecond = (r: Result) => (r.updatesPerSecond * 100) / (r.cpuPercent + (r.feedProcess?.cpuPercent ?? 0));
const peer = results.find((r) => r.label === PEER_LABEL);
const visores = results.filter((r) => r !== peer);
if (peer && visores.length > 0) {
  const peerRate = updatesPerCpuSecond(peer);
  console.log(
    `\nupdates per server CPU-second: ${PEER_LABEL} ${fixed(peerRate)}; ${visores
      .map((r) => `${r.label} ${fixed(updatesPerCpuSecond(r))} (${fixed(updatesPerCpuSecond(r) / peerRate, 2)}×${r.feedProcess ? ', both processes' : ''})`)
      .join(', ')}`,
  );
  console.log(`p99 ms: ${PEER_LABEL} ${fixed(peer.p99)}; ${visores.map((r) => `${r.label} ${fixed(r.p99)}`).join(', ')}`);
  console.log(
    `target (at least 2× the peer's updates per CPU-second at an equal or lower p99): ${visores
      .map((r) => `${r.label} ${updatesPerCpuSecond(r) >= 2 * peerRate && r.p99 <= peer.p99 ? 'met' : 'not met'}`)
      .join(', ')}`,
  );
}
console.log(`\n${machineSpeedLine()}`);

const closed = results.filter((r) => r.closedInWindow > 0);
if (closed.length > 0) {
  console.error(`connections closed during the window: ${closed.map((r) => `${r.label} ${r.closedInWindow}`).join(', ')}`);
  process.exitCode = 1;
}
const broken = results.filter((r) => r.malformedFrames > 0);
if (broken.length > 0) {
  console.error(`malformed frames: ${broken.map((r) => `${r.label} ${r.malformedFrames}`).join(', ')}`);
  process.exitCode = 1;
}
