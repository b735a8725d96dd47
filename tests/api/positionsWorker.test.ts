// The data worker's positions factory (src/workers/positionsSocket.ts) against the real
// server: paper broker session, watch, REST seed, socket auth and subscription, pushes,
// the subscription counted on the server, and re-subscription after the server drops the
// socket. Node's `ws` client stands in for the browser's WebSocket.
//
// SQLite only: the broker keeps its state in memory; the database only serves sign-in.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { PositionsSnapshot } from '../../src/protocol/broker.js';
import { createHttpClient } from '../../src/shared/http.js';
import { createEventLog } from '../../src/workers/eventLog.js';
import type { CachedPositions } from '../../src/workers/positionsAccounts.js';
import { createPositionsSocket, type PositionsSocket } from '../../src/workers/positionsSocket.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { ADMIN, createUser, expectSuccess, pollUntil, session, type Session } from './helpers.js';

const [sqlite] = databaseTargets();

describe('positions worker factory against the server', () => {
  let server: TestServer;
  let admin: Session;
  const started: PositionsSocket[] = [];

  beforeAll(async () => {
    server = await startServer(sqlite!);
    admin = await session(server, ADMIN);
  });
  afterEach(() => {
    for (const positions of started.splice(0)) positions.disconnect();
  });
  afterAll(async () => {
    await server?.close();
  });

  function positionsFor(user: Session) {
    const log = createEventLog({ console: { info: () => undefined, warn: () => undefined, error: () => undefined } });
    const positions = createPositionsSocket({
      url: server.wsUrl('/ws/positions'),
      getToken: () => user.token,
      WebSocket,
      http: createHttpClient({ fetch: (url, init) => fetch(url, init), baseUrl: `${server.baseUrl}/api`, getToken: () => user.token, credentials: 'include' }),
      log,
    });
    started.push(positions);
    return { positions, log };
  }

  async function subscribersOf(account: string): Promise<number> {
    const body = (await admin.api.get('/api/admin/positions')).body as { data: { accounts: { account: string; subscribers: number }[] }[] };
    return body.data.flatMap((entry) => entry.accounts).find((entry) => entry.account === account)?.subscribers ?? 0;
  }

  async function restPositions(user: Session, account: string): Promise<PositionsSnapshot> {
    const response = await user.api.get(`/api/accounts/${account}/positions`);
    expect(response.status).toBe(200);
    return response.body as PositionsSnapshot;
  }

  it('watches a paper account, seeds it, subscribes, follows pushes, and unsubscribes on the last leave', async () => {
    const user = await createUser(server, admin.token);
    const { positions, log } = positionsFor(user);

    const connected = await positions.connectSession({ url: 'sim://', username: '', password: '' });
    expect(connected.ok).toBe(true);
    if (!connected.ok) return;
    const account = connected.value.accounts[0]!;
    const watched = await positions.watchAccount(account, connected.value.sessionId);
    expect(watched.ok).toBe(true);

    // The paper broker warms up at once; the seed or its first retry brings the snapshot.
    const seeded = await pollUntil('the first snapshot', () => positions.snapshot(account));
    expect(seeded.account).toBe(account);
    await pollUntil('the server to count the subscription', async () => ((await subscribersOf(account)) === 1 ? true : null));
    expect(positions.status()).toEqual({ state: 'open', lastError: null, authenticated: true });
    expect(log.entries().some((entry) => entry.text === `Posiciones: suscripto a POS:primary:${account}`)).toBe(true);

    const before = seeded.etag;
    await server.app.ctx.broker.tradeAll();
    const rest = await restPositions(user, account);
    expect(rest.etag).not.toBe(before);
    const pushed = await pollUntil<CachedPositions>('the push of the new snapshot', () => {
      const current = positions.snapshot(account);
      return current && current.etag === rest.etag ? current : null;
    });
    expect(pushed).toEqual({ ...rest, source: 'refresh' });

    // A second subscriber (another tab) does not subscribe again; the last leave unsubscribes.
    positions.subscribe(account);
    expect(await subscribersOf(account)).toBe(1);
    positions.unsubscribe(account);
    expect(positions.snapshot(account)?.etag).toBe(rest.etag);
    positions.unsubscribe(account);
    expect(positions.snapshot(account)).toBeNull();
    await pollUntil('the server to drop the subscription', async () => ((await subscribersOf(account)) === 0 ? true : null));
  });

  it('reconnects after the server drops the socket and subscribes again', async () => {
    const user = await createUser(server, admin.token);
    const { positions } = positionsFor(user);
    const connected = expectSuccess<{ sessionId: string; accounts: string[] }>(await user.api.post('/api/primary/sessions/connect', { url: 'sim://' }));
    const account = connected.accounts[0]!;
    expect((await positions.watchAccount(account, connected.sessionId)).ok).toBe(true);
    await pollUntil('the subscription', async () => ((await subscribersOf(account)) === 1 ? true : null));

    const states: string[] = [];
    positions.onStatus((status) => states.push(status.state));
    for (const client of server.app.app.websocketServer.clients) client.terminate();
    await pollUntil('the server to forget the dropped socket', async () => ((await subscribersOf(account)) === 0 ? true : null));
    await pollUntil('the worker to subscribe again', async () => ((await subscribersOf(account)) === 1 ? true : null));
    // A socket error may come before the close; the rest is the spec's order.
    expect(states.filter((state) => state !== 'error').slice(0, 3)).toEqual(['closed', 'connecting', 'open']);
    expect(positions.status().authenticated).toBe(true);

    // Pushes flow again on the new socket.
    await server.app.ctx.broker.tradeAll();
    const rest = await restPositions(user, account);
    await pollUntil('a push on the new socket', () => (positions.snapshot(account)?.etag === rest.etag ? true : null));
  });
});
