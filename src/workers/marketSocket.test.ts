import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarketStatus } from './api';
import { SocketCloseCode } from '../protocol/socket';
import {
  createMarketSocket,
  LOG_NOT_CONNECTED,
  LOG_NOT_READY,
  RECONNECT_FLAG_MS,
  RESTART_RECONNECT_BASE_MS,
  RESTART_RECONNECT_SPREAD_MS,
} from './marketSocket';
import { createFakeServer, createTestLog, type Sent } from '../../tests/fakes/worker/marketServer';

function setup(options: { online?: () => boolean; random?: () => number } = {}) {
  const server = createFakeServer();
  const log = createTestLog();
  const statuses: MarketStatus[] = [];
  const changed: string[][] = [];
  const checks: number[] = [];
  const socket = createMarketSocket({
    url: 'ws://test/ws/market',
    openSocket: server.openSocket,
    checkConnectivity: async () => {
      checks.push(Date.now());
      return options.online?.() ?? true;
    },
    onQuotes: (symbols) => changed.push(symbols),
    onStatus: (status) => statuses.push(status),
    random: options.random,
    log,
  });
  return { server, log, statuses, changed, checks, socket };
}

/** Lets the subscription delay and the inbound yields run. */
const settle = () => vi.advanceTimersByTimeAsync(100);

const subscribeMessages = (sent: Sent[]) => sent.filter((message) => message.action === 'subscribe');

describe('market socket', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('authenticates first and sends what was asked before then once ready, in one batch', async () => {
    const { server, log, socket, statuses } = setup();
    socket.start('tok');
    const subscribed = socket.subscribe(['DLR/DIC26', 'BYMA:AL30']);
    socket.subscribe(['BYMA:AL30', 'NOPE']);
    expect(log.lines.filter((line) => line === LOG_NOT_READY)).toHaveLength(2);
    server.current.accept();
    expect(server.current.sent[0]).toEqual({ action: 'auth', token: 'tok' });
    const [request] = subscribeMessages(server.current.sent);
    expect(subscribeMessages(server.current.sent)).toHaveLength(1);
    expect(request).toMatchObject({ symbols: ['DLR/DIC26', 'BYMA:AL30', 'NOPE'] });
    expect(statuses.at(-1)).toMatchObject({ state: 'open', reconnected: false, user: { username: 'demo' } });

    server.current.push({ event: 'error', message: 'Símbolos desconocidos: NOPE', symbols: ['NOPE'], requestId: request!.requestId });
    server.current.push({ 'DLR/DIC26': { md: { OP: 1 }, expiration: '20261231' }, 'BYMA:AL30': { md: { OP: 2 } }, requestId: request!.requestId });
    await settle();
    await expect(subscribed).resolves.toEqual({ unknown: [] });
    await expect(socket.subscribe(['NOPE', 'BYMA:AL30'])).resolves.toEqual({ unknown: ['NOPE'] });
    expect(socket.quote('DLR/DIC26')).toEqual({ md: { OP: 1 }, expiration: new Date(Date.UTC(2026, 11, 31)) });
  });

  it("applies updates with the '0' rule and reports which symbols changed", async () => {
    const { server, socket, changed } = setup();
    socket.start('tok');
    server.current.accept();
    void socket.subscribe(['A', 'B']);
    await settle();
    const { requestId } = subscribeMessages(server.current.sent)[0]!;
    server.current.push({ A: { md: { HI: 10, LO: 5 } }, B: { md: { HI: 3 } }, requestId });
    server.current.push({ A: { md: { HI: '0', LO: 4 } } });
    await settle();
    expect(socket.quote('A')!.md).toEqual({ HI: 10, LO: 4 });
    expect(changed.flat().sort()).toEqual(['A', 'A', 'B']);
  });

  it("takes the server's key in the catalogue's spelling for every wanted spelling of the name, and unsubscribes it when none is wanted", async () => {
    const { server, socket, changed } = setup();
    socket.start('tok');
    server.current.accept();
    void socket.subscribe(['rofex:dlr/dic26', 'ROFEX:DLR/DIC26', 'DLR/DIC26']);
    await settle();
    const { requestId } = subscribeMessages(server.current.sent)[0]!;
    // The server keys a name by its catalogue spelling: the lower-case one is the same name.
    server.current.push({ 'ROFEX:DLR/DIC26': { md: { LA: 5 } }, 'DLR/DIC26': { md: { LA: 6 } }, requestId });
    await settle();
    expect(socket.quote('rofex:dlr/dic26')!.md).toEqual({ LA: 5 });
    expect(socket.quote('ROFEX:DLR/DIC26')!.md).toEqual({ LA: 5 });
    expect(socket.quote('DLR/DIC26')!.md).toEqual({ LA: 6 });
    expect(changed.flat().sort()).toEqual(['DLR/DIC26', 'ROFEX:DLR/DIC26', 'rofex:dlr/dic26']);
    // Letting go of one spelling keeps the server's subscription for the other.
    socket.unsubscribe(['ROFEX:DLR/DIC26']);
    await settle();
    expect(server.current.actions('unsubscribe')).toEqual([]);
    server.current.push({ 'ROFEX:DLR/DIC26': { md: { LA: 7 } } });
    await settle();
    expect(socket.quote('rofex:dlr/dic26')!.md).toEqual({ LA: 7 });
    expect(socket.quote('ROFEX:DLR/DIC26')).toBeUndefined();
    socket.unsubscribe(['rofex:dlr/dic26']);
    await settle();
    expect(
      server.current
        .actions('unsubscribe')
        .flatMap((message) => message.symbols as string[])
        .sort(),
    ).toEqual(['ROFEX:DLR/DIC26', 'rofex:dlr/dic26']);
  });

  it('reconnects after a network failure, checking connectivity first, and raises the reconnect flag for 1 s', async () => {
    const { server, log, socket, statuses, checks } = setup();
    socket.start('tok');
    server.current.accept();
    server.current.drop(1006);
    expect(log.lines).toContain('Market WebSocket closed: network failure (1006)');
    expect(statuses.at(-1)!.state).toBe('closed');
    expect(server.sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(checks).toHaveLength(1);
    expect(server.sockets).toHaveLength(2);
    server.current.accept();
    expect(statuses.at(-1)).toMatchObject({ state: 'open', reconnected: true });
    await vi.advanceTimersByTimeAsync(RECONNECT_FLAG_MS - 1);
    expect(statuses.at(-1)!.reconnected).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(statuses.at(-1)!.reconnected).toBe(false);
  });

  it('after a server restart (1012) spreads the first reconnect over a random part of a second', async () => {
    for (const [draw, expected] of [
      [0, RESTART_RECONNECT_BASE_MS],
      [0.5, RESTART_RECONNECT_BASE_MS + RESTART_RECONNECT_SPREAD_MS / 2],
    ] as const) {
      const { server, socket, checks } = setup({ random: () => draw });
      const start = Date.now();
      socket.start('tok');
      server.current.accept();
      server.current.drop(SocketCloseCode.serviceRestart);
      await vi.advanceTimersByTimeAsync(expected - 1);
      expect(checks).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(checks.map((at) => at - start)).toEqual([expected]);
      expect(server.sockets).toHaveLength(2);
      socket.stop();
    }
  });

  it('after a server restart (1012) retries at that short spread while the new process is not up yet', async () => {
    let online = false;
    const { server, socket, checks } = setup({ online: () => online, random: () => 0 });
    const start = Date.now();
    socket.start('tok');
    server.current.accept();
    server.current.drop(SocketCloseCode.serviceRestart);
    await vi.advanceTimersByTimeAsync(4 * RESTART_RECONNECT_BASE_MS);
    expect(checks.map((at) => at - start)).toEqual([1, 2, 3, 4].map((n) => n * RESTART_RECONNECT_BASE_MS));
    expect(server.sockets).toHaveLength(1);
    online = true;
    await vi.advanceTimersByTimeAsync(RESTART_RECONNECT_BASE_MS);
    expect(server.sockets).toHaveLength(2);
    // Once open again, a later loss backs off as usual.
    server.current.accept();
    online = false;
    checks.length = 0;
    const lost = Date.now();
    server.current.drop(1006);
    await vi.advanceTimersByTimeAsync(500 + 1000);
    expect(checks.map((at) => at - lost)).toEqual([500, 1500]);
    socket.stop();
  });

  it('waits with backoff while the server cannot be reached', async () => {
    let online = false;
    const { server, socket, checks } = setup({ online: () => online });
    const start = Date.now();
    socket.start('tok');
    server.current.accept();
    server.current.drop(1006);
    await vi.advanceTimersByTimeAsync(500 + 1000 + 2000);
    expect(checks.map((at) => at - start)).toEqual([500, 1500, 3500]);
    expect(server.sockets).toHaveLength(1);
    online = true;
    await vi.advanceTimersByTimeAsync(4000);
    expect(server.sockets).toHaveLength(2);
  });

  it('subscribes every symbol still wanted again once after a reconnect, in one batch', async () => {
    const { server, socket } = setup();
    socket.start('tok');
    server.current.accept();
    void socket.subscribe(['A', 'B', 'C']);
    await settle();
    server.current.drop(1006);
    socket.unsubscribe(['B']);
    const late = socket.subscribe(['D']);
    await vi.advanceTimersByTimeAsync(500);
    const second = server.current;
    second.accept();
    await settle();
    expect(second.actions('unsubscribe')).toEqual([]);
    const requests = second.actions('subscribe');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.symbols).toEqual(['A', 'C', 'D']);
    second.push({ A: { md: {} }, C: { md: {} }, D: { md: {} }, requestId: requests[0]!.requestId });
    await settle();
    await expect(late).resolves.toEqual({ unknown: [] });
    void socket.subscribe(['A']);
    await settle();
    expect(second.actions('subscribe')).toHaveLength(1);
  });

  it('coalesces subscription changes and splits batches at 500 symbols', async () => {
    const { server, socket } = setup();
    socket.start('tok');
    server.current.accept();
    const symbols = Array.from({ length: 1201 }, (_, i) => `S${i}`);
    void socket.subscribe(symbols.slice(0, 600));
    void socket.subscribe(symbols.slice(600));
    socket.unsubscribe(['S5']);
    await settle();
    const sizes = server.current.actions('subscribe').map((message) => (message.symbols as string[]).length);
    expect(sizes).toEqual([500, 500, 200]);
    socket.unsubscribe(['S1', 'S2']);
    void socket.subscribe(['S2']);
    await settle();
    expect(server.current.actions('unsubscribe')).toMatchObject([{ symbols: ['S1'] }]);
  });

  it('a deliberate close disables reconnect; asking while closed is logged', async () => {
    const { server, log, socket, statuses, checks } = setup();
    socket.start('tok');
    server.current.accept();
    socket.stop();
    expect(server.current.closedByClient).toMatchObject({ code: 1000 });
    server.current.drop(1000);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(checks).toHaveLength(0);
    expect(server.sockets).toHaveLength(1);
    expect(statuses.at(-1)!.state).toBe('idle');
    void socket.subscribe(['A']);
    expect(log.lines).toContain(LOG_NOT_CONNECTED);
  });

  it('logs a refused token (4401) with its code and stops until a new one is given', async () => {
    const { server, log, socket, statuses } = setup();
    socket.start('bad');
    server.current.drop(4401, 'Token inválido');
    // Codes other than 1006 are logged as they come.
    expect(log.lines).toContain('Market WebSocket closed: 4401 Token inválido');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(server.sockets).toHaveLength(1);
    expect(statuses.at(-1)!.state).toBe('unauthorized');
    socket.start('good');
    expect(server.sockets).toHaveLength(2);
    server.current.accept();
    // A new session's first open is not a reconnect.
    expect(statuses.at(-1)).toMatchObject({ state: 'open', reconnected: false });
  });

  it('pings a silent socket and abandons it when nothing answers', async () => {
    const { server, socket, statuses } = setup();
    socket.start('tok');
    server.current.accept();
    await vi.advanceTimersByTimeAsync(35_000);
    expect(server.current.actions('ping')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.sockets[0]!.closedByClient).toMatchObject({ code: 4000 });
    expect(statuses.some((status) => status.state === 'closed')).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(server.sockets).toHaveLength(2);
  });
});
