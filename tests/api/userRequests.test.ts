// One signed-in user's requests come out of a budget (USER_REQUESTS per
// USER_REQUESTS_WINDOW_SECONDS): past it every request of that user is answered 429 with
// Retry-After and a Spanish message, before its body is read, while other users go on.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { ADMIN, DEMO, createUser, expectErrorResponse, pollUntil, request, session } from './helpers.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe.each(databaseTargets())('the per-user request budget on $name', (target) => {
  it('refuses a user past the budget (429, Retry-After, before the body is read); other users and sign-in go on', async () => {
    const server = await startServer(target, { userRequests: 6, userRequestsWindowMs: 60_000 });
    servers.push(server);
    const admin = await session(server, ADMIN);
    const other = await createUser(server, admin.token);
    const demo = await session(server, DEMO);

    for (let i = 0; i < 6; i++) expect((await demo.api.get('/api/profile')).status).toBe(200);
    const refused = await demo.api.get('/api/profile');
    expect(expectErrorResponse(refused, 429)).toMatch(/^Demasiadas solicitudes seguidas de este usuario\. Vuelva a intentar en \d+ segundos?\.$/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // A body that is not even JSON is not read: the refusal comes first.
    const unread = await request(server.baseUrl, 'POST', `/api/visores/${demo.user._id}/new`, { raw: '{"not json', token: demo.token });
    expect(expectErrorResponse(unread, 429)).toMatch(/^Demasiadas solicitudes seguidas/);

    // Another user, and a new sign-in (which is not a signed-in request), are not held back.
    expect((await other.api.get('/api/profile')).status).toBe(200);
    const again = await session(server, DEMO);
    // The budget is the user's, not the token's: a new token of demo is refused as well.
    expectErrorResponse(await again.api.get('/api/profile'), 429);
  });

  it('answers a refusal after the pause, with the rest of the window as Retry-After: a client that does not wait makes one request a pause on each connection', async () => {
    const pauseMs = 400;
    const server = await startServer(target, { userRequests: 1, userRequestsWindowMs: 60_000, refusalPauseMs: pauseMs });
    servers.push(server);
    const demo = await session(server, DEMO);
    expect((await demo.api.get('/api/profile')).status).toBe(200);
    const timed = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const sent = performance.now();
        const response = await demo.api.get('/api/profile');
        return { response, waited: performance.now() - sent };
      }),
    );
    for (const { response, waited } of timed) {
      expectErrorResponse(response, 429);
      // A timer never fires early; the 1 ms is performance.now()'s rounding against the timer's.
      expect(waited).toBeGreaterThanOrEqual(pauseMs - 1);
      // The window's rest (60 s window), not the pause: the pause never outlasts Retry-After
      // (refusalHold.test holds it to that).
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(pauseMs / 1000);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
  });

  it("takes a user's requests in turns, and a request whose client left while it waited gives its turn back", async () => {
    const server = await startServer(target, { userConcurrentRequests: 1 });
    servers.push(server);
    const demo = await session(server, DEMO);
    const visorId = (await demo.api.get(`/api/visores/${demo.user._id}`)).body as { data: Array<{ visor_id: string }> };
    const { port } = new URL(server.baseUrl);
    const open = (bytes: string) => {
      const socket = net.connect({ host: '127.0.0.1', port: Number(port) }, () => socket.write(bytes));
      socket.on('error', () => {});
      return socket;
    };
    // A save whose body is still on its way holds the user's one turn.
    const holder = open(
      `PUT /api/visores/${visorId.data[0]!.visor_id}/update_secciones HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${demo.token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"secciones":',
    );
    // A read waits for the turn; its client leaves while it waits.
    const waiter = open(`GET /api/profile HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${demo.token}\r\n\r\n`);
    await pollUntil('the read waiting its turn', async () => (server.app.ctx.userTurns.stats(demo.user._id).waiting === 1 ? true : null));
    waiter.destroy();
    holder.destroy();
    // The turn came back: the user is served again (a turn given to the gone read would hold it forever).
    expect((await demo.api.get('/api/profile')).status).toBe(200);
  });

  it('gives the turn back of a request whose client left during its token check', async () => {
    const server = await startServer(target, { userConcurrentRequests: 1 });
    servers.push(server);
    const demo = await session(server, DEMO);
    const { auth, userTurns } = server.app.ctx;
    const check = auth.userOfToken.bind(auth);
    auth.userOfToken = async (token) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return check(token);
    };
    const enter = userTurns.enter.bind(userTurns);
    let entered = false;
    userTurns.enter = async (userId) => {
      const turn = await enter(userId);
      entered = true;
      return turn;
    };
    const { port } = new URL(server.baseUrl);
    const client = net.connect({ host: '127.0.0.1', port: Number(port) }, () =>
      client.write(`GET /api/profile HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${demo.token}\r\n\r\n`),
    );
    client.on('error', () => {});
    await new Promise<void>((resolve) => client.once('connect', () => setTimeout(resolve, 50)));
    client.destroy();
    // The gone request is given its turn after the check; the turn must come back at once.
    await pollUntil('the gone request given its turn', async () => (entered ? true : null));
    expect(userTurns.stats(demo.user._id)).toEqual({ running: 0, waiting: 0 });
  });

  it('serves the user again once the window has passed', async () => {
    const server = await startServer(target, { userRequests: 1, userRequestsWindowMs: 1000 });
    servers.push(server);
    const demo = await session(server, DEMO);
    // Two requests inside one second: the second is refused (however slow the machine, two in a row come within a second sooner or later).
    await pollUntil('a request refused', async () => ((await demo.api.get('/api/profile')).status === 429 ? true : null));
    await pollUntil('demo served again', async () => ((await demo.api.get('/api/profile')).status === 200 ? true : null));
  });
});
