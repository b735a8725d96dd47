import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ProfileResponse } from '../../src/protocol/admin.js';
import { SocketCloseCode } from '../../src/protocol/socket.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import {
  ADMIN,
  DEMO,
  api,
  checkToken,
  createUser,
  expectBody,
  expectErrorResponse,
  expectPong,
  expectSuccess,
  login,
  openAuthenticatedSocket,
  session,
  signIn,
  waitForClose,
  type Session,
} from './helpers.js';

const SOCKET_PATH = '/ws/positions';

// One server per database; the tests that change names or passwords use users of their own.
describe.each(databaseTargets())('profile API on $name', (target) => {
  let server: TestServer;
  let admin: Session;
  beforeAll(async () => {
    server = await startServer(target);
    admin = await session(server, ADMIN);
  });
  afterAll(async () => {
    await server?.close();
  });

  const logRows = (userId: string, action: string) =>
    server.app.ctx.db.selectFrom('operator_log').selectAll().where('user_id', '=', userId).where('action', '=', action).execute();

  describe('GET and PUT /api/profile', () => {
    it("answers the signed-in user's public profile", async () => {
      const demo = await session(server);
      expect(expectSuccess(await demo.api.get('/api/profile'))).toEqual({
        status: 'success',
        data: { _id: demo.user._id, username: 'demo', firstName: 'Demo', lastName: 'Usuario', role: 'user' },
      });
    });

    it('refuses a call without a session with 401', async () => {
      expectErrorResponse(await api(server, null).get('/api/profile'), 401);
      expectErrorResponse(await api(server, null).put('/api/profile', { firstName: 'a', lastName: 'b' }), 401);
      expectErrorResponse(await api(server, null).put('/api/profile/password', { current: 'x', next: 'y'.repeat(8) }), 401);
    });

    it('changes the names; profile, token check and the next sign-in show them; the log records it', async () => {
      const user = await createUser(server, admin.token, { firstName: 'Viejo', lastName: 'Nombre' });
      const response = await user.api.put('/api/profile', { firstName: '  Ana ', lastName: 'Pérez' });
      expect(expectSuccess(response)).toEqual({ status: 'success', data: { ...user.user, firstName: 'Ana', lastName: 'Pérez' } });

      expect(expectBody(await user.api.get('/api/profile'), ProfileResponse).data).toMatchObject({ firstName: 'Ana', lastName: 'Pérez' });
      expect((await checkToken(server.baseUrl, user.token)).body).toMatchObject({ user: { firstName: 'Ana', lastName: 'Pérez' } });
      const again = await signIn(server.baseUrl, { username: user.user.username, password: user.password });
      expect(again.user).toMatchObject({ firstName: 'Ana', lastName: 'Pérez', role: 'user' });

      const rows = await logRows(user.user._id, 'profile_update');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ username: user.user.username, ip: '127.0.0.1' });
      expect(JSON.parse(rows[0]!.detail!)).toEqual({ firstName: 'Ana', lastName: 'Pérez' });
    });

    it('cannot change the role, the username or another user through the profile', async () => {
      const user = await createUser(server, admin.token);
      for (const body of [
        { firstName: 'a', lastName: 'b', role: 'admin' },
        { firstName: 'a', lastName: 'b', username: 'admin' },
        { firstName: 'a', lastName: 'b', _id: admin.user._id },
      ]) {
        const field = Object.keys(body)[2]!;
        expect(expectErrorResponse(await user.api.put('/api/profile', body), 400)).toContain(field);
      }
      expect(expectBody(await user.api.get('/api/profile'), ProfileResponse).data).toEqual(user.user);
      expect(expectBody(await admin.api.get('/api/profile'), ProfileResponse).data).toEqual(admin.user);
    });

    it.each([
      ['a missing lastName', { firstName: 'Ana' }, 'lastName'],
      ['a firstName that is not text', { firstName: 5, lastName: 'b' }, 'firstName'],
      ['a firstName over 200 characters', { firstName: 'x'.repeat(201), lastName: 'b' }, 'nombre'],
      ['a lastName over 200 characters', { firstName: 'a', lastName: 'x'.repeat(201) }, 'apellido'],
    ])('refuses %s with 400 naming it, and changes nothing', async (_case, body, field) => {
      const user = await createUser(server, admin.token);
      expect(expectErrorResponse(await user.api.put('/api/profile', body), 400)).toContain(field);
      expect(expectBody(await user.api.get('/api/profile'), ProfileResponse).data).toEqual(user.user);
    });
  });

  describe('PUT /api/profile/password', () => {
    const changePassword = (who: Session, current: string, next: string) => who.api.put('/api/profile/password', { current, next });

    it('refuses a wrong current password with 400; the password and the sessions stay', async () => {
      const user = await createUser(server, admin.token);
      const second = await session(server, { username: user.user.username, password: user.password });
      const message = expectErrorResponse(await changePassword(user, 'not-my-password', 'brand-new-password'), 400);
      expect(message).toBe('La contraseña actual no es correcta');

      expect((await checkToken(server.baseUrl, second.token)).status).toBe(200);
      expect((await login(server.baseUrl, user.user.username, user.password)).status).toBe(200);
      expect((await login(server.baseUrl, user.user.username, 'brand-new-password')).status).toBe(401);
      expect(await logRows(user.user._id, 'password_change')).toEqual([]);
    });

    it.each([
      ['the same password again', (password: string) => ({ current: password, next: password }), 'distinta'],
      ['a new password under 8 characters', (password: string) => ({ current: password, next: 'short' }), '8'],
      ['a missing current password', () => ({ next: 'brand-new-password' }), 'current'],
      ['a missing new password', (password: string) => ({ current: password }), 'next'],
      ['an unknown field', (password: string) => ({ current: password, next: 'brand-new-password', user: 'admin' }), 'user'],
    ])('refuses %s with 400, and the password stays', async (_case, body, naming) => {
      const user = await createUser(server, admin.token);
      expect(expectErrorResponse(await user.api.put('/api/profile/password', body(user.password)), 400)).toContain(naming);
      expect((await login(server.baseUrl, user.user.username, user.password)).status).toBe(200);
    });

    it("ends the user's other sessions and closes their sockets, keeps the current one; the new password signs in, the old does not", async () => {
      const user = await createUser(server, admin.token);
      const credentials = { username: user.user.username, password: user.password };
      const otherTab = await session(server, credentials);
      const otherDevice = await session(server, credentials);
      const bystander = await session(server, DEMO);
      const url = server.wsUrl(SOCKET_PATH);
      const currentSocket = await openAuthenticatedSocket(url, user.token);
      const otherSocket = await openAuthenticatedSocket(url, otherTab.token);
      const bystanderSocket = await openAuthenticatedSocket(url, bystander.token);

      expect(expectSuccess(await changePassword(user, user.password, 'la-nueva-clave-1'))).toEqual({ status: 'success' });

      // Other sessions are over, over HTTP and on their sockets.
      for (const ended of [otherTab, otherDevice]) {
        expectErrorResponse(await checkToken(server.baseUrl, ended.token), 401);
        expectErrorResponse(await ended.api.get('/api/profile'), 401);
      }
      expect((await waitForClose(otherSocket)).code).toBe(SocketCloseCode.unauthorized);

      // The session that made the change goes on, and so does another user's.
      expect(expectBody(await user.api.get('/api/profile'), ProfileResponse).data).toEqual(user.user);
      await expectPong(currentSocket, 'still-here');
      await expectPong(bystanderSocket, 'not-touched');
      expect((await checkToken(server.baseUrl, bystander.token)).status).toBe(200);

      expect((await login(server.baseUrl, credentials.username, credentials.password)).status).toBe(401);
      const renewed = await signIn(server.baseUrl, { username: credentials.username, password: 'la-nueva-clave-1' });
      expect(renewed.user._id).toBe(user.user._id);

      const rows = await logRows(user.user._id, 'password_change');
      expect(rows.map((row) => JSON.parse(row.detail!))).toEqual([{ endedSessions: 2 }]);
      for (const socket of [currentSocket, bystanderSocket]) socket.close();
      expect(otherSocket.readyState).toBe(WebSocket.CLOSED);
    });

    it('keeps the passwords out of the operator log', async () => {
      const user = await createUser(server, admin.token, { password: 'first-secret-pw' });
      expectSuccess(await changePassword(user, 'first-secret-pw', 'second-secret-pw'));
      expectErrorResponse(await changePassword(user, 'wrong-secret-pw', 'third-secret-pw'), 400);
      const everything = JSON.stringify(await server.app.ctx.db.selectFrom('operator_log').selectAll().execute());
      for (const secret of ['first-secret-pw', 'second-secret-pw', 'wrong-secret-pw', 'third-secret-pw', user.token]) {
        expect(everything).not.toContain(secret);
      }
    });
  });
});
