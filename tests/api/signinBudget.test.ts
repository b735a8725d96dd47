// What a password check may cost, over real HTTP: every slot and waiting place taken answers
// 429 with Retry-After before any hashing; one address fails at most LOGIN_IP_MAX_FAILURES
// checks a window whatever the usernames (IPv6 by its /64); a password change's current
// password is a check out of the same budgets (LOGIN_MAX_FAILURES per account); with Redis two
// processes share the budgets; behind TRUST_PROXY the address is the one the trusted hops
// wrote, never what a client puts on the left of X-Forwarded-For; and a flood of refusals
// writes one operator-log row, not one each.
//
// Checks are counted (and, to fill the slots, held) through buildApp's beforePasswordCheck
// hook, which runs in a check's slot right before its scrypt. The requests all come from
// 127.0.0.1: behind TRUST_PROXY=1 a test names other addresses in X-Forwarded-For, as a proxy
// would.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../server/config.js';
import { databaseTargets, startServer, type DatabaseTarget, type TestServer } from './harness.js';
import { dropRedisKeys } from './redisKeys.js';
import {
  ADMIN,
  DEMO,
  createUser,
  expectErrorResponse,
  expectSuccess,
  pollUntil,
  postJson,
  request,
  session,
  type ApiResponse,
  type Session,
} from './helpers.js';

const INVALID = 'Usuario o contraseña incorrectos';
const redisUrl = process.env.TEST_REDIS_URL?.trim() || null;
if (!redisUrl) console.log('Sign-in budgets on Redis skipped: TEST_REDIS_URL is not set');
const prefix = `visores-test-${randomBytes(4).toString('hex')}:`;

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});
afterAll(async () => {
  if (!redisUrl) return;
  await dropRedisKeys(redisUrl, prefix);
});

interface Counted {
  server: TestServer;
  /** Password checks that reached their scrypt. */
  checks(): number;
  /** From now on each check waits in its slot, before its scrypt, until `release`. */
  hold(): void;
  release(): void;
}

async function start(target: DatabaseTarget, overrides: Partial<Config> = {}): Promise<Counted> {
  let checks = 0;
  let gate: { promise: Promise<void>; open: () => void } | null = null;
  const server = await startServer(target, overrides, {
    hooks: {
      beforePasswordCheck: async () => {
        checks++;
        await gate?.promise;
      },
    },
  });
  servers.push(server);
  return {
    server,
    checks: () => checks,
    hold() {
      let open!: () => void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      gate = { promise, open };
    },
    release() {
      gate?.open();
      gate = null;
    },
  };
}

/** A sign-in as a client at `ip` behind one trusted proxy (TRUST_PROXY=1), or with the header given. */
function loginFrom(server: TestServer, ip: string, username: string, password: string, forwardedFor = ip): Promise<ApiResponse> {
  return postJson(server.baseUrl, '/api/login', { username, password }, { headers: { 'x-forwarded-for': forwardedFor } });
}

function changePasswordFrom(user: Session, ip: string, current: string, next = 'una-clave-nueva-1'): Promise<ApiResponse> {
  return user.api.put('/api/profile/password', { current, next }, { headers: { 'x-forwarded-for': ip } });
}

/** A 429 with a whole Retry-After of at least a second and at most `maxSeconds`; its message. */
function expectRefused(response: ApiResponse, maxSeconds: number): string {
  const message = expectErrorResponse(response, 429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter), `retry-after ${response.headers.get('retry-after')}`).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  return message;
}

function logRows(server: TestServer, action: string) {
  return server.app.ctx.db.selectFrom('operator_log').selectAll().where('action', '=', action).orderBy('at').execute();
}

const detailOf = (row: { detail: string | null }) => JSON.parse(row.detail ?? 'null') as unknown;
const windowSeconds = (server: TestServer) => server.config.loginWindowMs / 1000;

describe.each(databaseTargets())('sign-in budgets on $name', (target) => {
  it('answers 429 with Retry-After, before any hashing, while every check slot and waiting place is taken', async () => {
    const counted = await start(target, { loginConcurrency: 1, loginQueue: 1 });
    const { server } = counted;
    const demo = await session(server, DEMO);
    const queue = server.app.ctx.auth.budgets.checks;
    counted.hold();
    const running = postJson(server.baseUrl, '/api/login', { username: 'ghost-1', password: 'wrong-1' });
    const waiting = postJson(server.baseUrl, '/api/login', { username: 'admin', password: 'wrong-2' });
    await pollUntil('one check in its slot and one waiting', () => {
      const stats = queue.stats();
      return stats.running === 1 && stats.waiting === 1 ? stats : null;
    });
    const checksBefore = counted.checks();

    // A sign-in and a password change are refused at once, while the slot is held.
    const refused = await postJson(server.baseUrl, '/api/login', { username: DEMO.username, password: DEMO.password });
    expect(expectRefused(refused, 60)).toMatch(/^El servidor está verificando muchas contraseñas a la vez\. Vuelva a intentar en \d+ segundos?\.$/);
    expectRefused(await demo.api.put('/api/profile/password', { current: DEMO.password, next: 'otra-clave-1' }), 60);
    // Nothing of them was hashed, nor counted: no check started, no attempt reserved for demo.
    expect(counted.checks()).toBe(checksBefore);
    expect(queue.stats()).toMatchObject({ running: 1, waiting: 1 });
    const reserved = await server.app.ctx.db.selectFrom('login_failures').select('username_key').execute();
    expect(reserved.map((row) => row.username_key).sort()).toEqual(['admin', 'ghost-1']);
    // The rest of the server answers meanwhile.
    expect((await request(server.baseUrl, 'GET', '/api/health')).status).toBe(204);

    counted.release();
    expect(expectErrorResponse(await running, 401)).toBe(INVALID);
    expect(expectErrorResponse(await waiting, 401)).toBe(INVALID);
    // A refusal for want of a slot is the server's state, not the client's doing: demo signs in.
    expect((await postJson(server.baseUrl, '/api/login', DEMO)).status).toBe(200);
    expect(await logRows(server, 'login_blocked')).toEqual([]);
  });

  it('holds one address to its share of the checks: its next sign-ins are refused before any hashing, another address waits its turn and gets in', async () => {
    const counted = await start(target, { trustProxy: 1, loginConcurrency: 1, loginPerAddress: 2, loginQueue: 10 });
    const { server } = counted;
    const queue = server.app.ctx.auth.budgets.checks;
    const flooder = '198.51.100.9';
    counted.hold();
    const flood = [loginFrom(server, flooder, 'ghost-1', 'x'), loginFrom(server, flooder, 'ghost-2', 'x')];
    await pollUntil('the flooder holds its share: one check in its slot, one waiting', () => {
      const stats = queue.stats();
      return stats.running === 1 && stats.waiting === 1 ? stats : null;
    });
    const checksBefore = counted.checks();
    const refused = await loginFrom(server, flooder, DEMO.username, DEMO.password);
    expect(expectRefused(refused, 60)).toMatch(/^El servidor está verificando muchas contraseñas a la vez/);
    expect(counted.checks()).toBe(checksBefore);
    // Another address is not refused for the flooder's share: it waits for a slot.
    const demo = loginFrom(server, '203.0.113.20', DEMO.username, DEMO.password);
    await pollUntil('the other address waiting', () => (queue.stats().waiting === 2 ? true : null));
    counted.release();
    expect((await demo).status).toBe(200);
    for (const answer of await Promise.all(flood)) expect(expectErrorResponse(answer, 401)).toBe(INVALID);
  });

  it('limits the failed checks of one address whatever the usernames, counts IPv6 by its /64, and not the successes', async () => {
    const counted = await start(target, { trustProxy: 1, loginIpMaxFailures: 4 });
    const { server } = counted;
    const sprayer = '198.51.100.7';
    for (const [username, password] of [
      ['ghost-a', 'guess-1'],
      [DEMO.username, 'guess-2'],
      [ADMIN.username, 'guess-3'],
      ['ghost-b', 'guess-4'],
    ] as const) {
      expect(expectErrorResponse(await loginFrom(server, sprayer, username, password), 401)).toBe(INVALID);
    }
    const checked = counted.checks();
    const refused = await loginFrom(server, sprayer, 'ghost-c', 'guess-5');
    expect(expectRefused(refused, windowSeconds(server))).toMatch(/^Demasiados intentos fallidos desde esta red\. Vuelva a intentar en \d+ minutos?\.$/);
    // The right password from there is refused too, unchecked.
    expectRefused(await loginFrom(server, sprayer, DEMO.username, DEMO.password), windowSeconds(server));
    expect(counted.checks()).toBe(checked);
    // Another address is not concerned.
    expect((await loginFrom(server, '198.51.100.8', DEMO.username, DEMO.password)).status).toBe(200);

    // Sign-ins that succeed use none of the budget.
    const office = '198.51.100.9';
    for (let i = 0; i < 3; i++) expect((await loginFrom(server, office, `typo-${i}`, 'x')).status).toBe(401);
    for (let i = 0; i < 6; i++) expect((await loginFrom(server, office, DEMO.username, DEMO.password)).status).toBe(200);
    expect((await loginFrom(server, office, 'typo-3', 'x')).status).toBe(401);
    expectRefused(await loginFrom(server, office, DEMO.username, DEMO.password), windowSeconds(server));

    // One IPv6 subscriber (a /64) is one address, whichever of its addresses it uses.
    for (const ip of ['2001:db8:1:2::10', '2001:db8:1:2::20', '2001:db8:1:2:ffff::1', '2001:db8:1:2:0:0:0:30']) {
      expect((await loginFrom(server, ip, 'ghost-v6', `guess-${ip}`)).status).toBe(401);
    }
    expectRefused(await loginFrom(server, '2001:db8:1:2::99', DEMO.username, DEMO.password), windowSeconds(server));
    expect((await loginFrom(server, '2001:db8:1:3::10', DEMO.username, DEMO.password)).status).toBe(200);
  });

  it('limits wrong current passwords of a password change per account (any address) and per address (with sign-ins)', async () => {
    const counted = await start(target, { trustProxy: 1, loginIpMaxFailures: 8 });
    const { server } = counted;
    const admin = await session(server, ADMIN);
    const user = await createUser(server, admin.token);
    const max = server.config.loginMaxFailures;
    for (let i = 0; i < max; i++) {
      const wrong = await changePasswordFrom(user, `203.0.113.${10 + i}`, `not-it-${i}`);
      expect(expectErrorResponse(wrong, 400)).toBe('La contraseña actual no es correcta');
    }
    const checked = counted.checks();
    // The next one is refused, from any address and with the right password too, unchecked.
    const refused = await changePasswordFrom(user, '203.0.113.99', 'not-it-again');
    expect(expectRefused(refused, windowSeconds(server))).toMatch(
      /^Demasiados intentos con una contraseña actual incorrecta\. Vuelva a intentar en \d+ minutos?\.$/,
    );
    expectRefused(await changePasswordFrom(user, '203.0.113.98', user.password), windowSeconds(server));
    expect(counted.checks()).toBe(checked);
    expect((await postJson(server.baseUrl, '/api/login', { username: user.user.username, password: user.password })).status).toBe(200);
    // One row for the refusals, not one each.
    const blocked = (await logRows(server, 'password_change_blocked')).filter((row) => row.user_id === user.user._id);
    expect(blocked.map((row) => detailOf(row))).toEqual([{ limit: 'account', ipFrom: 'X-Forwarded-For' }]);

    // Another account changes its password; failed sign-ins and wrong current passwords from
    // one address add up to the address's budget.
    const other = await createUser(server, admin.token);
    expectSuccess(await changePasswordFrom(other, '192.0.2.1', other.password));
    const shared = '192.0.2.50';
    for (let i = 0; i < 6; i++) expect((await loginFrom(server, shared, `ghost-${i}`, 'x')).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await changePasswordFrom(other, shared, `nope-${i}`)).status).toBe(400);
    const fromThere = await changePasswordFrom(other, shared, 'una-clave-nueva-1', 'otra-clave-nueva-2');
    expect(expectRefused(fromThere, windowSeconds(server))).toMatch(/desde esta red/);
    expectRefused(await loginFrom(server, shared, other.user.username, 'una-clave-nueva-1'), windowSeconds(server));
  });

  it('writes one operator-log row for a flood of refusals of one address, and of one username and address', async () => {
    const { server } = await start(target, { trustProxy: 1, loginIpMaxFailures: 3, loginMaxFailures: 2 });
    const flooder = '198.51.100.66';
    for (let i = 0; i < 3; i++) expect((await loginFrom(server, flooder, `random-${i}`, 'x')).status).toBe(401);
    const flood = await Promise.all(Array.from({ length: 40 }, (_, i) => loginFrom(server, flooder, `random-${100 + i}`, 'x')));
    for (const response of flood) expectRefused(response, windowSeconds(server));

    const guesser = '198.51.100.67';
    for (let i = 0; i < 2; i++) expect((await loginFrom(server, guesser, DEMO.username, `guess-${i}`)).status).toBe(401);
    for (let i = 0; i < 20; i++)
      expect(expectRefused(await loginFrom(server, guesser, 'Demo', `guess-${i}`), windowSeconds(server))).toMatch(/^Demasiados intentos fallidos\. /);

    const rows = (await logRows(server, 'login_blocked')).sort((a, b) => (a.ip ?? '').localeCompare(b.ip ?? ''));
    expect(rows.map((row) => ({ ip: row.ip, detail: detailOf(row) }))).toEqual([
      { ip: flooder, detail: { limit: 'address', ipFrom: 'X-Forwarded-For' } },
      { ip: guesser, detail: { limit: 'username', ipFrom: 'X-Forwarded-For' } },
    ]);
    // The failed checks themselves are each logged, as before.
    expect((await logRows(server, 'login_failed')).length).toBe(5);
  });

  describe('the client address behind TRUST_PROXY', () => {
    it('takes the address the trusted hop wrote: a forged left of X-Forwarded-For changes nothing, and the log says where it came from', async () => {
      const { server } = await start(target, { trustProxy: 1, loginIpMaxFailures: 2 });
      const client = '203.0.113.7';
      expect((await loginFrom(server, client, 'ghost-1', 'x', `=1+1, ${client}`)).status).toBe(401);
      expect((await loginFrom(server, client, 'ghost-2', 'x', `10.9.8.7, 192.0.2.200, ${client}`)).status).toBe(401);
      // A new forged address on the left is still the same client: the budget is spent.
      expectRefused(
        await loginFrom(server, client, DEMO.username, DEMO.password, `198.51.100.${Math.floor(Math.random() * 250)}, ${client}`),
        windowSeconds(server),
      );

      // Without the header the peer is the client (no proxy wrote anything).
      expect((await postJson(server.baseUrl, '/api/login', DEMO)).status).toBe(200);
      const failed = await logRows(server, 'login_failed');
      expect(failed.map((row) => [row.ip, detailOf(row)])).toEqual([
        [client, { ipFrom: 'X-Forwarded-For' }],
        [client, { ipFrom: 'X-Forwarded-For' }],
      ]);
      const signedIn = await logRows(server, 'login');
      expect(signedIn.map((row) => [row.ip, detailOf(row)])).toEqual([['127.0.0.1', null]]);
    });

    it('falls back to the peer when the trusted hop holds no IP address, and ignores the header without TRUST_PROXY', async () => {
      const twoHops = await start(target, { trustProxy: 2 });
      expect((await loginFrom(twoHops.server, '', 'ghost', 'x', '=1+1, 198.51.100.1')).status).toBe(401);
      twoHops.server.clock.advance(1); // the rows sort in the order of the requests
      expect((await loginFrom(twoHops.server, '', 'ghost', 'x', '203.0.113.50, 198.51.100.1')).status).toBe(401);
      const rows = await logRows(twoHops.server, 'login_failed');
      expect(rows.map((row) => [row.ip, detailOf(row)])).toEqual([
        ['127.0.0.1', null],
        ['203.0.113.50', { ipFrom: 'X-Forwarded-For' }],
      ]);

      const direct = await start(target, { loginIpMaxFailures: 2 });
      for (const forged of ['203.0.113.1', '203.0.113.2']) expect((await loginFrom(direct.server, forged, 'ghost', 'x')).status).toBe(401);
      expectRefused(await loginFrom(direct.server, '203.0.113.3', DEMO.username, DEMO.password), windowSeconds(direct.server));
      expect((await logRows(direct.server, 'login_failed')).map((row) => [row.ip, detailOf(row)])).toEqual([
        ['127.0.0.1', null],
        ['127.0.0.1', null],
      ]);
    });

    it('walks X-Forwarded-For past the listed proxies only', async () => {
      const { server } = await start(target, { trustProxy: ['127.0.0.1', '10.0.0.0/8'] });
      expect((await loginFrom(server, '', 'ghost', 'x', '=1+1, 203.0.113.9, 10.1.2.3')).status).toBe(401);
      expect((await logRows(server, 'login_failed')).map((row) => [row.ip, detailOf(row)])).toEqual([['203.0.113.9', { ipFrom: 'X-Forwarded-For' }]]);
      // A peer that is not one of them is the client: its header is not read.
      const elsewhere = await start(target, { trustProxy: ['10.0.0.0/8'] });
      expect((await loginFrom(elsewhere.server, '', 'ghost', 'x', '203.0.113.10')).status).toBe(401);
      expect((await logRows(elsewhere.server, 'login_failed')).map((row) => [row.ip, detailOf(row)])).toEqual([['127.0.0.1', null]]);
    });
  });
});

describe('TRUST_PROXY', () => {
  it('is a hop count or the proxies’ addresses; true, which trusted any header, is refused with a hint', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY=true is no longer accepted.*TRUST_PROXY=1/);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8, fd00::/8, Loopback' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', 'fd00::/8', 'loopback']);
    for (const bad of ['*', 'proxy.example', '10.0.0.0/33', '11', '1.2.3']) expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
  });
});

describe.runIf(redisUrl)('sign-in budgets shared by two processes on one Redis', () => {
  it('counts the failures of one address on both, and logs its refusal once', async () => {
    const settings = { redisUrl, redisPrefix: prefix, trustProxy: 1, loginIpMaxFailures: 4 } as const;
    const SQLITE = { name: 'sqlite' } as const;
    const first = await start(SQLITE, settings);
    const second = await start(SQLITE, settings);
    const ip = '198.51.100.120';
    for (let i = 0; i < 4; i++) {
      const server = i % 2 === 0 ? first.server : second.server;
      expect((await loginFrom(server, ip, `ghost-${i}`, 'x')).status).toBe(401);
    }
    for (const { server } of [first, second, first, second]) expectRefused(await loginFrom(server, ip, DEMO.username, DEMO.password), windowSeconds(server));
    // Neither database knew of the other's failures: only Redis held the count.
    const blocked = [...(await logRows(first.server, 'login_blocked')), ...(await logRows(second.server, 'login_blocked'))];
    expect(blocked.map((row) => row.ip)).toEqual([ip]);
    expect((await loginFrom(first.server, '198.51.100.121', DEMO.username, DEMO.password)).status).toBe(200);
  });
});
