// The data worker's API (src/workers/dataLayer.ts) for positions sections (issue 19) against
// the real server: two tabs, several sections each watching one paper account's positions and
// fills, share one socket subscription (the server's count, GET /admin/positions); a fill
// reaches every tab that watches the fills; the subscription ends when the last tab lets go.
// Node's `ws` client stands in for the browser's WebSocket, fake-indexeddb for Dexie; the
// market socket is a fake that never opens (these tests need no quotes).
//
// SQLite only: the broker keeps its state in memory; the database only serves sign-in.
import 'fake-indexeddb/auto';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { FillsResponse } from '../../src/protocol/broker.js';
import { VisoresDb } from '../../src/shared/db.js';
import type { DataWorkerApi, Fill, TabMessage, TabPort } from '../../src/workers/api.js';
import { createDataWorkerApi } from '../../src/workers/dataLayer.js';
import { createEventLog } from '../../src/workers/eventLog.js';
import { createFakeServer, createTestLog } from '../fakes/worker/marketServer.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { ADMIN, createUser, expectBody, pollUntil, session, type Session } from './helpers.js';

const [sqlite] = databaseTargets();

describe('positions through the data worker API against the server', () => {
  let server: TestServer;
  let admin: Session;
  const ports: MessagePort[] = [];
  const apis: DataWorkerApi[] = [];

  beforeAll(async () => {
    server = await startServer(sqlite!);
    admin = await session(server, ADMIN);
  });
  afterEach(async () => {
    for (const api of apis.splice(0)) await api.setSession(null);
    for (const port of ports.splice(0)) port.close();
  });
  afterAll(async () => {
    await server?.close();
  });

  function newWorker(): DataWorkerApi {
    const db = new VisoresDb(`positions-${crypto.randomUUID()}`);
    const api = createDataWorkerApi({
      socketUrl: 'ws://127.0.0.1:1/ws/market',
      apiBase: `${server.baseUrl}/api`,
      openSocket: createFakeServer().openSocket,
      fetch: (url, init) => fetch(url, init),
      locks: null,
      quoteTable: db.quotes,
      log: createTestLog(),
      positionsSocketUrl: server.wsUrl('/ws/positions'),
      positionsBase: `${server.baseUrl}/api`,
      WebSocket,
      db,
      eventLog: createEventLog({ console: { info: () => undefined, warn: () => undefined, error: () => undefined } }),
    });
    apis.push(api);
    return api;
  }

  /** A tab registered with the worker, and the messages posted on its port. */
  async function openTab(api: DataWorkerApi, tabId: string): Promise<TabMessage[]> {
    const channel = new MessageChannel();
    ports.push(channel.port1, channel.port2);
    const received: TabMessage[] = [];
    channel.port1.on('message', (message: TabMessage) => received.push(message));
    await api.registerTab({ tabId, lockName: null, port: channel.port2 as unknown as TabPort });
    return received;
  }

  async function subscribersOf(account: string): Promise<number> {
    const body = (await admin.api.get('/api/admin/positions')).body as { data: { accounts: { account: string; subscribers: number }[] }[] };
    return body.data.flatMap((entry) => entry.accounts).find((entry) => entry.account === account)?.subscribers ?? 0;
  }

  const lastFills = (messages: TabMessage[], account: string): Fill[] | null | undefined =>
    messages.filter((message): message is Extract<TabMessage, { type: 'fills' }> => message.type === 'fills' && message.account === account).at(-1)?.fills;

  it('shares one subscription among the sections of two tabs, posts a fill to both, and ends it when the last goes', async () => {
    const user = await createUser(server, admin.token);
    const api = newWorker();
    await api.setSession({ token: user.token, userId: user.user._id });
    const first = await openTab(api, 't1');
    const second = await openTab(api, 't2');

    const { sessionId, accounts } = await api.connectBrokerSession({ url: 'sim://', username: '', password: '' });
    const account = accounts[0]!;
    // Two sections in the first tab, one in the second: each watches positions and fills.
    for (const tabId of ['t1', 't1', 't2']) {
      await api.watchAccount(tabId, account, sessionId);
      await api.watchFills(tabId, account, sessionId);
    }
    await pollUntil('the subscription', async () => ((await subscribersOf(account)) === 1 ? true : null));
    await pollUntil('the first snapshot', () => api.getPositions(account));
    expect(await subscribersOf(account)).toBe(1);

    // A fill: its snapshot is pushed, its quantities moved, so the fills are read and posted to both tabs.
    const before = (await api.getFills(account))?.length ?? 0;
    await server.app.ctx.broker.tradeAll();
    const listed = expectBody(await user.api.get(`/api/accounts/${account}/fills`), FillsResponse).fills;
    expect(listed.length).toBe(before + 1);
    const newest = listed.at(-1)!.execId;
    for (const messages of [first, second]) {
      await pollUntil('the new fill posted to the tab', () => (lastFills(messages, account)?.at(-1)?.execId === newest ? true : null));
    }
    expect(await api.getFills(account)).toEqual(listed);
    expect(await subscribersOf(account)).toBe(1);

    // The first tab's sections go one by one, then the second tab closes: the last leave unsubscribes.
    await api.releaseAccount('t1', account);
    await api.releaseFills('t1', account);
    await api.releaseAccount('t1', account);
    await api.releaseFills('t1', account);
    expect(await api.getFills(account)).toEqual(listed);
    expect(await subscribersOf(account)).toBe(1);
    await api.unregisterTab('t2');
    await pollUntil('the server to drop the subscription', async () => ((await subscribersOf(account)) === 0 ? true : null));
    expect(await api.getPositions(account)).toBeNull();
    expect(await api.getFills(account)).toBeNull();
  });
});
