// The paper broker over HTTP (issue 4, "Broker: positions and fills"): broker sessions,
// watched accounts, positions valued at the simulated market, fills as Primary execution
// reports, and the admin's list of sessions.
//
// SQLite only: the broker keeps sessions, watches and paper accounts in memory; the database
// only serves sign-in. The harness clock is frozen, so the simulator makes no ticks by itself:
// tests publish updates with feeds.advance(), move prices by moving the clock (the market
// trades with time), and make fills with broker.tradeAll(). The
// broker's own one-second timer still revalues watched accounts and fills now and then at
// random, so assertions hold whatever it does: they look at what changed, not how often.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminPositionsResponse,
  ConnectResponse,
  FillsResponse,
  PositionsResponse,
  WarmingUpResponse,
  type Fill,
  type Position,
  type PositionsSnapshot,
} from '../../src/protocol/broker.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { ADMIN, createUser, expectBody, expectErrorResponse, expectSuccess, pollUntil, positionsOf, session, type Session } from './helpers.js';

const [sqlite] = databaseTargets();

const POSITION_FIELDS = [
  'instrument',
  'symbol',
  'buySize',
  'buyPrice',
  'sellSize',
  'sellPrice',
  'totalDailyDiff',
  'totalDiff',
  'tradingSymbol',
  'originalBuyPrice',
  'originalSellPrice',
].sort();

describe('paper broker over HTTP on sqlite', () => {
  let server: TestServer;
  let admin: Session;
  let demo: Session;

  beforeAll(async () => {
    // BROKER_URLS names an address where nothing listens (port 1), to see it unreachable.
    server = await startServer(sqlite!, { brokerUrls: ['https://127.0.0.1:1'] });
    admin = await session(server, ADMIN);
    demo = await session(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  const market = () => server.app.ctx.market;
  const nowIso = () => new Date(server.clock.now()).toISOString();

  /** Connects the paper broker as `user`; returns the session id and its accounts. */
  async function connectPaper(user: Session): Promise<{ sessionId: string; accounts: string[] }> {
    const body = expectBody(await user.api.post('/api/primary/sessions/connect', { url: 'sim://' }), ConnectResponse);
    return { sessionId: body.sessionId, accounts: body.accounts };
  }

  async function fillsOf(user: Session, account: string): Promise<Fill[]> {
    return pollUntil(`fills of ${account}`, async () => {
      const response = await user.api.get(`/api/accounts/${account}/fills`);
      if (response.status === 202) {
        expectBody(response, WarmingUpResponse, 202);
        return null;
      }
      const body = expectBody(response, FillsResponse);
      expect(body.account).toBe(account);
      return body.fills;
    });
  }

  /**
   * Fills and positions that describe the same moment: the fills read before and after the
   * positions are the same list (a random fill of the broker's timer in between retries).
   */
  async function consistentState(user: Session, account: string): Promise<{ fills: Fill[]; snapshot: PositionsSnapshot }> {
    return pollUntil(`a consistent read of ${account}`, async () => {
      const before = await fillsOf(user, account);
      const snapshot = await positionsOf(user, account);
      const after = await fillsOf(user, account);
      return before.length === after.length ? { fills: after, snapshot } : null;
    });
  }

  /** A fresh user with the paper account connected and watched (positions, and fills when asked). */
  async function watchedUser(options: { fills?: boolean } = {}): Promise<{ user: Session; sessionId: string; account: string }> {
    const user = await createUser(server, admin.token);
    const { sessionId, accounts } = await connectPaper(user);
    const account = accounts[0]!;
    expectSuccess(await user.api.post(`/api/accounts/${account}/watch`, { sessionId }));
    if (options.fills) expectSuccess(await user.api.post(`/api/accounts/${account}/watch-fills`, { sessionId }));
    return { user, sessionId, account };
  }

  /** What a position is worth at `last`, by the Primary rule; bonds are quoted per 100 nominal. */
  function valuation(position: Position, last: number, close: number) {
    const instrument = market().catalogue.resolve(position.symbol)!;
    const scale = instrument.kind === 'bond' ? instrument.contractMultiplier / 100 : instrument.contractMultiplier;
    const net = position.buySize - position.sellSize;
    // buyPrice and sellPrice are reported rounded to cents; the server values with the exact averages.
    const tolerance = 0.005 * (position.buySize + position.sellSize) * scale + 0.011;
    return {
      totalDiff: (last * net - (position.buyPrice * position.buySize - position.sellPrice * position.sellSize)) * scale,
      totalDailyDiff: (last - close) * net * scale,
      tolerance,
    };
  }

  describe('POST /api/primary/sessions/connect', () => {
    it("connects the paper broker with the user's demo account", async () => {
      const response = await demo.api.post('/api/primary/sessions/connect', { url: 'sim://', username: '', password: '' });
      const body = expectBody(response, ConnectResponse);
      expect(body).toEqual({ status: 'success', sessionId: expect.stringMatching(/^\S{16,}$/), accounts: ['DEMO-DEMO'] });

      const other = await createUser(server, admin.token);
      const theirs = expectBody(await other.api.post('/api/primary/sessions/connect', { url: 'sim://' }), ConnectResponse);
      expect(theirs.accounts).toEqual([`DEMO-${other.user.username.toUpperCase()}`]);
      expect(theirs.sessionId).not.toBe(body.sessionId);

      // Connecting again (another browser, a reconnect) gives the user the same paper session.
      const again = expectBody(await demo.api.post('/api/primary/sessions/connect', { url: 'sim://' }), ConnectResponse);
      expect(again).toEqual(body);
    });

    it('refuses an address that is neither sim:// nor an http(s) URL, and a missing one', async () => {
      for (const url of ['not a url', 'ftp://broker.example', 'sim:/']) {
        const message = expectErrorResponse(await demo.api.post('/api/primary/sessions/connect', { url }), 400);
        expect(message, url).toBe('La dirección del broker debe ser sim:// o una URL http(s)');
      }
      expect(expectErrorResponse(await demo.api.post('/api/primary/sessions/connect', {}), 400)).toMatch(/url|dirección/i);
    });

    it('tries a real Primary API at an https address and says when it cannot reach it', async () => {
      // The Primary connector is wired (tests/api/primaryBroker.test.ts drives it against the
      // local fake exchange); nothing listens on port 1, so the broker is unreachable.
      const response = await demo.api.post('/api/primary/sessions/connect', { url: 'https://127.0.0.1:1', username: 'someone', password: 'secret-pw' });
      const message = expectErrorResponse(response, 502);
      expect(message).toBe('No se pudo conectar con el broker');
      expect(response.text).not.toContain('secret-pw');
    });

    it('needs a signed-in user', async () => {
      const response = await fetch(`${server.baseUrl}/api/primary/sessions/connect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'sim://' }),
      });
      expect(response.status).toBe(401);
      const bad = await fetch(`${server.baseUrl}/api/primary/sessions/connect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer not-a-token' },
        body: JSON.stringify({ url: 'sim://' }),
      });
      expect(bad.status).toBe(401);
    });
  });

  describe('watching an account and its positions', () => {
    it('keeps a session and its accounts to the user who connected it', async () => {
      const owner = await createUser(server, admin.token);
      const intruder = await createUser(server, admin.token);
      const { sessionId, accounts } = await connectPaper(owner);
      const account = accounts[0]!;

      // Before any watch, nobody has positions for the account.
      expectErrorResponse(await owner.api.get(`/api/accounts/${account}/positions`), 404);

      // Someone else's session id: 404, and nothing gets watched for anybody.
      expect(expectErrorResponse(await intruder.api.post(`/api/accounts/${account}/watch`, { sessionId }), 404)).toBe('La sesión de broker no existe');
      expectErrorResponse(await intruder.api.post(`/api/accounts/${account}/watch-fills`, { sessionId }), 404);
      expectErrorResponse(await intruder.api.get(`/api/accounts/${account}/positions`), 404);
      expectErrorResponse(await owner.api.get(`/api/accounts/${account}/positions`), 404);
      const listed = expectBody(await admin.api.get('/api/admin/positions'), AdminPositionsResponse);
      expect(listed.data.find((entry) => entry.sessionId === sessionId)?.accounts).toEqual([expect.objectContaining({ account, watched: false })]);

      // The intruder's own session does not hold the owner's account.
      const own = await connectPaper(intruder);
      expect(own.accounts).not.toContain(account);
      expect(expectErrorResponse(await intruder.api.post(`/api/accounts/${account}/watch`, { sessionId: own.sessionId }), 404)).toBe(
        `La cuenta ${account} no existe o no es suya`,
      );

      // A session id that does not exist, and a watch without one.
      expectErrorResponse(await owner.api.post(`/api/accounts/${account}/watch`, { sessionId: 'no-such-session' }), 404);
      expectErrorResponse(await owner.api.post(`/api/accounts/${account}/watch`, {}), 400);

      // The owner watches; the intruder still cannot see the account, by any route.
      expectSuccess(await owner.api.post(`/api/accounts/${account}/watch`, { sessionId }));
      await positionsOf(owner, account);
      expectErrorResponse(await intruder.api.get(`/api/accounts/${account}/positions`), 404);
      expectErrorResponse(await intruder.api.get(`/api/accounts/${account}/fills`), 404);
      expect((await intruder.api.get(`/api/accounts/${account}/positions`)).text).not.toContain('"positions"');
    });

    it('an account not in the session is not found', async () => {
      const { sessionId } = await connectPaper(demo);
      expect(expectErrorResponse(await demo.api.post('/api/accounts/DEMO-SOMEONE-ELSE/watch', { sessionId }), 404)).toBe(
        'La cuenta DEMO-SOMEONE-ELSE no existe o no es suya',
      );
      expectErrorResponse(await demo.api.get('/api/accounts/DEMO-SOMEONE-ELSE/positions'), 404);
    });

    it('warms up, then answers the snapshot in Primary position fields with an ETag', async () => {
      const user = await createUser(server, admin.token);
      const { sessionId, accounts } = await connectPaper(user);
      const account = accounts[0]!;
      expect(expectSuccess(await user.api.post(`/api/accounts/${account}/watch`, { sessionId }))).toEqual({ status: 'success', account });

      const first = await user.api.get(`/api/accounts/${account}/positions`);
      expect([200, 202]).toContain(first.status);
      if (first.status === 202) expectBody(first, WarmingUpResponse, 202);

      const snapshot = await positionsOf(user, account);
      expect(Object.keys(snapshot).sort()).toEqual(['account', 'as_of', 'broker', 'etag', 'positions']);
      expect(snapshot).toMatchObject({ account, broker: 'primary', etag: expect.stringMatching(/^\S+$/) });
      expect(snapshot.as_of).toBe(new Date(Date.parse(snapshot.as_of)).toISOString());
      expect(snapshot.as_of).toBe(nowIso()); // the frozen clock of the harness
      expect(snapshot.positions.length).toBeGreaterThan(0);

      const response = await user.api.get(`/api/accounts/${account}/positions`);
      const again = expectBody(response, PositionsResponse);
      expect(response.headers.get('etag')).toBe(`"${again.etag}"`);

      for (const position of snapshot.positions) {
        expect(Object.keys(position).sort(), position.symbol).toEqual(POSITION_FIELDS);
        const instrument = market().catalogue.resolve(position.symbol);
        expect(instrument, position.symbol).not.toBeNull();
        expect(instrument!.instrumentId.symbol).toBe(position.symbol);
        expect(position.instrument).toEqual({ symbolReference: position.symbol, settlType: instrument!.term === 'CI' ? 0 : 1 });
        expect(position.tradingSymbol).toBe(position.symbol);
        for (const field of ['buySize', 'buyPrice', 'sellSize', 'sellPrice', 'totalDailyDiff', 'totalDiff', 'originalBuyPrice', 'originalSellPrice'] as const) {
          expect(Number.isFinite(position[field]), `${position.symbol} ${field}`).toBe(true);
        }
        expect(position.buySize + position.sellSize, position.symbol).toBeGreaterThan(0);
        expect(position.buySize > 0 ? position.buyPrice : 1, position.symbol).toBeGreaterThan(0);
        expect(position.sellSize > 0 ? position.sellPrice : 1, position.symbol).toBeGreaterThan(0);
      }
      // The demo account holds dollar futures on both sides, shares and bonds.
      const kinds = new Set(snapshot.positions.map((position) => market().catalogue.resolve(position.symbol)!.kind));
      expect([...kinds].sort()).toEqual(expect.arrayContaining(['bond', 'future', 'stock']));
      expect(snapshot.positions.some((position) => position.symbol.startsWith('DLR/') && position.sellSize > position.buySize)).toBe(true);
    });

    it('answers 304 without a body when If-None-Match names the current snapshot', async () => {
      const { user, account } = await watchedUser();
      const intruder = await createUser(server, admin.token);
      await positionsOf(user, account);
      const path = `/api/accounts/${account}/positions`;

      // The broker's timer may fill between two requests and change the etag: retried until a
      // conditional request meets the snapshot it names.
      const { etag, conditional } = await pollUntil('a 304 for the current etag', async () => {
        const current = await user.api.get(path);
        expect(current.status).toBe(200);
        const tag = current.headers.get('etag')!;
        expect(tag).toBe(`"${expectBody(current, PositionsResponse).etag}"`);
        const answer = await user.api.get(path, { headers: { 'if-none-match': tag } });
        if (answer.status === 200) {
          expect(answer.headers.get('etag')).not.toBe(tag);
          return null;
        }
        return { etag: tag, conditional: answer };
      });
      expect(conditional.status).toBe(304);
      expect(conditional.text).toBe('');
      expect(conditional.headers.get('etag')).toBe(etag);

      // Weak comparison, lists and '*' as RFC 9110 says; retried like the above.
      for (const header of [(tag: string) => `W/${tag}`, (tag: string) => `"not-this-one", ${tag}`, () => '*']) {
        await pollUntil(`a 304 for If-None-Match ${header('"e"')}`, async () => {
          const tag = (await user.api.get(path)).headers.get('etag')!;
          const answer = await user.api.get(path, { headers: { 'if-none-match': header(tag) } });
          if (answer.status === 200) return null;
          expect(answer.status).toBe(304);
          expect(answer.text).toBe('');
          return true;
        });
      }

      // Another etag, or this one unquoted, is not a match: the snapshot comes whole.
      const unquoted = etag.slice(1, -1);
      for (const header of ['"some-other-etag"', unquoted, '']) {
        const answer = await user.api.get(path, { headers: { 'if-none-match': header } });
        expect(answer.status, header).toBe(200);
        const whole = expectBody(answer, PositionsResponse);
        expect(whole.account).toBe(account);
        expect(answer.headers.get('etag')).toBe(`"${whole.etag}"`);
      }
      // A matching etag does not open someone else's account.
      expect(expectErrorResponse(await intruder.api.get(path, { headers: { 'if-none-match': '*' } }), 404)).toBe(`La cuenta ${account} no existe o no es suya`);
    });

    it('values each position at the live last price, and revalues when the market moves', async () => {
      const { user, account } = await watchedUser();
      const snapshot = await positionsOf(user, account);
      const futures = snapshot.positions.filter((position) => market().catalogue.resolve(position.symbol)!.kind === 'future');
      expect(futures.length).toBeGreaterThan(0);

      // The clock is frozen, so the prices read now are the ones the snapshot used.
      for (const position of snapshot.positions) {
        const last = market().feeds.lastPrice(position.symbol);
        expect(last, position.symbol).not.toBeNull();
        const close = market().hub.latest(position.symbol)?.CL?.price ?? last!;
        const expected = valuation(position, last!, close);
        expect(Math.abs(position.totalDiff - expected.totalDiff), `${position.symbol} totalDiff`).toBeLessThanOrEqual(expected.tolerance);
        expect(Math.abs(position.totalDailyDiff - expected.totalDailyDiff), `${position.symbol} totalDailyDiff`).toBeLessThanOrEqual(0.011);
      }

      // Move the market (its trades come with time) until the future's last price changes; its totalDiff and the etag follow.
      const future = futures.find((position) => position.buySize !== position.sellSize)!;
      const before = market().feeds.lastPrice(future.symbol)!;
      let moved = before;
      for (let round = 0; round < 100 && moved === before; round++) {
        server.clock.advance(60_000);
        market().feeds.advance('rofex', 500);
        moved = market().feeds.lastPrice(future.symbol)!;
      }
      expect(moved).not.toBe(before);

      // The broker's timer revalues within a second or so of wall time.
      const revalued = await pollUntil('a revaluation at the new price', async () => {
        const next = await positionsOf(user, account);
        const position = next.positions.find((p) => p.symbol === future.symbol)!;
        const close = market().hub.latest(future.symbol)?.CL?.price ?? moved;
        const expected = valuation(position, moved, close);
        return Math.abs(position.totalDiff - expected.totalDiff) <= expected.tolerance ? { next, position } : null;
      });
      expect(revalued.next.etag).not.toBe(snapshot.etag);
      expect(revalued.position.totalDiff).not.toBe(future.totalDiff);
    });
  });

  describe('fills', () => {
    it('answers 404 until fills are watched, then 202 or the list', async () => {
      const { user, sessionId, account } = await watchedUser();
      await positionsOf(user, account);
      expect(expectErrorResponse(await user.api.get(`/api/accounts/${account}/fills`), 404)).toMatch(/watch-fills/);

      expect(expectSuccess(await user.api.post(`/api/accounts/${account}/watch-fills`, { sessionId }))).toEqual({ status: 'success', account });
      const first = await user.api.get(`/api/accounts/${account}/fills`);
      expect([200, 202]).toContain(first.status);
      if (first.status === 202) expectBody(first, WarmingUpResponse, 202);
      expect(Array.isArray(await fillsOf(user, account))).toBe(true);
    });

    it('watch-fills alone also watches the positions', async () => {
      const user = await createUser(server, admin.token);
      const { sessionId, accounts } = await connectPaper(user);
      const account = accounts[0]!;
      expectErrorResponse(await user.api.get(`/api/accounts/${account}/fills`), 404);
      expectSuccess(await user.api.post(`/api/accounts/${account}/watch-fills`, { sessionId }));
      await fillsOf(user, account);
      expect((await positionsOf(user, account)).account).toBe(account);
    });

    it('turns a paper trade into a Primary execution report and into the positions', async () => {
      const { user, account } = await watchedUser({ fills: true });
      const start = await consistentState(user, account);

      await server.app.ctx.broker.tradeAll();

      const end = await consistentState(user, account);
      const added = end.fills.slice(start.fills.length);
      expect(end.fills.slice(0, start.fills.length)).toEqual(start.fills);
      expect(added.length).toBeGreaterThanOrEqual(1);
      expect(end.snapshot.etag).not.toBe(start.snapshot.etag);

      for (const fill of added) {
        expect(fill).toMatchObject({
          orderId: expect.stringMatching(/^\S+$/),
          clOrdId: expect.stringMatching(/^\S+$/),
          execId: expect.stringMatching(/^\S+$/),
          accountId: { id: account },
          instrumentId: { marketId: 'ROFX', symbol: expect.any(String) },
          side: expect.stringMatching(/^(?:BUY|SELL)$/),
          leavesQty: 0,
          status: 'FILLED',
        });
        expect(fill.lastQty).toBeGreaterThan(0);
        expect(fill.cumQty).toBe(fill.lastQty);
        expect(fill.avgPx).toBe(fill.lastPx);
        // A market order at the live price; the market did not move since.
        expect(fill.lastPx).toBe(market().feeds.lastPrice(fill.instrumentId.symbol));
        expect(fill.transactTime).toMatch(/^\d{8}-\d{2}:\d{2}:\d{2}\.\d{3}-0300$/);
        const t = fill.transactTime;
        const instant = Date.parse(`${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}T${t.slice(9, 21)}-03:00`);
        expect(instant).toBe(server.clock.now());
      }
      const ids = end.fills.map((fill) => fill.execId);
      expect(new Set(ids).size).toBe(ids.length);

      // Each symbol's sizes grew by exactly what was filled on it since.
      const sizes = (snapshot: PositionsSnapshot, symbol: string) => {
        const position = snapshot.positions.find((p) => p.symbol === symbol);
        return { buy: position?.buySize ?? 0, sell: position?.sellSize ?? 0 };
      };
      for (const symbol of new Set(added.map((fill) => fill.instrumentId.symbol))) {
        const bought = added.filter((f) => f.instrumentId.symbol === symbol && f.side === 'BUY').reduce((sum, f) => sum + f.lastQty, 0);
        const sold = added.filter((f) => f.instrumentId.symbol === symbol && f.side === 'SELL').reduce((sum, f) => sum + f.lastQty, 0);
        expect(sizes(end.snapshot, symbol), symbol).toEqual({
          buy: sizes(start.snapshot, symbol).buy + bought,
          sell: sizes(start.snapshot, symbol).sell + sold,
        });
      }
    });
  });

  describe('paper accounts of different users', () => {
    it("gives a new user of a deleted user's name a fresh account, not the old one's fills", async () => {
      const first = await watchedUser({ fills: true });
      await server.app.ctx.broker.tradeAll();
      const oldFills = await fillsOf(first.user, first.account);
      expect(oldFills.length).toBeGreaterThan(0);
      const tradedAt = server.clock.now();

      expectSuccess(await admin.api.del(`/api/admin/users/${first.user.user._id}`));
      server.clock.advance(1000); // so fills of the new account are told apart by their time
      const again = await createUser(server, admin.token, { username: first.user.user.username });
      const { sessionId, accounts } = await connectPaper(again);
      expect(accounts).toEqual([first.account]); // the same account name: DEMO-<USERNAME>
      expectSuccess(await again.api.post(`/api/accounts/${first.account}/watch-fills`, { sessionId }));

      const fills = await fillsOf(again, first.account);
      const transactAt = (t: string) => Date.parse(`${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}T${t.slice(9, 21)}-03:00`);
      expect(fills.filter((fill) => transactAt(fill.transactTime) <= tradedAt)).toEqual([]);
    });
  });

  describe('GET /api/admin/positions', () => {
    it('lists the broker sessions with their user, accounts and latest snapshot time', async () => {
      const { user, sessionId, account } = await watchedUser();
      const snapshot = await positionsOf(user, account);

      const response = await admin.api.get('/api/admin/positions');
      const body = expectBody(response, AdminPositionsResponse);
      const entry = body.data.find((item) => item.sessionId === sessionId);
      expect(entry).toMatchObject({
        user: user.user.username,
        broker: 'paper',
        url: 'sim://',
        connectedAt: expect.any(String),
        accounts: [{ account, watched: true, subscribers: 0, as_of: snapshot.as_of, lastError: null }],
      });
      // Demo's session is listed under demo, not under this user.
      expect(body.data.filter((item) => item.user === user.user.username).map((item) => item.sessionId)).toEqual([sessionId]);
    });

    it('is for admins only', async () => {
      expect(expectErrorResponse(await demo.api.get('/api/admin/positions'), 403)).toBe('Solo los administradores pueden hacer esto');
      expect((await fetch(`${server.baseUrl}/api/admin/positions`)).status).toBe(401);
    });
  });

  it("ends a deleted user's broker sessions and watches", async () => {
    const trader = await createUser(server, admin.token);
    const { sessionId, accounts } = await connectPaper(trader);
    expectSuccess(await trader.api.post(`/api/accounts/${accounts[0]}/watch`, { sessionId }));
    const listed = async () =>
      expectBody(await admin.api.get('/api/admin/positions'), AdminPositionsResponse).data.some((entry) => entry.sessionId === sessionId);
    expect(await listed()).toBe(true);
    expectSuccess(await admin.api.del(`/api/admin/users/${trader.user._id}`));
    expect(await listed()).toBe(false);
  });
});
