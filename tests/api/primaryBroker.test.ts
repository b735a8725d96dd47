// A real broker session: the server connects to a Primary API (the local fake exchange),
// lists its accounts, polls positions and turns order reports into fills.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_POSITIONS, startFakePrimary, type FakePrimaryServer } from '../fakes/primaryServer.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { signIn } from './helpers.js';

// The broker keeps its sessions in memory; the database only serves sign-in: SQLite only.
const [sqlite] = databaseTargets();

describe('broker sessions on a Primary API', () => {
  let exchange: FakePrimaryServer;
  let server: TestServer;
  let token: string;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const until = async <T>(probe: () => Promise<T | null>): Promise<T> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const value = await probe();
      if (value != null) return value;
      if (Date.now() > deadline) throw new Error('condition not met in 10 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    exchange = await startFakePrimary();
    // BROKER_URLS names the fake exchange (and the closed port 1), or they are refused.
    server = await startServer(sqlite!, { brokerUrls: [new URL(exchange.baseUrl).origin, 'http://127.0.0.1:1'] });
    ({ token } = await signIn(server.baseUrl));
  });
  afterAll(async () => {
    await server?.close();
    await exchange?.close();
  });

  it('connects with the broker credentials and lists its accounts', async () => {
    const { status, body } = await call('POST', '/primary/sessions/connect', { url: exchange.baseUrl, ...exchange.credentials });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'success', sessionId: expect.any(String), accounts: ['REM2747'] });
  });

  it('answers the broker refusal for wrong credentials, and 502 for a broker it cannot reach', async () => {
    const refused = await call('POST', '/primary/sessions/connect', { url: exchange.baseUrl, username: exchange.credentials.username, password: 'wrong' });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('El broker no aceptó el usuario o la contraseña');
    expect(JSON.stringify(refused.body)).not.toContain('wrong');
    const unreachable = await call('POST', '/primary/sessions/connect', { url: 'http://127.0.0.1:1/', username: 'x', password: 'y' });
    expect(unreachable.status).toBe(502);
    expect(unreachable.body.message).toBe('No se pudo conectar con el broker');
  });

  it("serves the account's positions from the broker and its fills from order reports", async () => {
    const { body } = await call('POST', '/primary/sessions/connect', { url: exchange.baseUrl, ...exchange.credentials });
    const sessionId = body.sessionId as string;
    expect((await call('POST', '/accounts/REM2747/watch', { sessionId })).status).toBe(200);
    const snapshot = await until(async () => {
      const response = await call('GET', '/accounts/REM2747/positions');
      return response.status === 200 ? response.body : null;
    });
    expect(snapshot).toMatchObject({ account: 'REM2747', broker: 'primary', etag: expect.any(String) });
    const positions = snapshot.positions as { symbol: string; buySize: number; totalDiff: number }[];
    expect(positions.map((p) => p.symbol)).toEqual(FAKE_POSITIONS.REM2747!.map((p) => p.symbol));
    expect(positions[0]).toMatchObject({ buySize: FAKE_POSITIONS.REM2747![0]!.buySize, totalDiff: FAKE_POSITIONS.REM2747![0]!.totalDiff });

    expect((await call('POST', '/accounts/REM2747/watch-fills', { sessionId })).status).toBe(200);
    // Order reports flow on a socket the watch opened; push until one is delivered.
    const fills = await until(async () => {
      exchange.pushOrderReport({
        orderId: 'O1',
        clOrdId: 'C1',
        execId: 'E1',
        accountId: { id: 'REM2747' },
        instrumentId: { marketId: 'ROFX', symbol: 'DLR/DIC26' },
        price: 1512,
        orderQty: 2,
        ordType: 'LIMIT',
        side: 'BUY',
        timeInForce: 'DAY',
        transactTime: '20261122-13:11:04.214-0300',
        avgPx: 1512,
        lastPx: 1512,
        lastQty: 2,
        cumQty: 2,
        leavesQty: 0,
        status: 'FILLED',
        text: '',
      });
      const response = await call('GET', '/accounts/REM2747/fills');
      const list = response.status === 200 ? (response.body.fills as unknown[]) : [];
      return list.length > 0 ? list : null;
    });
    expect(fills).toEqual([
      expect.objectContaining({ execId: 'E1', clOrdId: 'C1', side: 'BUY', lastQty: 2, lastPx: 1512, status: 'FILLED', accountId: { id: 'REM2747' } }),
    ]);

    // A partial fill keeps its status; a report sent again is one fill; an order that is only
    // accepted is none.
    const report = {
      orderId: 'O2',
      clOrdId: 'C2',
      accountId: { id: 'REM2747' },
      instrumentId: { marketId: 'ROFX', symbol: 'DLR/ENE27' },
      price: 1560,
      orderQty: 5,
      ordType: 'LIMIT',
      side: 'SELL',
      timeInForce: 'DAY',
      transactTime: '20261122-13:12:00.000-0300',
      text: '',
    } as const;
    exchange.pushOrderReport({ ...report, execId: 'E2', avgPx: 1560, lastPx: 1560, lastQty: 3, cumQty: 3, leavesQty: 2, status: 'PARTIALLY_FILLED' });
    exchange.pushOrderReport({ ...report, execId: 'E2', avgPx: 1560, lastPx: 1560, lastQty: 3, cumQty: 3, leavesQty: 2, status: 'PARTIALLY_FILLED' });
    exchange.pushOrderReport({
      ...report,
      orderId: 'O3',
      clOrdId: 'C3',
      execId: 'E3',
      avgPx: 0,
      lastPx: 0,
      lastQty: 0,
      cumQty: 0,
      leavesQty: 5,
      status: 'NEW',
    });
    exchange.pushOrderReport({ ...report, execId: 'E4', avgPx: 1560, lastPx: 1560, lastQty: 2, cumQty: 5, leavesQty: 0, status: 'FILLED' });
    const all = await until(async () => {
      const list = (await call('GET', '/accounts/REM2747/fills')).body.fills as { execId: string }[];
      return list.some((fill) => fill.execId === 'E4') ? list : null;
    });
    expect(all).toEqual([
      expect.objectContaining({ execId: 'E1', status: 'FILLED' }),
      expect.objectContaining({ execId: 'E2', status: 'PARTIALLY_FILLED', lastQty: 3, leavesQty: 2 }),
      expect.objectContaining({ execId: 'E4', status: 'FILLED', lastQty: 2, cumQty: 5 }),
    ]);

    // After a reconnect the exchange is asked for the working orders only, and sends them
    // again: each execution stays one fill.
    const fillIds = async () => ((await call('GET', '/accounts/REM2747/fills')).body.fills as { execId: string }[]).map((fill) => fill.execId);
    const working = { ...report, orderId: 'O5', clOrdId: 'C5', execId: 'E5', avgPx: 1560, lastPx: 1560, lastQty: 1, cumQty: 1, leavesQty: 4 };
    exchange.pushOrderReport({ ...working, status: 'PARTIALLY_FILLED' });
    await until(async () => ((await fillIds()).includes('E5') ? true : null));
    const osBefore = exchange.received.length;
    exchange.dropSockets();
    await until(async () =>
      exchange.received.slice(osBefore).some(({ message }) => JSON.stringify(message) === '{"type":"os","account":{"id":"REM2747"},"snapshotOnlyActive":true}')
        ? true
        : null,
    );
    exchange.pushOrderReport({ ...working, orderId: 'O6', clOrdId: 'C6', execId: 'E6', lastQty: 5, cumQty: 5, leavesQty: 0, status: 'FILLED' });
    const after = await until(async () => {
      const ids = await fillIds();
      return ids.includes('E6') ? ids : null;
    });
    expect(after).toEqual(['E1', 'E2', 'E4', 'E5', 'E6']);
  });

  it('works on a broker without rest/accounts with the account the user names, checked with its positions', async () => {
    exchange.offersAccounts = false;
    try {
      const unnamed = await call('POST', '/primary/sessions/connect', { url: exchange.baseUrl, ...exchange.credentials });
      expect(unnamed.status).toBe(400);
      expect(unnamed.body.message).toBe('El broker no informa las cuentas del usuario: indique la cuenta (por ejemplo REM2747) al conectar');

      const unknown = await call('POST', '/primary/sessions/connect', { url: exchange.baseUrl, ...exchange.credentials, account: 'REM0000' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe('El broker no reconoce la cuenta REM0000: revise el nombre de la cuenta e intente de nuevo');

      const named = await call('POST', '/primary/sessions/connect', { url: exchange.baseUrl, ...exchange.credentials, account: ' REM2747 ' });
      expect(named.status).toBe(200);
      expect(named.body).toMatchObject({ status: 'success', accounts: ['REM2747'] });
      expect(exchange.requests.filter((request) => request.path === '/rest/risk/position/getPositions/REM2747').length).toBeGreaterThan(0);
      expect((await call('POST', '/accounts/REM2747/watch', { sessionId: named.body.sessionId })).status).toBe(200);
      const snapshot = await until(async () => {
        const response = await call('GET', '/accounts/REM2747/positions');
        return response.status === 200 ? response.body : null;
      });
      expect((snapshot.positions as { symbol: string }[]).map((p) => p.symbol)).toEqual(FAKE_POSITIONS.REM2747!.map((p) => p.symbol));
    } finally {
      exchange.offersAccounts = true;
    }
    // Where the broker lists accounts, the list stands; a named account it does not know is left out.
    const listed = await call('POST', '/primary/sessions/connect', { url: exchange.baseUrl, ...exchange.credentials, account: 'REM0000' });
    expect(listed.body).toMatchObject({ status: 'success', accounts: ['REM2747'] });
  });

  it('keeps a broker session to the user who connected it', async () => {
    const { body } = await call('POST', '/primary/sessions/connect', { url: exchange.baseUrl, ...exchange.credentials });
    const admin = await signIn(server.baseUrl, { username: 'admin', password: 'admin1234' });
    const response = await fetch(`${server.baseUrl}/api/accounts/REM2747/watch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: body.sessionId }),
    });
    expect(response.status).toBe(404);
  });
});
