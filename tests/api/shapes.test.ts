// Every answer the client reads has its shape written once, as a zod schema in src/protocol/
// (issue 16, "Shapes once"). This file calls each route of the server and checks its success
// answer against that (strict) schema: a field missing, of another type, or one nobody wrote
// down (a leak) fails here. It checks that every 4xx/5xx body is {status:'error', message},
// and the control events and data frames of both sockets. The last test compares the routes
// the server has with the route table (src/protocol/routes.ts), so a new route cannot go
// without its entry (and a schema where its answer is JSON).
//
// SQLite only: the shapes do not depend on the database, and the other API tests check the
// PostgreSQL answers through the same helpers (tests/api/workspace.ts, helpers.ts).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type WebSocket from 'ws';
import {
  AdminLogsResponse,
  AdminUserResponse,
  AdminUsersResponse,
  ChangePasswordResponse,
  DeleteUserResponse,
  ProfileResponse,
  SignedInUsersResponse,
} from '../../src/protocol/admin.js';
import { CheckTokenResponse, LoginResponse, LogoutResponse } from '../../src/protocol/auth.js';
import {
  AdminPositionsResponse,
  ConnectResponse,
  FillsResponse,
  POSITIONS_CHANNEL_PREFIX,
  PositionsPushMessage,
  PositionsResponse,
  WarmingUpResponse,
  WatchResponse,
} from '../../src/protocol/broker.js';
import {
  ExpirationResponse,
  FeedResponse,
  FeedsResponse,
  FeedSymbolsResponse,
  FormulaSymbolsResponse,
  HistoryResponse,
  InstrumentsResponse,
  SearchResponse,
  IntradayResponse,
  MarketDataMessage,
  MarketSocketsResponse,
} from '../../src/protocol/market.js';
import { ControlEvent, SocketErrorEvent, SubscribedEvent, UnsubscribedEvent } from '../../src/protocol/socket.js';
import {
  DeleteVisorResponse,
  FavResponse,
  FavsResponse,
  FolderTreeResponse,
  NewVisorResponse,
  OwnerResponse,
  PublicVisorResponse,
  SaveTreeResponse,
  ToggleFavResponse,
  UpdateVisorResponse,
  VisorListResponse,
  VisorResponse,
} from '../../src/protocol/workspace.js';
import { ROUTES, routeKey } from '../../src/protocol/routes.js';
import type { z } from '../../src/protocol/zod.js';
import { startServer, type TestServer } from './harness.js';
import {
  ADMIN,
  api,
  createUser,
  expectBody,
  expectErrorResponse,
  expectShape,
  login,
  nextMessage,
  nextMessageWhere,
  openAuthenticatedSocket,
  pollUntil,
  positionsOf,
  request,
  sendJson,
  session,
  type ApiResponse,
  type Session,
} from './helpers.js';
import { SECTIONS, folder, leaf } from './workspace.js';

const SQLITE = { name: 'sqlite' } as const;

/**
 * The schemas of each route's success answer, by `METHOD path`, from the one route table (its
 * answer, or the narrower answer each caller gets); empty: not JSON.
 */
const RESPONSES = new Map<string, readonly z.ZodType[]>(ROUTES.map((route) => [routeKey(route), route.answers ?? (route.response ? [route.response] : [])]));

/** `METHOD path` of every route the server registered (HEAD, which Fastify adds to each GET, left out). */
function registeredRoutes(printed: string): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of printed.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line.replace(/\s+$/, ''));
    if (!match) continue;
    const depth = match[1]!.length / 4;
    // A child's segment continues its parent's text (/api/visores/:id/get + Favs).
    const path = (stack[depth - 1] ?? '') + match[2]!;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of match[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes.sort();
}

describe('response shapes on sqlite', () => {
  let server: TestServer;
  let admin: Session;
  let demo: Session;
  const sockets: WebSocket[] = [];
  /** The routes whose success answer a test below checked against its schema. */
  const checked = new Set<string>();

  beforeAll(async () => {
    server = await startServer(SQLITE);
    // Only feeds.advance() moves prices here.
    server.app.ctx.market.feeds.stopAll();
    server.app.ctx.market.feeds.advance('rofex', 200);
    server.app.ctx.market.feeds.advance('tv', 200);
    admin = await session(server, ADMIN);
    demo = await session(server);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server?.close();
  });

  /** Checks `response` against the schema of `route` and notes the route as checked; returns the body typed. */
  function answer<S extends z.ZodType>(route: string, schema: S, response: ApiResponse, status = 200): z.output<S> {
    expect(RESPONSES.get(route), `${route} is in the table with this schema`).toContain(schema);
    const body = expectBody(response, schema, status);
    checked.add(route);
    return body;
  }

  async function socket(path: '/ws/market' | '/ws/positions', who: Session): Promise<WebSocket> {
    const opened = await openAuthenticatedSocket(server.wsUrl(path), who.token);
    sockets.push(opened);
    return opened;
  }

  it('sign-in, the token check and sign-out', async () => {
    const signedIn = answer('POST /api/login', LoginResponse, await login(server.baseUrl, ADMIN.username, ADMIN.password));
    answer('POST /api/checkToken', CheckTokenResponse, await api(server, null).post('/api/checkToken', { token: signedIn.token }));
    answer('POST /api/logout', LogoutResponse, await api(server, signedIn.token).post('/api/logout', { log: 'shapes' }));
  });

  it('the workspace: visores, sections, sharing, favourites, the tree', async () => {
    const me = demo.user._id;
    const created = answer('POST /api/visores/:id/new', NewVisorResponse, await demo.api.post(`/api/visores/${me}/new`, { title: 'Formas', emoji: '📈' }));
    const visorId = created.data.id_visor;
    answer('PUT /api/visores/:id', UpdateVisorResponse, await demo.api.put(`/api/visores/${visorId}`, { title: 'Formas 2', color: '#112233' }));
    const withSections = answer(
      'PUT /api/visores/:id/update_secciones',
      VisorResponse,
      await demo.api.put(`/api/visores/${visorId}/update_secciones`, { secciones: SECTIONS }),
    );
    expect(withSections.data.secciones).toEqual(SECTIONS);
    // With If-Match naming the version read (issue 18); the answer carries the next one.
    const again = answer(
      'PUT /api/visores/:id/update_secciones',
      VisorResponse,
      await demo.api.put(`/api/visores/${visorId}/update_secciones`, { secciones: SECTIONS }, { headers: { 'if-match': `"${withSections.data.version}"` } }),
    );
    expect(again.data.version).toBe(withSections.data.version + 1);
    answer('PUT /api/visores/:id/check_option', VisorResponse, await demo.api.put(`/api/visores/${visorId}/check_option`, { option: 'public', value: true }));
    answer('GET /api/visores/:id/get', VisorResponse, await demo.api.get(`/api/visores/${visorId}/get`));
    const visitor = await createUser(server, admin.token);
    answer('GET /api/visores/:id/get', PublicVisorResponse, await visitor.api.get(`/api/visores/${visorId}/get`));
    answer('GET /api/visores/:id', VisorListResponse, await demo.api.get(`/api/visores/${me}`));

    // A tree with a favourite folder, a nested folder with every optional field, and leaves.
    const tree = answer('GET /api/visores/:id/folders', FolderTreeResponse, await demo.api.get(`/api/visores/${me}/folders`));
    const nodes = [folder('Fav', [leaf(visorId)], { fav: true }), folder('Otra', [folder('Dentro', [], { heading: true, over: false })])];
    const saved = answer(
      'PUT /api/visores/:id/folders',
      SaveTreeResponse,
      await demo.api.put(`/api/visores/${me}/folders`, nodes, { headers: { 'if-match': String(tree.version) } }),
    );
    const read = answer('GET /api/visores/:id/folders', FolderTreeResponse, await demo.api.get(`/api/visores/${me}/folders`));
    expect(read.version).toBe(saved.version);
    const unchanged = await demo.api.get(`/api/visores/${me}/folders`, { headers: { 'if-none-match': `"${read.version}"` } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');

    // The leaf saved above carries no fav: the favourite is set after the save.
    expect(answer('PUT /api/visores/:id/:id2/fav', ToggleFavResponse, await demo.api.put(`/api/visores/${me}/${visorId}/fav`)).data).toEqual({ fav: true });
    answer('GET /api/visores/:id/:id2/fav', FavResponse, await demo.api.get(`/api/visores/${me}/${visorId}/fav`));
    const favs = answer('GET /api/visores/:id/getFavs', FavsResponse, await demo.api.get(`/api/visores/${me}/getFavs`));
    expect(favs.data.visores.map((item) => item.visor_id)).toContain(visorId);
    expect(favs.data.folders.map((item) => item.folder_id)).toEqual(['Fav']);

    // Another user clones the public visor and asks who owns what.
    const other = await createUser(server, admin.token);
    const clone = answer('POST /api/visores/:id/:id2/clonar', NewVisorResponse, await other.api.post(`/api/visores/${other.user._id}/${visorId}/clonar`));
    const owner = (id: string) => other.api.post(`/api/visores/${other.user._id}/${id}/verify_owner_visor`);
    expect(answer('POST /api/visores/:id/:id2/verify_owner_visor', OwnerResponse, await owner(clone.data.id_visor)).data).toEqual({ owner: true });
    expect(answer('POST /api/visores/:id/:id2/verify_owner_visor', OwnerResponse, await owner(visorId)).data).toEqual({ owner: false });

    answer('DELETE /api/visores/:id', DeleteVisorResponse, await other.api.del(`/api/visores/${clone.data.id_visor}`));
  });

  it('the profile', async () => {
    const user = await createUser(server, admin.token);
    answer('GET /api/profile', ProfileResponse, await user.api.get('/api/profile'));
    answer('PUT /api/profile', ProfileResponse, await user.api.put('/api/profile', { firstName: 'Nueva', lastName: 'Forma' }));
    answer(
      'PUT /api/profile/password',
      ChangePasswordResponse,
      await user.api.put('/api/profile/password', { current: user.password, next: 'otra-clave-larga' }),
    );
  });

  it('the admin: users and the operator log', async () => {
    answer('GET /api/admin/users', AdminUsersResponse, await admin.api.get('/api/admin/users'));
    const username = `formas_${Date.now()}`;
    const created = answer(
      'POST /api/admin/users',
      AdminUserResponse,
      await admin.api.post('/api/admin/users', { username, password: 'clave-de-formas' }),
      201,
    );
    answer('PUT /api/admin/users/:id', AdminUserResponse, await admin.api.put(`/api/admin/users/${created.data._id}`, { disabled: true, lastName: 'X' }));
    answer('DELETE /api/admin/users/:id', DeleteUserResponse, await admin.api.del(`/api/admin/users/${created.data._id}`));

    const first = answer('GET /api/admin/logs', AdminLogsResponse, await admin.api.get('/api/admin/logs?limit=1'));
    expect(first.next_cursor).not.toBeNull();
    const last = answer('GET /api/admin/logs', AdminLogsResponse, await admin.api.get('/api/admin/logs?limit=200'));
    expect(last.next_cursor).toBeNull();
    // Every kind of entry so far: sign-ins (detail null or not), workspace, profile and admin actions.
    expect(new Set(last.data.map((item) => item.action)).size).toBeGreaterThan(3);
  });

  it('the market: search, formulas, expirations, candles, instruments', async () => {
    const hits = answer('POST /api/visores/search', SearchResponse, await demo.api.post('/api/visores/search', { symbol: 'dlr' }));
    expect(hits.data.length).toBeGreaterThan(0);
    const formula = answer(
      'POST /api/search_symbols_formula',
      FormulaSymbolsResponse,
      await demo.api.post('/api/search_symbols_formula', { formula: 'BYMA:AL30 / BYMA:AL30D + NOPE:X' }),
    );
    expect(formula.data.unknown).toEqual(['NOPE:X']);
    const instruments = answer('GET /api/visores/primary/instruments', InstrumentsResponse, await demo.api.get('/api/visores/primary/instruments'));
    // Instruments with and without an expiry: both forms of the record parse.
    const future = instruments.instruments.find((instrument) => instrument.maturityDate != null)!;
    expect(instruments.instruments.some((instrument) => instrument.maturityDate == null)).toBe(true);
    answer(
      'POST /api/get_expiration_contract',
      ExpirationResponse,
      await demo.api.post('/api/get_expiration_contract', { contract_name: future.instrumentId.symbol }),
    );

    const today = new Date(server.clock.now()).toISOString().slice(0, 10);
    // A past weekday has a whole session of minute candles.
    let day = server.clock.now() - 24 * 60 * 60 * 1000;
    while ([0, 6].includes(new Date(day).getUTCDay())) day -= 24 * 60 * 60 * 1000;
    const intraday = answer(
      'POST /api/get_intradia',
      IntradayResponse,
      await demo.api.post('/api/get_intradia', { symbol: 'BYMA:AL30', date: new Date(day).toISOString().slice(0, 10) }),
    );
    expect(intraday.data.length).toBeGreaterThan(0);
    answer('POST /api/get_intradia', IntradayResponse, await demo.api.post('/api/get_intradia', { symbol: 'BYMA:AL30', date: today }));
    const history = answer(
      'POST /api/visores/search/symbol/history',
      HistoryResponse,
      await demo.api.post('/api/visores/search/symbol/history', { symbol: 'BYMA:AL30', limit: 5 }),
    );
    expect(history.data).toHaveLength(5);
  });

  it('the market socket: its control events and data frames, and the admin views of feeds and sockets', async () => {
    const market = await socket('/ws/market', demo);
    const future = server.app.ctx.market.catalogue.instruments.find((instrument) => instrument.maturityDate != null && instrument.feed === 'rofex')!;
    const symbol = future.instrumentId.symbol;

    sendJson(market, { action: 'subscribe', symbol, requestId: 'one' });
    const snapshot = expectShape(MarketDataMessage, await nextMessage(market), 'the snapshot');
    expect(snapshot.requestId).toBe('one');
    expect(snapshot[symbol]).toMatchObject({ expiration: future.maturityDate });
    sendJson(market, { action: 'subscribe', symbols: [symbol, 'BYMA:AL30', 'NOPE/X'], requestId: 'many' });
    expect(expectShape(SocketErrorEvent, await nextMessage(market), 'the unknown-symbols event').symbols).toEqual(['NOPE/X']);
    expect(Object.keys(expectShape(MarketDataMessage, await nextMessage(market), 'the batch snapshot')).sort()).toEqual(
      ['BYMA:AL30', symbol, 'requestId'].sort(),
    );

    // An update frame: keyed by symbol, no requestId.
    const { hub, feeds: simulators } = server.app.ctx.market;
    const before = hub.latest(symbol);
    for (let ticks = 0; hub.latest(symbol) === before && ticks < 100_000; ticks++) simulators.advance('rofex', 1);
    const { message: update } = await nextMessageWhere(market, (message) => typeof message === 'object' && message != null && symbol in message);
    expect(expectShape(MarketDataMessage, update, 'an update frame').requestId).toBeUndefined();

    sendJson(market, { action: 'unsubscribe', symbol: 'BYMA:AL30', requestId: 'u1' });
    expectShape(UnsubscribedEvent, await nextMessageWhere(market, isEvent).then(({ message }) => message), 'the unsubscribed event');
    sendJson(market, { action: 'unsubscribe', symbols: [symbol], requestId: 'u2' });
    expectShape(UnsubscribedEvent, await nextMessageWhere(market, isEvent).then(({ message }) => message), 'the batch unsubscribed event');
    sendJson(market, { action: 'dance' });
    expectShape(SocketErrorEvent, await nextMessageWhere(market, isEvent).then(({ message }) => message), 'the unknown-action event');

    sendJson(market, { action: 'subscribe', symbol, requestId: 'again' });
    await nextMessageWhere(market, (message) => (message as { requestId?: string }).requestId === 'again');
    const listed = answer('GET /api/admin/market/sockets', MarketSocketsResponse, await admin.api.get('/api/admin/market/sockets'));
    expect(listed.data.some((item) => item.symbols.includes(symbol))).toBe(true);

    const feeds = answer('GET /api/admin/feeds', FeedsResponse, await admin.api.get('/api/admin/feeds'));
    expect(feeds.data.find((feed) => feed.name === 'rofex')?.clients).toBeGreaterThanOrEqual(1);
    const symbols = answer('GET /api/admin/feeds/:name/symbols', FeedSymbolsResponse, await admin.api.get('/api/admin/feeds/rofex/symbols'));
    expect(symbols.data.length).toBeGreaterThanOrEqual(1);
    const signedIn = answer('GET /api/admin/sessions', SignedInUsersResponse, await admin.api.get('/api/admin/sessions'));
    expect(signedIn.data.map((user) => user.username)).toContain('admin');
    answer('PUT /api/admin/feeds/:name', FeedResponse, await admin.api.put('/api/admin/feeds/tv', { rate: 5 }));
    answer('POST /api/admin/feeds/:name/start', FeedResponse, await admin.api.post('/api/admin/feeds/tv/start'));
    answer('POST /api/admin/feeds/:name/stop', FeedResponse, await admin.api.post('/api/admin/feeds/tv/stop'));
  });

  it('the broker: sessions, watches, positions, fills, and the positions socket', async () => {
    const user = await createUser(server, admin.token);
    const connected = answer('POST /api/primary/sessions/connect', ConnectResponse, await user.api.post('/api/primary/sessions/connect', { url: 'sim://' }));
    const account = connected.accounts[0]!;
    const sessionId = connected.sessionId;
    answer('POST /api/accounts/:account/watch', WatchResponse, await user.api.post(`/api/accounts/${account}/watch`, { sessionId }));
    answer('POST /api/accounts/:account/watch-fills', WatchResponse, await user.api.post(`/api/accounts/${account}/watch-fills`, { sessionId }));

    // 202 until the first valuation (positionsOf checks both answers), then the snapshot.
    await positionsOf(user, account);
    const snapshot = answer('GET /api/accounts/:account/positions', PositionsResponse, await user.api.get(`/api/accounts/${account}/positions`));
    const unchanged = await user.api.get(`/api/accounts/${account}/positions`, { headers: { 'if-none-match': `"${snapshot.etag}"` } });
    if (unchanged.status === 304) expect(unchanged.text).toBe('');

    const positions = await socket('/ws/positions', user);
    const channel = `${POSITIONS_CHANNEL_PREFIX}${account}`;
    sendJson(positions, { action: 'subscribe', symbol: channel });
    expectShape(SubscribedEvent, await nextMessage(positions), 'the subscribed event');
    sendJson(positions, { action: 'subscribe', symbol: `${POSITIONS_CHANNEL_PREFIX}NOT-MINE` });
    const refused = expectShape(SocketErrorEvent, await nextMessageWhere(positions, isEvent).then(({ message }) => message), 'the not-watched event');
    expect(refused.symbol).toBe(`${POSITIONS_CHANNEL_PREFIX}NOT-MINE`);

    // A fill changes the positions: a push follows, and the fills list it.
    await server.app.ctx.broker.tradeAll();
    const { message: push } = await nextMessageWhere(positions, (message) => typeof message === 'object' && message != null && channel in message);
    expect(expectShape(PositionsPushMessage, push, 'the positions push')[channel]?.data?.account).toBe(account);
    const fills = await pollUntil('a fill', async () => {
      const response = await user.api.get(`/api/accounts/${account}/fills`);
      if (response.status === 202) return void expectBody(response, WarmingUpResponse, 202);
      const body = answer('GET /api/accounts/:account/fills', FillsResponse, response);
      return body.fills.length > 0 ? body : null;
    });
    expect(fills.account).toBe(account);
    sendJson(positions, { action: 'unsubscribe', symbol: channel });
    expectShape(UnsubscribedEvent, await nextMessageWhere(positions, isEvent).then(({ message }) => message), 'the unsubscribed event');

    const listed = answer('GET /api/admin/positions', AdminPositionsResponse, await admin.api.get('/api/admin/positions'));
    expect(listed.data.find((item) => item.sessionId === sessionId)?.accounts).toEqual([expect.objectContaining({ account, watched: true })]);
  });

  it('every control event of both sockets is one of ControlEvent', async () => {
    for (const path of ['/ws/market', '/ws/positions'] as const) {
      const opened = await socket(path, demo);
      sendJson(opened, { action: 'ping', requestId: 'p' });
      expectShape(ControlEvent, await nextMessage(opened), 'pong');
      sendJson(opened, { action: 'auth', token: demo.token });
      expectShape(ControlEvent, await nextMessage(opened), 'the already-authenticated event');
      sendJson(opened, { action: 'subscribe' });
      expectShape(ControlEvent, await nextMessage(opened), 'the invalid-subscribe event');
    }
  });

  describe('every error status answers {status:"error", message}', () => {
    const statuses = new Set<number>();
    /** expectErrorResponse checks the body against the strict ErrorResponse. */
    const refused = (response: ApiResponse, status: number) => {
      expectErrorResponse(response, status);
      statuses.add(status);
    };

    it('4xx', async () => {
      refused(await request(server.baseUrl, 'POST', '/api/login', { raw: '{"username": ' }), 400);
      refused(await demo.api.post(`/api/visores/${demo.user._id}/new`, { title: '' }), 400);
      refused(await login(server.baseUrl, 'demo', 'wrong-password'), 401);
      refused(await api(server, null).get('/api/profile'), 401);
      refused(await demo.api.get('/api/admin/users'), 403);
      refused(await demo.api.get(`/api/visores/${admin.user._id}/folders`), 403);
      refused(await demo.api.get('/api/nope'), 404);
      refused(await demo.api.get('/api/visores/0123456789abcdef0123456789abcdef/get'), 404);
      refused(await request(server.baseUrl, 'GET', '/emoji/apple/64/nope.png'), 404);
      refused(await admin.api.post('/api/admin/users', { username: 'demo', password: 'clave-de-formas' }), 409);
      // A create naming a visor deleted since (an offline create sent again, issue 21).
      const buried = { title: 'Borrado', visor_id: '9f'.repeat(16) };
      expectBody(await demo.api.post(`/api/visores/${demo.user._id}/new`, buried), NewVisorResponse);
      expectBody(await demo.api.del(`/api/visores/${buried.visor_id}`), DeleteVisorResponse);
      refused(await demo.api.post(`/api/visores/${demo.user._id}/new`, buried), 410);
      const { version } = expectBody(await demo.api.get(`/api/visores/${demo.user._id}/folders`), FolderTreeResponse);
      refused(await demo.api.put(`/api/visores/${demo.user._id}/folders`, [], { headers: { 'if-match': String(version + 5) } }), 412);
      const stale = expectBody(await demo.api.post(`/api/visores/${demo.user._id}/new`, { title: 'Versión' }), NewVisorResponse).data.id_visor;
      refused(await demo.api.put(`/api/visores/${stale}/update_secciones`, { secciones: [] }, { headers: { 'if-match': '"7"' } }), 412);
      refused(await request(server.baseUrl, 'POST', '/api/login', { raw: JSON.stringify({ password: 'x'.repeat(1024 * 1024 + 1) }) }), 413);
      refused(await request(server.baseUrl, 'POST', '/api/login', { raw: '<a/>', headers: { 'content-type': 'application/xml' } }), 415);
      const blocked = `bloqueado_${Date.now()}`;
      let last: ApiResponse | null = null;
      for (let attempt = 0; attempt < 6; attempt++) last = await login(server.baseUrl, blocked, 'wrong-password');
      refused(last!, 429);
    });

    it('5xx', async () => {
      // A failure inside a service, with a path in its message that must not leave the server.
      const failing = vi.spyOn(server.app.ctx.workspace, 'getFavs').mockRejectedValue(new Error('provoked by the test at /srv/app.ts:1:2'));
      const { log } = server.app.app;
      const level = log.level;
      log.level = 'fatal'; // the server logs the failure with its stack; not here
      try {
        refused(await demo.api.get(`/api/visores/${demo.user._id}/getFavs`), 500);
      } finally {
        failing.mockRestore();
        log.level = level;
      }
      expect([...statuses].sort()).toEqual([400, 401, 403, 404, 409, 410, 412, 413, 415, 429, 500]);
    });
  });

  it('every route of the server has its schema in the table, and each JSON one was checked above', () => {
    const routes = registeredRoutes(server.app.app.printRoutes({ commonPrefix: false }));
    expect(routes).toContain('GET /api/visores/:id/getFavs');
    const table = ROUTES.map(routeKey);
    expect(new Set(table).size, 'the route table names no route twice').toBe(table.length);
    expect(new Set(routes).size, 'the server registers no route twice').toBe(routes.length);
    expect(routes).toEqual([...table].sort());
    const unchecked = [...RESPONSES].filter(([route, schemas]) => schemas.length > 0 && !checked.has(route)).map(([route]) => route);
    expect(unchecked).toEqual([]);
  });
});

function isEvent(message: unknown): boolean {
  return typeof message === 'object' && message != null && 'event' in message;
}
