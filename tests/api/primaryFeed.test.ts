// The rofex feed on a real exchange (the local fake Primary API): a client's subscription
// reaches the exchange as smd, and the exchange's Md messages reach the client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noMarketData } from '../../server/market/primary/normalize.js';
import { FAKE_INSTRUMENTS, startFakePrimary, type FakePrimaryServer } from '../fakes/primaryServer.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { authenticate, openSocket, signIn } from './helpers.js';

/** A BYMA line the exchange lists and the built-in catalogue does not. */
const BYMA_LINE = 'MERV - XMEV - ZZBY - 24hs';

// Market data does not touch the database beyond sign-in: SQLite only.
const [sqlite] = databaseTargets();

async function until<T>(probe: () => T | null | undefined | false | Promise<T | null | undefined | false>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in 10 s');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the rofex feed on the Primary API', () => {
  let exchange: FakePrimaryServer;
  let server: TestServer;

  beforeAll(async () => {
    // DLR/MAR27 and a BYMA line only the exchange lists, each for a test of its own.
    exchange = await startFakePrimary({
      instruments: [
        ...FAKE_INSTRUMENTS,
        { ...FAKE_INSTRUMENTS[1]!, instrumentId: { marketId: 'ROFX', symbol: 'DLR/MAR27' } },
        { ...FAKE_INSTRUMENTS[2]!, instrumentId: { marketId: 'ROFX', symbol: BYMA_LINE } },
      ],
    });
    server = await startServer(sqlite!, { primary: { url: exchange.baseUrl, ...exchange.credentials } });
  });
  afterAll(async () => {
    await server?.close();
    await exchange?.close();
  });

  it('streams the exchange to a subscribed client and reports the feed as primary', async () => {
    const { token } = await signIn(server.baseUrl);
    const socket = await openSocket(server.wsUrl('/ws/market'));
    await authenticate(socket, token);
    const received: Record<string, { md: { LA?: { price: number } } }>[] = [];
    socket.on('message', (raw) => received.push(JSON.parse(String(raw))));

    // The exchange's instruments join the catalogue once loaded.
    await until(() => server.app.ctx.market.catalogue.resolve('DLR/DIC26'));
    socket.send(JSON.stringify({ action: 'subscribe', symbol: 'ROFEX:DLR/DIC26', requestId: 'r1' }));
    await until(() => exchange.smdRequests().some((request) => JSON.stringify(request).includes('DLR/DIC26')));

    exchange.push('DLR/DIC26', { LA: { price: 1612.5, size: 3, date: Date.now() } });
    const update = await until(() => received.find((message) => message['ROFEX:DLR/DIC26']?.md.LA?.price === 1612.5));
    expect(update['ROFEX:DLR/DIC26']!.md.LA).toMatchObject({ price: 1612.5, size: 3 });

    const admin = await signIn(server.baseUrl, { username: 'admin', password: 'admin1234' });
    const headers = { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' };
    const feeds = (await (await fetch(`${server.baseUrl}/api/admin/feeds`, { headers })).json()) as { data: { name: string; source: string; state: string }[] };
    expect(feeds.data.find((feed) => feed.name === 'rofex')).toMatchObject({ source: 'primary', state: 'running' });
    expect(feeds.data.find((feed) => feed.name === 'tv')).toMatchObject({ source: 'simulator' });
    const pace = await fetch(`${server.baseUrl}/api/admin/feeds/rofex`, { method: 'PUT', headers, body: JSON.stringify({ rate: 10 }) });
    expect(pace.status).toBe(409);
    socket.close();
  });

  it("answers a subscribe with the exchange's first state, not an empty one, and without holding up the socket's next messages", async () => {
    const { token } = await signIn(server.baseUrl);
    const socket = await openSocket(server.wsUrl('/ws/market'));
    await authenticate(socket, token);
    const received: Record<string, unknown>[] = [];
    socket.on('message', (raw) => received.push(JSON.parse(String(raw)) as Record<string, unknown>));
    await until(() => server.app.ctx.market.catalogue.resolve('DLR/ENE27'));

    // Nobody watched DLR/ENE27: its state comes with the exchange's first Md, after the smd.
    expect(server.app.ctx.market.hub.latest('DLR/ENE27')).toBeNull();
    socket.send(JSON.stringify({ action: 'subscribe', symbol: 'ROFEX:DLR/ENE27', requestId: 'first' }));
    const answer = await until(() => received.find((message) => message.requestId === 'first'));
    const exchangeState = exchange.marketData('DLR/ENE27')!;
    expect((answer['ROFEX:DLR/ENE27'] as { md: Record<string, unknown> }).md).toMatchObject({ BI: exchangeState.BI, OF: exchangeState.OF });

    // A symbol of our list the exchange refuses: the answer comes once the exchange said so,
    // with every entry cleared; a ping sent after the subscribe is answered first.
    socket.send(JSON.stringify({ action: 'subscribe', symbol: 'ROFEX:RFX20/DIC26', requestId: 'silent' }));
    socket.send(JSON.stringify({ action: 'ping', requestId: 'after' }));
    await until(() => received.find((message) => message.requestId === 'silent'));
    const order = received.map((message) => message.requestId).filter((id) => id === 'silent' || id === 'after');
    expect(order).toEqual(['after', 'silent']);
    expect((received.find((message) => message.requestId === 'silent')!['ROFEX:RFX20/DIC26'] as { md: Record<string, unknown> }).md).toEqual(noMarketData());
    socket.close();
  });

  it("keeps streaming a symbol whose smd the exchange refused for another, and tells the other's subscribers it has nothing", async () => {
    exchange.smdRefusal = 'message';
    const { token } = await signIn(server.baseUrl);
    const socket = await openSocket(server.wsUrl('/ws/market'));
    await authenticate(socket, token);
    const received: Record<string, unknown>[] = [];
    socket.on('message', (raw) => received.push(JSON.parse(String(raw)) as Record<string, unknown>));
    const known = 'DLR/MAR27';
    await until(() => server.app.ctx.market.catalogue.resolve(known));
    // A future of our list the exchange does not list.
    const unlisted = server.app.ctx.market.catalogue.instruments.find(
      (instrument) => instrument.feed === 'rofex' && instrument.instrumentId.symbol.startsWith('WTI/') && !exchange.marketData(instrument.instrumentId.symbol),
    )!.instrumentId.symbol;

    socket.send(JSON.stringify({ action: 'subscribe', symbols: [unlisted, known], requestId: 'both' }));
    const answer = await until(() => received.find((message) => message.requestId === 'both' && message.event === undefined));
    // Both went in one smd, refused as a whole for the unlisted one.
    expect(exchange.smdRequests().some((request) => request.symbols.includes(known) && request.symbols.includes(unlisted))).toBe(true);
    expect((answer[unlisted] as { md: unknown }).md).toEqual(noMarketData());
    expect((answer[known] as { md: { BI?: unknown } }).md.BI).toEqual(exchange.marketData(known)!.BI);

    exchange.push(known, { LA: { price: 1599.5, size: 9, date: Date.now() } });
    await until(() => received.find((message) => (message[known] as { md?: { LA?: { price: number } } } | undefined)?.md?.LA?.price === 1599.5));
    socket.close();
  });

  it('shows the volume of a BYMA line, which the exchange reports in NV/EV only', async () => {
    const { token } = await signIn(server.baseUrl);
    const socket = await openSocket(server.wsUrl('/ws/market'));
    await authenticate(socket, token);
    const received: Record<string, unknown>[] = [];
    socket.on('message', (raw) => received.push(JSON.parse(String(raw)) as Record<string, unknown>));
    await until(() => server.app.ctx.market.catalogue.resolve(BYMA_LINE));
    expect(server.app.ctx.market.catalogue.resolve(BYMA_LINE)?.feed).toBe('rofex');
    const exchangeState = exchange.marketData(BYMA_LINE)!;
    expect(exchangeState.TV).toBeUndefined();

    socket.send(JSON.stringify({ action: 'subscribe', symbol: BYMA_LINE, requestId: 'byma' }));
    const answer = await until(() => received.find((message) => message.requestId === 'byma'));
    expect((answer[BYMA_LINE] as { md: Record<string, unknown> }).md).toMatchObject({ TV: exchangeState.NV, NV: exchangeState.NV, EV: exchangeState.EV });
    exchange.push(BYMA_LINE, { NV: 1300, EV: 1300 * 6450 });
    const update = await until(() => received.find((message) => (message[BYMA_LINE] as { md?: { NV?: number } } | undefined)?.md?.NV === 1300));
    expect((update[BYMA_LINE] as { md: { TV?: number } }).md.TV).toBe(1300);
    socket.close();
  });

  it("draws the history of an exchange instrument from the exchange's own trades, not the simulator", async () => {
    const { token } = await signIn(server.baseUrl);
    const post = async (path: string, body: unknown) =>
      (await fetch(`${server.baseUrl}/api${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })) as Response;
    await until(() => server.app.ctx.market.catalogue.resolve('DLR/DIC26'));
    const daily = (await (await post('/visores/search/symbol/history', { symbol: 'DLR/DIC26', limit: 3 })).json()) as {
      data: { time: string; open: number; high: number; low: number; close: number; volume: number }[];
    };
    // The fake exchange trades three times a day at 1520, 1521 and 1522, sizes 1, 2 and 3.
    expect(daily.data).toHaveLength(3);
    for (const candle of daily.data) expect(candle, candle.time).toMatchObject({ open: 1520, high: 1522, low: 1520, close: 1522, volume: 6 });
    const minutes = (await (await post('/get_intradia', { symbol: 'DLR/DIC26', date: daily.data[0]!.time })).json()) as { data: { close: number }[] };
    expect(minutes.data.map((candle) => candle.close)).toEqual([1520, 1521, 1522]);
    // A BYMA line stays the simulator's: its feed is not the exchange.
    const byma = (await (await post('/visores/search/symbol/history', { symbol: 'BYMA:GGAL', limit: 3 })).json()) as { data: { volume: number }[] };
    expect(byma.data.some((candle) => candle.volume !== 6)).toBe(true);
  });
});
