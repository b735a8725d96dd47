// The markets' states on /ws/market (server/market/marketStates.ts): the `markets` event right
// after `authenticated`, each symbol's market in the answer to a subscribe, an admin's stop and
// start told to a subscribed socket as they happen, a feed that publishes nothing told silent,
// and closed outside the session when the simulator keeps the calendar.
//
// SQLite only. The harness clock is frozen, so the feeds make no ticks by themselves: silence
// comes by moving the clock, and the end of it by moving a feed with feeds.advance().
import { afterEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { MarketsEvent, type MarketStateEntry } from '../../src/protocol/market.js';
import { AuthenticatedEvent } from '../../src/protocol/socket.js';
import { dayStartMs, marketDayOf } from '../../server/market/calendar.js';
import { loadConfig } from '../../server/config.js';
import { startFakePrimary, type FakePrimaryServer } from '../fakes/primaryServer.js';
import { startServer, type TestServer } from './harness.js';
import { ADMIN, api, expectShape, nextMarketsEvent, nextMessage, openSocket, pollUntil, sendJson, signIn } from './helpers.js';

const SQLITE = { name: 'sqlite' } as const;

let server: TestServer;
let exchange: FakePrimaryServer | null = null;
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await server?.close();
  await exchange?.close();
  exchange = null;
});

/** A market socket, authenticated, with every message it gets in order (markets events too). */
async function marketSocket(): Promise<{ socket: WebSocket; order: string[] }> {
  const { token } = await signIn(server.baseUrl);
  const socket = await openSocket(server.wsUrl('/ws/market'));
  sockets.push(socket);
  const order: string[] = [];
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as { event?: string };
    order.push(message.event ?? 'data');
  });
  sendJson(socket, { action: 'auth', token });
  expectShape(AuthenticatedEvent, await nextMessage(socket), 'the answer to auth');
  return { socket, order };
}

const stateOf = (event: unknown, market: string): MarketStateEntry | undefined => (event as MarketsEvent).markets.find((entry) => entry.market === market);

/** Waits for a markets event where each market named is in the state given. */
/** The next markets event with these states (and, when given, `also` true of it). */
function marketsWhere(
  socket: WebSocket,
  states: Record<string, string>,
  timeoutMs?: number,
  also: (event: unknown) => boolean = () => true,
): Promise<MarketsEvent> {
  const what = Object.entries(states)
    .map(([market, state]) => `${market} ${state}`)
    .join(', ');
  return nextMarketsEvent(
    socket,
    what,
    (event) => Object.entries(states).every(([market, state]) => stateOf(event, market)?.state === state) && also(event),
    timeoutMs,
  ).then((event) => expectShape(MarketsEvent, event, 'the markets event'));
}

async function adminCall(method: 'post' | 'put', path: string, body?: unknown): Promise<void> {
  const admin = await signIn(server.baseUrl, ADMIN);
  const response = await api(server, admin.token)[method](path, body);
  expect(response.status, path).toBe(200);
}
const adminPost = (path: string) => adminCall('post', path);

describe('market states on sqlite', () => {
  it('tells every market right after authenticated: running, from the simulator, with its session', async () => {
    server = await startServer(SQLITE);
    const { socket, order } = await marketSocket();
    const event = await marketsWhere(socket, { rofex: 'running', byma: 'running', a3500: 'running' });
    expect(order.slice(0, 2)).toEqual(['authenticated', 'markets']);
    expect(event).toMatchObject({ event: 'markets', simulated: true, calendar: 'demo' });
    expect(event.markets.map(({ market, label, feed, simulated }) => ({ market, label, feed, simulated }))).toEqual([
      { market: 'rofex', label: 'ROFEX', feed: 'rofex', simulated: true },
      { market: 'byma', label: 'BYMA', feed: 'tv', simulated: true },
      { market: 'a3500', label: 'A3500', feed: 'rofex', simulated: true },
    ]);
    const now = server.clock.now();
    for (const entry of event.markets) {
      // The feeds published every instrument's state when they started.
      expect(entry.lastUpdate).toBe(now);
      expect(entry.session.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(entry.session.opensAt).toBeLessThan(entry.session.closesAt);
      expect(entry.session.nextOpensAt).toBeGreaterThan(now);
    }
  });

  it("names each symbol's market in the answer to a subscribe", async () => {
    server = await startServer(SQLITE);
    const { socket } = await marketSocket();
    sendJson(socket, { action: 'subscribe', symbols: ['ROFEX:DLR/SPOT', 'BYMA:AL30', 'I.MERVAL'], requestId: 's' });
    const answer = (await nextMessage(socket)) as Record<string, { market?: string }>;
    expect([answer['ROFEX:DLR/SPOT']?.market, answer['BYMA:AL30']?.market, answer['I.MERVAL']?.market]).toEqual(['a3500', 'byma', 'byma']);
  });

  it("tells a subscribed socket an admin's stop of ROFEX within 2 s, and running again after the start", async () => {
    server = await startServer(SQLITE);
    const { socket } = await marketSocket();
    await marketsWhere(socket, { rofex: 'running' });
    sendJson(socket, { action: 'subscribe', symbol: 'ROFEX:DLR/SPOT' });
    await nextMessage(socket);

    await adminPost('/api/admin/feeds/rofex/stop');
    const stopped = await marketsWhere(socket, { rofex: 'stopped' }, 2000);
    // The A3500 reference comes on the same feed; BYMA's goes on.
    expect(stopped.markets.map((entry) => [entry.market, entry.state])).toEqual([
      ['rofex', 'stopped'],
      ['byma', 'running'],
      ['a3500', 'stopped'],
    ]);
    expect(stateOf(stopped, 'rofex')).toMatchObject({ since: server.clock.now(), lastUpdate: server.clock.now() });

    server.clock.advance(10_000);
    await adminPost('/api/admin/feeds/rofex/start');
    const running = await marketsWhere(socket, { rofex: 'running', a3500: 'running' }, 2000);
    expect(stateOf(running, 'rofex')?.since).toBe(server.clock.now());
    // A new socket is told the state as it is now.
    const { socket: late } = await marketSocket();
    await marketsWhere(late, { rofex: 'running', byma: 'running', a3500: 'running' });
  });

  it('tells a feed that has published nothing for FEED_SILENT_SECONDS silent since its last update, and running once it publishes', async () => {
    server = await startServer(SQLITE, { feedSilentMs: 5000 });
    const { socket } = await marketSocket();
    const started = server.clock.now();
    await marketsWhere(socket, { rofex: 'running', byma: 'running' });
    // Paced to nothing: the feeds run, and publish nothing however far the clock moves.
    await adminCall('put', '/api/admin/feeds/rofex', { rate: 0 });
    await adminCall('put', '/api/admin/feeds/tv', { rate: 0 });

    server.clock.advance(5001);
    const silent = await marketsWhere(socket, { rofex: 'silent', byma: 'silent', a3500: 'silent' });
    expect(stateOf(silent, 'rofex')).toMatchObject({ since: started, lastUpdate: started });

    // BYMA's feed publishes again: BYMA runs, ROFEX stays silent.
    server.app.ctx.market.feeds.advance('tv', 1);
    const back = await marketsWhere(socket, { byma: 'running' });
    expect(stateOf(back, 'rofex')?.state).toBe('silent');
    expect(stateOf(back, 'byma')).toMatchObject({ since: server.clock.now(), lastUpdate: server.clock.now() });
  });

  it('tells the markets closed outside their sessions when the simulator keeps the calendar (SIM_CALENDAR=real), not in demo mode', async () => {
    server = await startServer(SQLITE, { market: { ...loadConfig({}).market, simCalendar: 'real' } });
    // Whatever the hour the test runs at, the process first sees the markets open: noon of the
    // next trading day (a state keeps the time it began, so a jump from one closed spell to
    // another would keep the first one's).
    const { calendar } = server.app.ctx.market;
    let open = marketDayOf(server.clock.now()) + 1;
    while (!calendar.isTradingDay(open)) open += 1;
    server.clock.advance(dayStartMs(open) + 12 * 3_600_000 - server.clock.now());
    const first = await marketSocket();
    await marketsWhere(first.socket, { rofex: 'running', byma: 'running', a3500: 'running' }, undefined, (event) =>
      (event as MarketsEvent).markets.every((entry) => entry.session.open),
    );
    first.socket.close();
    // Then the Sunday after it, noon in Buenos Aires: no market trades. Signed in again there
    // (a jump of days ends a session).
    const now = server.clock.now();
    const day = Math.floor((now - 3 * 3_600_000) / 86_400_000);
    const sunday = day + ((3 - (day % 7) + 7) % 7 || 7); // day 3 after 1970-01-01 (a Thursday) was a Sunday
    server.clock.advance(sunday * 86_400_000 + 15 * 3_600_000 - now);
    const { socket } = await marketSocket();
    // Derived at the Sunday: when the test starts outside the sessions (a night, a weekend) the
    // event of the real time says every market closed too, with its own next opening.
    const closed = await marketsWhere(socket, { rofex: 'closed', byma: 'closed', a3500: 'closed' }, undefined, (event) =>
      (event as MarketsEvent).markets.every((entry) => entry.session.nextOpensAt > server.clock.now()),
    );
    expect(closed.calendar).toBe('real');
    for (const entry of closed.markets) {
      expect(entry.session.open).toBe(false);
      expect(entry.since).toBe(entry.session.closesAt);
      expect(entry.session.nextOpensAt).toBeGreaterThan(server.clock.now());
    }
  });

  it("tells ROFEX on the exchange reconnecting while the exchange's connection is down, and running once it is back", async () => {
    exchange = await startFakePrimary();
    server = await startServer(SQLITE, { primary: { url: exchange.baseUrl, ...exchange.credentials } });
    // Noon of the next trading day: the exchange's market is open.
    const { calendar } = server.app.ctx.market;
    let day = marketDayOf(server.clock.now()) + 1;
    while (!calendar.isTradingDay(day)) day += 1;
    server.clock.advance(dayStartMs(day) + 12 * 3_600_000 - server.clock.now());
    const { socket } = await marketSocket();
    const first = await marketsWhere(socket, { rofex: 'running' });
    expect(stateOf(first, 'rofex')).toMatchObject({ feed: 'rofex', simulated: false, session: { open: true } });
    expect(first.simulated).toBe(false);

    await pollUntil('the exchange instruments', () => server.app.ctx.market.catalogue.resolve('DLR/DIC26'));
    sendJson(socket, { action: 'subscribe', symbol: 'ROFEX:DLR/DIC26' });
    await nextMessage(socket);
    await pollUntil('the exchange connection', () => (exchange!.openSockets() > 0 ? true : null));

    // The exchange drops the connection and refuses every new one.
    exchange.rejectAllTokens = true;
    exchange.dropSockets();
    const down = await marketsWhere(socket, { rofex: 'reconnecting', a3500: 'reconnecting' });
    expect(stateOf(down, 'rofex')?.since).toBe(server.clock.now());
    exchange.rejectAllTokens = false;
    await marketsWhere(socket, { rofex: 'running', a3500: 'running' }, 20_000);
  });

  it('keeps a simulated market running outside its session in demo mode, its session said closed', async () => {
    server = await startServer(SQLITE);
    const { socket } = await marketSocket();
    const now = server.clock.now();
    const day = Math.floor((now - 3 * 3_600_000) / 86_400_000);
    const sunday = day + ((3 - (day % 7) + 7) % 7 || 7);
    server.clock.advance(sunday * 86_400_000 + 15 * 3_600_000 - now);
    // The demo simulator moves at any hour.
    server.app.ctx.market.feeds.advance('rofex', 1);
    server.app.ctx.market.feeds.advance('tv', 1);
    const event = await pollUntil('a markets event of the Sunday', async () => {
      const next = await marketsWhere(socket, { rofex: 'running', byma: 'running' });
      return next.markets.every((entry) => !entry.session.open) ? next : null;
    });
    expect(event.calendar).toBe('demo');
  });
});
