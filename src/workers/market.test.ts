import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuoteRecord } from '../shared/db';
import { createHttpClient, type FetchLike } from '../shared/http';
import type { TabMessage, TabPort } from './api';
import { createMarketService } from './market';
import { createFakeServer, createTestLog } from '../../tests/fakes/worker/marketServer';
import type { LockRequester } from './tabs';

function setup(health: { status: number } = { status: 204 }) {
  const server = createFakeServer();
  const granted = new Map<string, () => unknown>();
  const locks: LockRequester = {
    request: (name, callback) => (granted.set(name, callback), new Promise(() => {})),
  };
  const written: QuoteRecord[][] = [];
  const fetched: string[] = [];
  const fetchStub: FetchLike = async (url, init) => {
    fetched.push(`${init.method} ${url}`);
    if (url.endsWith('/get_expiration_contract')) {
      const { contract_name } = JSON.parse(String(init.body)) as { contract_name: string };
      return contract_name === 'DLR/ENE27'
        ? new Response(JSON.stringify({ status: 'success', expiration: '20270129' }), { status: 200 })
        : new Response(JSON.stringify({ status: 'error', message: `${contract_name} no tiene vencimiento` }), { status: 404 });
    }
    if (url === '/api/health') return new Response(null, { status: health.status });
    return new Response(null, { status: 404 });
  };
  const market = createMarketService({
    socketUrl: 'ws://test/ws/market',
    http: createHttpClient({ fetch: fetchStub, baseUrl: '/api', getToken: () => 'tok' }),
    openSocket: server.openSocket,
    locks,
    quoteTable: { bulkPut: async (records) => void written.push([...records]), clear: async () => void written.splice(0) },
    log: createTestLog(),
  });
  const inbox = new Map<string, TabMessage[]>();
  const closed = new Set<string>();
  const ports = new Map<string, TabPort>();
  const openTab = (tabId: string) => {
    const port: TabPort = { postMessage: (message) => inbox.set(tabId, [...(inbox.get(tabId) ?? []), message]), close: () => closed.add(tabId) };
    ports.set(tabId, port);
    market.registerTab({ tabId, lockName: `lock-${tabId}`, port });
  };
  /** The tab replies on its port that it painted its last batch. */
  const paint = (tabId: string) => ports.get(tabId)!.onmessage!({ data: { type: 'painted' } });
  const ticksOf = (tabId: string) => (inbox.get(tabId) ?? []).flatMap((message) => (message.type === 'ticks' ? [message.quotes] : []));
  return { server, market, openTab, paint, killTab: (tabId: string) => granted.get(`lock-${tabId}`)!(), inbox, ticksOf, closed, written, fetched };
}

const settle = () => vi.advanceTimersByTimeAsync(100);

describe('market service', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds one server subscription per symbol across tabs and ends it when the last tab leaves or dies', async () => {
    const { server, market, openTab, killTab, closed } = setup();
    market.setToken('tok');
    server.current.accept();
    ['t1', 't2', 't3'].forEach(openTab);
    void market.subscribe('t1', ['A', 'B']);
    void market.subscribe('t2', ['A']);
    void market.subscribe('t3', ['A']);
    await settle();
    expect(server.current.actions('subscribe').map((message) => message.symbols)).toEqual([['A', 'B']]);

    await market.unsubscribe('t1', ['A', 'B']);
    market.unregisterTab('t2');
    await settle();
    expect(server.current.actions('unsubscribe').map((message) => message.symbols)).toEqual([['B']]);
    killTab('t3');
    expect(closed).toEqual(new Set(['t2', 't3']));
    await settle();
    expect(server.current.actions('unsubscribe').map((message) => message.symbols)).toEqual([['B'], ['A']]);
  });

  it('sends each tab only its symbols, coalesced, and caches the last quotes', async () => {
    const { server, market, openTab, ticksOf, written } = setup();
    market.setToken('tok');
    server.current.accept();
    openTab('t1');
    openTab('t2');
    void market.subscribe('t1', ['A']);
    void market.subscribe('t2', ['A', 'B']);
    await settle();
    const { requestId } = server.current.actions('subscribe')[0]!;
    server.current.push({ A: { md: { HI: 1 } }, B: { md: { HI: 2 } }, requestId });
    for (let i = 2; i <= 5; i++) server.current.push({ A: { md: { HI: i } } });
    await settle();
    expect(ticksOf('t1')).toEqual([{ A: { md: { HI: 5 } } }]);
    expect(ticksOf('t2')).toEqual([{ A: { md: { HI: 5 } }, B: { md: { HI: 2 } } }]);

    // A tab joining later gets what is known at once.
    openTab('t3');
    await expect(market.subscribe('t3', ['B'])).resolves.toEqual({ unknown: [] });
    await settle();
    expect(ticksOf('t3')).toEqual([{ B: { md: { HI: 2 } } }]);

    await market.flushCache();
    expect(written.flat().map((record) => [record.symbol, record.md])).toEqual([
      ['A', { HI: 5 }],
      ['B', { HI: 2 }],
    ]);
  });

  it("posts a tab's next batch only once it replied that it painted the last one", async () => {
    const { server, market, openTab, paint, ticksOf } = setup();
    market.setToken('tok');
    server.current.accept();
    openTab('t1');
    void market.subscribe('t1', ['A']);
    await settle();
    const { requestId } = server.current.actions('subscribe')[0]!;
    server.current.push({ A: { md: { HI: 1 } }, requestId });
    await settle();
    server.current.push({ A: { md: { HI: 2 } } });
    await settle();
    server.current.push({ A: { md: { HI: 3 } } });
    await settle();
    expect(ticksOf('t1')).toEqual([{ A: { md: { HI: 1 } } }]);
    paint('t1');
    expect(ticksOf('t1')).toEqual([{ A: { md: { HI: 1 } } }, { A: { md: { HI: 3 } } }]);
  });

  it('tells every tab of status changes, and a new tab at once', async () => {
    const { server, market, openTab, inbox } = setup();
    openTab('t1');
    market.setToken('tok');
    server.current.accept();
    openTab('t2');
    const states = (tabId: string) => inbox.get(tabId)!.flatMap((message) => (message.type === 'market-status' ? [message.status.state] : []));
    expect(states('t1')).toEqual(['idle', 'connecting', 'open']);
    expect(states('t2')).toEqual(['open']);
    market.setToken(null);
    expect(states('t2')).toEqual(['open', 'idle']);
  });

  it('posts every tab each markets event, checked against the protocol, a new tab the latest at once, and null when the session ends', async () => {
    const { server, market, openTab, inbox } = setup();
    openTab('t1');
    market.setToken('tok');
    server.current.accept();
    const session = { day: '2026-11-27', open: true, opensAt: 1, closesAt: 2, nextOpensAt: 3 };
    const entry = { market: 'rofex', label: 'ROFEX', feed: 'rofex', simulated: true, since: 5, lastUpdate: 6, session };
    const event = (state: string) => ({ event: 'markets', simulated: true, calendar: 'demo', markets: [{ ...entry, state }] });
    server.current.push(event('running'));
    server.current.push({ ...event('stopped'), markets: [{ ...entry, state: 'asleep' }] }); // outside the protocol: dropped
    server.current.push(event('stopped'));
    await settle();
    const told = (tabId: string) =>
      (inbox.get(tabId) ?? []).flatMap((message) => (message.type === 'markets' ? [message.markets?.markets[0]?.state ?? null] : []));
    expect(told('t1')).toEqual(['running', 'stopped']);
    openTab('t2');
    expect(told('t2')).toEqual(['stopped']);
    market.setToken(null);
    expect(told('t2')).toEqual(['stopped', null]);
  });

  it('refuses calls of a tab it does not know, as a plain {code, message}', async () => {
    const { market } = setup();
    await expect(market.subscribe('ghost', ['A'])).rejects.toEqual({ code: 'unknown_tab', message: 'Unknown tab ghost: register again', status: 0 });
  });

  it('reads expirations from the socket, else from the server', async () => {
    const { server, market, openTab, fetched } = setup();
    market.setToken('tok');
    server.current.accept();
    openTab('t1');
    void market.subscribe('t1', ['DLR/DIC26']);
    await settle();
    const { requestId } = server.current.actions('subscribe')[0]!;
    server.current.push({ 'DLR/DIC26': { md: {}, expiration: '20261231' }, requestId });
    await settle();
    await expect(market.getExpirationDates(['DLR/DIC26', 'DLR/ENE27', 'BYMA:AL30'])).resolves.toEqual([
      new Date(Date.UTC(2026, 11, 31)),
      new Date(Date.UTC(2027, 0, 29)),
      null,
    ]);
    expect(fetched).toEqual(['POST /api/get_expiration_contract', 'POST /api/get_expiration_contract']);
    await expect(market.waitForExpiration('DLR/DIC26')).resolves.toEqual(new Date(Date.UTC(2026, 11, 31)));
  });

  it("checks connectivity with a HEAD of its own server's health route before reconnecting, and waits while it is not up", async () => {
    const health = { status: 503 };
    const { server, market, fetched } = setup(health);
    market.setToken('tok');
    server.current.accept();
    server.current.drop(1006);
    await vi.advanceTimersByTimeAsync(500);
    expect(fetched).toEqual(['HEAD /api/health']);
    // A proxy answers for a server still restarting: no socket is opened yet.
    expect(server.sockets).toHaveLength(1);
    health.status = 204;
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetched).toEqual(['HEAD /api/health', 'HEAD /api/health']);
    expect(server.sockets).toHaveLength(2);
  });
});
