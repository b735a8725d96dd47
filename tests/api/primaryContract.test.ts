// The fake Primary API (tests/fakes/primaryServer.ts) held to the documentation
// (shared reference/primary-api.md): raw HTTP and websocket requests, as the exchange's own
// client sends them, get the documented answers. Where the documentation allows two forms
// (Md/md, socket errors with or without `type`, `os` with `account` or `accounts`, an `smd`
// refused per product or as a whole) the same cases run in both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { isRecord } from '../../src/lib/isRecord.js';
import type { PrimaryOrderReport } from '../../server/market/primary/types.js';
import { FAKE_POSITIONS, startFakePrimary, type FakePrimaryServer } from '../fakes/primaryServer.js';

const DLR = 'DLR/DIC26';
const GGAL = 'MERV - XMEV - GGAL - 24hs';

function order(clOrdId: string, status: string, account = 'REM2747'): PrimaryOrderReport {
  return {
    orderId: `O-${clOrdId}`,
    clOrdId,
    proprietary: 'PBCP',
    execId: `E-${clOrdId}`,
    accountId: { id: account },
    instrumentId: { marketId: 'ROFX', symbol: DLR },
    price: 1520,
    orderQty: 2,
    ordType: 'LIMIT',
    side: 'BUY',
    timeInForce: 'DAY',
    transactTime: '20261122-13:11:04.214-0300',
    avgPx: status === 'NEW' ? 0 : 1520,
    lastPx: status === 'NEW' ? 0 : 1520,
    lastQty: status === 'NEW' ? 0 : 1,
    cumQty: status === 'NEW' ? 0 : status === 'FILLED' ? 2 : 1,
    leavesQty: status === 'FILLED' ? 0 : status === 'NEW' ? 2 : 1,
    status,
    text: '',
  };
}

let fake: FakePrimaryServer;
let token: string;

beforeAll(async () => {
  fake = await startFakePrimary({ orders: [order('C1', 'FILLED'), order('C2', 'PARTIALLY_FILLED'), order('C3', 'NEW', 'REM9999')] });
  const response = await fetch(`${fake.baseUrl}auth/getToken`, {
    method: 'POST',
    headers: { 'X-Username': fake.credentials.username, 'X-Password': fake.credentials.password },
  });
  token = response.headers.get('X-Auth-Token') ?? '';
});
afterAll(async () => {
  await fake?.close();
});

async function get(path: string, withToken = token): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${fake.baseUrl}${path}`, { headers: { 'X-Auth-Token': withToken } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A websocket to the fake with an inbox; `next` waits for the first message matching. */
async function socket() {
  const ws = new WebSocket(fake.wsUrl, { headers: { 'X-Auth-Token': token } });
  const inbox: Record<string, unknown>[] = [];
  ws.on('message', (raw) => {
    const parsed: unknown = JSON.parse(String(raw));
    if (isRecord(parsed)) inbox.push(parsed);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const until = async <T>(probe: () => T | undefined | false): Promise<T> => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const value = probe();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error(`timed out; inbox: ${JSON.stringify(inbox).slice(0, 500)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return { ws, inbox, until, send: (message: object) => ws.send(JSON.stringify(message)) };
}

const smd = (symbols: string[]) => ({
  type: 'smd',
  level: 1,
  entries: ['BI', 'OF', 'LA'],
  products: symbols.map((symbol) => ({ symbol, marketId: 'ROFX' })),
  depth: 1,
});

describe('authentication', () => {
  it('answers bad credentials and a bad token with 401 and the documented error body', async () => {
    const refused = await fetch(`${fake.baseUrl}auth/getToken`, { method: 'POST', headers: { 'X-Username': 'x', 'X-Password': 'y' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('X-Auth-Token')).toBeNull();
    expect(await refused.json()).toEqual({ status: 'ERROR', description: expect.stringMatching(/\S/) });
    const badToken = await get('rest/instruments/all', 'not-a-token');
    expect(badToken).toEqual({ status: 401, body: { status: 'ERROR', description: 'Invalid or expired token' } });
  });
});

describe('REST', () => {
  it('answers every documented call with status OK and its list or record', async () => {
    const ok = async (path: string, field: string) => {
      const { status, body } = await get(path);
      expect(status, path).toBe(200);
      expect(body.status, path).toBe('OK');
      expect(body[field], `${path} → ${field}`).toBeDefined();
      return body[field];
    };
    expect(await ok('rest/segment/all', 'segments')).toEqual(expect.arrayContaining([{ marketSegmentId: 'DDF', marketId: 'ROFX' }]));
    expect(await ok('rest/instruments/all', 'instruments')).toHaveLength(4);
    expect(await ok('rest/instruments/details', 'instruments')).toHaveLength(4);
    expect(await ok(`rest/instruments/detail?symbol=${encodeURIComponent(DLR)}&marketId=ROFX`, 'instrument')).toMatchObject({ instrumentId: { symbol: DLR } });
    const share = (await ok(`rest/instruments/detail?symbol=${encodeURIComponent(GGAL)}&marketId=ROFX`, 'instrument')) as { tickPriceRanges: unknown };
    // {"0":{lowerLimit, upperLimit, tick}, …}
    for (const [key, range] of Object.entries(share.tickPriceRanges as object)) {
      expect(key).toMatch(/^\d+$/);
      expect(range).toEqual({ lowerLimit: expect.any(Number), upperLimit: expect.toBeOneOf([expect.any(Number), null]), tick: expect.any(Number) });
    }
    expect(await ok('rest/instruments/byCFICode?CFICode=ESXXXX', 'instruments')).toEqual([
      { instrumentId: { marketId: 'ROFX', symbol: GGAL }, cficode: 'ESXXXX' },
    ]);
    expect(await ok('rest/instruments/bySegment?MarketSegmentID=DDF&MarketID=ROFX', 'instruments')).toHaveLength(2);
    expect(await ok('rest/accounts', 'accounts')).toEqual([expect.objectContaining({ name: 'REM2747' })]);
    expect(await ok('rest/risk/position/getPositions/REM2747', 'positions')).toEqual(FAKE_POSITIONS.REM2747);
    expect(await ok('rest/risk/detailedPosition/REM2747', 'detailedPosition')).toMatchObject({ account: 'REM2747' });
    expect(await ok('rest/risk/accountReport/REM2747', 'accountData')).toMatchObject({ accountName: 'REM2747' });
    expect(await ok('rest/order/id?clOrdId=C1&proprietary=PBCP', 'order')).toMatchObject({ clOrdId: 'C1', status: 'FILLED' });
    expect(((await ok('rest/order/all?accountId=REM2747', 'orders')) as PrimaryOrderReport[]).map((o) => o.clOrdId)).toEqual(['C1', 'C2']);
    expect(((await ok('rest/order/actives?accountId=REM2747', 'orders')) as PrimaryOrderReport[]).map((o) => o.clOrdId)).toEqual(['C2']);
    expect(((await ok('rest/order/filleds?accountId=REM2747', 'orders')) as PrimaryOrderReport[]).map((o) => o.clOrdId)).toEqual(['C1']);
    const snapshot = await get(`rest/marketdata/get?marketId=ROFX&symbol=${encodeURIComponent(DLR)}&entries=BI,OF&depth=2`);
    expect(snapshot.body).toMatchObject({ status: 'OK', depth: 2, aggregated: true, marketData: { BI: expect.any(Array), OF: expect.any(Array) } });
  });

  it('answers trades for one date and for a dateFrom/dateTo range', async () => {
    const path = `rest/data/getTrades?marketId=ROFX&symbol=${encodeURIComponent(DLR)}`;
    const day = await get(`${path}&date=2026-03-02`);
    expect(day.body).toMatchObject({ status: 'OK', symbol: DLR, market: 'ROFX' });
    expect(day.body.trades).toHaveLength(3);
    const range = await get(`${path}&dateFrom=2026-03-02&dateTo=2026-03-04`);
    expect(range.body.status).toBe('OK');
    const trades = range.body.trades as { servertime: number }[];
    expect(new Set(trades.map((trade) => new Date(trade.servertime).toISOString().slice(0, 10)))).toEqual(new Set(['2026-03-02', '2026-03-03', '2026-03-04']));
    const bad = await get(`${path}&dateFrom=03/02/2026`);
    expect(bad).toMatchObject({ status: 200, body: { status: 'ERROR', description: expect.stringContaining('YYYY-MM-DD') } });
  });

  it('refuses with HTTP 200 {status:"ERROR", description}, and answers an unknown path or a missing rest/accounts with 404 and the same shape', async () => {
    const unknown = await get('rest/marketdata/get?marketId=ROFX&symbol=NOPE&entries=BI&depth=1');
    expect(unknown).toMatchObject({ status: 200, body: { status: 'ERROR', description: "Product NOPE:ROFX don't exist" } });
    const account = await get('rest/risk/position/getPositions/REM0000');
    expect(account).toMatchObject({ status: 200, body: { status: 'ERROR', description: 'Account REM0000 not found' } });
    expect(await get('rest/nothing/here')).toEqual({ status: 404, body: { status: 'ERROR', description: 'Not found: /rest/nothing/here' } });
    fake.offersAccounts = false;
    try {
      expect(await get('rest/accounts')).toEqual({ status: 404, body: { status: 'ERROR', description: 'Not found: /rest/accounts' } });
    } finally {
      fake.offersAccounts = true;
    }
  });
});

describe.each([
  { mdType: 'Md', socketErrorForm: 'untyped' as const },
  { mdType: 'md', socketErrorForm: 'typed' as const },
])('websocket, market data typed $mdType, errors $socketErrorForm', ({ mdType, socketErrorForm }) => {
  beforeAll(() => {
    fake.mdType = mdType;
    fake.socketErrorForm = socketErrorForm;
  });
  afterAll(() => {
    fake.mdType = 'Md';
    fake.socketErrorForm = 'untyped';
    fake.smdRefusal = 'product';
  });

  const expectedError = (description: string, requestType: string) => ({
    ...(socketErrorForm === 'typed' ? { type: requestType } : {}),
    status: 'ERROR',
    message: expect.any(String),
    description,
  });

  it('answers smd with a snapshot per product, in the documented shape', async () => {
    const { ws, inbox, until, send } = await socket();
    send(smd([DLR]));
    const snapshot = await until(() => inbox.find((message) => message.type === mdType));
    expect(snapshot).toEqual({ type: mdType, timestamp: expect.any(Number), instrumentId: { marketId: 'ROFX', symbol: DLR }, marketData: expect.any(Object) });
    expect(Object.keys(snapshot.marketData as object).sort()).toEqual(['BI', 'LA', 'OF']);
    ws.close();
  });

  it('refusing one product of an smd: the others are subscribed, or (refused as a whole) none is', async () => {
    for (const refusal of ['product', 'message'] as const) {
      fake.smdRefusal = refusal;
      const { ws, inbox, until, send } = await socket();
      const request = smd(['NOPE/XX', DLR]);
      send(request);
      const error = await until(() => inbox.find((message) => message.status === 'ERROR'));
      expect(error).toEqual(expectedError("Product NOPE/XX:ROFX don't exist", 'smd'));
      expect(JSON.parse(error.message as string)).toEqual(request);
      // A barrier: a known product in its own smd answers after whatever the first smd caused.
      send(smd([GGAL]));
      await until(() => inbox.some((message) => isRecord(message.instrumentId) && message.instrumentId.symbol === GGAL));
      const dollar = inbox.filter((message) => isRecord(message.instrumentId) && message.instrumentId.symbol === DLR);
      expect(dollar, refusal).toHaveLength(refusal === 'product' ? 1 : 0);
      ws.close();
    }
  });

  it('answers an unknown message type with an error', async () => {
    const { ws, inbox, until, send } = await socket();
    send({ type: 'xyz' });
    expect(await until(() => inbox.find((message) => message.status === 'ERROR'))).toEqual(expectedError('Unknown message type', 'xyz'));
    ws.close();
  });
});

describe.each([
  {
    form: 'account',
    os: (id: string, snapshotOnlyActive?: boolean) => ({ type: 'os', account: { id }, ...(snapshotOnlyActive === undefined ? {} : { snapshotOnlyActive }) }),
  },
  {
    form: 'accounts',
    os: (id: string, snapshotOnlyActive?: boolean) => ({ type: 'os', accounts: [{ id }], ...(snapshotOnlyActive === undefined ? {} : { snapshotOnlyActive }) }),
  },
])('order reports, os with $form', ({ form, os }) => {
  const clOrdIds = (inbox: Record<string, unknown>[]) =>
    inbox.filter((message) => message.type === 'or').map((message) => (message.orderReport as PrimaryOrderReport).clOrdId);

  it("sends the account's orders of the day, then its live reports only", async () => {
    const { ws, inbox, until, send } = await socket();
    const ofDay = fake
      .orders()
      .filter((o) => o.accountId.id === 'REM2747')
      .map((o) => o.clOrdId);
    expect(ofDay).toEqual(expect.arrayContaining(['C1', 'C2']));
    send(os('REM2747'));
    await until(() => clOrdIds(inbox).length === ofDay.length);
    expect(clOrdIds(inbox)).toEqual(ofDay);
    expect(inbox[0]).toEqual({ type: 'or', timestamp: expect.any(Number), orderReport: expect.objectContaining({ accountId: { id: 'REM2747' } }) });
    fake.pushOrderReport(order(`other-${form}`, 'NEW', 'REM9999'));
    fake.pushOrderReport(order(`live-${form}`, 'FILLED'));
    await until(() => clOrdIds(inbox).includes(`live-${form}`));
    expect(clOrdIds(inbox)).toEqual([...ofDay, `live-${form}`]);
    ws.close();
  });

  it('with snapshotOnlyActive sends only the orders still working', async () => {
    const { ws, inbox, until, send } = await socket();
    send(os('REM2747', true));
    await until(() => clOrdIds(inbox).includes('C2'));
    // A barrier: the other account's snapshot comes after the first.
    send(os('REM9999', true));
    await until(() => clOrdIds(inbox).includes('C3'));
    expect(clOrdIds(inbox)).not.toContain('C1');
    ws.close();
  });
});
