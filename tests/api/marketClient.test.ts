// The data worker's market side (src/workers/market.ts) against the real server: one socket
// for every tab, subscriptions counted across tabs, ticks per tab, a reconnect after the
// server drops every socket, and contract expirations over REST. The worker's code runs
// here in Node on the `ws` package, through the same OpenSocket seam as in the browser.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createHttpClient } from '../../src/shared/http.js';
import type { MarketStatus, TabMessage, TabPort } from '../../src/workers/api.js';
import { createConnectivityCheck } from '../../src/workers/connectivity.js';
import { createMarketService, type MarketService } from '../../src/workers/market.js';
import type { OpenSocket } from '../../src/workers/socketTransport.js';
import { startServer, type TestServer } from './harness.js';
import { pollUntil, signIn } from './helpers.js';

const openWsSocket: OpenSocket = (url, handlers) => {
  const socket = new WebSocket(url);
  socket.on('open', () => handlers.open());
  socket.on('message', (data: WebSocket.RawData) => handlers.message(data.toString()));
  socket.on('close', (code, reason) => handlers.close(code, reason.toString()));
  socket.on('error', () => {}); // a close follows
  return { send: (data) => socket.send(data), close: (code, reason) => socket.close(code, reason) };
};

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

describe('data worker market service against the server', () => {
  let server: TestServer;
  let token: string;
  let market: MarketService;
  const inbox = new Map<string, TabMessage[]>();

  const serverClients = () => [...server.app.ctx.market.clients];
  const serverSymbols = () =>
    serverClients()
      .flatMap((client) => [...client.instruments()].map((instrument) => instrument.instrumentId.symbol))
      .sort();
  const dollarFutures = () =>
    server.app.ctx.market.catalogue.instruments
      .filter((instrument) => instrument.kind === 'future' && instrument.product === 'DLR')
      .map((instrument) => instrument.instrumentId.symbol);
  const statusOf = (tabId: string): MarketStatus | undefined =>
    (inbox.get(tabId) ?? []).flatMap((message) => (message.type === 'market-status' ? [message.status] : [])).at(-1);
  const lastTick = (tabId: string, symbol: string) =>
    (inbox.get(tabId) ?? []).flatMap((message) => (message.type === 'ticks' && message.quotes[symbol] ? [message.quotes[symbol]] : [])).at(-1);
  const openTab = (tabId: string) => {
    const port: TabPort = { postMessage: (message) => inbox.set(tabId, [...(inbox.get(tabId) ?? []), message]), close: () => {} };
    market.registerTab({ tabId, lockName: null, port });
  };

  beforeEach(async () => {
    server = await startServer({ name: 'sqlite' });
    server.app.ctx.market.feeds.stopAll();
    ({ token } = await signIn(server.baseUrl));
    inbox.clear();
    market = createMarketService({
      socketUrl: server.wsUrl('/ws/market'),
      http: createHttpClient({ fetch: (url, init) => fetch(url, init), baseUrl: `${server.baseUrl}/api`, getToken: () => token }),
      openSocket: openWsSocket,
      locks: null,
      quoteTable: null,
      log: quiet,
    });
  });
  afterEach(async () => {
    market.dispose();
    await server.close();
  });

  it('keeps one socket for all tabs, subscribes each symbol once and lets go when the last tab does', async () => {
    const [first, second, third] = dollarFutures();
    market.setToken(token);
    ['t1', 't2', 't3'].forEach(openTab);
    await Promise.all([market.subscribe('t1', [first!, second!]), market.subscribe('t2', [first!]), market.subscribe('t3', [first!, third!])]);
    expect(serverClients()).toHaveLength(1);
    expect(serverSymbols()).toEqual([first!, second!, third!].sort());
    expect(statusOf('t1')).toMatchObject({ state: 'open', user: { username: 'demo' } });

    // Every tab shows its symbols, and the same state the server holds.
    const hub = server.app.ctx.market.hub;
    await pollUntil('the first ticks', () => (lastTick('t2', first!) ? true : null));
    expect(lastTick('t2', first!)!.md).toEqual(hub.latest(first!));
    expect(lastTick('t2', second!)).toBeUndefined();

    await market.unsubscribe('t1', [first!, second!]);
    market.unregisterTab('t2');
    await pollUntil('the unsubscribe of the second symbol', () => (serverSymbols().length === 2 ? true : null));
    expect(serverSymbols()).toEqual([first!, third!].sort());
    market.unregisterTab('t3');
    await pollUntil('no subscription left', () => (serverSymbols().length === 0 ? true : null));
    expect(serverClients()).toHaveLength(1);
  });

  it('reconnects after the server drops every socket, and subscribes again what is still wanted', async () => {
    const symbols = dollarFutures().slice(0, 3);
    openTab('t1');
    market.setToken(token);
    await market.subscribe('t1', symbols);
    const before = serverClients()[0];
    for (const socket of server.app.app.websocketServer.clients) socket.terminate();
    await pollUntil('the reconnect', () => (statusOf('t1')?.reconnected ? true : null));
    // Answered again on the new socket: the snapshots came back.
    await market.subscribe('t1', symbols);
    expect(serverClients()).toHaveLength(1);
    expect(serverClients()[0]).not.toBe(before);
    expect(serverSymbols()).toEqual([...symbols].sort());
    const statuses = (inbox.get('t1') ?? []).flatMap((message) => (message.type === 'market-status' ? [message.status] : []));
    expect(statuses.map((status) => [status.state, status.reconnected])).toEqual([
      ['idle', false],
      ['connecting', false],
      ['open', false],
      ['closed', false],
      ['connecting', false],
      ['open', true],
    ]);
    await pollUntil('the reconnect flag to drop', () => (statusOf('t1')?.reconnected === false ? true : null));
  });

  it("checks connectivity against the server's own health route, without signing in", async () => {
    const check = createConnectivityCheck({ http: createHttpClient({ fetch: (url, init) => fetch(url, init), baseUrl: `${server.baseUrl}/api` }) });
    await expect(check()).resolves.toBe(true);
    const head = await fetch(`${server.baseUrl}/api/health`, { method: 'HEAD' });
    expect(head.status).toBe(204);
    expect(head.headers.get('cache-control')).toBe('no-store');
    // Nothing listens there once the server is gone.
    const gone = createConnectivityCheck({ http: createHttpClient({ fetch: (url, init) => fetch(url, init), baseUrl: 'http://127.0.0.1:9/api' }) });
    await expect(gone()).resolves.toBe(false);
  });

  it('reads expirations from the socket or the server', async () => {
    const [future] = dollarFutures();
    market.setToken(token);
    const dates = await market.getExpirationDates([future!, 'BYMA:AL30']);
    const maturity = server.app.ctx.market.catalogue.resolve(future!)!.maturityDate!;
    expect(dates).toEqual([new Date(Date.UTC(Number(maturity.slice(0, 4)), Number(maturity.slice(4, 6)) - 1, Number(maturity.slice(6)))), null]);
  });
});
