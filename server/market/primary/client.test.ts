// The Primary API connector against the local fake exchange (tests/fakes/primaryServer.ts).
// Waits are polls on a condition; the backoff and debounce are short so nothing sleeps long.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MarketUpdate } from '../../../src/protocol/market.js';
import { MARKET_DATA_ENTRIES } from '../../../src/protocol/market.js';
import { FAKE_INSTRUMENTS, startFakePrimary, type FakePrimaryServer } from '../../../tests/fakes/primaryServer.js';
import { createPrimaryClient, PrimaryError, type PrimaryClient, type PrimaryClientOptions } from './client.js';
import { Catalogue } from '../catalogue.js';
import { normalizeMarketData, priceDecimals, stepDecimals, toMarketUpdate } from './normalize.js';
import type { PrimaryOrderReport, PrimaryOrderReportMessage, StreamStatus } from './types.js';

const DLR = 'DLR/DIC26';
const DLR2 = 'DLR/ENE27';
const GGAL = 'MERV - XMEV - GGAL - 24hs';

async function waitUntil<T>(probe: () => T | null | undefined | false, what: string, timeoutMs = 3_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function orderReport(account: string, clOrdId: string): PrimaryOrderReport {
  return {
    orderId: `O-${clOrdId}`,
    clOrdId,
    proprietary: 'PBCP',
    execId: `E-${clOrdId}`,
    accountId: { id: account },
    instrumentId: { marketId: 'ROFX', symbol: DLR },
    price: 1520.5,
    orderQty: 3,
    ordType: 'LIMIT',
    side: 'BUY',
    timeInForce: 'DAY',
    transactTime: '20260302-13:11:04.214-0300',
    avgPx: 0,
    lastPx: 0,
    lastQty: 0,
    cumQty: 0,
    leavesQty: 3,
    status: 'NEW',
    text: 'Aceptada',
  };
}

let fake: FakePrimaryServer;
const openClients: PrimaryClient[] = [];

beforeEach(async () => {
  fake = await startFakePrimary();
});

afterEach(async () => {
  for (const client of openClients.splice(0)) client.close();
  await fake.close();
});

function makeClient(overrides: Partial<PrimaryClientOptions> = {}) {
  const logs: string[] = [];
  const client = createPrimaryClient({
    baseUrl: fake.baseUrl,
    username: fake.credentials.username,
    password: fake.credentials.password,
    logger: {
      info: (message) => logs.push(`info ${message}`),
      warn: (message) => logs.push(`warn ${message}`),
      error: (message) => logs.push(`error ${message}`),
    },
    backoff: { initialMs: 10, maxMs: 40 },
    debounceMs: 20,
    ...overrides,
  });
  openClients.push(client);
  const updates: MarketUpdate[] = [];
  const states: StreamStatus[] = [];
  client.marketData.onUpdate((update) => updates.push(update));
  client.marketData.onState((status) => states.push(status));
  const updatesFor = (symbol: string) => updates.filter((update) => update.instrumentId.symbol === symbol);
  return { client, logs, updates, states, updatesFor };
}

describe('authentication', () => {
  it('gets a token with X-Username / X-Password and sends it as X-Auth-Token on REST calls', async () => {
    const { client } = makeClient();
    const token = await client.authenticate();
    expect(token.length).toBeGreaterThan(10);
    expect(fake.stats.tokensIssued).toBe(1);

    const accounts = await client.accounts();
    expect(accounts.map((account) => account.name)).toEqual(['REM2747']);
    const last = fake.requests.at(-1);
    expect(last?.path).toBe('/rest/accounts');
    expect(last?.token).toBe(token);
    expect(fake.stats.tokensIssued).toBe(1);
  });

  it('fails with a typed error that names the user and never the password', async () => {
    const password = 'wrong-secret-7781';
    const { client, logs } = makeClient({ password });
    const error = await client.authenticate().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PrimaryError);
    expect(error).toMatchObject({ code: 'auth_failed', status: 401 });
    expect((error as PrimaryError).message).toContain(fake.credentials.username);
    await expect(client.accounts()).rejects.toMatchObject({ code: 'auth_failed' });
    expect(fake.stats.authFailures).toBe(2);
    expect(`${(error as PrimaryError).message} ${logs.join(' ')}`).not.toContain(password);
  });

  it('shares one getToken between concurrent calls', async () => {
    const { client } = makeClient();
    const results = await Promise.all([client.accounts(), client.instruments(), client.positions('REM2747')]);
    expect(results.map((list) => list.length)).toEqual([1, 4, 1]);
    expect(fake.stats.tokensIssued).toBe(1);
  });

  it('reports an unreachable server as a network error', async () => {
    const closed = await startFakePrimary();
    await closed.close();
    const { client } = makeClient({ baseUrl: closed.baseUrl, requestTimeoutMs: 2_000 });
    await expect(client.authenticate()).rejects.toMatchObject({ code: 'network' });
  });
});

describe('REST', () => {
  it('returns the instrument, position, trade and snapshot records', async () => {
    const { client } = makeClient();
    const instruments = await client.instruments();
    const dollar = instruments.find((detail) => detail.instrumentId.symbol === DLR);
    expect(dollar).toMatchObject({ maturityDate: '20261231', contractMultiplier: 1000, currency: 'ARS', minPriceIncrement: 0.5 });

    const positions = await client.positions('REM2747');
    expect(positions[0]).toMatchObject({ symbol: DLR, buySize: 10, buyPrice: 1510 });

    const trades = await client.trades(DLR, '2026-03-02');
    expect(trades).toHaveLength(3);
    expect(trades[0]).toMatchObject({ symbol: DLR, price: 1520, size: 1 });
    expect(fake.requests.at(-1)?.query.get('date')).toBe('2026-03-02');
    await expect(client.trades(DLR, '02/03/2026')).rejects.toThrow(/YYYY-MM-DD/);

    const span = await client.trades(DLR, { dateFrom: '2026-03-02', dateTo: '2026-03-03' });
    expect(fake.requests.at(-1)?.query.get('dateFrom')).toBe('2026-03-02');
    expect(fake.requests.at(-1)?.query.get('dateTo')).toBe('2026-03-03');
    expect(fake.requests.at(-1)?.query.has('date')).toBe(false);
    expect(new Set(span.map((trade) => new Date(trade.servertime).toISOString().slice(0, 10)))).toEqual(new Set(['2026-03-02', '2026-03-03']));
    await expect(client.trades(DLR, { dateFrom: '2026-03-04', dateTo: '2026-03-03' })).rejects.toThrow(/after dateTo/);
    await expect(client.trades(DLR, { dateFrom: '2026-02-30', dateTo: '2026-03-03' })).rejects.toThrow(/dateFrom must be YYYY-MM-DD/);

    const snapshot = await client.marketDataSnapshot(DLR, ['BI', 'OF', 'LA'], 2);
    const request = fake.requests.at(-1);
    expect(request?.query.get('entries')).toBe('BI,OF,LA');
    expect(request?.query.get('symbol')).toBe(DLR);
    expect(snapshot.instrumentId).toEqual({ marketId: 'ROFX', symbol: DLR });
    expect(Object.keys(snapshot.marketData).sort()).toEqual(['BI', 'LA', 'OF']);
    expect(snapshot.marketData.BI).toEqual((fake.marketData(DLR)?.BI as unknown[]).slice(0, 2));
    expect(snapshot.depth).toBe(2);
    expect(snapshot.aggregated).toBe(true);

    const share = instruments.find((detail) => detail.instrumentId.symbol === GGAL);
    expect(share?.tickPriceRanges?.['1']).toEqual({ lowerLimit: 100, upperLimit: 999.95, tick: 0.05 });
  });

  it("reads the snapshot's depth and aggregated beside marketData, where the documentation puts them, or inside it", async () => {
    const bodies = [
      { status: 'OK', marketData: { BI: [{ price: 1, size: 2 }] }, depth: 3, aggregated: false },
      { status: 'OK', marketData: { BI: [], depth: 4, aggregated: true } },
      { status: 'OK', marketData: { OF: [] } },
    ];
    const stub: typeof fetch = async (input) => {
      if (String(input).endsWith('auth/getToken')) return new Response('', { headers: { 'X-Auth-Token': 'stub-token' } });
      return new Response(JSON.stringify(bodies.shift()), { headers: { 'content-type': 'application/json' } });
    };
    const { client } = makeClient({ fetch: stub });
    expect(await client.marketDataSnapshot(DLR, ['BI'], 3)).toMatchObject({ depth: 3, aggregated: false, marketData: { BI: [{ price: 1, size: 2 }] } });
    const inside = await client.marketDataSnapshot(DLR, ['BI'], 4);
    expect(inside).toMatchObject({ depth: 4, aggregated: true });
    expect(inside.marketData).toEqual({ BI: [] });
    expect(await client.marketDataSnapshot(DLR, ['OF'], 1)).toMatchObject({ depth: null, aggregated: null });
  });

  it('works with a base URL without the trailing slash and paths with a leading one', async () => {
    const { client } = makeClient({ baseUrl: fake.baseUrl.replace(/\/$/, '') });
    const body = await client.rest<{ instruments: unknown[] }>('/rest/instruments/all');
    expect(body.instruments).toHaveLength(4);
    expect(fake.requests.at(-1)?.path).toBe('/rest/instruments/all');
  });

  it('renews the token after a 401 and retries once', async () => {
    const { client } = makeClient();
    await client.accounts();
    fake.expireTokens();
    const accounts = await client.accounts();
    expect(accounts).toHaveLength(1);
    expect(fake.stats.tokensIssued).toBe(2);
    const statuses = fake.requests.filter((r) => r.path === '/rest/accounts').map((r) => r.status);
    expect(statuses).toEqual([200, 401, 200]);
  });

  it("keeps the exchange's description of a non-2xx answer", async () => {
    fake.offersAccounts = false;
    const { client } = makeClient();
    const error = await client.accounts().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PrimaryError);
    expect(error).toMatchObject({ code: 'http', status: 404, description: 'Not found: /rest/accounts' });
    expect((error as Error).message).toBe('Primary API rest/accounts answered HTTP 404: Not found: /rest/accounts');
  });

  it('gives up with "unauthorized" when the fresh token is refused too', async () => {
    const { client } = makeClient();
    fake.rejectAllTokens = true;
    await expect(client.accounts()).rejects.toMatchObject({ code: 'unauthorized', status: 401, description: 'Invalid or expired token' });
    expect(fake.requests.filter((r) => r.path === '/rest/accounts')).toHaveLength(2);
  });

  it('turns an HTTP 200 {status:"ERROR"} body into an error carrying the description', async () => {
    const { client } = makeClient();
    const error = await client.marketDataSnapshot('NOPE/XX').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PrimaryError);
    expect(error).toMatchObject({ code: 'api_error', description: "Product NOPE/XX:ROFX don't exist" });
    expect((error as Error).message).toContain("Product NOPE/XX:ROFX don't exist");
    await expect(client.positions('REM0000')).rejects.toMatchObject({ description: 'Account REM0000 not found' });
  });
});

describe('price decimals', () => {
  it('are enough for the precision, the increment and the tick of every documented price range', () => {
    const ranges = { '0': { lowerLimit: 0, upperLimit: 999.95, tick: 0.05 }, '1': { lowerLimit: 1000, upperLimit: null, tick: 0.5 } };
    expect(priceDecimals({ instrumentPricePrecision: 1, minPriceIncrement: 0.5, tickPriceRanges: ranges })).toBe(2);
    expect(priceDecimals({ instrumentPricePrecision: 1, minPriceIncrement: 0.5, tickPriceRanges: null })).toBe(1);
    expect(priceDecimals({ minPriceIncrement: 0.001 })).toBe(3);
    expect(priceDecimals({ instrumentPricePrecision: 3, minPriceIncrement: 1 })).toBe(3);
    // A malformed range is skipped.
    expect(priceDecimals({ minPriceIncrement: 1, tickPriceRanges: { '0': { tick: 'x' } } as never })).toBe(0);
    // Floating-point noise is not a decimal.
    expect(stepDecimals(0.1 + 0.2)).toBe(1);
    expect(stepDecimals(0.25)).toBe(2);
  });

  it('of an exchange instrument in the catalogue come from its price ranges', () => {
    const catalogue = new Catalogue();
    const share = FAKE_INSTRUMENTS.find((detail) => detail.instrumentId.symbol === GGAL)!;
    catalogue.addExchangeInstrument({ ...share, instrumentPricePrecision: 1 });
    expect(catalogue.resolve(GGAL)?.instrumentPricePrecision).toBe(2);
  });
});

describe('market data normalization', () => {
  it('keeps the known entries present, each checked, and wraps the lenient shapes', () => {
    const data = normalizeMarketData({
      BI: null,
      OF: [
        { price: '10.5', size: 3 },
        { price: 'x', size: 1 },
      ],
      LA: null,
      CL: 1500,
      OI: { size: 12, date: 5 },
      TV: '123',
      EV: 99,
    });
    expect(data).toEqual({ BI: [], OF: [{ price: 10.5, size: 3 }], LA: null, CL: { price: 1500 }, OI: { size: 12, date: 5 }, TV: 123, EV: 99 });
  });

  it('keeps EV, NV, ACP and TC, and takes the volume of a line without TV (BYMA) from NV, else EV', () => {
    const byma = normalizeMarketData({ NV: 500, EV: '3225000', ACP: { price: 6440, size: 0, date: 7 }, TC: 12, XX: 1 });
    expect(byma).toEqual({ NV: 500, EV: 3_225_000, ACP: { price: 6440, size: 0, date: 7 }, TC: 12, TV: 500 });
    expect(normalizeMarketData({ EV: 900, TV: null }).TV).toBe(900);
    expect(normalizeMarketData({ TV: 40, NV: 500 }).TV).toBe(40);
    expect(normalizeMarketData({ HI: 1 })).toEqual({ HI: 1 });
  });

  it('needs a symbol, and takes the clock when the message has no timestamp', () => {
    expect(toMarketUpdate({ type: 'Md', marketData: {} }, () => 1)).toBeNull();
    expect(toMarketUpdate({ type: 'Md', instrumentId: { symbol: DLR }, marketData: { HI: 2 } }, () => 42)).toEqual({
      instrumentId: { marketId: 'ROFX', symbol: DLR },
      marketData: { HI: 2 },
      timestamp: 42,
    });
  });
});

describe('market data stream', () => {
  it('subscribes with smd and delivers the snapshot as a MarketUpdate', async () => {
    const { client, updatesFor, states } = makeClient();
    expect(client.marketData.state().state).toBe('idle');
    client.marketData.subscribe([DLR]);
    const [snapshot] = await waitUntil(() => updatesFor(DLR).length > 0 && updatesFor(DLR), 'the snapshot');

    expect(snapshot?.instrumentId).toEqual({ marketId: 'ROFX', symbol: DLR });
    const exchange = fake.marketData(DLR);
    expect(snapshot?.marketData.BI).toEqual(exchange?.BI);
    expect(snapshot?.marketData.OF).toEqual(exchange?.OF);
    expect(snapshot?.marketData.LA).toEqual(exchange?.LA);
    expect(snapshot?.marketData.OI).toEqual({ size: 56_789, date: expect.any(Number) });
    expect(fake.smdRequests()).toEqual([{ connection: 1, symbols: [DLR], entries: [...MARKET_DATA_ENTRIES], depth: 5 }]);
    expect(fake.received[0]?.message).toMatchObject({ type: 'smd', level: 1, products: [{ symbol: DLR, marketId: 'ROFX' }] });
    expect(states.map((status) => status.state).slice(0, 2)).toEqual(['connecting', 'open']);
    expect(client.marketData.state()).toMatchObject({ state: 'open', subscribedSymbols: 1, updatesReceived: 1 });
  });

  it('accepts market data typed "md" in lower case', async () => {
    fake.mdType = 'md';
    const { client, updatesFor } = makeClient();
    client.marketData.subscribe([DLR]);
    await waitUntil(() => updatesFor(DLR).length === 1, 'a lower-case md snapshot');
    fake.push(DLR, { HI: 1600 });
    const last = await waitUntil(() => updatesFor(DLR)[1], 'a lower-case md update');
    expect(last.marketData.HI).toBe(1600);
  });

  it('delivers pushed updates, each a full refresh of the subscribed entries', async () => {
    const { client, updatesFor } = makeClient();
    client.marketData.subscribe([DLR]);
    await waitUntil(() => updatesFor(DLR).length === 1, 'the snapshot');
    expect(fake.push(DLR, { LA: { price: 1530.5, size: 7, date: 1_770_000_000_000 } })).toBe(1);
    const update = await waitUntil(() => updatesFor(DLR)[1], 'the pushed update');
    expect(update.marketData.LA).toEqual({ price: 1530.5, size: 7, date: 1_770_000_000_000 });
    expect(update.marketData.BI).toHaveLength(5);
    expect(client.marketData.state().updatesReceived).toBe(2);
  });

  it('reports an unknown product and goes on with the others on the same socket', async () => {
    const { client, updatesFor, states, logs } = makeClient();
    client.marketData.subscribe(['NOPE/XX', DLR]);
    const description = "Product NOPE/XX:ROFX don't exist";
    await waitUntil(() => client.marketData.state().lastError === description, 'the product error');
    expect(states.some((status) => status.lastError === description)).toBe(true);
    expect(logs.some((line) => line.startsWith('warn') && line.includes(description))).toBe(true);

    await waitUntil(() => updatesFor(DLR).length === 1, 'the snapshot of the known product');
    fake.push(DLR, { HI: 1601 });
    await waitUntil(() => updatesFor(DLR)[1]?.marketData.HI === 1601, 'an update after the error');
    expect(fake.stats.upgrades).toBe(1);
    expect(client.marketData.state().state).toBe('open');
  });

  it('sends the symbols in smd messages of at most maxSymbolsPerSmd products', async () => {
    const { client, updatesFor } = makeClient({ maxSymbolsPerSmd: 2 });
    client.marketData.subscribe([DLR, DLR2, GGAL]);
    await waitUntil(() => [DLR, DLR2, GGAL].every((symbol) => updatesFor(symbol).length === 1), 'three snapshots');
    const requests = fake.smdRequests();
    expect(requests.map((request) => request.symbols.length)).toEqual([2, 1]);
    expect(requests.flatMap((request) => request.symbols).sort()).toEqual([DLR, DLR2, GGAL].sort());
    expect(fake.stats.upgrades).toBe(1);
  });

  describe.each([
    { smdRefusal: 'product', socketErrorForm: 'untyped' },
    { smdRefusal: 'message', socketErrorForm: 'untyped' },
    { smdRefusal: 'product', socketErrorForm: 'typed' },
    { smdRefusal: 'message', socketErrorForm: 'typed' },
  ] as const)('an smd the exchange refuses by $smdRefusal, its error $socketErrorForm', ({ smdRefusal, socketErrorForm }) => {
    it('drops the refused symbol, reports it, and keeps the others of its batch streaming, after a reconnect too', async () => {
      fake.smdRefusal = smdRefusal;
      fake.socketErrorForm = socketErrorForm;
      const { client, updatesFor, logs } = makeClient();
      const refusals: string[] = [];
      client.marketData.onRefused((symbol, description) => refusals.push(`${symbol}: ${description}`));
      client.marketData.subscribe(['NOPE/XX', DLR]);
      await waitUntil(() => updatesFor(DLR).length === 1, 'the snapshot of the known symbol');
      const description = "Product NOPE/XX:ROFX don't exist";
      expect(refusals).toEqual([`NOPE/XX: ${description}`]);
      expect(client.marketData.refused()).toEqual({ 'NOPE/XX': description });
      expect(client.marketData.symbols()).toEqual([DLR]);
      expect(logs.some((line) => line.startsWith('warn') && line.includes('NOPE/XX refused'))).toBe(true);
      fake.push(DLR, { HI: 1606 });
      await waitUntil(() => updatesFor(DLR).at(-1)?.marketData.HI === 1606, 'an update of the known symbol');
      expect(fake.stats.upgrades).toBe(1);

      fake.dropSockets();
      const again = await waitUntil(() => fake.smdRequests().find((request) => request.connection === 2), 'the smd after reconnecting');
      expect(again.symbols).toEqual([DLR]);
      await waitUntil(() => updatesFor(DLR).length === 3, 'the snapshot after reconnecting');

      // Asked for again: told at once, never sent.
      client.marketData.subscribe(['NOPE/XX']);
      expect(refusals).toHaveLength(2);
      expect(
        fake
          .smdRequests()
          .flatMap((request) => request.symbols)
          .filter((symbol) => symbol === 'NOPE/XX'),
      ).toHaveLength(1);
      expect(client.marketData.forgetRefused()).toEqual(['NOPE/XX']);
      expect(client.marketData.refused()).toEqual({});
    });
  });

  it('logs and skips messages that are not JSON or name no instrument', async () => {
    const { client, updatesFor, logs } = makeClient();
    client.marketData.subscribe([DLR]);
    await waitUntil(() => updatesFor(DLR).length === 1, 'the snapshot');
    fake.sendRaw('{not json');
    fake.sendRaw(JSON.stringify({ type: 'Md', marketData: { HI: 1 } }));
    fake.push(DLR, { HI: 1602 });
    await waitUntil(() => updatesFor(DLR)[1]?.marketData.HI === 1602, 'the update after the bad messages');
    expect(logs.some((line) => line.includes('not JSON: {not json'))).toBe(true);
    expect(logs.some((line) => line.includes('without instrumentId.symbol'))).toBe(true);
    expect(client.marketData.state()).toMatchObject({ state: 'open', updatesReceived: 2 });
  });

  it('sends one smd with every symbol of a burst of subscribes', async () => {
    const { client, updatesFor } = makeClient();
    client.marketData.subscribe([DLR]);
    client.marketData.subscribe([DLR2]);
    client.marketData.subscribe([GGAL, DLR]);
    await waitUntil(() => [DLR, DLR2, GGAL].every((symbol) => updatesFor(symbol).length === 1), 'three snapshots');
    const requests = fake.smdRequests();
    expect(requests).toHaveLength(1);
    expect(requests[0]?.symbols.sort()).toEqual([DLR, DLR2, GGAL].sort());
    expect(fake.stats.upgrades).toBe(1);
    expect(client.marketData.symbols()).toEqual([DLR, DLR2, GGAL].sort());
  });

  it('subscribes symbols added later on the open connection', async () => {
    const { client, updatesFor } = makeClient();
    client.marketData.subscribe([DLR]);
    await waitUntil(() => updatesFor(DLR).length === 1, 'the first snapshot');
    client.marketData.subscribe([DLR2]);
    client.marketData.subscribe([GGAL]);
    await waitUntil(() => updatesFor(DLR2).length === 1 && updatesFor(GGAL).length === 1, 'the added snapshots');
    // One more smd for both, debounced, and only the added symbols in it.
    expect(fake.smdRequests().map((request) => request.symbols)).toEqual([[DLR], [DLR2, GGAL]]);
    expect(fake.stats.upgrades).toBe(1);
    expect(updatesFor(DLR)).toHaveLength(1);
  });

  it('unsubscribing renews the connection with the remaining symbols and stops the removed one', async () => {
    const { client, updatesFor } = makeClient();
    client.marketData.subscribe([DLR, DLR2]);
    await waitUntil(() => updatesFor(DLR).length === 1 && updatesFor(DLR2).length === 1, 'both snapshots');

    client.marketData.unsubscribe([DLR2]);
    // Still on the old connection: the exchange sends it, the client drops it.
    fake.push(DLR2, { HI: 1700 });
    const renewed = await waitUntil(() => fake.smdRequests().find((request) => request.connection === 2), 'the new smd');
    expect(renewed.symbols).toEqual([DLR]);
    await waitUntil(() => fake.openSockets() === 1 && updatesFor(DLR).length === 2, 'the new snapshot, one socket');

    expect(fake.push(DLR2, { HI: 1701 })).toBe(0);
    fake.push(DLR, { HI: 1603 });
    await waitUntil(() => updatesFor(DLR).at(-1)?.marketData.HI === 1603, 'an update of the kept symbol');
    expect(updatesFor(DLR2)).toHaveLength(1);
    expect(client.marketData.state()).toMatchObject({ state: 'open', subscribedSymbols: 1 });
  });

  it('closes the socket and goes idle when nothing is wanted', async () => {
    const { client, updatesFor } = makeClient();
    client.marketData.subscribe([DLR]);
    await waitUntil(() => updatesFor(DLR).length === 1, 'the snapshot');
    client.marketData.unsubscribe([DLR]);
    await waitUntil(() => client.marketData.state().state === 'idle' && fake.openSockets() === 0, 'idle, socket closed');
    client.marketData.subscribe([DLR2]);
    await waitUntil(() => updatesFor(DLR2).length === 1, 'a snapshot on a new connection');
    expect(fake.stats.upgrades).toBe(2);
  });

  it('reconnects with backoff after the sockets drop and subscribes the set again', async () => {
    const { client, updatesFor, states } = makeClient();
    client.marketData.subscribe([DLR, GGAL]);
    await waitUntil(() => updatesFor(DLR).length === 1 && updatesFor(GGAL).length === 1, 'both snapshots');
    fake.dropSockets();
    const again = await waitUntil(() => fake.smdRequests().find((request) => request.connection === 2), 'the smd after reconnecting');
    expect(again.symbols.sort()).toEqual([DLR, GGAL].sort());
    expect(states.some((status) => status.state === 'reconnecting')).toBe(true);
    expect(client.marketData.state().lastError).toMatch(/closed/);

    await waitUntil(() => updatesFor(DLR).length === 2, 'the snapshot after reconnecting');
    fake.push(GGAL, { HI: 6600 });
    await waitUntil(() => updatesFor(GGAL).at(-1)?.marketData.HI === 6600, 'updates resuming');
    expect(client.marketData.state().state).toBe('open');
  });

  it('gets a new token when the upgrade is refused with 401', async () => {
    const { client, updatesFor } = makeClient();
    client.marketData.subscribe([DLR]);
    await waitUntil(() => updatesFor(DLR).length === 1, 'the snapshot');
    fake.expireTokens();
    fake.dropSockets();
    await waitUntil(() => fake.stats.upgrades === 2 && updatesFor(DLR).length === 2, 'a new connection and snapshot');
    expect(fake.stats.refusedUpgrades).toBeGreaterThanOrEqual(1);
    expect(fake.stats.tokensIssued).toBe(2);
    fake.push(DLR, { HI: 1604 });
    await waitUntil(() => updatesFor(DLR).at(-1)?.marketData.HI === 1604, 'updates resuming');
  });

  it('keeps retrying while the credentials are refused, with the password in no message', async () => {
    const password = 'not-the-password-5519';
    const { client, logs } = makeClient({ password });
    client.marketData.subscribe([DLR]);
    await waitUntil(() => fake.stats.authFailures >= 3, 'three authentication attempts');
    const status = client.marketData.state();
    expect(status.state).toBe('reconnecting');
    expect(status.lastError).toMatch(/HTTP 401/);
    expect(`${status.lastError} ${logs.join(' ')}`).not.toContain(password);
    expect(fake.stats.upgrades).toBe(0);
  });

  it('stops for good on close()', async () => {
    const { client, updatesFor, logs } = makeClient();
    client.marketData.subscribe([DLR]);
    await waitUntil(() => updatesFor(DLR).length === 1, 'the snapshot');
    client.marketData.close();
    expect(client.marketData.state().state).toBe('closed');
    await waitUntil(() => fake.openSockets() === 0, 'the socket closed at the server');
    client.marketData.subscribe([DLR2]);
    // Absence of a reconnect can only be shown by waiting: several times the longest backoff (40 ms).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.stats.upgrades).toBe(1);
    expect(client.marketData.state().state).toBe('closed');
    expect(logs.some((line) => line.includes('subscribe after close ignored'))).toBe(true);
  });

  it('close() while waiting to reconnect cancels the reconnect', async () => {
    const { client, updatesFor } = makeClient({ backoff: { initialMs: 60, maxMs: 60 } });
    client.marketData.subscribe([DLR]);
    await waitUntil(() => updatesFor(DLR).length === 1, 'the snapshot');
    fake.dropSockets();
    await waitUntil(() => client.marketData.state().state === 'reconnecting', 'reconnecting');
    client.close();
    // Several times the backoff (60 ms): a pending reconnect would have happened by then.
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(fake.stats.upgrades).toBe(1);
    expect(client.marketData.state().state).toBe('closed');
  });

  it('pings the server on the interval', async () => {
    const { client, updatesFor } = makeClient({ pingIntervalMs: 100 });
    client.marketData.subscribe([DLR]);
    await waitUntil(() => updatesFor(DLR).length === 1, 'the snapshot');
    await waitUntil(() => fake.stats.pings >= 2, 'two pings');
    // Pongs came back: the connection was never dropped as dead.
    expect(fake.stats.upgrades).toBe(1);
    expect(client.marketData.state().state).toBe('open');
  });

  it('takes any inbound frame as liveness: pings without pongs do not drop a connection that receives messages', async () => {
    fake.answerPings = false;
    const { client, updatesFor } = makeClient({ pingIntervalMs: 100 });
    client.marketData.subscribe([DLR]);
    await waitUntil(() => updatesFor(DLR).length === 1, 'the snapshot');
    // Messages for several intervals (one every 30 ms or so), none answering a ping.
    for (let index = 0; index < 12; index++) {
      fake.push(DLR, { HI: 1700 + index });
      await waitUntil(() => updatesFor(DLR).at(-1)?.marketData.HI === 1700 + index, `update ${index}`);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(fake.stats.pings).toBeGreaterThanOrEqual(3);
    expect(fake.stats.upgrades).toBe(1);
    expect(client.marketData.state().state).toBe('open');
  });

  it('drops a connection after two ping intervals without any inbound frame, and reconnects', async () => {
    fake.answerPings = false;
    const { client, updatesFor } = makeClient({ pingIntervalMs: 40 });
    client.marketData.subscribe([DLR]);
    await waitUntil(() => updatesFor(DLR).length === 1, 'the snapshot');
    await waitUntil(() => fake.stats.upgrades === 2 && updatesFor(DLR).length === 2, 'a new connection and snapshot');
    expect(client.marketData.state().lastError).toBe('nothing received for two ping intervals (80 ms); connection dropped');
  });

  it('keeps delivering to other listeners when one throws', async () => {
    const { client, updatesFor, logs } = makeClient();
    client.marketData.onUpdate(() => {
      throw new Error('listener bug');
    });
    client.marketData.subscribe([DLR]);
    await waitUntil(() => updatesFor(DLR).length === 1, 'the snapshot');
    fake.push(DLR, { HI: 1605 });
    await waitUntil(() => updatesFor(DLR).length === 2, 'the next update');
    expect(logs.some((line) => line.includes('listener bug'))).toBe(true);
  });
});

describe('order reports', () => {
  it('subscribes accounts with os and routes or reports to their listeners', async () => {
    const { client } = makeClient();
    const first: PrimaryOrderReportMessage[] = [];
    const second: PrimaryOrderReportMessage[] = [];
    const stopFirst = client.orderReports.subscribe(['REM2747'], (message) => first.push(message));
    await waitUntil(
      () => fake.received.some(({ message }) => JSON.stringify(message) === '{"type":"os","account":{"id":"REM2747"},"snapshotOnlyActive":false}'),
      'the os message',
    );
    expect(fake.pushOrderReport(orderReport('REM2747', 'A1'))).toBe(1);
    await waitUntil(() => first.length > 0, 'a report');
    expect(first[0]).toMatchObject({ type: 'or', orderReport: { clOrdId: 'A1', status: 'NEW', accountId: { id: 'REM2747' } } });
    expect(typeof first[0]?.timestamp).toBe('number');

    client.orderReports.subscribe(['REM9999'], (message) => second.push(message));
    await waitUntil(
      () => fake.received.some(({ message }) => JSON.stringify(message) === '{"type":"os","account":{"id":"REM9999"},"snapshotOnlyActive":false}'),
      'the os for the added account',
    );
    fake.pushOrderReport(orderReport('REM9999', 'B1'));
    await waitUntil(() => second.length === 1, 'the report of the second account');
    expect(first.map((message) => message.orderReport.clOrdId)).toEqual(['A1']);

    stopFirst();
    fake.pushOrderReport(orderReport('REM2747', 'A2'));
    fake.pushOrderReport(orderReport('REM9999', 'B2'));
    await waitUntil(() => second.length === 2, 'the barrier report');
    expect(first.map((message) => message.orderReport.clOrdId)).toEqual(['A1']);
    expect(client.orderReports.state()).toMatchObject({ state: 'open', updatesReceived: 4 });
  });

  it("asks for each account in its own os, with the day's orders first and the working ones only after a reconnect", async () => {
    const filled = { ...orderReport('REM2747', 'F1'), status: 'FILLED', lastQty: 3, cumQty: 3, leavesQty: 0 };
    const working = { ...orderReport('REM2747', 'W1'), status: 'PARTIALLY_FILLED', lastQty: 1, cumQty: 1, leavesQty: 2 };
    fake.pushOrderReport(filled);
    fake.pushOrderReport(working);
    const { client } = makeClient();
    const reports: string[] = [];
    client.orderReports.subscribe(['REM2747', 'REM9999'], (message) => reports.push(`${message.orderReport.clOrdId} ${message.orderReport.status}`));
    await waitUntil(() => reports.length === 2, "the account's orders of the day");
    expect(reports).toEqual(['F1 FILLED', 'W1 PARTIALLY_FILLED']);
    const osMessages = () => fake.received.filter(({ message }) => JSON.stringify(message).startsWith('{"type":"os"'));
    expect(osMessages().map(({ connection, message }) => [connection, message])).toEqual([
      [1, { type: 'os', account: { id: 'REM2747' }, snapshotOnlyActive: false }],
      [1, { type: 'os', account: { id: 'REM9999' }, snapshotOnlyActive: false }],
    ]);

    fake.dropSockets();
    await waitUntil(() => reports.length === 3, 'the working order after reconnecting');
    expect(reports[2]).toBe('W1 PARTIALLY_FILLED');
    expect(
      osMessages()
        .filter(({ connection }) => connection === 2)
        .map(({ message }) => message),
    ).toEqual([
      { type: 'os', account: { id: 'REM2747' }, snapshotOnlyActive: true },
      { type: 'os', account: { id: 'REM9999' }, snapshotOnlyActive: true },
    ]);
  });

  it.each(['untyped', 'typed'] as const)('reports an exchange error on the order-report socket (%s)', async (form) => {
    const { client } = makeClient();
    client.orderReports.subscribe(['REM2747'], () => {});
    await waitUntil(() => fake.received.some(({ message }) => JSON.stringify(message).startsWith('{"type":"os"')), 'the os message');
    const error = { ...(form === 'typed' ? { type: 'os' } : {}), status: 'ERROR', message: '{"type":"os"}', description: 'Account REM2747 not allowed' };
    expect(fake.sendRaw(JSON.stringify(error))).toBe(1);
    await waitUntil(() => client.orderReports.state().lastError === 'Account REM2747 not allowed', 'the error in the state');
  });
});
