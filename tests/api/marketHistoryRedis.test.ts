// One market history across two processes on one Redis: the process that does not run the
// feeds answers the same closed candles as the one that does, and the previous close its
// sockets get (from the other's feed, through Redis) is its own history's. Runs when
// TEST_REDIS_URL is set.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { HistoryResponse } from '../../src/protocol/market.js';
import { startServer, type TestServer } from './harness.js';
import { authenticate, expectBody, nextMessage, openSocket, pollUntil, sendJson, session } from './helpers.js';
import { dropRedisKeys } from './redisKeys.js';

const redisUrl = process.env.TEST_REDIS_URL?.trim() || null;
if (!redisUrl) console.log('Redis market history tests skipped: TEST_REDIS_URL is not set');

const SQLITE = { name: 'sqlite' } as const;
const prefix = `visores-test-${randomBytes(4).toString('hex')}:`;
/** Friday 27 November 2026, 14:30 in Buenos Aires: both markets open. */
const FRIDAY = Date.parse('2026-11-27T14:30:00-03:00');
const SAMPLE = ['DLR/DIC26', 'DLR/SPOT', 'BYMA:GGAL', 'BYMA:AL30D', 'I.MERVAL', 'DLR/DIC26 1500 C', 'DLR/DIC26/ENE27'];
const servers: TestServer[] = [];

afterAll(async () => {
  for (const server of servers) await server.close();
  if (redisUrl) {
    await dropRedisKeys(redisUrl, prefix);
  }
});

describe.runIf(redisUrl)('one market history on two processes over Redis', () => {
  it("answers the same closed candles on both, and the socket of the one without the feeds gets its history's previous close", async () => {
    const first = await startServer(SQLITE, { redisUrl, redisPrefix: prefix }, { now: FRIDAY });
    servers.push(first);
    await pollUntil('the first process to run the feeds', () => (first.app.ctx.market.feeds.status('rofex').state === 'running' ? true : null));
    const second = await startServer(SQLITE, { redisUrl, redisPrefix: prefix }, { now: FRIDAY });
    servers.push(second);
    expect(second.app.ctx.market.feeds.status('rofex').state).toBe('stopped');

    const histories = async (server: TestServer) => {
      const demo = await session(server);
      const out = new Map<string, string>();
      for (const symbol of SAMPLE) {
        const daily = await demo.api.post('/api/visores/search/symbol/history', { symbol, limit: 30 });
        const minutes = await demo.api.post('/api/get_intradia', { symbol, date: '2026-11-26' });
        out.set(symbol, `${daily.text}\n${minutes.text}`);
      }
      return out;
    };
    expect(await histories(second)).toEqual(await histories(first));

    const demo = await session(second);
    const socket = await openSocket(second.wsUrl('/ws/market'));
    await authenticate(socket, demo.token);
    sendJson(socket, { action: 'subscribe', symbols: SAMPLE, requestId: 'all' });
    type Snapshot = Record<string, { md: { CL?: { price: number } | null } }>;
    let snapshot: Snapshot | null = null;
    while (!snapshot) {
      const message = (await nextMessage(socket)) as Record<string, unknown>;
      if (message.requestId === 'all') snapshot = message as unknown as Snapshot;
    }
    for (const symbol of SAMPLE) {
      const { data } = expectBody(await demo.api.post('/api/visores/search/symbol/history', { symbol, limit: 3 }), HistoryResponse);
      expect(snapshot[symbol]!.md.CL?.price, symbol).toBe(data.at(-2)!.close);
    }
    socket.close();
  });
});
