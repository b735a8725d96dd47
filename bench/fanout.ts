// npm run bench:fanout [-- --clients 1000 --symbols-per-client 20 --rate 5000 --seconds 30 --redis redis://127.0.0.1:6379 --skip-redis --skip-in-process --skip-two-processes]
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
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import { seededRandom } from '../server/market/random.js';

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
  },
});
const CLIENTS = Number(values.clients);
const PER_CLIENT = Number(values['symbols-per-client']);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const root = path.resolve(import.meta.dirname, '..');
const CLOCK_TICKS_PER_SECOND = 100; // Linux USER_HZ, the unit of /proc/<pid>/stat times

interface Result {
  label: string;
  messagesPerSecond: number;
  updatesPerSecond: number;
  p50: number;
  p99: number;
  coalesced: number;
  published: number;
  cpuPercent: number;
  /** Server CPU time per symbol update delivered to a client, µs: the cost of fan-out. */
  serverMicrosPerUpdate: number;
  /** Server CPU time per frame (one websocket message) delivered, µs: a frame is one write. */
  serverMicrosPerMessage: number;
  /** Load generator CPU time per frame received, µs. */
  generatorMicrosPerMessage: number;
  generatorCpuPercent: number;
  malformedFrames: number;
  peakRssMb: number;
  clients: number;
  /** Two-process runs: the feed process's CPU % and peak RSS. */
  feedProcess: { cpuPercent: number; peakRssMb: number } | null;
}

function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    // BENCH_SERVER_NODE_ARGS (e.g. `--cpu-prof`) profiles the server under this load.
    const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/main.ts'], { cwd: root, env: { ...process.env, ...env } });
    let output = '';
    // BENCH_SERVER_OUTPUT=1 shows the server's own output (with `--trace-gc`, its collections).
    const echo = process.env.BENCH_SERVER_OUTPUT ? (chunk: Buffer) => process.stderr.write(chunk) : () => {};
    child.stdout!.on('data', (chunk: Buffer) => {
      echo(chunk);
      output += chunk.toString();
      const match = /running at http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      echo(chunk);
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
}

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND; // utime + stime
}

function peakRssMb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

interface SymbolEntry {
  md: { LA?: { price: number; size: number; date: number } };
  expiration?: string;
}
/** One match per symbol update in a frame: the last trade's date. */
const LAST_TRADE_DATE = /"LA":\{"price":[^,]*,"size":[^,]*,"date":(\d+)\}/g;
/** Only LA carries a `date` in an update (checked on sampled frames by checkFrame). */
const DATE_NEEDLE = Buffer.from('"date":');
const EVENT_PREFIX = Buffer.from('{"event"');
const isEvent = (raw: Buffer) => raw.length >= EVENT_PREFIX.length && raw.compare(EVENT_PREFIX, 0, EVENT_PREFIX.length, 0, EVENT_PREFIX.length) === 0;
let malformedFrames = 0;
/** Parses a frame whole: every key a symbol whose update the pattern above finds once. */
function checkFrame(text: string): void {
  const frame = JSON.parse(text) as Record<string, SymbolEntry>;
  const keys = Object.keys(frame);
  const found = text.match(LAST_TRADE_DATE)?.length ?? 0;
  const dates = text.split('"date":').length - 1;
  if (keys.length === 0 || found !== keys.length || dates !== keys.length || keys.some((key) => typeof frame[key]?.md?.LA?.date !== 'number'))
    malformedFrames += 1;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** GET /api/admin/feeds: every process's feeds, summed counters, and which process answered. */
interface FeedsAnswer {
  self: string;
  data: { name: string; state: string; process: string | null }[];
  stats: { coalesced: number; published: number };
}

/** Resolves once the server on `port` runs both feeds (it took their locks). */
async function feedsRunning(port: number): Promise<void> {
  const base = `http://127.0.0.1:${port}/api`;
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin1234' }),
  });
  const { token } = (await login.json()) as { token: string };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { data, self } = (await (await fetch(`${base}/admin/feeds`, { headers: { authorization: `Bearer ${token}` } })).json()) as FeedsAnswer;
    if (data.every((feed) => feed.state === 'running' && feed.process === self)) return;
    if (Date.now() > deadline) throw new Error('the feed process did not start its feeds in 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function run(label: string, redisUrl: string | null, twoProcesses = false): Promise<Result> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-bench-'));
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-client'),
    LOG_LEVEL: 'warn',
    // Two feeds (rofex, tv) share the rate.
    SIM_TICKS_PER_SECOND: String(Math.round(RATE / 2)),
    // Every client is demo, on one token: the per-user cap (SOCKETS_PER_USER) must let them all in.
    SOCKETS_PER_USER: String(CLIENTS + 10),
  };
  if (redisUrl) Object.assign(env, { REDIS_URL: redisUrl, REDIS_PREFIX: `visores-bench-${randomBytes(4).toString('hex')}:` });
  const children: ChildProcess[] = [];
  let feedProcess: { child: ChildProcess; port: number } | null = null;
  if (twoProcesses) {
    // The first process takes both feed locks; the clients' process, started once it runs
    // both feeds, runs none.
    feedProcess = await startServer(env);
    children.push(feedProcess.child);
    await feedsRunning(feedProcess.port).catch((error: unknown) => {
      feedProcess?.child.kill('SIGTERM');
      throw error;
    });
  }
  const { child, port } = await startServer(env).catch((error: unknown) => {
    feedProcess?.child.kill('SIGTERM');
    throw error;
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}/api`;
  try {
    const post = async (p: string, body: unknown, token?: string) =>
      (
        await fetch(base + p, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        })
      ).json() as Promise<Record<string, unknown>>;
    const { token } = (await post('/login', { username: 'demo', password: 'demo1234' })) as { token: string };
    const { token: adminToken } = (await post('/login', { username: 'admin', password: 'admin1234' })) as { token: string };
    const instruments = (
      (await (await fetch(`${base}/visores/primary/instruments`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        instruments: { instrumentId: { symbol: string } }[];
      }
    ).instruments.map((i) => i.instrumentId.symbol);
    const feeds = async () => (await (await fetch(`${base}/admin/feeds`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as FeedsAnswer;
    const clientsProcess = await feeds();
    if (feedProcess && clientsProcess.data.some((feed) => feed.process === clientsProcess.self))
      throw new Error("the clients' process runs a feed: the feed process did not take the locks");
    // Summed over the processes: updates merged (between flushes and for slow clients) where the clients are, ticks where they are published.
    const stats = async () => (await feeds()).stats;

    const random = seededRandom(7);
    const latencies = new Float64Array((64 * 1024 * 1024) / 8);
    let latencyCount = 0;
    let measuring = false;
    let messages = 0;
    let updates = 0;
    /** Subscriptions whose snapshot has not arrived yet. */
    let awaitingSnapshots = CLIENTS * PER_CLIENT;
    const sockets: WebSocket[] = [];

    // Connect in batches so the accept queue is not flooded.
    for (let i = 0; i < CLIENTS; i += 50) {
      await Promise.all(
        Array.from(
          { length: Math.min(50, CLIENTS - i) },
          () =>
            new Promise<void>((resolve, reject) => {
              const socket = new WebSocket(`ws://127.0.0.1:${port}/ws/market`, { perMessageDeflate: false, skipUTF8Validation: true });
              sockets.push(socket);
              const wanted = new Set<string>();
              while (wanted.size < PER_CLIENT) wanted.add(instruments[Math.floor(random() * instruments.length)]!);
              const unanswered = new Set(wanted);
              /**
               * Trade times this client has seen, in two generations (a symbol's last trade stays in
               * the newer while its book updates repeat it): only an update with a new one is timed.
               */
              let seenTrades = new Set<number>();
              let olderTrades = new Set<number>();
              socket.on('open', () => socket.send(JSON.stringify({ action: 'auth', token })));
              socket.on('error', reject);
              socket.on('message', (raw: Buffer) => {
                if (awaitingSnapshots > 0 || isEvent(raw)) {
                  const message = JSON.parse(String(raw)) as Record<string, unknown> & { event?: string };
                  if (message.event === 'authenticated') {
                    for (const symbol of wanted) socket.send(JSON.stringify({ action: 'subscribe', symbol }));
                    resolve();
                    return;
                  }
                  if (message.event) return;
                  for (const key in message) if (unanswered.delete(key)) awaitingSnapshots -= 1;
                }
                if (!measuring) return;
                const received = Date.now();
                messages += 1;
                // Every 64th frame is parsed whole, to check that frames are JSON keyed by symbol
                // and that each update carries exactly one `"date":` (its LA.date).
                if ((messages & 63) === 0) checkFrame(String(raw));
                // Each update's last trade time is its LA.date, found in the bytes themselves: the
                // generator shares the machine, so it spends its time receiving, not decoding.
                for (let at = raw.indexOf(DATE_NEEDLE); at !== -1; at = raw.indexOf(DATE_NEEDLE, at)) {
                  at += DATE_NEEDLE.length;
                  let date = 0;
                  for (let c = raw[at]!; c >= 0x30 && c <= 0x39; c = raw[++at]!) date = date * 10 + (c - 0x30);
                  updates += 1;
                  if (seenTrades.has(date)) continue;
                  seenTrades.add(date);
                  if (olderTrades.has(date)) continue;
                  if (seenTrades.size > 5000) [olderTrades, seenTrades] = [seenTrades, new Set()];
                  if (latencyCount < latencies.length) latencies[latencyCount++] = received - date;
                }
              });
            }),
        ),
      );
    }
    // Measure from the moment every subscription has had its snapshot.
    const deadline = Date.now() + 120_000;
    while (awaitingSnapshots > 0) {
      if (Date.now() > deadline) throw new Error(`${awaitingSnapshots} subscriptions got no snapshot in 2 minutes`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const before = await stats();
    const cpuBefore = cpuSeconds(child.pid!);
    const feedCpuBefore = feedProcess ? cpuSeconds(feedProcess.child.pid!) : 0;
    const generatorBefore = process.cpuUsage();
    malformedFrames = 0;
    const started = Date.now();
    measuring = true;
    await new Promise((r) => setTimeout(r, SECONDS * 1000)); // the measurement window itself
    measuring = false;
    const elapsed = (Date.now() - started) / 1000;
    const serverCpuSeconds = cpuSeconds(child.pid!) - cpuBefore;
    const cpu = (serverCpuSeconds / elapsed) * 100;
    const feedProcessFigures = feedProcess
      ? { cpuPercent: ((cpuSeconds(feedProcess.child.pid!) - feedCpuBefore) / elapsed) * 100, peakRssMb: peakRssMb(feedProcess.child.pid!) }
      : null;
    const generatorUsage = process.cpuUsage(generatorBefore);
    const generatorCpu = ((generatorUsage.user + generatorUsage.system) / 1e6 / elapsed) * 100;
    const after = await stats();
    const rss = peakRssMb(child.pid!);
    for (const socket of sockets) socket.terminate();
    const sorted = latencies.slice(0, latencyCount).sort();
    return {
      label,
      clients: CLIENTS,
      messagesPerSecond: messages / elapsed,
      updatesPerSecond: updates / elapsed,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      coalesced: after.coalesced - before.coalesced,
      published: after.published - before.published,
      cpuPercent: cpu,
      generatorCpuPercent: generatorCpu,
      serverMicrosPerUpdate: (serverCpuSeconds * 1e6) / updates,
      serverMicrosPerMessage: (serverCpuSeconds * 1e6) / messages,
      generatorMicrosPerMessage: (generatorUsage.user + generatorUsage.system) / messages,
      malformedFrames,
      peakRssMb: rss,
      feedProcess: feedProcessFigures,
    };
  } finally {
    for (const running of children) {
      running.kill('SIGTERM');
      await new Promise((r) => running.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function redisReachable(url: string): Promise<boolean> {
  const { Redis } = await import('ioredis');
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
if (!values['skip-in-process']) results.push(await run('in-process', null));
const redisRuns: [string, boolean][] = [];
if (!values['skip-redis']) redisRuns.push(['redis', false]);
if (!values['skip-two-processes']) redisRuns.push(['redis ×2', true]);
if (redisRuns.length > 0) {
  if (await redisReachable(values.redis!)) for (const [label, twoProcesses] of redisRuns) results.push(await run(label, values.redis!, twoProcesses));
  else console.log(`Redis at ${values.redis} is not reachable: the Redis runs are skipped`);
}
const fixed = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
console.log(
  '\nrun         msgs/s    updates/s  p50 ms  p99 ms  coalesced  ticks published  server CPU %  peak RSS MB  generator CPU %  server µs/update  server µs/msg  generator µs/msg',
);
for (const r of results) {
  console.log(
    `${r.label.padEnd(10)} ${fixed(r.messagesPerSecond).padStart(8)} ${fixed(r.updatesPerSecond).padStart(11)} ${fixed(r.p50).padStart(7)} ${fixed(r.p99).padStart(7)} ${String(r.coalesced).padStart(10)} ${String(r.published).padStart(16)} ${fixed(r.cpuPercent).padStart(12)} ${fixed(r.peakRssMb).padStart(12)} ${fixed(r.generatorCpuPercent).padStart(16)} ${fixed(r.serverMicrosPerUpdate, 2).padStart(17)} ${fixed(r.serverMicrosPerMessage, 2).padStart(14)} ${fixed(r.generatorMicrosPerMessage, 2).padStart(17)}`,
  );
}
for (const r of results) {
  if (r.feedProcess)
    console.log(
      `${r.label}: the feed process (publishing every tick to Redis, no clients) used ${fixed(r.feedProcess.cpuPercent)} % CPU, peak RSS ${fixed(r.feedProcess.peakRssMb)} MB`,
    );
}
const broken = results.filter((r) => r.malformedFrames > 0);
if (broken.length > 0) {
  console.error(`malformed frames: ${broken.map((r) => `${r.label} ${r.malformedFrames}`).join(', ')}`);
  process.exitCode = 1;
}
