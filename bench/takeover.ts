// npm run bench:takeover [-- --runs 3 --redis redis://127.0.0.1:6379]
//
// How long the clients of one process go without prices when the process that runs the feeds
// dies. Two real server processes on one Redis (as in production behind a proxy): the first
// takes the feeds' locks, the second serves a market socket subscribed to 20 symbols; the
// simulator runs at 1,000 ticks a second, so updates arrive every few milliseconds. The first
// is killed with SIGKILL (no chance to release its locks): the gap is the time from the kill to
// the first update from the feed the second process takes over (updates that were already on
// their way, within 50 ms of the kill, do not count). Printed per run, with the median and
// spread, and the machine's speed. Target: ≤ 2 s.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import { machineSpeedLine } from './machineSpeed.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    redis: { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
  },
});
const root = path.resolve(import.meta.dirname, '..');
const IN_FLIGHT_MS = 50;

function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (match) resolve({ child, base: match[1]! });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
}

async function token(base: string, username: string, password: string): Promise<string> {
  const answer = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return ((await answer.json()) as { token: string }).token;
}

/** Resolves once the process at `base` runs both feeds. */
async function runsFeeds(base: string): Promise<void> {
  const admin = await token(base, 'admin', 'admin1234');
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = (await (await fetch(`${base}/api/admin/feeds`, { headers: { authorization: `Bearer ${admin}` } })).json()) as {
      self: string;
      data: { state: string; process: string | null }[];
    };
    if (answer.data.every((feed) => feed.state === 'running' && feed.process === answer.self)) return;
    if (Date.now() > deadline) throw new Error('the first process did not take the feeds in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function oneRun(run: number): Promise<number> {
  const prefix = `visores-takeover-${randomBytes(4).toString('hex')}:`;
  const dirs = [mkdtempSync(path.join(tmpdir(), 'visores-takeover-')), mkdtempSync(path.join(tmpdir(), 'visores-takeover-'))];
  const env = (dir: string) => ({
    DATA_DIR: dir,
    STATIC_DIR: path.join(dir, 'no-client'),
    REDIS_URL: values.redis,
    REDIS_PREFIX: prefix,
    SIM_TICKS_PER_SECOND: '1000',
    SIM_MARKET_TIME: '11:30',
  });
  const feedProcess = await startServer(env(dirs[0]!));
  const children = [feedProcess.child];
  try {
    await runsFeeds(feedProcess.base);
    const clientProcess = await startServer(env(dirs[1]!));
    children.push(clientProcess.child);
    const demo = await token(clientProcess.base, 'demo', 'demo1234');
    const catalogue = (await (
      await fetch(`${clientProcess.base}/api/visores/primary/instruments`, { headers: { authorization: `Bearer ${demo}` } })
    ).json()) as {
      instruments: { instrumentId: { symbol: string } }[];
    };
    const symbols = catalogue.instruments.slice(0, 20).map((instrument) => instrument.instrumentId.symbol);
    const updates: number[] = [];
    const socket = new WebSocket(`${clientProcess.base.replace('http', 'ws')}/ws/market`, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      socket.on('open', () => socket.send(JSON.stringify({ action: 'auth', token: demo })));
      socket.on('error', reject);
      socket.on('message', (raw: Buffer) => {
        const message = JSON.parse(String(raw)) as { event?: string };
        if (message.event === 'authenticated') {
          for (const symbol of symbols) socket.send(JSON.stringify({ action: 'subscribe', symbol }));
          resolve();
        } else if (!message.event) updates.push(performance.now());
      });
    });
    // Updates flowing from the first process's feed, through Redis.
    while (updates.filter((at) => at > performance.now() - 1000).length < 20) await new Promise((resolve) => setTimeout(resolve, 100));
    const killedAt = performance.now();
    feedProcess.child.kill('SIGKILL');
    const deadline = killedAt + 30_000;
    let firstAfter: number | undefined;
    while (!(firstAfter = updates.find((at) => at > killedAt + IN_FLIGHT_MS)) && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 5));
    socket.close();
    if (firstAfter === undefined) throw new Error('no update within 30 s of the kill');
    const gap = firstAfter - killedAt;
    console.log(`run ${run}: ${Math.round(gap)} ms from the kill to the first update of the feed taken over`);
    return gap;
  } finally {
    for (const child of children) if (child.exitCode == null && child.signalCode == null) child.kill('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

const gaps: number[] = [];
for (let run = 1; run <= Number(values.runs); run++) gaps.push(await oneRun(run));
gaps.sort((a, b) => a - b);
console.log(
  `takeover gap: median ${Math.round(gaps[Math.floor(gaps.length / 2)]!)} ms, spread ${Math.round(gaps[0]!)}–${Math.round(gaps.at(-1)!)} ms over ${gaps.length} runs (target ≤ 2,000 ms)`,
);
console.log(machineSpeedLine());
process.exit(0);
