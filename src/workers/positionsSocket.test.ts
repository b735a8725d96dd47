import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PositionsSnapshot } from '../protocol/broker';
import { createHttpClient } from '../shared/http';
import type { CachedPositions } from './positionsAccounts';
import { KEEPALIVE_MS } from './positionsConnection';
import { POSITIONS_LOG } from './positionsLog';
import { createPositionsSocket } from './positionsSocket';
import { fakeFetch, fakeSocketFactory, recordingLog, type FakeRoute, type FakeSocket } from '../../tests/fakes/worker/fakes';

const ACCOUNT = 'DEMO-ANA';
const CHANNEL = `POS:primary:${ACCOUNT}`;
const POSITIONS_PATH = `/accounts/${ACCOUNT}/positions`;

function snapshotOf(etag: string, asOf: string, symbols: string[] = ['DLR/DIC26'], account = ACCOUNT): PositionsSnapshot {
  return {
    account,
    broker: 'primary',
    as_of: asOf,
    etag,
    positions: symbols.map((symbol) => ({
      instrument: { symbolReference: symbol, settlType: 1 },
      symbol,
      buySize: 10,
      buyPrice: 1500,
      sellSize: 0,
      sellPrice: 0,
      totalDailyDiff: 0,
      totalDiff: 0,
      tradingSymbol: symbol,
      originalBuyPrice: 1500,
      originalSellPrice: 0,
    })),
  };
}

function setup(routes: Record<string, FakeRoute> = {}) {
  const factory = fakeSocketFactory();
  const http = fakeFetch('/api', routes);
  const log = recordingLog();
  const auth = { token: 'token-1' as string | null };
  const positions = createPositionsSocket({
    url: 'ws://test/ws/positions',
    getToken: () => auth.token,
    WebSocket: factory.WebSocket,
    http: createHttpClient({ fetch: http.fetch, baseUrl: '/api', getToken: () => auth.token, credentials: 'include' }),
    log,
  });
  /** Opens the current socket on the server side and answers the auth message. */
  const acceptAndAuthenticate = (socket: FakeSocket = factory.last()!) => {
    socket.accept();
    expect(socket.sent[0]).toEqual({ action: 'auth', token: auth.token });
    socket.receive({ event: 'authenticated', user: { _id: 'u1', username: 'ana', role: 'user' } });
    return socket;
  };
  /** Resolves with the next snapshot change of `account`. */
  const nextSnapshot = (account = ACCOUNT) =>
    new Promise<CachedPositions | null>((resolve) => {
      const stop = positions.onSnapshot((changed, snapshot) => {
        if (changed !== account) return;
        stop();
        resolve(snapshot);
      });
    });
  return { positions, factory, http, log, auth, acceptAndAuthenticate, nextSnapshot };
}

/** Messages after the auth one. */
const afterAuth = (socket: FakeSocket) => socket.sent.slice(1);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('positions socket: states and reconnection', () => {
  it('goes idle → connecting → open, authenticates first, and subscribes only once authenticated', () => {
    const { positions, factory } = setup();
    expect(positions.status()).toEqual({ state: 'idle', lastError: null, authenticated: false });
    positions.subscribe(ACCOUNT);
    expect(positions.status().state).toBe('connecting');
    const socket = factory.last()!;
    expect(socket.url).toBe('ws://test/ws/positions');
    socket.accept();
    expect(positions.status()).toEqual({ state: 'open', lastError: null, authenticated: false });
    expect(socket.sent).toEqual([{ action: 'auth', token: 'token-1' }]);
    socket.receive({ event: 'authenticated', user: { _id: 'u1', username: 'ana', role: 'user' } });
    expect(positions.status().authenticated).toBe(true);
    expect(afterAuth(socket)).toEqual([{ action: 'subscribe', symbol: CHANNEL }]);
  });

  it('marks a socket error with websocket_error, closes, and reconnects after 500 ms, 1 s, 2 s … capped at 10 s', () => {
    const { positions, factory } = setup();
    positions.connect();
    factory.last()!.fail();
    expect(positions.status()).toEqual({ state: 'closed', lastError: 'websocket_error', authenticated: false });

    const delays: number[] = [];
    for (let round = 0; round < 7; round++) {
      const before = factory.sockets.length;
      let waited = 0;
      while (factory.sockets.length === before) {
        vi.advanceTimersByTime(250);
        waited += 250;
      }
      delays.push(waited);
      expect(positions.status().state).toBe('connecting');
      factory.last()!.fail();
    }
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it('shows the error state between the socket error and its close', () => {
    const { positions, factory } = setup();
    positions.connect();
    const states: string[] = [];
    positions.onStatus((status) => states.push(status.state));
    const socket = factory.last()!;
    socket.onerror?.({ type: 'error' });
    expect(positions.status()).toMatchObject({ state: 'error', lastError: 'websocket_error' });
    socket.drop(1006);
    expect(states).toEqual(['error', 'closed']);
  });

  it('resets the backoff when a connection opens', () => {
    const { positions, factory } = setup();
    positions.connect();
    factory.last()!.fail();
    vi.advanceTimersByTime(500);
    factory.last()!.fail();
    vi.advanceTimersByTime(1000);
    expect(factory.sockets).toHaveLength(3);
    factory.last()!.accept();
    expect(positions.status().lastError).toBeNull();
    factory.last()!.drop(1001);
    vi.advanceTimersByTime(499);
    expect(factory.sockets).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(factory.sockets).toHaveLength(4);
  });

  it('re-subscribes every account still subscribed after a reconnect, once each', () => {
    const { positions, factory, acceptAndAuthenticate } = setup();
    positions.subscribe('A1');
    positions.subscribe('A2');
    positions.subscribe('A2');
    positions.subscribe('A3');
    const first = acceptAndAuthenticate();
    positions.unsubscribe('A3');
    expect(afterAuth(first)).toEqual([
      { action: 'subscribe', symbol: 'POS:primary:A1' },
      { action: 'subscribe', symbol: 'POS:primary:A2' },
      { action: 'subscribe', symbol: 'POS:primary:A3' },
      { action: 'unsubscribe', symbol: 'POS:primary:A3' },
    ]);

    first.drop(1006);
    vi.advanceTimersByTime(500);
    const second = factory.last()!;
    expect(second).not.toBe(first);
    second.accept();
    expect(second.sent).toEqual([{ action: 'auth', token: 'token-1' }]);
    second.receive({ event: 'authenticated', user: { _id: 'u1', username: 'ana', role: 'user' } });
    expect(afterAuth(second)).toEqual([
      { action: 'subscribe', symbol: 'POS:primary:A1' },
      { action: 'subscribe', symbol: 'POS:primary:A2' },
    ]);
  });

  it('cancels a pending retry on a manual disconnect, and never reconnects', () => {
    const { positions, factory, log } = setup();
    positions.connect();
    factory.last()!.fail();
    expect(vi.getTimerCount()).toBe(1);
    positions.disconnect();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(factory.sockets).toHaveLength(1);
    expect(positions.status().state).toBe('closed');
    expect(log.texts()).toContain(POSITIONS_LOG.disconnected);
  });

  it('closes an open socket on a manual disconnect, and its close event schedules nothing', async () => {
    const { positions, factory, acceptAndAuthenticate } = setup();
    positions.connect();
    const socket = acceptAndAuthenticate();
    positions.disconnect();
    expect(socket.closedByClient).toEqual({ code: 1000 });
    await Promise.resolve(); // the fake fires close in a microtask, as browsers do later
    expect(socket.readyState).toBe(3);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(factory.sockets).toHaveLength(1);
    expect(positions.status()).toEqual({ state: 'closed', lastError: null, authenticated: false });
  });

  it('keeps a 25 s keepalive timer while open that sends nothing, and stops it on close', () => {
    const { positions, factory, acceptAndAuthenticate } = setup();
    positions.subscribe(ACCOUNT);
    const socket = acceptAndAuthenticate();
    expect(vi.getTimerCount()).toBe(1);
    const sentBefore = socket.sent.length;
    vi.advanceTimersByTime(KEEPALIVE_MS * 4);
    expect(socket.sent).toHaveLength(sentBefore);
    expect(vi.getTimerCount()).toBe(1);
    socket.drop(1001);
    // Only the reconnect timer is left.
    expect(vi.getTimerCount()).toBe(1);
    positions.disconnect();
    expect(factory.sockets).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not authenticate without a token: it closes and stays closed', async () => {
    const { positions, factory, auth, log } = setup();
    auth.token = null;
    positions.connect();
    factory.last()!.accept();
    expect(factory.last()!.sent).toEqual([]);
    expect(log.texts()).toContain(POSITIONS_LOG.noToken);
    await Promise.resolve();
    vi.advanceTimersByTime(60_000);
    expect(factory.sockets).toHaveLength(1);
    expect(positions.status().state).toBe('closed');
  });
});

describe('positions socket: subscriptions counted per account', () => {
  it('sends subscribe for the first subscriber only, and unsubscribe when the last leaves, dropping the snapshot', async () => {
    const { positions, acceptAndAuthenticate, nextSnapshot } = setup();
    positions.subscribe(ACCOUNT);
    const socket = acceptAndAuthenticate();
    positions.subscribe(ACCOUNT);
    positions.subscribe(ACCOUNT);
    expect(positions.subscriberCount(ACCOUNT)).toBe(3);
    expect(afterAuth(socket)).toEqual([{ action: 'subscribe', symbol: CHANNEL }]);

    const pushed = nextSnapshot();
    socket.receive({ [CHANNEL]: { type: 'positions', data: snapshotOf('e1', '2026-11-22T15:00:00.000Z'), etag: 'e1', as_of: '2026-11-22T15:00:00.000Z' } });
    expect(await pushed).toMatchObject({ etag: 'e1', source: 'refresh' });

    positions.unsubscribe(ACCOUNT);
    positions.unsubscribe(ACCOUNT);
    expect(afterAuth(socket)).toHaveLength(1);
    expect(positions.snapshot(ACCOUNT)?.etag).toBe('e1');

    const dropped = nextSnapshot();
    positions.unsubscribe(ACCOUNT);
    expect(await dropped).toBeNull();
    expect(positions.snapshot(ACCOUNT)).toBeNull();
    expect(positions.subscriberCount(ACCOUNT)).toBe(0);
    expect(afterAuth(socket)).toEqual([
      { action: 'subscribe', symbol: CHANNEL },
      { action: 'unsubscribe', symbol: CHANNEL },
    ]);

    // One leave too many changes nothing.
    positions.unsubscribe(ACCOUNT);
    expect(afterAuth(socket)).toHaveLength(2);
  });

  it('counts accounts apart', () => {
    const { positions, acceptAndAuthenticate } = setup();
    positions.connect();
    const socket = acceptAndAuthenticate();
    positions.subscribe('A1');
    positions.subscribe('A2');
    positions.unsubscribe('A1');
    expect(afterAuth(socket)).toEqual([
      { action: 'subscribe', symbol: 'POS:primary:A1' },
      { action: 'subscribe', symbol: 'POS:primary:A2' },
      { action: 'unsubscribe', symbol: 'POS:primary:A1' },
    ]);
    expect(positions.subscriberCount('A2')).toBe(1);
  });

  it('ignores pushes for an account nobody subscribes to any more', () => {
    const { positions, acceptAndAuthenticate } = setup();
    positions.subscribe(ACCOUNT);
    const socket = acceptAndAuthenticate();
    positions.unsubscribe(ACCOUNT);
    socket.receive({ [CHANNEL]: { type: 'positions', data: snapshotOf('late', '2026-11-22T15:00:00.000Z'), etag: 'late', as_of: '2026-11-22T15:00:00.000Z' } });
    expect(positions.snapshot(ACCOUNT)).toBeNull();
  });
});

describe('positions socket: messages', () => {
  const first = snapshotOf('e1', '2026-11-22T15:00:00.000Z', ['DLR/DIC26']);
  const second = snapshotOf('e2', '2026-11-22T15:00:05.000Z', ['DLR/DIC26', 'DLR/ENE27']);
  const third = snapshotOf('e3', '2026-11-22T15:00:09.000Z', []);

  async function subscribedWith(routes: Record<string, FakeRoute>, initial = first) {
    const context = setup(routes);
    context.positions.subscribe(ACCOUNT);
    const socket = context.acceptAndAuthenticate();
    const seeded = context.nextSnapshot();
    socket.receive({ [CHANNEL]: { type: 'positions', data: initial, etag: initial.etag, as_of: initial.as_of } });
    await seeded;
    return { ...context, socket };
  }

  it('replaces the snapshot with the data a push carries', async () => {
    const { positions, socket, nextSnapshot, http } = await subscribedWith({});
    expect(positions.snapshot(ACCOUNT)).toEqual({ ...first, source: 'refresh' });
    const changed = nextSnapshot();
    socket.receive({ [CHANNEL]: { type: 'positions', data: third, etag: 'e3', as_of: third.as_of } });
    // An empty position list is a real snapshot (everything closed), not "no data".
    expect(await changed).toEqual({ ...third, source: 'refresh' });
    expect(http.calls).toEqual([]);
  });

  it('fetches REST positions for a push without data and replaces the snapshot with them', async () => {
    const { positions, socket, nextSnapshot, http } = await subscribedWith({
      [`GET ${POSITIONS_PATH}`]: () => ({ status: 200, body: second }),
    });
    const changed = nextSnapshot();
    socket.receive({ [CHANNEL]: { type: 'positions', etag: 'e2', as_of: second.as_of } });
    expect(await changed).toEqual({ ...second, source: 'refresh' });
    expect(http.calls).toHaveLength(1);
    expect(http.calls[0]).toMatchObject({ method: 'GET', path: POSITIONS_PATH, credentials: 'include' });
    expect(http.calls[0]!.headers.authorization).toBe('Bearer token-1');
    expect(positions.snapshot(ACCOUNT)?.etag).toBe('e2');
  });

  it.each<[string, FakeRoute]>([
    ['warming up (202)', () => ({ status: 202, body: { status: 'warming_up' } })],
    ['an error', () => ({ status: 500, body: { status: 'error', message: 'Error interno del servidor' } })],
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('keeps the snapshot and logs a warning when REST answers %s after a push without data', async (_case, route) => {
    const { positions, socket, log } = await subscribedWith({ [`GET ${POSITIONS_PATH}`]: route });
    const warned = log.next((entry) => entry.level === 'warn');
    socket.receive({ [CHANNEL]: { type: 'positions', etag: 'e2', as_of: second.as_of } });
    expect(await warned).toMatchObject({ level: 'warn', text: POSITIONS_LOG.emptyRest(ACCOUNT) });
    expect(positions.snapshot(ACCOUNT)).toEqual({ ...first, source: 'refresh' });
  });

  it('does not let a slow REST answer overwrite a newer pushed snapshot', async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => undefined;
    const { positions, socket, nextSnapshot } = await subscribedWith({
      [`GET ${POSITIONS_PATH}`]: () => new Promise((resolve) => (answer = resolve)),
    });
    socket.receive({ [CHANNEL]: { type: 'positions', etag: 'e2', as_of: second.as_of } });
    const pushed = nextSnapshot();
    socket.receive({ [CHANNEL]: { type: 'positions', data: third, etag: 'e3', as_of: third.as_of } });
    await pushed;
    answer({ status: 200, body: second });
    // Let the REST answer travel through its promise chain.
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(positions.snapshot(ACCOUNT)?.etag).toBe('e3');
  });

  it('only logs a subscribed acknowledgment', async () => {
    const { positions, socket, log, http } = await subscribedWith({});
    const changes: unknown[] = [];
    positions.onSnapshot((...change) => changes.push(change));
    socket.receive({ event: 'subscribed', symbol: CHANNEL });
    expect(log.texts().at(-1)).toBe(POSITIONS_LOG.subscribed(CHANNEL));
    expect(changes).toEqual([]);
    expect(http.calls).toEqual([]);
    expect(positions.snapshot(ACCOUNT)?.etag).toBe('e1');
  });

  it('logs an unparseable message as a parse error and goes on', async () => {
    const { positions, socket, log, nextSnapshot } = await subscribedWith({});
    socket.receive('{"POS:primary:DEMO-ANA": {');
    socket.receive('[1, 2]');
    expect(log.entries().filter((entry) => entry.text === POSITIONS_LOG.parseError)).toHaveLength(2);
    expect(log.entries().find((entry) => entry.text === POSITIONS_LOG.parseError)!.level).toBe('error');
    expect(positions.snapshot(ACCOUNT)?.etag).toBe('e1');
    const changed = nextSnapshot();
    socket.receive({ [CHANNEL]: { type: 'positions', data: second, etag: 'e2', as_of: second.as_of } });
    expect((await changed)?.etag).toBe('e2');
  });

  it('logs a server error event as a warning', async () => {
    const { socket, log } = await subscribedWith({});
    socket.receive({ event: 'error', symbol: 'POS:primary:X', message: 'La cuenta X no está siendo observada: llame antes a /watch' });
    expect(log.entries().at(-1)).toMatchObject({
      level: 'warn',
      text: POSITIONS_LOG.serverError('La cuenta X no está siendo observada: llame antes a /watch'),
    });
  });
});

describe('positions socket: watching an account', () => {
  const seed = snapshotOf('s1', '2026-11-22T14:59:00.000Z');

  it('connects a broker session with the credentials given', async () => {
    const { positions, http } = setup({
      'POST /primary/sessions/connect': () => ({ status: 200, body: { status: 'success', sessionId: 'sess-1', accounts: [ACCOUNT] } }),
    });
    expect(await positions.connectSession({ url: 'sim://', username: '', password: '' })).toEqual({
      ok: true,
      value: { sessionId: 'sess-1', accounts: [ACCOUNT] },
    });
    expect(http.calls[0]).toMatchObject({ method: 'POST', path: '/primary/sessions/connect', body: { url: 'sim://', username: '', password: '' } });
  });

  it('answers the server message when the broker refuses the session', async () => {
    const { positions } = setup({
      'POST /primary/sessions/connect': () => ({ status: 401, body: { status: 'error', message: 'El broker rechazó las credenciales' } }),
    });
    expect(await positions.connectSession({ url: 'https://api.example', username: 'u', password: 'bad' })).toEqual({
      ok: false,
      error: { code: 'unauthorized', message: 'El broker rechazó las credenciales', status: 401 },
    });
  });

  it('watches, seeds the snapshot from REST, then subscribes', async () => {
    const { positions, http, factory, acceptAndAuthenticate } = setup({
      [`POST /accounts/${ACCOUNT}/watch`]: () => ({ status: 200, body: { status: 'success', account: ACCOUNT } }),
      [`GET ${POSITIONS_PATH}`]: () => ({ status: 200, body: seed }),
    });
    positions.connect();
    const socket = acceptAndAuthenticate();
    const answer = await positions.watchAccount(ACCOUNT, 'sess-1');
    expect(answer).toEqual({ ok: true, value: { ...seed, source: 'seed' } });
    expect(http.calls.map((call) => `${call.method} ${call.path}`)).toEqual([`POST /accounts/${ACCOUNT}/watch`, `GET ${POSITIONS_PATH}`]);
    expect(http.calls[0]!.body).toEqual({ sessionId: 'sess-1' });
    expect(afterAuth(socket)).toEqual([{ action: 'subscribe', symbol: CHANNEL }]);
    expect(positions.subscriberCount(ACCOUNT)).toBe(1);
    expect(factory.sockets).toHaveLength(1);
  });

  it('subscribes while the broker warms up and reads again with backoff until the first snapshot', async () => {
    let reads = 0;
    const { positions, acceptAndAuthenticate, nextSnapshot } = setup({
      [`POST /accounts/${ACCOUNT}/watch`]: () => ({ status: 200, body: { status: 'success', account: ACCOUNT } }),
      [`GET ${POSITIONS_PATH}`]: () => (++reads < 3 ? { status: 202, body: { status: 'warming_up' } } : { status: 200, body: seed }),
    });
    positions.connect();
    const socket = acceptAndAuthenticate();
    expect(await positions.watchAccount(ACCOUNT, 'sess-1')).toEqual({ ok: true, value: null });
    expect(afterAuth(socket)).toEqual([{ action: 'subscribe', symbol: CHANNEL }]);
    expect(reads).toBe(1);

    const seeded = nextSnapshot();
    await vi.advanceTimersByTimeAsync(500);
    expect(reads).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await seeded).toEqual({ ...seed, source: 'seed' });
    expect(reads).toBe(3);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(reads).toBe(3);
  });

  it('stops the warm-up reads when the account is released', async () => {
    let reads = 0;
    const { positions, acceptAndAuthenticate } = setup({
      [`POST /accounts/${ACCOUNT}/watch`]: () => ({ status: 200, body: { status: 'success', account: ACCOUNT } }),
      [`GET ${POSITIONS_PATH}`]: () => (reads++, { status: 202, body: { status: 'warming_up' } }),
    });
    positions.connect();
    acceptAndAuthenticate();
    await positions.watchAccount(ACCOUNT, 'sess-1');
    positions.unsubscribe(ACCOUNT);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reads).toBe(1);
  });

  it('does not subscribe when the watch is refused, and answers the server message', async () => {
    const { positions, acceptAndAuthenticate } = setup({
      [`POST /accounts/${ACCOUNT}/watch`]: () => ({ status: 404, body: { status: 'error', message: 'La sesión de broker no existe' } }),
    });
    positions.connect();
    const socket = acceptAndAuthenticate();
    expect(await positions.watchAccount(ACCOUNT, 'gone')).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'La sesión de broker no existe', status: 404 },
    });
    expect(afterAuth(socket)).toEqual([]);
    expect(positions.subscriberCount(ACCOUNT)).toBe(0);
  });
});
