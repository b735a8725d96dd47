// The worker API across a real MessageChannel with Comlink, as a tab sees it.
import 'fake-indexeddb/auto';
import { MessageChannel } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { VisoresDb } from '../shared/db';
import { DATA_WORKER_PROTOCOL } from '../shared/workerProtocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DataWorkerApi, TabMessage, TabPort } from './api';
import { createDataWorkerApi, OFFLINE_LOG, REQUEST_TIMEOUT_MS, type DataLayerEnv } from './dataLayer';
import { createOnlineTracker } from './online';
import { REPLAY_FAILING_NOTICE, SYNC_LOG } from './sync';
import { createFakeServer, createTestLog } from '../../tests/fakes/worker/marketServer';
import { fakeFetch, fakeSocketFactory, recordingLog, type FakeAnswer, type FakeRoute } from '../../tests/fakes/worker/fakes';

/**
 * The data worker's API over fakes: a market server, the REST routes (`routes`; anything else
 * 404 at once; one fake answers the API client's calls and the positions host's), positions
 * sockets, a fresh Dexie and a recording event log; `extra` replaces any of them.
 */
function workerOverFakes(routes: Record<string, FakeRoute> = {}, extra: Partial<DataLayerEnv> = {}) {
  const server = createFakeServer();
  const db = new VisoresDb(`datalayer-${crypto.randomUUID()}`);
  const rest = fakeFetch('/api', routes);
  const positionsSockets = fakeSocketFactory();
  const eventLog = recordingLog();
  const api = createDataWorkerApi({
    socketUrl: 'ws://test/ws/market',
    apiBase: '/api',
    openSocket: server.openSocket,
    fetch: rest.fetch,
    locks: null,
    quoteTable: db.quotes,
    log: createTestLog(),
    positionsSocketUrl: 'ws://test/ws/positions',
    positionsBase: '/api',
    WebSocket: positionsSockets.WebSocket,
    db,
    eventLog,
    ...extra,
  });
  return { api, server, db, rest, positionsSockets, eventLog };
}

describe('data worker API over Comlink', () => {
  const channels: MessageChannel[] = [];
  afterEach(() => {
    for (const channel of channels.splice(0)) {
      channel.port1.close();
      channel.port2.close();
    }
  });

  function connect(routes: Record<string, FakeRoute> = {}) {
    const { api, server, db, rest, positionsSockets } = workerOverFakes(routes);
    const channel = new MessageChannel();
    channels.push(channel);
    Comlink.expose(api, channel.port1 as unknown as Comlink.Endpoint);
    const remote = Comlink.wrap<DataWorkerApi>(channel.port2 as unknown as Comlink.Endpoint);
    return { server, remote, rest, positionsSockets, db };
  }

  /** A tab registered with the worker, and the messages posted on its port. */
  async function openTab(remote: Comlink.Remote<DataWorkerApi>, tabId: string) {
    const tabChannel = new MessageChannel();
    channels.push(tabChannel);
    const received: TabMessage[] = [];
    tabChannel.port1.on('message', (message: TabMessage) => received.push(message));
    const port = tabChannel.port2;
    await remote.registerTab(Comlink.transfer({ tabId, lockName: null, port: port as unknown as TabPort }, [port as never]));
    return received;
  }

  it('answers hello with the contract version and its build', async () => {
    const { remote } = connect();
    await expect(remote.hello()).resolves.toEqual({ protocol: DATA_WORKER_PROTOCOL, buildId: 'unknown' });
  });

  it('rejects with a plain {code, message}', async () => {
    const { remote } = connect();
    const failure = await remote.waitForSymbols(['A'], 150).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toEqual({ code: 'timeout', message: 'Timeout: Symbols not ready within 150ms', status: 0 });
    expect(failure).not.toBeInstanceOf(Error);
    await expect(remote.subscribe('nobody', ['A'])).rejects.toEqual({ code: 'unknown_tab', message: 'Unknown tab nobody: register again', status: 0 });
  });

  it('posts status and ticks on the port a tab transferred', async () => {
    const { server, remote } = connect();
    const tabChannel = new MessageChannel();
    channels.push(tabChannel);
    const received: TabMessage[] = [];
    const arrived = (predicate: (message: TabMessage) => boolean) =>
      new Promise<TabMessage>((resolve) => {
        const found = received.find(predicate);
        if (found) return resolve(found);
        const listener = (message: TabMessage) => {
          if (!predicate(message)) return;
          tabChannel.port1.off('message', listener);
          resolve(message);
        };
        tabChannel.port1.on('message', listener);
      });
    tabChannel.port1.on('message', (message: TabMessage) => received.push(message));
    const port = tabChannel.port2;
    // Node's MessagePort is transferable like the browser's; the casts only bridge the typings.
    await remote.registerTab(Comlink.transfer({ tabId: 't1', lockName: null, port: port as unknown as TabPort }, [port as never]));
    await remote.setSession({ token: 'tok', userId: 'u1' });
    server.current.accept();
    await arrived((message) => message.type === 'market-status' && message.status.state === 'open');
    const subscribed = remote.subscribe('t1', ['DLR/DIC26']);
    const request = await new Promise<Record<string, unknown>>((resolve) => {
      const check = setInterval(() => {
        const found = server.current.actions('subscribe')[0];
        if (found) resolve((clearInterval(check), found));
      }, 5);
    });
    server.current.push({ 'DLR/DIC26': { md: { OP: 1450 }, expiration: '20261231' }, requestId: request.requestId });
    await expect(subscribed).resolves.toEqual({ unknown: [] });
    const ticks = await arrived((message) => message.type === 'ticks');
    expect(ticks).toEqual({ type: 'ticks', quotes: { 'DLR/DIC26': { md: { OP: 1450 }, expiration: new Date(Date.UTC(2026, 11, 31)) } } });
    await remote.setSession(null);
  });

  it("posts an account's snapshots only to the tabs that watch it, and unsubscribes when the last of them goes", async () => {
    const snapshot = { account: 'DEMO-X', broker: 'primary', as_of: '2026-11-22T10:00:00Z', etag: 'e1', positions: [] };
    const { remote, positionsSockets } = connect({
      'POST /accounts/DEMO-X/watch': () => ({ status: 200, body: { status: 'success', account: 'DEMO-X' } }),
      'GET /accounts/DEMO-X/positions': () => ({ status: 200, body: snapshot }),
    });
    const watching = await openTab(remote, 'w');
    const other = await openTab(remote, 'o');
    await remote.setSession({ token: 'tok', userId: 'u1' });
    await expect(remote.watchAccount('w', 'DEMO-X', 's1')).resolves.toMatchObject({ etag: 'e1' });
    const socket = positionsSockets.last()!;
    socket.accept();
    socket.receive({ event: 'authenticated', user: { _id: 'u1', username: 'demo', role: 'user' } });
    await vi.waitFor(() => expect(socket.sent).toContainEqual({ action: 'subscribe', symbol: 'POS:primary:DEMO-X' }));
    socket.receive({ 'POS:primary:DEMO-X': { type: 'positions', data: { ...snapshot, etag: 'e2' }, etag: 'e2', as_of: snapshot.as_of } });
    await vi.waitFor(() =>
      expect(watching).toContainEqual(expect.objectContaining({ type: 'positions', account: 'DEMO-X', snapshot: expect.objectContaining({ etag: 'e2' }) })),
    );
    expect(other.some((message) => message.type === 'positions')).toBe(false);
    expect(other.some((message) => message.type === 'positions-status')).toBe(true);

    await remote.unregisterTab('w');
    await vi.waitFor(() => expect(socket.sent).toContainEqual({ action: 'unsubscribe', symbol: 'POS:primary:DEMO-X' }));
    await expect(remote.getPositions('DEMO-X')).resolves.toBeNull();
  });

  it("a logout wipes the user's cached workspace, pending visor drafts, the last quotes, the charts' history and the catalogue, and stops the market socket first", async () => {
    const { server, remote, db } = connect();
    await remote.setSession({ token: 'tok', userId: 'u1' });
    server.current.accept();
    await db.folderTrees.put({ userId: 'u1', nodes: [], version: 3, syncedAt: 1 });
    await db.folderTrees.put({ userId: 'u2', nodes: [], version: 1, syncedAt: 1 });
    await db.quotes.put({ symbol: 'DLR/DIC26', md: { OP: 1450 }, receivedAt: 1 });
    await db.chartHistory.put({ symbol: 'DLR/DIC26', key: 'daily:66', candles: [{ time: 1, open: 1, high: 1, low: 1, close: 1, volume: 1 }], fetchedAt: 1 });
    await db.catalogue.put({ id: 'instruments', instruments: [], fetchedAt: 1 });
    const draft = { visor_id: 'v1', base: [], version: 1, draft: [], editor: 'tab', savedAt: 1 };
    await db.visorDrafts.bulkPut([
      { ...draft, userId: 'u1' },
      { ...draft, userId: 'u2' },
    ]);

    // The same user with a new token keeps everything.
    await remote.setSession({ token: 'tok2', userId: 'u1' });
    expect(await db.quotes.count()).toBe(1);
    expect(await db.chartHistory.count()).toBe(1);
    expect(await db.folderTrees.get('u1')).toBeDefined();

    await remote.setSession(null);
    expect(await db.quotes.count()).toBe(0);
    expect(await db.chartHistory.count()).toBe(0);
    expect(await db.catalogue.count()).toBe(0);
    expect(await db.folderTrees.get('u1')).toBeUndefined();
    // The visor changes the server did not confirm go too.
    expect(await db.visorDrafts.get(['u1', 'v1'])).toBeUndefined();
    // Another user's records are not this logout's to delete.
    expect(await db.folderTrees.get('u2')).toBeDefined();
    expect(await db.visorDrafts.get(['u2', 'v1'])).toBeDefined();
    await expect(remote.getMarketStatus()).resolves.toMatchObject({ state: 'idle' });
  });

  it('answers the catalogue the server gave, and the kept one, stale, once the server cannot be reached', async () => {
    const instruments = [
      {
        instrumentId: { marketId: 'ROFX', symbol: 'DLR/DIC26' },
        cficode: 'FXXXSX',
        segment: { marketSegmentId: 'DDF', marketId: 'ROFX' },
        securityDescription: 'Futuro de dólar DIC26',
        currency: 'ARS',
        minPriceIncrement: 0.5,
        contractMultiplier: 1000,
        instrumentPricePrecision: 1,
      },
    ];
    let up = true;
    const { remote } = connect({
      'GET /visores/primary/instruments': () => {
        if (!up) throw new TypeError('Failed to fetch');
        return { status: 200, body: { status: 'success', instruments } };
      },
    });
    await remote.setSession({ token: 'tok', userId: 'u1' });
    await expect(remote.catalogue()).resolves.toMatchObject({ instruments, stale: false });
    up = false;
    await expect(remote.catalogue()).resolves.toMatchObject({ instruments, stale: true });
    await remote.setSession(null);
  });
});

describe('the worker’s requests and the outbox’s replay (issue 21)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells the tabs, once, that the server fails the replay, and that it is over at logout', async () => {
    const failing = (): FakeAnswer => ({ status: 500, body: { status: 'error', message: 'Falla la base de datos' } });
    const online = createOnlineTracker({ check: async () => false });
    const { api, db, eventLog } = workerOverFakes({ 'GET /visores/u1/v1/fav': failing, 'PUT /visores/u1/v1/fav': failing }, { online });
    const tabChannel = new MessageChannel();
    const received: TabMessage[] = [];
    tabChannel.port1.on('message', (message: TabMessage) => received.push(message));
    await api.registerTab({ tabId: 't1', lockName: null, port: tabChannel.port2 as unknown as TabPort });
    await api.setSession({ token: 'tok', userId: 'u1' });
    online.unreachable();
    await api.toggleVisorFavourite('v1');
    online.reached();
    await vi.waitFor(() => expect(received).toContainEqual({ type: 'notice', text: REPLAY_FAILING_NOTICE('Falla la base de datos') }));
    await expect(api.getOfflineStatus()).resolves.toMatchObject({ online: true, pending: 1, replayError: 'Falla la base de datos' });
    expect(eventLog.texts().filter((text) => text === SYNC_LOG.replayFailed('Falla la base de datos'))).toHaveLength(1);
    await api.setSession(null);
    await expect(api.getOfflineStatus()).resolves.toMatchObject({ pending: 0, replayError: null });
    expect(received.filter((message) => message.type === 'notice')).toHaveLength(1);
    online.dispose();
    tabChannel.port1.close();
    await db.delete();
  });

  it('ends a write that never gets an answer after REQUEST_TIMEOUT_MS: kept in the outbox, the server counted unreachable', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // The favourite's request never gets an answer (a hung proxy); anything else answers 404 at once.
    let sent!: () => void;
    const called = new Promise<void>((resolve) => (sent = resolve));
    const { api, db, eventLog } = workerOverFakes({
      'PUT /visores/u1/v1/fav': () => {
        sent();
        return new Promise<never>(() => undefined);
      },
    });
    await api.setSession({ token: 'tok', userId: 'u1' });
    let answer: unknown = 'pending';
    void api.toggleVisorFavourite('v1').then((value) => (answer = value));
    // Sent: its time runs from now.
    await called;
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(answer).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(answer).toEqual({ fav: true }));
    await expect(api.getOfflineStatus()).resolves.toMatchObject({ online: false, pending: 1 });
    expect(eventLog.texts()).toContain(OFFLINE_LOG.lost);
    await api.setSession(null);
    await db.delete();
  });

  it('a proxy’s 502 for a write, in front of a server whose health answers: never offline; the write kept, sent again, told once, and through when the proxy is', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // The reverse proxy fails the favourite's PUT (502, no body) until `proxyFails` is false;
    // the server behind it answers everything else.
    let proxyFails = true;
    let puts = 0;
    const { api, db, eventLog } = workerOverFakes({
      'HEAD /health': () => ({ status: 204 }),
      'GET /visores/u1/v1/fav': () => ({ status: 200, body: { status: 'success', data: { fav: false } } }),
      'PUT /visores/u1/v1/fav': () => {
        puts += 1;
        if (proxyFails) return { status: 502 };
        return {
          status: 200,
          body: { status: 'success', data: { fav: true }, workspace: { tree: [], version: 2, favourites: { visores: [], folders: [] } } },
        };
      },
    });
    /** The clock moved on a tenth of a second at a time (the outbox's work in between) until `done`. */
    const advanceUntil = async (done: () => boolean) => {
      for (let step = 0; step < 600 && !done(); step++) await vi.advanceTimersByTimeAsync(100);
      expect(done()).toBe(true);
    };
    const tabChannel = new MessageChannel();
    const received: TabMessage[] = [];
    tabChannel.port1.on('message', (message: TabMessage) => received.push(message));
    await api.registerTab({ tabId: 't1', lockName: null, port: tabChannel.port2 as unknown as TabPort });
    await api.setSession({ token: 'tok', userId: 'u1' });

    // Kept in the outbox, as with no answer, and replayed at once: the proxy fails it again.
    await expect(api.toggleVisorFavourite('v1')).resolves.toEqual({ fav: true });
    await advanceUntil(() => puts === 2);
    const failing = REPLAY_FAILING_NOTICE('Error 502 del servidor');
    await vi.waitFor(() => expect(received).toContainEqual({ type: 'notice', text: failing }));
    // Tried again 1 s, 2 s, 4 s later: failing each time, never taken for the network gone.
    await advanceUntil(() => puts === 5);
    await expect(api.getOfflineStatus()).resolves.toEqual({ online: true, since: null, pending: 1, replayError: 'Error 502 del servidor' });

    proxyFails = false;
    await advanceUntil(() => puts === 6);
    await vi.waitFor(() => expect(api.getOfflineStatus()).resolves.toMatchObject({ online: true, pending: 0, replayError: null }));
    // The tabs were never told the server could not be reached, and the user was told once.
    const statuses = received.flatMap((message) => (message.type === 'offline-status' ? [message.status] : []));
    expect(statuses.filter((status) => !status.online)).toEqual([]);
    expect(received.filter((message) => message.type === 'notice')).toEqual([{ type: 'notice', text: failing }]);
    expect(eventLog.texts()).not.toContain(OFFLINE_LOG.lost);
    expect(eventLog.texts().filter((text) => text === SYNC_LOG.replayFailed('Error 502 del servidor'))).toHaveLength(1);
    await api.setSession(null);
    tabChannel.port1.close();
    await db.delete();
  });
});
