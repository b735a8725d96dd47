// A disabled account signs in as a wrong password does (issue 17, item 10): the same status
// and message whether its password is right or wrong, the same count towards the limit, so
// neither tells that the password was right; the real reason is in the operator log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminLogsResponse } from '../../src/protocol/admin.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { ADMIN, createUser, expectBody, expectErrorResponse, expectSuccess, login, session, type Session } from './helpers.js';

const INVALID = 'Usuario o contraseña incorrectos';

describe.each(databaseTargets())('sign-in of a disabled account on $name', (target) => {
  let server: TestServer;
  let admin: Session;
  beforeAll(async () => {
    server = await startServer(target);
    admin = await session(server, ADMIN);
  });
  afterAll(async () => {
    await server.close();
  });

  async function disabledUser(): Promise<Session> {
    const user = await createUser(server, admin.token);
    expectSuccess(await admin.api.put(`/api/admin/users/${user.user._id}`, { disabled: true }));
    return user;
  }

  it('answers the right password exactly as a wrong one', async () => {
    const user = await disabledUser();
    const wrong = await login(server.baseUrl, user.user.username, 'not-the-password');
    const right = await login(server.baseUrl, user.user.username, user.password);
    const unknown = await login(server.baseUrl, 'nobody-like-this', user.password);
    for (const response of [wrong, right, unknown]) expect(expectErrorResponse(response, 401)).toBe(INVALID);
    expect(right.text).toBe(wrong.text);
    expect(right.text).toBe(unknown.text);
  });

  it('counts the right password of a disabled account as a failure, as a wrong one', async () => {
    const user = await disabledUser();
    for (let i = 0; i < server.config.loginMaxFailures; i++) {
      expect(expectErrorResponse(await login(server.baseUrl, user.user.username, user.password), 401)).toBe(INVALID);
    }
    expectErrorResponse(await login(server.baseUrl, user.user.username, user.password), 429);
  });

  it('writes the real reason to the operator log, without the password', async () => {
    const user = await disabledUser();
    await login(server.baseUrl, user.user.username, user.password);
    const { data } = expectBody(await admin.api.get(`/api/admin/logs?user=${user.user._id}&action=login_failed`), AdminLogsResponse);
    expect(data.map((row) => row.detail)).toEqual([{ disabled: true }]);
    expect(JSON.stringify(data)).not.toContain(user.password);
  });
});
