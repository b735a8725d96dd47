// A session that ends, for any reason, closes its sockets (/ws/market and /ws/positions) with
// 4401 within 2 s: logout, a password change (the user's own, an admin's, the CLI's, which is
// another process writing the database), idle and absolute expiry, a disabled or deleted
// account. A socket open counts as use of its session. A user left with no live session loses
// their broker sessions: the broker connection closes and nothing of them stays in the process.
// The two-process cases (Redis) are in sessionEndsRedis.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { AdminPositionsResponse } from '../../src/protocol/broker.js';
import { hashPassword } from '../../server/auth/password.js';
import { setPasswordAndEndSessions } from '../../server/cli/accounts.js';
import { openDatabase } from '../../server/db/index.js';
import { usersRepo } from '../../server/db/users.js';
import { startFakePrimary, type FakePrimaryServer } from '../fakes/primaryServer.js';
import { databaseTargets, startServer, TEST_PASSWORD_COST, type TestServer } from './harness.js';
import { ADMIN, checkToken, createUser, expectBody, expectPong, expectSuccess, logout, pollUntil, session, type Session } from './helpers.js';
import { ENDED_WITHIN_MS, expectEnded, openSessionSockets } from './sessionSockets.js';

const MINUTE = 60_000;

describe.each(databaseTargets())('sessions ending on $name', (target) => {
  let server: TestServer;
  let admin: Session;
  const opened: WebSocket[] = [];

  async function start(overrides: Parameters<typeof startServer>[1] = {}): Promise<void> {
    server = await startServer(target, overrides);
    admin = await session(server, ADMIN);
  }
  afterEach(async () => {
    for (const socket of opened.splice(0)) socket.terminate();
    await server?.close();
  });

  /** Both sockets, authenticated with the session's token. */
  const socketsOf = (user: Session) => openSessionSockets(server, user.token, opened);

  async function expectOpen(sockets: WebSocket[], tag: string): Promise<void> {
    for (const [i, socket] of sockets.entries()) await expectPong(socket, `${tag}-${i}`);
  }

  /** A user of its own with two sessions (two browsers), each with both sockets. */
  async function userWithTwoSessions() {
    const first = await createUser(server, admin.token);
    const second = await session(server, { username: first.user.username, password: first.password });
    return { first, second, firstSockets: await socketsOf(first), secondSockets: await socketsOf(second) };
  }

  describe('by what ends them', () => {
    beforeEach(() => start());

    it("logout closes that session's sockets, not those of the user's other session", async () => {
      const { first, firstSockets, secondSockets } = await userWithTwoSessions();
      expectSuccess(await logout(server.baseUrl, first.token));
      await expectEnded(firstSockets);
      await expectOpen(secondSockets, 'other');
    });

    it("the user's own password change closes the other session's sockets, not its own", async () => {
      const { first, firstSockets, secondSockets } = await userWithTwoSessions();
      expectSuccess(await first.api.put('/api/profile/password', { current: first.password, next: 'otra-clave-nueva' }));
      await expectEnded(secondSockets);
      await expectOpen(firstSockets, 'own');
    });

    it("an admin's password reset closes every socket of the user", async () => {
      const { first, firstSockets, secondSockets } = await userWithTwoSessions();
      expectSuccess(await admin.api.put(`/api/admin/users/${first.user._id}`, { password: 'reseteada-123' }));
      await expectEnded([...firstSockets, ...secondSockets]);
    });

    it('the CLI (npm run user -- passwd), another process writing the database, closes every socket of the user', async () => {
      const { first, firstSockets, secondSockets } = await userWithTwoSessions();
      // What the CLI runs, on a connection of its own to the server's database.
      const cli = openDatabase(server.config);
      try {
        const row = await usersRepo(cli.db, Date.now).findByUsername(first.user.username);
        const policy = { idleMs: server.config.sessionIdleMs, absoluteMs: server.config.sessionAbsoluteMs };
        expect(await setPasswordAndEndSessions(cli.db, row!, await hashPassword('clave-de-la-cli', TEST_PASSWORD_COST), policy)).toBe(2);
      } finally {
        await cli.db.destroy();
      }
      await expectEnded([...firstSockets, ...secondSockets]);
      expect((await checkToken(server.baseUrl, first.token)).status).toBe(401);
    });

    it('disabling the account closes every socket of the user', async () => {
      const { first, firstSockets, secondSockets } = await userWithTwoSessions();
      expectSuccess(await admin.api.put(`/api/admin/users/${first.user._id}`, { disabled: true }));
      await expectEnded([...firstSockets, ...secondSockets]);
    });

    it('deleting the account closes every socket of the user', async () => {
      const { first, firstSockets, secondSockets } = await userWithTwoSessions();
      expectSuccess(await admin.api.del(`/api/admin/users/${first.user._id}`));
      await expectEnded([...firstSockets, ...secondSockets]);
    });

    it('a session idle past SESSION_IDLE_MINUTES (no sweep saw its sockets in the meantime) closes them', async () => {
      const user = await createUser(server, admin.token);
      const sockets = await socketsOf(user);
      server.clock.advance(server.config.sessionIdleMs);
      await expectEnded(sockets);
      expect((await checkToken(server.baseUrl, user.token)).status).toBe(401);
    });

    it('an open socket is use: its session outlives SESSION_IDLE_MINUTES without a request', async () => {
      const user = await createUser(server, admin.token);
      const sockets = await socketsOf(user);
      const { sessionEnds } = server.app.ctx;
      // Each step under the idle limit; the sweep between them sees the sockets open.
      for (let step = 0; step < 3; step++) {
        server.clock.advance(server.config.sessionIdleMs / 2);
        await sessionEnds.sweep();
      }
      await expectOpen(sockets, 'in-use');
      expect((await checkToken(server.baseUrl, user.token)).status).toBe(200);
    });
  });

  it('a session past SESSION_ABSOLUTE_HOURS closes its sockets, however much it is used', async () => {
    await start({ sessionAbsoluteMs: 60 * MINUTE });
    const user = await createUser(server, admin.token);
    const sockets = await socketsOf(user);
    // In use all along (a request every few minutes, the sockets open), past the absolute end.
    for (let minutes = 0; minutes < 60; minutes += 5) {
      server.clock.advance(5 * MINUTE);
      if (minutes + 5 < 60) expect((await checkToken(server.baseUrl, user.token)).status).toBe(200);
    }
    await expectEnded(sockets);
  });
});

describe('broker sessions of users who are no longer signed in', () => {
  const [sqlite] = databaseTargets();
  let exchange: FakePrimaryServer;
  let server: TestServer;
  let admin: Session;

  beforeEach(async () => {
    exchange = await startFakePrimary();
    server = await startServer(sqlite!, { brokerUrls: [new URL(exchange.baseUrl).origin] });
    admin = await session(server, ADMIN);
  });
  afterEach(async () => {
    await server?.close();
    await exchange?.close();
  });

  const brokerSessionsOf = async (username: string) =>
    expectBody(await admin.api.get('/api/admin/positions'), AdminPositionsResponse).data.filter((entry) => entry.user === username);

  /** A Primary API session watching its account's fills (its order-report socket open at the broker) and a paper session. */
  async function connectBrokers(user: Session): Promise<void> {
    const primary = expectSuccess<{ sessionId: string }>(
      await user.api.post('/api/primary/sessions/connect', { url: exchange.baseUrl, ...exchange.credentials }),
    );
    expectSuccess(await user.api.post('/api/accounts/REM2747/watch-fills', { sessionId: primary.sessionId }));
    const paper = expectSuccess<{ sessionId: string; accounts: string[] }>(await user.api.post('/api/primary/sessions/connect', { url: 'sim://' }));
    expectSuccess(await user.api.post(`/api/accounts/${paper.accounts[0]}/watch`, { sessionId: paper.sessionId }));
    await pollUntil('the broker socket of the watch', () => (exchange.openSockets() > 0 ? true : null));
    expect(await brokerSessionsOf(user.user.username)).toHaveLength(2);
  }

  /** The broker connection closed (its socket at the broker), nothing of the user in this process. */
  async function expectBrokersEnded(user: Session): Promise<void> {
    await pollUntil('the broker connection to close', () => (exchange.openSockets() === 0 ? true : null), ENDED_WITHIN_MS);
    expect(server.app.ctx.broker.usersHere()).not.toContain(user.user._id);
    expect(await brokerSessionsOf(user.user.username)).toEqual([]);
  }

  it("a disabled user's broker sessions end: connection closed, credentials gone from the process", async () => {
    const user = await createUser(server, admin.token);
    await connectBrokers(user);
    expectSuccess(await admin.api.put(`/api/admin/users/${user.user._id}`, { disabled: true }));
    await expectBrokersEnded(user);
  });

  it('the logout of one of two sessions keeps them; the logout of the last ends them', async () => {
    const user = await createUser(server, admin.token);
    const other = await session(server, { username: user.user.username, password: user.password });
    await connectBrokers(user);
    expectSuccess(await logout(server.baseUrl, user.token));
    // A sweep later, the user is still signed in on the other session: nothing ends.
    await server.app.ctx.sessionEnds.sweep();
    expect(await brokerSessionsOf(user.user.username)).toHaveLength(2);
    expect(exchange.openSockets()).toBeGreaterThan(0);
    expectSuccess(await logout(server.baseUrl, other.token));
    await expectBrokersEnded(user);
  });

  it('a password change by the CLI ends them at the next sweep', async () => {
    const user = await createUser(server, admin.token);
    await connectBrokers(user);
    const cli = openDatabase(server.config);
    try {
      const row = await usersRepo(cli.db, Date.now).findByUsername(user.user.username);
      const policy = { idleMs: server.config.sessionIdleMs, absoluteMs: server.config.sessionAbsoluteMs };
      await setPasswordAndEndSessions(cli.db, row!, await hashPassword('clave-de-la-cli', TEST_PASSWORD_COST), policy);
    } finally {
      await cli.db.destroy();
    }
    await expectBrokersEnded(user);
  });
});
