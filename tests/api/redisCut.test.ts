// Redis cut off for 20 s under two real server processes, through a TCP proxy of the test's
// own (the machine's Redis is shared and stays up): a black hole, where nothing is answered
// and nothing refused, as a partition looks. Both processes stay up and answer REST and the
// admin's feed page from what they know; the feeds' process keeps its feed for its own
// sockets, the other process's sockets are told the markets are silent; once Redis is back,
// one process runs each feed again and ticks cross Redis to the other's sockets. How long the
// way back took is printed, not asserted (the machine's speed is not the test's to judge).
// Runs when TEST_REDIS_URL is set.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { createBudgets, type BudgetSettings } from '../../server/auth/budgets.js';
import { startProxy, type NetProxy } from '../fakes/netProxy.js';
import { ADMIN, api, authenticate, DEMO, nextMarketsEvent, openSocket, pollUntil, signIn, type Api } from './helpers.js';
import { dropRedisKeys } from './redisKeys.js';
import { startServerProcess, type ServerProcess } from './serverProcess.js';

const redisUrl = process.env.TEST_REDIS_URL?.trim() || null;
if (!redisUrl) console.log('Redis cut tests skipped: TEST_REDIS_URL is not set');

const CUT_MS = 20_000;
const BUDGETS: BudgetSettings = {
  loginMaxFailures: 5,
  loginWindowMs: 60_000,
  loginIpMaxFailures: 5,
  loginConcurrency: 1,
  loginQueue: 1,
  loginPerAddress: 1,
  userRequests: 3,
  userRequestsWindowMs: 60_000,
  redisUrl: null,
  redisPrefix: '',
};
const SYMBOL = 'ROFEX:DLR/SPOT'; // always listed, on the rofex feed
const prefix = `visores-test-${randomBytes(4).toString('hex')}:`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-rediscut-'));
const children: ChildProcess[] = [];
const sockets: WebSocket[] = [];
let proxy: NetProxy | null = null;

afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  for (const child of children) if (child.exitCode == null) child.kill('SIGKILL');
  await proxy?.close();
  if (redisUrl) {
    await dropRedisKeys(redisUrl, prefix);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

interface FeedsAnswer {
  self: string;
  data: { name: string; process: string | null }[];
}

interface Side {
  server: ServerProcess;
  admin: Api;
  demo: Api;
  demoId: string;
  /** Ticks of SYMBOL its demo socket received. */
  ticks: () => number;
  socket: WebSocket;
}

async function startSide(redisThroughProxy: string): Promise<ServerProcess> {
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-client'),
    REDIS_URL: redisThroughProxy,
    REDIS_PREFIX: prefix,
    SIM_TICKS_PER_SECOND: '400',
    // A socket is told a feed is silent two seconds after its last report.
    FEED_SILENT_SECONDS: '2',
  });
  children.push(server.child);
  return server;
}

async function connect(server: ServerProcess): Promise<Side> {
  const admin = api(server, (await signIn(server.baseUrl, ADMIN)).token);
  const { token, user } = await signIn(server.baseUrl, DEMO);
  const socket = await openSocket(server.wsUrl('/ws/market'));
  sockets.push(socket);
  await authenticate(socket, token);
  let ticks = 0;
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as Record<string, unknown>;
    if (message[SYMBOL]) ticks += 1;
  });
  socket.send(JSON.stringify({ action: 'subscribe', symbol: SYMBOL, requestId: 'r1' }));
  return { server, admin, demo: api(server, token), demoId: user._id, ticks: () => ticks, socket };
}

async function feeds(side: Side): Promise<FeedsAnswer> {
  const answer = await side.admin.get('/api/admin/feeds');
  expect(answer.status, answer.text).toBe(200);
  return answer.body as unknown as FeedsAnswer;
}

/** Resolves once `side`'s socket has received `count` more ticks. */
const moreTicks = (side: Side, count: number, what: string, timeoutMs = 15_000) => {
  const from = side.ticks();
  return pollUntil(what, () => (side.ticks() >= from + count ? true : null), timeoutMs);
};

const marketsAre = (side: Side, state: string, timeoutMs = 15_000) =>
  nextMarketsEvent(
    side.socket,
    `every market ${state}`,
    (event) => (event as { markets: { state: string }[] }).markets.every((market) => market.state === state),
    timeoutMs,
  );

describe.runIf(redisUrl)('the sign-in and request budgets through a Redis cut', () => {
  it('count in memory from the first command Redis leaves unanswered, and in Redis again once it answers', async () => {
    const cut = await startProxy();
    cut.target(Number(new URL(redisUrl!).port || 6379));
    const errors: Error[] = [];
    const budgets = createBudgets(
      { ...BUDGETS, redisUrl: redisUrl!.replace(/\/\/[^/]+/, `//127.0.0.1:${new URL(cut.url).port}`), redisPrefix: prefix },
      (error) => errors.push(error),
    );
    try {
      await budgets.ready();
      expect((await budgets.takeRequest('u1')).ok).toBe(true);
      expect(budgets.redisAway()).toBe(false);
      cut.down('silent');
      // The first take waits for the command's timeout, then counts in memory; the rest do not ask Redis.
      const takes = [];
      for (let i = 0; i < 4; i++) takes.push((await budgets.takeRequest('u1')).ok);
      expect(takes).toEqual([true, true, true, false]);
      expect(budgets.redisAway()).toBe(true);
      expect(errors.map((error) => error.message)).toContain('Redis did not answer: the budgets count in this process until it does');
      cut.up();
      await pollUntil('the budgets back on Redis', () => (budgets.redisAway() ? null : true), 15_000);
      // Redis's count went on where it was: one point before the cut, two now.
      expect((await budgets.takeRequest('u1')).ok).toBe(true);
      expect((await budgets.takeRequest('u1')).ok).toBe(true);
      expect((await budgets.takeRequest('u1')).ok).toBe(false);
    } finally {
      await budgets.close();
      await cut.close();
    }
  });
});

describe.runIf(redisUrl)('a 20 s Redis cut under two processes', () => {
  it('keeps both up and answering, the feeds where they were or silent, and everything as before once Redis is back', async () => {
    const target = new URL(redisUrl!);
    proxy = await startProxy();
    proxy.target(Number(target.port || 6379));
    const through = new URL(redisUrl!);
    through.port = new URL(proxy.url).port;
    through.hostname = '127.0.0.1';

    const firstServer = await startSide(through.toString());
    const first = await connect(firstServer);
    const firstId = (await feeds(first)).self;
    await pollUntil(
      'the first process to run every feed',
      async () => ((await feeds(first)).data.every((feed) => feed.process === firstId) ? true : null),
      20_000,
    );
    const second = await connect(await startSide(through.toString()));
    await moreTicks(second, 3, 'ticks across Redis to the second process');
    await moreTicks(first, 3, 'ticks on the first process');

    proxy.down('silent');
    const cutAt = Date.now();
    // The second process's socket is told its markets are silent (nothing crosses Redis).
    await marketsAre(second, 'silent');
    /** Each round's three REST calls, in ms. */
    const restMs: number[] = [];
    let rounds = 0;
    while (Date.now() - cutAt < CUT_MS) {
      for (const side of [first, second]) {
        const started = Date.now();
        expect((await side.demo.get('/api/profile')).status).toBe(200);
        expect((await side.demo.get(`/api/visores/${side.demoId}`)).status).toBe(200);
        const created = await side.demo.post(`/api/visores/${side.demoId}/new`, { title: `Durante el corte ${rounds}` });
        expect(created.status, created.text).toBe(200);
        restMs.push(Date.now() - started);
        // The admin's page answers with what the process knows.
        expect((await feeds(side)).data.length).toBeGreaterThan(0);
      }
      // The feeds' process keeps its feed for its own sockets.
      await moreTicks(first, 2, 'ticks on the feeds’ process during the cut');
      rounds += 1;
    }
    expect(rounds).toBeGreaterThan(0);
    expect(firstServer.child.exitCode).toBeNull();
    expect(second.server.child.exitCode).toBeNull();

    proxy.up();
    const backAt = Date.now();
    await marketsAre(second, 'running', 30_000);
    await moreTicks(second, 3, 'ticks across Redis to the second process again', 30_000);
    const ticksBackMs = Date.now() - backAt;
    // One process runs each feed, and both say the same one.
    await pollUntil(
      'one owner per feed, seen alike by both',
      async () => {
        const [a, b] = [await feeds(first), await feeds(second)];
        const owners = (answer: FeedsAnswer) => answer.data.map((feed) => `${feed.name}:${feed.process ?? '-'}`).join(',');
        return a.data.every((feed) => feed.process != null) && owners(a) === owners(b) ? true : null;
      },
      30_000,
    );
    await moreTicks(first, 3, 'ticks on the first process after the cut');
    console.log(
      `Redis cut of ${CUT_MS / 1000} s: its REST rounds (profile, list, create) ${Math.min(...restMs)}–${Math.max(...restMs)} ms; ticks back on the other process ${ticksBackMs} ms after Redis, feeds settled ${Date.now() - backAt} ms after`,
    );
    expect(firstServer.child.exitCode).toBeNull();
    expect(second.server.child.exitCode).toBeNull();
  }, 120_000);
});
