// Property-based fuzzing of every route in the route table (src/protocol/routes.ts) and of
// both sockets (issue 17, "Keep it closed"). For each route, fast-check generates requests:
// bodies valid-ish from the route's schema, mutated, or garbage (wrong types, huge strings,
// deep nesting around and far past the JSON depth limit, never answered 2xx, unicode, NUL, lone surrogates, `__proto__`/`constructor` keys, bytes that are
// not JSON or not UTF-8, around and over the 1 MB limit); path parameters (the right ids,
// long, %-encoded, `%ff`, raw unicode, `..`); headers (Content-Type variants, huge, duplicated,
// broken framing, upgrade headers on the sockets' paths); query strings; as the user, the
// admin, nobody or a broken token. Every answer must be: no 5xx, each 4xx a JSON
// `{status:'error', message}` with a message, whole (never cut off), and the server answers
// /api/health after each route's run. For /ws/market and /ws/positions, generated frames
// before and after auth (garbage JSON, binary frames, frames over 64 KB and over 1 MB, invalid
// UTF-8, wrong actions, many symbols, nesting past the depth limit) are checked against a model of the documented
// behaviour: the close code (4401 before auth, 1008 after five broken limits, 1009 over 1 MB,
// 1007 for invalid UTF-8) or the socket still answering, and every event a ControlEvent.
//
// Seeded: FUZZ_SEED=<n> repeats a run (a random seed otherwise, printed). A failure prints
// its seed, its fast-check path and a command that replays that one case. FUZZ_SECONDS
// (default 60) is the whole run's budget, shared by the routes; each route gets a minimum
// number of runs whatever the machine's speed. FUZZ_COLLECT=<file> records every distinct
// failure (route, status, message) without stopping, to list what a change still breaks.
// FUZZ_LOG=<level> shows the server's log (silent otherwise).
//
// SQLite only: the database is not what is fuzzed here.
import fs from 'node:fs';
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ErrorResponse } from '../../src/protocol/auth.js';
import { PositionsPushMessage } from '../../src/protocol/broker.js';
import { MarketDataMessage, SubscribeManyMessage, SubscribeMessage } from '../../src/protocol/market.js';
import { ROUTES, routeKey, type Route, type RouteParam } from '../../src/protocol/routes.js';
import { AuthMessage, ControlEvent, SOCKET_LIMITS, SocketErrorEvent } from '../../src/protocol/socket.js';
import { startServer, type TestServer } from './harness.js';
import { ADMIN, checkToken, createUser, expectSuccess, session, type Session } from './helpers.js';
import { FolderTree } from '../../src/protocol/workspace.js';
import { jsonTooDeep } from '../../src/protocol/jsonDepth.js';
import {
  deepJson,
  deepTreeJson,
  bodyCase,
  headerCase,
  jsonGarbage,
  NASTY_STRINGS,
  pathSegment,
  queryString,
  rawHttp,
  type BodyCase,
  type HeaderCase,
  type HeaderList,
  type RawExchange,
  type RawRequest,
} from './fuzzInputs.js';

const SQLITE = { name: 'sqlite' } as const;

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
if (!Number.isSafeInteger(SEED)) throw new Error(`FUZZ_SEED must be an integer, not ${process.env.FUZZ_SEED}`);
const ONLY_ROUTE = process.env.FUZZ_ROUTE?.trim() || null;
/** `<phase>:<fast-check path>` of one case to run again. */
const REPLAY = process.env.FUZZ_REPLAY?.trim() || null;
const COLLECT = process.env.FUZZ_COLLECT?.trim() || null;
const TOTAL_MS = Number(process.env.FUZZ_SECONDS ?? 60) * 1000;

/** Every route, the sockets' too: their upgrade is an HTTP request (plain GETs and broken upgrades among the cases). */
const HTTP_ROUTES = ROUTES;
const SOCKET_ROUTES = ROUTES.filter((route) => route.socket);
/** 70% of the budget for the HTTP cases of every route, 20% for the sockets' frames, the rest for the server's start and checks. */
const HTTP_BUDGET_MS = Math.max(200, (TOTAL_MS * 0.7) / HTTP_ROUTES.length);
const SOCKET_BUDGET_MS = Math.max(500, (TOTAL_MS * 0.2) / SOCKET_ROUTES.length);
/**
 * The runs this file defines: every one, or the one FUZZ_ROUTE names (`METHOD path` for a route's
 * HTTP cases, `frames <path>` for a socket's frames) to replay it; a name that matches no run is an error.
 */
const HTTP_ROUTES_RUN = HTTP_ROUTES.filter((route) => ONLY_ROUTE == null || routeKey(route) === ONLY_ROUTE);
const SOCKET_ROUTES_RUN = SOCKET_ROUTES.filter((route) => ONLY_ROUTE == null || `frames ${route.path}` === ONLY_ROUTE);
if (HTTP_ROUTES_RUN.length + SOCKET_ROUTES_RUN.length === 0) throw new Error(`FUZZ_ROUTE '${ONLY_ROUTE}' names no route of src/protocol/routes.ts`);
const MIN_HTTP_RUNS = 12;
const MIN_SOCKET_RUNS = 12;
/** However slow the machine, a request has this long to be answered; longer is a hang. */
const REQUEST_TIMEOUT_MS = 10_000;
const SOCKET_WAIT_MS = 5_000;

if (!REPLAY) console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} repeats this run)`);

/** A 32-bit seed of its own for each route, so FUZZ_ROUTE runs one route with the seed it had in the whole run. */
function routeSeed(key: string): number {
  let hash = SEED | 0;
  for (const char of key) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** Keeps the start and the length of what may be huge. */
function excerpt(text: string, max = 300): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

class FuzzFailure extends Error {
  constructor(
    readonly signature: string,
    message: string,
  ) {
    super(message);
  }
}

// ------------------------------------------------------------------------------ the server

interface Fixtures {
  user: Session;
  admin: Session;
  /** A user the admin's routes may change and delete. */
  victim: Session;
  visors: string[];
  account: string;
  symbols: string[];
}

describe('fuzzing every route and both sockets on sqlite', () => {
  let server: TestServer;
  let port: number;
  let fx: Fixtures;
  const collected = new Map<string, { route: string; example: string }>();

  beforeAll(async () => {
    // No broker URL but sim://: a generated URL must not reach the network.
    // The server's own log stays quiet (thousands of refused requests); FUZZ_LOG=<level> shows it.
    // Its generated sign-ins fail by the thousand from one address: a per-address budget that
    // large keeps the fixtures' own sign-ins (refreshFixtures) answered, as the username limit does.
    server = await startServer(SQLITE, { brokerUrls: [], logLevel: process.env.FUZZ_LOG?.trim() || 'silent', loginIpMaxFailures: 1_000_000 });
    port = Number(new URL(server.baseUrl).port);
    const { feeds } = server.app.ctx.market;
    feeds.stopAll();
    feeds.advance('rofex', 50);
    feeds.advance('tv', 50);
    const admin = await session(server, ADMIN);
    const user = await createUser(server, admin.token);
    const victim = await createUser(server, admin.token);
    const connected = expectSuccess<{ sessionId: string; accounts: string[] }>(await user.api.post('/api/primary/sessions/connect', { url: 'sim://' }));
    const account = connected.accounts[0]!;
    expectSuccess(await user.api.post(`/api/accounts/${account}/watch`, { sessionId: connected.sessionId }));
    const symbols = server.app.ctx.market.catalogue.instruments.slice(0, 40).map((instrument) => instrument.instrumentId.symbol);
    fx = { user, admin, victim, visors: [], account, symbols };
    await refreshFixtures();
  });

  afterAll(async () => {
    if (COLLECT) {
      const lines = [...collected].map(([signature, { route, example }]) => JSON.stringify({ route, signature, example }));
      fs.writeFileSync(COLLECT, lines.join('\n') + '\n');
      console.log(`fuzz: ${collected.size} distinct failures written to ${COLLECT}`);
    }
    await server?.close();
  });

  /** Signs in again whoever a route signed out, and makes the visores the params name exist again. */
  async function refreshFixtures(): Promise<void> {
    for (const who of ['user', 'admin', 'victim'] as const) {
      if ((await checkToken(server.baseUrl, fx[who].token)).status === 200) continue;
      const credentials = { username: fx[who].user.username, password: fx[who].password };
      fx[who] = await session(server, credentials).catch(() => fx[who]);
    }
    const visors: string[] = [];
    for (const owner of [fx.user, fx.admin]) {
      const created = await owner.api.post(`/api/visores/${owner.user._id}/new`, { title: 'Fuzz', emoji: '🧪' });
      if (created.status === 200) {
        const visor = (created.body as { data: { id_visor: string } }).data.id_visor;
        await owner.api.put(`/api/visores/${visor}/check_option`, { option: 'public', value: true });
        visors.push(visor);
      }
    }
    fx.visors = visors.length > 0 ? visors : fx.visors;
    server.app.ctx.market.feeds.stopAll();
  }

  async function expectHealthy(after: string): Promise<void> {
    const exchange = await rawHttp(
      port,
      {
        method: 'GET',
        target: '/api/health',
        headers: [
          ['host', `127.0.0.1:${port}`],
          ['connection', 'close'],
        ],
        body: null,
      },
      REQUEST_TIMEOUT_MS,
    );
    expect(exchange.answers[0]?.status, `the server stopped answering /api/health after ${after}: ${exchange.problem ?? ''}`).toBe(204);
  }

  // ---------------------------------------------------------------------------- HTTP

  function validParams(kind: RouteParam): string[] {
    switch (kind) {
      case 'self':
        return [fx.user.user._id, fx.admin.user._id];
      case 'visor':
        return fx.visors;
      case 'user':
        return [fx.victim.user._id];
      case 'account':
        return [fx.account];
      case 'feed':
        return ['rofex', 'tv'];
      case 'emojiFile':
        return ['1f600.png', '1f468-200d-1f4bb.png'];
    }
  }

  interface HttpCase {
    /** The path in capitals (`/API/PROFILE`): not a route, so a JSON 404. */
    shout: boolean;
    params: Record<string, string>;
    query: string;
    body: BodyCase;
    headers: HeaderCase;
  }

  function httpCase(route: Route): fc.Arbitrary<HttpCase> {
    const params: Record<string, fc.Arbitrary<string>> = {};
    for (const [name, kind] of Object.entries(route.params ?? {})) params[name] = pathSegment(validParams(kind));
    return fc.record({
      shout: fc.oneof({ weight: 30, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      params: fc.record(params),
      query: queryString(route.query),
      body: bodyCase(route.body, route.body === FolderTree ? fc.integer({ min: 17, max: 3000 }).map(deepTreeJson) : undefined),
      headers: headerCase(route.socket === true),
    });
  }

  function tokenFor(headers: HeaderCase): string | null {
    if (headers.auth === 'user') return fx.user.token;
    if (headers.auth === 'admin') return fx.admin.token;
    if (headers.auth === 'garbage') return 'x'.repeat(64);
    return null;
  }

  function rawRequest(route: Route, input: HttpCase): RawRequest {
    const filled = route.path.replace(/:(\w+)/g, (_match, name: string) => input.params[name] ?? name);
    // Only /api paths: `/API/…` must be a JSON 404; other unknown paths are the client's (index.html, or 503 here where none is built).
    const path = input.shout && filled.startsWith('/api/') ? filled.toUpperCase() : filled;
    const target = input.query ? `${path}?${input.query}` : path;
    const { headers: h, body } = input;
    const headers: HeaderList = [];
    const host = `127.0.0.1:${port}`;
    const ownHost = h.extra.some(([name]) => name === 'host');
    if (!ownHost && (h.host === 'ok' || h.host === 'twice')) headers.push(['host', host]);
    if (h.host === 'twice') headers.push(['host', 'evil.example']);
    if (!ownHost && h.host === 'evil') headers.push(['host', 'evil.example']);
    if (!h.extra.some(([name]) => name === 'connection')) headers.push(['connection', 'close']);
    const token = tokenFor(h);
    if (token) {
      const forms: Record<HeaderCase['authForm'], HeaderList> = {
        bearer: [['authorization', `Bearer ${token}`]],
        lowercase: [['authorization', `bearer ${token}`]],
        extra: [['authorization', `Bearer ${token} extra`]],
        twice: [
          ['authorization', `Bearer ${token}`],
          ['authorization', 'Bearer another'],
        ],
        basic: [['authorization', `Basic ${Buffer.from(`admin:${token}`).toString('base64')}`]],
      };
      headers.push(...forms[h.authForm]);
    }
    if (h.contentType != null) headers.push(['content-type', h.contentType]);
    if (h.duplicateContentType) headers.push(['content-type', 'text/plain']);
    headers.push(...h.extra);
    let bytes = body.bytes;
    const length = bytes?.length ?? 0;
    switch (h.framing) {
      case 'length':
        if (bytes) headers.push(['content-length', String(length)]);
        break;
      case 'chunked':
        headers.push(['transfer-encoding', 'chunked']);
        bytes = Buffer.concat([
          ...(bytes && length > 0 ? [Buffer.from(`${length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')] : []),
          Buffer.from('0\r\n\r\n'),
        ]);
        break;
      case 'short':
        headers.push(['content-length', String(length + 10)]);
        break;
      case 'long':
        headers.push(['content-length', String(Math.max(0, length - 5))]);
        break;
      case 'twice':
        headers.push(['content-length', String(length)], ['content-length', String(length + 1)]);
        break;
      case 'both':
        headers.push(['content-length', String(length)], ['transfer-encoding', 'chunked']);
        break;
    }
    return { method: route.method, target, headers, body: bytes };
  }

  function describeRequest(request: RawRequest, input: HttpCase): string {
    const headers = request.headers.map(([name, value]) => `  ${name}: ${excerpt(JSON.stringify(value).slice(1, -1), 120)}`).join('\n');
    const body = request.body ? excerpt(JSON.stringify(request.body.toString('utf8'))) : '(none)';
    return `${request.method} ${excerpt(request.target, 200)}\n${headers}\n  body (${input.body.kind}, ${request.body?.length ?? 0} bytes): ${body}`;
  }

  function describeExchange(exchange: RawExchange): string {
    const answers = exchange.answers.map(
      (answer) =>
        `  ${answer.status} ${answer.headers['content-type']?.join(', ') ?? '(no content-type)'}${answer.complete ? '' : ' (cut off)'}: ${excerpt(JSON.stringify(answer.body.toString('utf8')))}`,
    );
    return [...answers, ...(exchange.problem ? [`  problem: ${exchange.problem}`] : [])].join('\n') || '  (no answer)';
  }

  const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

  /** `a NUL` or `a lone surrogate` when some string or key of the JSON `text` holds one. */
  function badText(text: string): string | null {
    let found: string | null = null;
    JSON.parse(text, (key: string, value: unknown) => {
      for (const item of typeof value === 'string' ? [key, value] : [key]) {
        if (item.includes('\u0000')) found ??= 'a NUL';
        else if (LONE_SURROGATE.test(item)) found ??= 'a lone surrogate';
      }
      return value;
    });
    return found;
  }

  /** Origins the upgrade headers send that are never the server's own, whatever Host says. */
  const FOREIGN_ORIGINS = new Set(['http://evil.example', 'null', 'file://']);

  /** The signature of what went wrong, to tell distinct failures apart (FUZZ_COLLECT). */
  function checkExchange(exchange: RawExchange, request: RawRequest): string | null {
    if (exchange.answers.length === 0) return `no answer (${exchange.problem ?? 'the connection closed'})`;
    const origin = request.headers.find(([name]) => name === 'origin')?.[1];
    // A body nested past the limit is refused before it is parsed: no route may take it.
    const deep = request.method !== 'GET' && request.method !== 'HEAD' && request.body != null && jsonTooDeep(request.body.toString('utf8'));
    for (const answer of exchange.answers) {
      if (deep && answer.status >= 200 && answer.status < 300) return `${answer.status} for a body nested past the depth limit`;
      // Another site's page (or a sandboxed one, or a file) may not open a socket with the user's browser.
      if (answer.status === 101 && origin != null && FOREIGN_ORIGINS.has(origin)) return `101: socket opened for Origin ${origin}`;
      const type = answer.headers['content-type']?.join(', ') ?? '';
      const text = answer.body.toString('utf8');
      if (!answer.complete) return `${answer.status} cut off`;
      if (answer.status >= 500) return `${answer.status} ${excerpt(text, 80)}`;
      if (answer.status >= 400) {
        if (!/^application\/json/.test(type)) return `${answer.status} not JSON (${type || 'no content-type'}): ${excerpt(text, 60)}`;
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return `${answer.status} JSON content-type, body not JSON: ${excerpt(text, 60)}`;
        }
        const shaped = ErrorResponse.safeParse(parsed);
        if (!shaped.success) return `${answer.status} not {status:'error', message}: ${excerpt(text, 80)}`;
        if (shaped.data.message.trim() === '') return `${answer.status} empty message`;
      }
      if (answer.status < 300 && /^application\/json/.test(type)) {
        // Text fields refuse NUL and lone surrogates (issue 17 item 6): no success answer carries one back.
        const bad = badText(text);
        if (bad) return `${answer.status} success answer carries ${bad}: ${excerpt(text, 80)}`;
      }
    }
    if (exchange.problem) return `problem: ${exchange.problem}`;
    return null;
  }

  async function runHttpCase(route: Route, input: HttpCase): Promise<void> {
    const request = rawRequest(route, input);
    // A body shorter than its Content-Length is an upload the client gives up on: it half-closes, and may get no answer.
    const halfClose = input.headers.framing === 'short';
    const exchange = await rawHttp(port, request, REQUEST_TIMEOUT_MS, { halfClose });
    const signature = halfClose && exchange.answers.length === 0 && exchange.problem == null ? null : checkExchange(exchange, request);
    if (!signature) return;
    const report = `${signature}\nrequest:\n${describeRequest(request, input)}\nanswer:\n${describeExchange(exchange)}`;
    if (COLLECT) {
      const key = `${routeKey(route)} → ${signature.replace(/\d{4,}/g, 'N').slice(0, 70)}`;
      if (!collected.has(key)) collected.set(key, { route: routeKey(route), example: report });
      return;
    }
    throw new FuzzFailure(signature, report);
  }

  // ---------------------------------------------------------------------------- running

  /**
   * Runs `property` in two phases: a minimum number of runs whatever the time, then more
   * until the route's budget is spent. A failure is reported with its seed, path and a
   * command that replays it (FUZZ_REPLAY runs that one case).
   */
  async function fuzz<T>(key: string, arbitrary: fc.Arbitrary<T>, run: (input: T) => Promise<void>, minRuns: number, budgetMs: number): Promise<void> {
    const property = fc.asyncProperty(arbitrary, run);
    const seed = routeSeed(key);
    const started = Date.now();
    interface Phase {
      name: string;
      seed: number;
      parameters: () => fc.Parameters<[T]>;
    }
    const phases: Phase[] = [];
    if (REPLAY) {
      const [name, ...path] = REPLAY.split(':');
      phases.push({ name: name!, seed: name === 'more' ? seed + 1 : seed, parameters: () => ({ path: path.join(':'), endOnFailure: true }) });
    } else {
      // The minimum runs, with a generous cap in case the machine is very slow; then more runs in what is left of the budget.
      phases.push({ name: 'min', seed, parameters: () => ({ numRuns: minRuns, interruptAfterTimeLimit: Math.max(budgetMs * 4, 20_000) }) });
      phases.push({ name: 'more', seed: seed + 1, parameters: () => ({ numRuns: 100_000, interruptAfterTimeLimit: budgetMs - (Date.now() - started) }) });
    }
    let runs = 0;
    for (const phase of phases) {
      const parameters = phase.parameters();
      if (parameters.interruptAfterTimeLimit != null && parameters.interruptAfterTimeLimit <= 0) break;
      const result = await fc.check(property, { ...parameters, seed: phase.seed, markInterruptAsFailure: false });
      runs += result.numRuns;
      if (result.failed) {
        const cause = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
        const replay = `FUZZ_SEED=${SEED} FUZZ_ROUTE='${key}' FUZZ_REPLAY='${phase.name}:${result.counterexamplePath ?? ''}' npx vitest run tests/api/fuzz.test.ts`;
        throw new Error(
          `${key}: ${cause}\n\nseed ${SEED} (route seed ${phase.seed}, phase ${phase.name}), path ${result.counterexamplePath}, after ${result.numRuns} runs and ${result.numShrinks} shrinks\nreplay: ${replay}`,
        );
      }
    }
    if (!REPLAY) console.log(`fuzz ${key}: ${runs} cases in ${Date.now() - started} ms`);
  }

  describe('HTTP routes', () => {
    for (const route of HTTP_ROUTES_RUN) {
      it(`${routeKey(route)}: no 5xx, every 4xx {status:'error', message}, the server alive`, { timeout: 120_000 }, async () => {
        await refreshFixtures();
        await fuzz(routeKey(route), httpCase(route), (input) => runHttpCase(route, input), MIN_HTTP_RUNS, HTTP_BUDGET_MS);
        await expectHealthy(routeKey(route));
      });
    }
  });

  // ---------------------------------------------------------------------------- sockets

  interface Frame {
    binary: boolean;
    data: Buffer;
  }

  const text = (message: unknown): Frame => ({ binary: false, data: Buffer.from(JSON.stringify(message) ?? 'null') });

  function frameArbitrary(path: string): fc.Arbitrary<Frame> {
    const market = path === '/ws/market';
    const channel = (symbol: string) => (market ? symbol : `POS:primary:${symbol}`);
    const symbol = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...(market ? fx.symbols : [fx.account])).map(channel) },
      { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS).map(channel) },
      { weight: 1, arbitrary: jsonGarbage },
    );
    const requestId = fc.option(
      fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.integer({ min: 100, max: 300 }).map((n) => 'r'.repeat(n)),
        jsonGarbage,
      ),
      { nil: undefined },
    );
    const action = fc.constantFrom('subscribe', 'unsubscribe');
    const messages = fc.oneof(
      { weight: 2, arbitrary: fc.record({ action: fc.constant('ping'), requestId }, { requiredKeys: ['action'] }) },
      { weight: 4, arbitrary: fc.record({ action, symbol, requestId }, { requiredKeys: ['action'] }) },
      {
        weight: 2,
        arbitrary: fc.record(
          {
            action,
            symbols: fc.oneof(
              fc.array(symbol, { minLength: 0, maxLength: 520 }),
              fc.array(fc.constantFrom(...fx.symbols), { minLength: 400, maxLength: 500 }),
              jsonGarbage,
            ),
            requestId,
          },
          { requiredKeys: ['action', 'symbols'] },
        ),
      },
      { weight: 2, arbitrary: fc.record({ action: jsonGarbage, symbol }, { requiredKeys: ['action'] }) },
      { weight: 2, arbitrary: fc.record({ action: fc.constant('auth'), token: fc.oneof(fc.constant(fx.user.token), jsonGarbage) }) },
    );
    const tooBig = (size: number): Frame => ({ binary: false, data: Buffer.from(JSON.stringify({ action: 'ping', pad: 'p'.repeat(size) })) });
    return fc.oneof(
      { weight: 10, arbitrary: messages.map(text) },
      { weight: 2, arbitrary: jsonGarbage.map(text) },
      { weight: 1, arbitrary: fc.constantFrom('', '{', 'nul', '{"action":"ping"', '\u0000').map((raw): Frame => ({ binary: false, data: Buffer.from(raw) })) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes): Frame => ({ binary: true, data: Buffer.from(bytes) })) },
      { weight: 1, arbitrary: messages.map((message): Frame => ({ binary: true, data: text(message).data })) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(Buffer.from([0xff, 0xfe]), Buffer.from('{"action":"ping","requestId":"\xc3\x28"}', 'latin1'), Buffer.from([0xed, 0xa0, 0x80]))
          .map((data): Frame => ({ binary: false, data })),
      },
      {
        weight: 2,
        arbitrary: deepJson(SOCKET_LIMITS.maxMessageBytes, ['action', 'symbol', 'symbols', 'token', 'requestId']).map((data): Frame => ({
          binary: false,
          data,
        })),
      },
      { weight: 1, arbitrary: fc.integer({ min: SOCKET_LIMITS.maxMessageBytes, max: 200_000 }).map(tooBig) },
      { weight: 1, arbitrary: fc.constant(null).map(() => tooBig(1024 * 1024 + 100)) },
    );
  }

  /** What the README and server/ws/*.ts say a socket does with these frames: the close code it ends with, or null (still open), and whether it is authenticated. */
  function expectedOutcome(path: string, frames: Frame[]): { sent: Frame[]; close: number | null; authenticated: boolean } {
    let authenticated = false;
    let strikes = 0;
    const subscriptions = new Set<string>();
    const sent: Frame[] = [];
    const strike = () => ++strikes >= SOCKET_LIMITS.strikesToClose;
    for (const frame of frames) {
      sent.push(frame);
      const close = (code: number) => ({ sent, close: code, authenticated });
      if (frame.data.length > 1024 * 1024) return close(1009);
      if (!frame.binary && !isUtf8(frame.data)) return close(1007);
      if (frame.data.length > SOCKET_LIMITS.maxMessageBytes) {
        if (strike()) return close(1008);
        continue;
      }
      // Nested past the depth limit: a broken limit too, before or after auth, judged before any parse.
      if (jsonTooDeep(frame.data.toString('utf8'))) {
        if (strike()) return close(1008);
        continue;
      }
      let message: unknown;
      try {
        message = JSON.parse(frame.data.toString('utf8'));
      } catch {
        message = undefined;
      }
      const isObject = typeof message === 'object' && message != null && !Array.isArray(message);
      if (!authenticated) {
        const auth = isObject ? AuthMessage.safeParse(message) : null;
        if (auth?.success && auth.data.token === fx.user.token) authenticated = true;
        else return close(4401);
        continue;
      }
      if (!isObject || path !== '/ws/market') continue;
      // The market's one limit after auth: subscriptions per socket (a strike when broken).
      const body = message as Record<string, unknown>;
      if (body.action !== 'subscribe' && body.action !== 'unsubscribe') continue;
      const parsed = 'symbols' in body ? SubscribeManyMessage.safeParse(body) : SubscribeMessage.safeParse(body);
      if (!parsed.success) continue;
      const keys = 'symbols' in parsed.data ? [...new Set(parsed.data.symbols)] : [parsed.data.symbol];
      if (parsed.data.action === 'unsubscribe') {
        for (const key of keys) subscriptions.delete(key);
        continue;
      }
      const known = keys.filter((key) => server.app.ctx.market.catalogue.resolve(key) != null);
      const added = known.filter((key) => !subscriptions.has(key));
      if (subscriptions.size + added.length > 2000) {
        if (strike()) return close(1008);
        continue;
      }
      for (const key of added) subscriptions.add(key);
    }
    return { sent, close: null, authenticated };
  }

  interface Inbox {
    messages: unknown[];
    binary: number;
    closed: { code: number; reason: string } | null;
    wake: () => void;
  }

  function until(inbox: Inbox, what: string, done: () => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new FuzzFailure(`no ${what}`, `no ${what} within ${SOCKET_WAIT_MS} ms`)), SOCKET_WAIT_MS);
      inbox.wake = () => {
        if (!done()) return;
        clearTimeout(timer);
        resolve();
      };
      inbox.wake();
    });
  }

  function describeFrames(frames: Frame[]): string {
    return frames
      .map((frame) => `  ${frame.binary ? 'binary' : 'text'} ${frame.data.length} bytes: ${excerpt(JSON.stringify(frame.data.toString('utf8')), 160)}`)
      .join('\n');
  }

  async function runSocketCase(path: string, frames: Frame[]): Promise<void> {
    const expected = expectedOutcome(path, frames);
    const socket = new WebSocket(server.wsUrl(path), { perMessageDeflate: false, maxPayload: 64 * 1024 * 1024 });
    const inbox: Inbox = { messages: [], binary: 0, closed: null, wake: () => {} };
    socket.on('message', (data, isBinary) => {
      if (isBinary) inbox.binary += 1;
      else {
        const raw = (data as Buffer).toString('utf8');
        try {
          inbox.messages.push(JSON.parse(raw));
        } catch {
          inbox.messages.push({ unparseable: raw });
        }
      }
      inbox.wake();
    });
    socket.on('close', (code, reason) => {
      inbox.closed = { code, reason: reason.toString('utf8') };
      inbox.wake();
    });
    socket.on('error', () => inbox.wake());
    const problems: string[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
        socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
      });
      for (const frame of expected.sent) socket.send(frame.data, { binary: frame.binary });
      if (expected.close != null) {
        await until(inbox, `close ${expected.close}`, () => inbox.closed != null);
        if (inbox.closed!.code !== expected.close) problems.push(`closed with ${inbox.closed!.code} (${inbox.closed!.reason}), expected ${expected.close}`);
        const last = inbox.messages[inbox.messages.length - 1];
        if ((expected.close === 4401 || expected.close === 1008) && !SocketErrorEvent.safeParse(last).success)
          problems.push(`closed with ${expected.close} without an error event first`);
      } else if (expected.authenticated) {
        socket.send(JSON.stringify({ action: 'ping', requestId: 'fuzz-end' }));
        await until(inbox, 'pong', () => inbox.closed != null || inbox.messages.some((message) => isFinalPong(message)));
        if (inbox.closed) problems.push(`closed with ${inbox.closed.code} (${inbox.closed.reason}); the model expected it open`);
      } else {
        socket.send(JSON.stringify({ action: 'auth', token: fx.user.token }));
        await until(
          inbox,
          'authenticated event',
          () => inbox.closed != null || inbox.messages.some((message) => (message as { event?: string }).event === 'authenticated'),
        );
        if (inbox.closed) problems.push(`closed with ${inbox.closed.code} (${inbox.closed.reason}); the model expected it open`);
      }
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    } finally {
      socket.terminate();
    }
    if (inbox.binary > 0) problems.push(`${inbox.binary} binary frames from the server`);
    const dataSchema = path === '/ws/market' ? MarketDataMessage : PositionsPushMessage;
    for (const message of inbox.messages) {
      const isEvent = typeof message === 'object' && message != null && 'event' in message;
      const ok = isEvent ? ControlEvent.safeParse(message).success : dataSchema.safeParse(message).success;
      if (!ok) problems.push(`a message outside the protocol: ${excerpt(JSON.stringify(message), 200)}`);
    }
    if (problems.length === 0) return;
    const signature = problems[0]!.replace(/\(.*?\)/g, '').slice(0, 80);
    const report = `${problems.join('; ')}\nframes sent:\n${describeFrames(expected.sent)}\nexpected: ${expected.close ?? 'open'}; received: ${excerpt(JSON.stringify(inbox.messages), 600)}; closed: ${JSON.stringify(inbox.closed)}`;
    if (COLLECT) {
      const key = `${path} → ${signature}`;
      if (!collected.has(key)) collected.set(key, { route: `GET ${path}`, example: report });
      return;
    }
    throw new FuzzFailure(signature, report);
  }

  function isFinalPong(message: unknown): boolean {
    return (
      typeof message === 'object' &&
      message != null &&
      (message as { event?: string }).event === 'pong' &&
      (message as { requestId?: string }).requestId === 'fuzz-end'
    );
  }

  describe('sockets', () => {
    for (const route of SOCKET_ROUTES_RUN) {
      it(`frames ${route.path}: before and after auth end as documented, the server alive`, { timeout: 120_000 }, async () => {
        await refreshFixtures();
        const frames = fc.array(frameArbitrary(route.path), { minLength: 1, maxLength: 7 });
        // Half the cases authenticate first, so the frames after auth get their share.
        const sequences = fc
          .tuple(fc.boolean(), frames)
          .map(([authFirst, rest]) => (authFirst ? [text({ action: 'auth', token: fx.user.token }), ...rest] : rest));
        await fuzz(`frames ${route.path}`, sequences, (sequence) => runSocketCase(route.path, sequence), MIN_SOCKET_RUNS, SOCKET_BUDGET_MS);
        await expectHealthy(route.path);
        // A new socket still authenticates and answers.
        await runSocketCase(route.path, [text({ action: 'auth', token: fx.user.token }), text({ action: 'ping' })]);
      });
    }
  });
});
