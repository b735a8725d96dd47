// The admin's status at a glance (issue 20): since when each feed is in its state, its ticks
// per second now and over the last minutes, each process's start and sockets, the symbols a
// feed's sockets want, and who is signed in. The harness clock is frozen, so the simulator
// ticks only when a test moves it with feeds.advance(); the clock moves by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { SignedInUsersResponse } from '../../src/protocol/admin.js';
import { FeedResponse, FeedSymbolsResponse, FeedsResponse } from '../../src/protocol/market.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import {
  ADMIN,
  api,
  createUser,
  expectBody,
  expectErrorResponse,
  logout,
  nextMessage,
  openAuthenticatedSocket,
  pollUntil,
  sendJson,
  session,
  type Session,
} from './helpers.js';

describe.each(databaseTargets())('admin status on $name', (target) => {
  let server: TestServer;
  let admin: Session;
  const sockets: WebSocket[] = [];
  beforeAll(async () => {
    server = await startServer(target);
    admin = await session(server, ADMIN);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server?.close();
  });

  const feeds = async () => expectBody(await admin.api.get('/api/admin/feeds'), FeedsResponse);
  const feed = async (name: string) => (await feeds()).data.find((row) => row.name === name)!;
  const socket = async (token: string, path = '/ws/market') => {
    const opened = await openAuthenticatedSocket(server.wsUrl(path), token);
    sockets.push(opened);
    return opened;
  };

  it('says since when a feed is in its state, and moves it on a stop and a start', async () => {
    const started = server.clock.now();
    expect(await feed('tv')).toMatchObject({ state: 'running', since: started });
    server.clock.advance(5000);
    const stopped = expectBody(await admin.api.post('/api/admin/feeds/tv/stop'), FeedResponse).data;
    expect(stopped).toMatchObject({ state: 'stopped', since: started + 5000 });
    // Asking again is no change: the time stays.
    server.clock.advance(1000);
    expect(expectBody(await admin.api.post('/api/admin/feeds/tv/stop'), FeedResponse).data.since).toBe(started + 5000);
    expect(expectBody(await admin.api.post('/api/admin/feeds/tv/start'), FeedResponse).data).toMatchObject({ state: 'running', since: started + 6000 });
    expect((await feed('rofex')).since).toBe(started);
  });

  it('gives ticks per second over the last 5 seconds and per 10 seconds over the last 10 minutes', async () => {
    const { feeds: market } = server.app.ctx.market;
    // Only advance() ticks from here on; the next whole second starts clean.
    market.stopAll();
    server.clock.advance(1000 - (server.clock.now() % 1000) + 600_000);
    market.advance('tv', 100);
    // The current second is not yet counted in the recent rate.
    expect(await feed('tv')).toMatchObject({ recentTicksPerSecond: 0 });
    server.clock.advance(1000);
    const tv = await feed('tv');
    expect(tv.recentTicksPerSecond).toBe(20); // 100 ticks over 5 s
    expect(tv.samples).toHaveLength(59);
    expect(tv.samples.at(-1)).toBe(10); // 100 ticks over its 10 s
    expect(tv.samples.slice(0, -1).every((sample) => sample === 0)).toBe(true);
    expect((await feed('rofex')).recentTicksPerSecond).toBe(0);

    // Five seconds on, the burst has left the recent rate but not the history.
    server.clock.advance(5000);
    expect(await feed('tv')).toMatchObject({ recentTicksPerSecond: 0 });
    expect((await feed('tv')).samples.at(-1)).toBe(10);
    // Ten seconds on it is the sample before, and after ten minutes it is gone.
    server.clock.advance(10_000);
    expect((await feed('tv')).samples.slice(-3)).toEqual([0, 10, 0]);
    server.clock.advance(600_000);
    expect((await feed('tv')).samples.every((sample) => sample === 0)).toBe(true);
    market.startAll();
  });

  it('lists each process with its start and its market and positions sockets; none is silent', async () => {
    const before = await feeds();
    expect(before.silent).toBe(0);
    expect(before.processes).toEqual([{ process: before.self, sockets: 0, positionsSockets: 0, startedAt: expect.any(Number), feeds: ['rofex', 'tv'] }]);
    expect(before.processes[0]!.startedAt).toBeLessThanOrEqual(server.clock.now());

    const user = await createUser(server, admin.token);
    await socket(user.token, '/ws/market');
    await socket(user.token, '/ws/positions');
    await socket(admin.token, '/ws/positions');
    expect((await feeds()).processes[0]).toMatchObject({ sockets: 1, positionsSockets: 2 });
  });

  it("lists a feed's symbols that sockets want, with how many sockets want each, in the feed's own form", async () => {
    const tvSymbol = server.app.ctx.market.catalogue.instruments.find((instrument) => instrument.feed === 'tv')!.instrumentId.symbol;
    const rofexSymbol = 'DLR/SPOT';
    const subscribe = async (opened: WebSocket, symbol: string) => {
      sendJson(opened, { action: 'subscribe', symbol });
      expect(await nextMessage(opened)).toHaveProperty([symbol]);
    };
    const user = await createUser(server, admin.token);
    const first = await socket(user.token);
    const second = await socket(admin.token);
    await subscribe(first, tvSymbol);
    await subscribe(first, `ROFEX:${rofexSymbol}`);
    await subscribe(second, tvSymbol);

    const symbolsOf = async (name: string) => expectBody(await admin.api.get(`/api/admin/feeds/${name}/symbols`), FeedSymbolsResponse).data;
    expect(await symbolsOf('tv')).toEqual([{ symbol: tvSymbol, sockets: 2 }]);
    expect(await symbolsOf('rofex')).toEqual([{ symbol: rofexSymbol, sockets: 1 }]);
    second.close();
    await pollUntil('the closed socket to leave the counts', async () => ((await symbolsOf('tv'))[0]?.sockets === 1 ? true : null));

    expect(expectErrorResponse(await admin.api.get('/api/admin/feeds/nasdaq/symbols'), 404)).toContain('nasdaq');
    expectErrorResponse(await user.api.get('/api/admin/feeds/tv/symbols'), 403);
    expectErrorResponse(await api(server, null).get('/api/admin/feeds/tv/symbols'), 401);
  });

  it('lists the signed-in users with their live sessions; a sign-out or a disabled user leaves the list', async () => {
    const signedIn = async () => expectBody(await admin.api.get('/api/admin/sessions'), SignedInUsersResponse).data;
    const user = await createUser(server, admin.token);
    const again = await session(server, { username: user.user.username, password: user.password });
    const row = (await signedIn()).find((entry) => entry.id === user.user._id);
    expect(row).toMatchObject({ username: user.user.username, role: 'user', sessions: 2, lastUsedAt: expect.any(Number), signedInAt: expect.any(Number) });
    expect((await signedIn()).find((entry) => entry.username === 'admin')?.role).toBe('admin');

    expect((await logout(server.baseUrl, again.token)).status).toBe(200);
    expect((await signedIn()).find((entry) => entry.id === user.user._id)?.sessions).toBe(1);
    await admin.api.put(`/api/admin/users/${user.user._id}`, { disabled: true });
    expect((await signedIn()).some((entry) => entry.id === user.user._id)).toBe(false);

    const other = await createUser(server, admin.token);
    expectErrorResponse(await other.api.get('/api/admin/sessions'), 403);
    expectErrorResponse(await api(server, null).get('/api/admin/sessions'), 401);
    // The answer never carries a token or its hash.
    const text = (await admin.api.get('/api/admin/sessions')).text;
    expect(text).not.toContain(admin.token);
    expect(text).not.toMatch(/token/i);
  });
});
