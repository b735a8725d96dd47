// Past one machine (issue 4): two real server processes on one Redis. A client on one gets
// ticks produced by the feed on the other, and when the feed's process dies the other
// takes the feed over; with the rofex feed on the exchange (the local fake Primary API), a
// subscription on the process that does not run the feed reaches the exchange all the same.
// Runs when TEST_REDIS_URL is set.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakePrimary } from '../fakes/primaryServer.js';
import { ADMIN, authenticate, DEMO, openSocket, signIn } from './helpers.js';
import { dropRedisKeys } from './redisKeys.js';
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

async function startProcess(env: Record<string, string> = {}): Promise<Server> {
  const started = await startServerProcess({
    DATA_DIR: dataDir,
    SIM_TICKS_PER_SECOND: '400',
    STATIC_DIR: path.join(dataDir, 'no-client'),
    REDIS_URL: redisUrl!,
    REDIS_PREFIX: prefix,
    ...env,
  });
  children.push(started.child);
  return { baseUrl: started.baseUrl, wsUrl: started.wsUrl('/ws/market'), child: started.child };
}

interface FeedsAnswer {
  self: string;
  data: { name: string; state: string; process: string | null; rate: number; clients: number; subscribedSymbols: number }[];
  processes: { process: string; sockets: number; positionsSockets: number; startedAt: number; feeds: string[] }[];
}

async function adminCall<T>(server: Server, token: string, method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.baseUrl}/api${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${url}`).toBe(200);
  return (await response.json()) as T;
}

const feedsOf = (server: Server, token: string) => adminCall<FeedsAnswer>(server, token, 'GET', '/admin/feeds');
const rofexOf = async (server: Server, token: string) => (await feedsOf(server, token)).data.find((feed) => feed.name === 'rofex')!;

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
    await dropRedisKeys(redisUrl, prefix);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(redisUrl)('market data across two processes on Redis', () => {
  it('delivers ticks from the feed process to a client of the other, answers the admin for both, and fails the feed over when it dies', async () => {
    const first = await startProcess();
    const adminOnFirst = await signIn(first.baseUrl, ADMIN);
    const firstId = (await feedsOf(first, adminOnFirst.token)).self;
    await until('the first process to take the rofex feed', async () => (await rofexOf(first, adminOnFirst.token)).process === firstId);

    const second = await startProcess();
    const adminOnSecond = await signIn(second.baseUrl, ADMIN);
    // Either process answers for both: the feeds run in the first.
    const seen = await until('both processes in the admin answer', async () => {
      const answer = await feedsOf(second, adminOnSecond.token);
      return answer.processes.length === 2 ? answer : null;
    });
    const secondId = seen.self;
    expect(secondId).not.toBe(firstId);
    expect(seen.processes).toEqual([
      { process: secondId, sockets: 0, positionsSockets: 0, startedAt: expect.any(Number), feeds: [] },
      { process: firstId, sockets: 0, positionsSockets: 0, startedAt: expect.any(Number), feeds: ['rofex', 'tv'] },
    ]);
    expect(seen.data.map((feed) => [feed.name, feed.state, feed.process])).toEqual([
      ['rofex', 'running', firstId],
      ['tv', 'running', firstId],
    ]);

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

    // The first process's admin sees the second's socket, its client and its symbol.
    const sockets = await adminCall<{ data: { process: string; user: { username: string }; symbols: string[] }[] }>(
      first,
      adminOnFirst.token,
      'GET',
      '/admin/market/sockets',
    );
    expect(sockets.data).toEqual([expect.objectContaining({ process: secondId, user: expect.objectContaining({ username: 'demo' }), symbols: [symbol] })]);
    expect(await rofexOf(first, adminOnFirst.token)).toMatchObject({ clients: 1, subscribedSymbols: 1 });

    // The admin on the second process stops and paces the feed that runs in the first.
    const stopped = await adminCall<{ data: FeedsAnswer['data'][number] }>(second, adminOnSecond.token, 'POST', '/admin/feeds/rofex/stop');
    expect(stopped.data).toMatchObject({ name: 'rofex', state: 'stopped', process: firstId });
    const paced = await adminCall<{ data: FeedsAnswer['data'][number] }>(second, adminOnSecond.token, 'PUT', '/admin/feeds/rofex', { rate: 123 });
    expect(paced.data).toMatchObject({ state: 'stopped', rate: 123, process: firstId });
    expect(await rofexOf(first, adminOnFirst.token)).toMatchObject({ state: 'stopped', rate: 123, process: firstId });

    // The feed's process dies without a word; its lock lapses and the second takes over,
    // keeping what the admin asked: stopped, at 123 ticks a second.
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    // The lock is taken before the admin's wish is read from Redis and applied: wait for both.
    const takenOver = await until('the second process to take the rofex feed over, as the admin left it', async () => {
      const rofex = await rofexOf(second, adminOnSecond.token);
      return rofex.process === secondId && rofex.rate === 123 ? rofex : null;
    });
    expect(takenOver).toMatchObject({ state: 'stopped', rate: 123 });
    expect((await feedsOf(second, adminOnSecond.token)).processes).toEqual([
      { process: secondId, sockets: 1, positionsSockets: 0, startedAt: expect.any(Number), feeds: ['rofex', 'tv'] },
    ]);

    const started = await adminCall<{ data: FeedsAnswer['data'][number] }>(second, adminOnSecond.token, 'POST', '/admin/feeds/rofex/start');
    expect(started.data).toMatchObject({ state: 'running', rate: 123, process: secondId });
    const afterTakeover = received.length;
    await until('ticks from the new feed process', async () => received.length > afterTakeover + 2);
    socket.close();
  }, 60_000);

  it('asks the exchange for the symbols the clients of every process want, and no longer once they are gone', async () => {
    const exchange = await startFakePrimary();
    try {
      // Processes of their own (another prefix: the first test's survivor holds its locks).
      const env = {
        REDIS_PREFIX: `${prefix}primary:`,
        PRIMARY_URL: exchange.baseUrl,
        PRIMARY_USERNAME: exchange.credentials.username,
        PRIMARY_PASSWORD: exchange.credentials.password,
      };
      const feedProcess = await startProcess(env);
      const admin = await signIn(feedProcess.baseUrl, ADMIN);
      const feedProcessId = (await feedsOf(feedProcess, admin.token)).self;
      const rofex = await until('the first process to run the rofex feed on the exchange', async () => {
        const feed = await rofexOf(feedProcess, admin.token);
        return feed.process === feedProcessId && feed.state === 'running' ? feed : null;
      });
      expect(rofex).toMatchObject({ source: 'primary' });
      const clientsProcess = await startProcess(env);
      expect((await rofexOf(clientsProcess, admin.token)).process).toBe(feedProcessId);

      // A client of the process that does not run the feed.
      const demo = await signIn(clientsProcess.baseUrl, DEMO);
      const socket = await openSocket(clientsProcess.wsUrl);
      await authenticate(socket, demo.token);
      const received: { md: { LA?: { price: number } } }[] = [];
      socket.on('message', (raw) => {
        const message = JSON.parse(String(raw)) as Record<string, { md: { LA?: { price: number } } }>;
        if (message['ROFEX:DLR/DIC26']) received.push(message['ROFEX:DLR/DIC26']);
      });
      socket.send(JSON.stringify({ action: 'subscribe', symbol: 'ROFEX:DLR/DIC26', requestId: 'r1' }));
      await until('an smd for the symbol at the exchange', async () => exchange.smdRequests().some((smd) => smd.symbols.includes('DLR/DIC26')));
      await until('an Md of the exchange to reach the client on the other process', async () => {
        exchange.push('DLR/DIC26', { LA: { price: 1633.5, size: 2, date: Date.now() } });
        return received.some((message) => message.md.LA?.price === 1633.5);
      });

      // The client goes: the feed's connection is renewed without the symbol.
      socket.close();
      await until('the exchange to stop sending the symbol', async () => exchange.push('DLR/DIC26', { LA: { price: 1634, size: 1, date: Date.now() } }) === 0);
    } finally {
      await exchange.close();
    }
  }, 60_000);
});
