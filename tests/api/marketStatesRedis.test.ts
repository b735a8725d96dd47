// The markets' states across two real server processes on one Redis: the process that runs
// the feeds reports them through the hub, so an admin's stop on it reaches a socket of the
// other process, and when it dies the other tells the feeds silent until it takes them over.
// Runs when TEST_REDIS_URL is set.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MarketsEvent } from '../../src/protocol/market.js';
import { ADMIN, api, authenticate, DEMO, expectShape, nextMarketsEvent, openSocket, pollUntil, signIn } from './helpers.js';
import { dropRedisKeys } from './redisKeys.js';
import { startServerProcess, type ServerProcess } from './serverProcess.js';

const redisUrl = process.env.TEST_REDIS_URL?.trim() || null;
if (!redisUrl) console.log('Redis market state tests skipped: TEST_REDIS_URL is not set');

const prefix = `visores-test-${randomBytes(4).toString('hex')}:`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-states-'));
const children: ChildProcess[] = [];

async function startProcess(): Promise<ServerProcess> {
  const started = await startServerProcess({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-client'),
    REDIS_URL: redisUrl!,
    REDIS_PREFIX: prefix,
    SIM_TICKS_PER_SECOND: '400',
    // Told silent a second after the last report (reports come three times a second).
    FEED_SILENT_SECONDS: '1',
  });
  children.push(started.child);
  return started;
}

afterAll(async () => {
  for (const child of children) if (child.exitCode == null) child.kill('SIGKILL');
  if (redisUrl) {
    await dropRedisKeys(redisUrl, prefix);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

interface FeedsAnswer {
  self: string;
  data: { name: string; process: string | null }[];
}

describe.runIf(redisUrl)('market states across two processes on Redis', () => {
  it("tells a socket of one process the other's stop and start of ROFEX, and the feeds silent when their process dies, until taken over", async () => {
    const first = await startProcess();
    const adminOnFirst = api(first, (await signIn(first.baseUrl, ADMIN)).token);
    const feedsOf = async () => (await adminOnFirst.get('/api/admin/feeds')).body as unknown as FeedsAnswer;
    const firstId = (await feedsOf()).self;
    await pollUntil(
      'the first process to run both feeds',
      async () => ((await feedsOf()).data.every((feed) => feed.process === firstId) ? true : null),
      20_000,
    );

    // A socket of the second process, which runs no feed.
    const second = await startProcess();
    const socket = await openSocket(second.wsUrl('/ws/market'));
    await authenticate(socket, (await signIn(second.baseUrl, DEMO)).token);
    const marketsWhere = async (states: Record<string, string>, timeoutMs = 5000) =>
      expectShape(
        MarketsEvent,
        await nextMarketsEvent(
          socket,
          JSON.stringify(states),
          (event) =>
            Object.entries(states).every(([market, state]) => (event as MarketsEvent).markets.find((entry) => entry.market === market)?.state === state),
          timeoutMs,
        ),
      );
    const running = await marketsWhere({ rofex: 'running', byma: 'running', a3500: 'running' });
    expect(running.markets.every((entry) => entry.lastUpdate != null)).toBe(true);

    try {
      expect((await adminOnFirst.post('/api/admin/feeds/rofex/stop')).status).toBe(200);
      const stopped = await marketsWhere({ rofex: 'stopped', a3500: 'stopped', byma: 'running' }, 2000);
      expect(stopped.markets[0]!.since).toEqual(expect.any(Number));
      expect((await adminOnFirst.post('/api/admin/feeds/rofex/start')).status).toBe(200);
      await marketsWhere({ rofex: 'running', a3500: 'running', byma: 'running' }, 2000);

      // The feeds' process dies without a word: silent since it was last heard, then running
      // again once the second process has taken the feeds over (their locks lapse in 3 s).
      const killedAt = Date.now();
      first.child.kill('SIGKILL');
      const silent = await marketsWhere({ rofex: 'silent', byma: 'silent', a3500: 'silent' });
      expect(silent.markets[0]!.since).toBeLessThanOrEqual(killedAt);
      await marketsWhere({ rofex: 'running', byma: 'running', a3500: 'running' }, 10_000);
    } finally {
      socket.terminate();
    }
  });
});
