// Past one machine (issue 4): two real server processes on one Redis. A client on one gets
// ticks produced by the feed on the other, and when the feed's process dies the other
// takes the feed over. Runs when TEST_REDIS_URL is set.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, authenticate, DEMO, openSocket, signIn } from './helpers.js';
import { startServerProcess } from './serverProcess.js';

const redisUrl = process.env.TEST_REDIS_URL?.trim() || null;
if (!redisUrl) console.log('Redis API tests skipped: TEST_REDIS_URL is not set');

const prefix = `visores-test-${randomBytes(4).toString('hex')}:`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-redis-'));
const children: ChildProcess[] = [];

interface Server {
  baseUrl: string;
  wsUrl: string;
  child: ChildProcess;
}

async function startProcess(): Promise<Server> {
  const started = await startServerProcess({
    DATA_DIR: dataDir,
    SIM_TICKS_PER_SECOND: '400',
    STATIC_DIR: path.join(dataDir, 'no-client'),
    REDIS_URL: redisUrl!,
    REDIS_PREFIX: prefix,
  });
  children.push(started.child);
  return { baseUrl: started.baseUrl, wsUrl: started.wsUrl('/ws/market'), child: started.child };
}

async function feedState(server: Server, token: string, name: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/admin/feeds`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { data: { name: string; state: string }[] };
  return body.data.find((feed) => feed.name === name)!.state;
}

async function until<T>(what: string, probe: () => Promise<T | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

afterAll(async () => {
  for (const child of children) if (child.exitCode == null) child.kill('SIGKILL');
  if (redisUrl) {
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(redisUrl)('market data across two processes on Redis', () => {
  it('delivers ticks from the feed process to a client of the other, and fails the feed over when it dies', async () => {
    const first = await startProcess();
    const adminOnFirst = await signIn(first.baseUrl, ADMIN);
    await until('the first process to take the rofex feed', async () => (await feedState(first, adminOnFirst.token, 'rofex')) === 'running');

    const second = await startProcess();
    const adminOnSecond = await signIn(second.baseUrl, ADMIN);
    expect(await feedState(second, adminOnSecond.token, 'rofex')).toBe('stopped');

    // A client of the second process, which runs no feed.
    const demo = await signIn(second.baseUrl, DEMO);
    const socket = await openSocket(second.wsUrl);
    await authenticate(socket, demo.token);
    const symbol = 'ROFEX:DLR/SPOT'; // always listed, on the rofex feed
    const received: { md: { LA?: { date: number } } }[] = [];
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as Record<string, { md: { LA?: { date: number } } }>;
      if (message[symbol]) received.push(message[symbol]);
    });
    socket.send(JSON.stringify({ action: 'subscribe', symbol, requestId: 'r1' }));
    await until('the snapshot and live ticks', async () => received.length >= 3);

    // The feed's process dies without a word; its lock lapses and the second takes over.
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    await until('the second process to take the rofex feed over', async () => (await feedState(second, adminOnSecond.token, 'rofex')) === 'running');
    const afterTakeover = received.length;
    await until('ticks from the new feed process', async () => received.length > afterTakeover + 2);
    socket.close();
  }, 60_000);
});
