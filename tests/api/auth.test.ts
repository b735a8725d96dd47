import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckTokenResponse, LoginResponse } from '../../src/protocol/auth.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { ADMIN, DEMO, checkToken, expectBody, expectErrorResponse, login, logout, postJson, signIn } from './helpers.js';

const MINUTE = 60_000;

describe.each(databaseTargets())('auth API on $name', (target) => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServer(target);
  });
  afterEach(async () => {
    await server.close();
  });

  const db = () => server.app.ctx.db;

  describe('POST /api/login', () => {
    it('signs the demo user in with a token and the public user', async () => {
      const response = await login(server.baseUrl, DEMO.username, DEMO.password);
      expect(expectBody(response, LoginResponse)).toEqual({
        status: 'success',
        token: expect.any(String),
        user: { _id: expect.any(String), username: 'demo', firstName: 'Demo', lastName: 'Usuario', role: 'user' },
      });
      const { token } = expectBody(response, LoginResponse);
      expect(token.length).toBeGreaterThanOrEqual(22);
    });

    it('gives the admin the admin role', async () => {
      const { user } = await signIn(server.baseUrl, ADMIN);
      expect(user).toMatchObject({ username: 'admin', role: 'admin' });
    });

    it('hands out a different token at each sign-in', async () => {
      const first = await signIn(server.baseUrl);
      const second = await signIn(server.baseUrl);
      expect(second.token).not.toBe(first.token);
      expect(second.user._id).toBe(first.user._id);
    });

    it('refuses a wrong password and an unknown user with the same 401 message', async () => {
      const wrongPassword = await login(server.baseUrl, DEMO.username, 'not-the-password');
      const unknownUser = await login(server.baseUrl, 'nobody', 'whatever123');
      const wrongMessage = expectErrorResponse(wrongPassword, 401);
      const unknownMessage = expectErrorResponse(unknownUser, 401);
      expect(unknownMessage).toBe(wrongMessage);
      expect(wrongPassword.body).not.toHaveProperty('token');
    });

    it('ignores the case of the username', async () => {
      const { user } = await signIn(server.baseUrl, { username: 'DeMo', password: DEMO.password });
      expect(user.username).toBe('demo');
    });

    it('does not ignore the case of the password', async () => {
      expectErrorResponse(await login(server.baseUrl, DEMO.username, DEMO.password.toUpperCase()), 401);
    });
  });

  describe('POST /api/checkToken', () => {
    it('answers the user of a valid token', async () => {
      const { token, user } = await signIn(server.baseUrl);
      const response = await checkToken(server.baseUrl, token);
      expect(expectBody(response, CheckTokenResponse)).toEqual({ status: 'success', user });
    });

    it('refuses an unknown token with 401', async () => {
      expectErrorResponse(await checkToken(server.baseUrl, 'x'.repeat(43)), 401);
    });
  });

  describe('POST /api/logout', () => {
    it('ends the session: the token no longer checks nor logs out', async () => {
      const { token } = await signIn(server.baseUrl);
      const response = await logout(server.baseUrl, token, 'Cierre de sesión desde el menú');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'success' });

      expectErrorResponse(await checkToken(server.baseUrl, token), 401);
      expectErrorResponse(await logout(server.baseUrl, token), 401);
    });

    it('ends only the session it is called with', async () => {
      const first = await signIn(server.baseUrl);
      const second = await signIn(server.baseUrl);
      expect((await logout(server.baseUrl, first.token)).status).toBe(200);
      expect((await checkToken(server.baseUrl, second.token)).status).toBe(200);
    });

    it('refuses a call without a bearer token with 401', async () => {
      expectErrorResponse(await logout(server.baseUrl, null), 401);
    });

    it('refuses a malformed Authorization header with 401', async () => {
      const { token } = await signIn(server.baseUrl);
      const response = await postJson(server.baseUrl, '/api/logout', {}, { headers: { authorization: `Token ${token}` } });
      expectErrorResponse(response, 401);
      expect((await checkToken(server.baseUrl, token)).status).toBe(200);
    });
  });

  describe('session lifetime', () => {
    it('keeps a token valid while it is used, and ends it after the idle window', async () => {
      const { token } = await signIn(server.baseUrl);
      const almostIdle = server.config.sessionIdleMs - MINUTE;
      // Used every (idle - 1 min): well past one idle window in total, still valid.
      for (let i = 0; i < 3; i++) {
        server.clock.advance(almostIdle);
        expect((await checkToken(server.baseUrl, token)).status).toBe(200);
      }
      server.clock.advance(server.config.sessionIdleMs + 1);
      expectErrorResponse(await checkToken(server.baseUrl, token), 401);
    });

    it('ends a token after the absolute window even when used regularly', async () => {
      const { token } = await signIn(server.baseUrl);
      const step = Math.floor(server.config.sessionIdleMs / 2);
      let elapsed = 0;
      while (elapsed + step < server.config.sessionAbsoluteMs) {
        server.clock.advance(step);
        elapsed += step;
        expect((await checkToken(server.baseUrl, token)).status, `after ${elapsed} ms`).toBe(200);
      }
      server.clock.advance(server.config.sessionAbsoluteMs - elapsed);
      expectErrorResponse(await checkToken(server.baseUrl, token), 401);
    });
  });

  describe('failed sign-in limit', () => {
    const failTimes = async (username: string, times: number) => {
      for (let i = 0; i < times; i++) {
        expect((await login(server.baseUrl, username, `wrong-${i}`)).status).toBe(401);
      }
    };

    it('blocks the 6th attempt after 5 failures, even with the right password, until the window passes', async () => {
      await failTimes(DEMO.username, 5);
      const blocked = await login(server.baseUrl, DEMO.username, DEMO.password);
      expectErrorResponse(blocked, 429);
      const retryAfter = Number(blocked.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(server.config.loginWindowMs / 1000);

      // Halfway through the window it is still blocked, with less time to wait.
      server.clock.advance(server.config.loginWindowMs / 2);
      const stillBlocked = await login(server.baseUrl, DEMO.username, DEMO.password);
      expectErrorResponse(stillBlocked, 429);
      expect(Number(stillBlocked.headers.get('retry-after'))).toBeLessThan(retryAfter);

      server.clock.advance(server.config.loginWindowMs / 2 + 1);
      const { user } = await signIn(server.baseUrl);
      expect(user.username).toBe('demo');
    });

    it('counts the username whatever its case', async () => {
      await failTimes('DEMO', 3);
      await failTimes('demo', 2);
      expectErrorResponse(await login(server.baseUrl, 'Demo', DEMO.password), 429);
    });

    it('does not count the failures of another username', async () => {
      await failTimes(ADMIN.username, 5);
      await failTimes('nobody', 5);
      expect((await login(server.baseUrl, DEMO.username, DEMO.password)).status).toBe(200);
      expectErrorResponse(await login(server.baseUrl, ADMIN.username, ADMIN.password), 429);
    });

    it('resets the count after a successful sign-in', async () => {
      await failTimes(DEMO.username, 4);
      await signIn(server.baseUrl);
      await failTimes(DEMO.username, 4);
      expect((await login(server.baseUrl, DEMO.username, DEMO.password)).status).toBe(200);
      await failTimes(DEMO.username, 5);
      expectErrorResponse(await login(server.baseUrl, DEMO.username, DEMO.password), 429);
    });
  });

  describe('what the database keeps', () => {
    it('stores neither tokens nor passwords in clear', async () => {
      const demo = await signIn(server.baseUrl);
      const admin = await signIn(server.baseUrl, ADMIN);
      await login(server.baseUrl, DEMO.username, 'typo-password');

      const sessions = await db().selectFrom('sessions').selectAll().execute();
      expect(sessions.map((row) => row.user_id).sort()).toEqual([demo.user._id, admin.user._id].sort());
      for (const row of sessions) {
        expect(row.token_hash).not.toBe(demo.token);
        expect(row.token_hash).not.toBe(admin.token);
      }

      const users = await db().selectFrom('users').selectAll().execute();
      expect(users.map((row) => row.username).sort()).toEqual(['admin', 'demo']);
      for (const row of users) {
        expect(row.password_hash).not.toContain(DEMO.password);
        expect(row.password_hash).not.toContain(ADMIN.password);
      }

      // No table holds a token or a password anywhere, log and failures included.
      const everything = JSON.stringify([
        sessions,
        users,
        await db().selectFrom('operator_log').selectAll().execute(),
        await db().selectFrom('login_failures').selectAll().execute(),
      ]);
      for (const secret of [demo.token, admin.token, DEMO.password, ADMIN.password, 'typo-password']) {
        expect(everything).not.toContain(secret);
      }
    });

    it('logs sign-in, failed sign-in and sign-out with the usernames and the client log text', async () => {
      // The clock moves between steps so that the rows sort in the order things happened.
      await login(server.baseUrl, 'DEMO', 'wrong-password');
      server.clock.advance(1000);
      await login(server.baseUrl, 'ghost', 'wrong-password');
      server.clock.advance(1000);
      const { token, user } = await signIn(server.baseUrl);
      server.clock.advance(1000);
      await logout(server.baseUrl, token, 'Log Out desde el menú de usuario');

      // Rows without an ip are the server's own at start (demo's sample visores), not requests.
      const rows = await db().selectFrom('operator_log').selectAll().where('ip', 'is not', null).orderBy('at').execute();
      expect(rows.map((row) => ({ action: row.action, username: row.username, userId: row.user_id }))).toEqual([
        { action: 'login_failed', username: 'DEMO', userId: user._id },
        { action: 'login_failed', username: 'ghost', userId: null },
        { action: 'login', username: 'demo', userId: user._id },
        { action: 'logout', username: 'demo', userId: user._id },
      ]);
      const logoutRow = rows.find((row) => row.action === 'logout');
      expect(JSON.parse(logoutRow?.detail ?? 'null')).toEqual({ log: 'Log Out desde el menú de usuario' });
      for (const row of rows) expect(row.ip).toBe('127.0.0.1');
    });
  });
});
