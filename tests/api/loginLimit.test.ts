// The failed sign-in limit under parallel requests (issue 17, item 1): every attempt is
// reserved in the database before its password is checked, so a burst of guesses, sent to
// one process or to two sharing the database, gets exactly LOGIN_MAX_FAILURES checks and the
// rest 429, and a right password sent once the limit is reached neither gets in nor resets it.
// Its bursts come from one address and outnumber the per-address budget (LOGIN_IP_MAX_FAILURES,
// signinBudget.test.ts), so these servers get a per-address budget above them: what is tested
// here is the username-and-address limit alone.
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../server/app.js';
import { loginFailuresRepo } from '../../server/db/loginFailures.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { DEMO, expectErrorResponse, login, pollUntil, type ApiResponse } from './helpers.js';

const INVALID = 'Usuario o contraseña incorrectos';

describe.each(databaseTargets())('sign-in limit under parallel requests on $name', (target) => {
  let server: TestServer;
  let second: BuiltApp | null = null;
  beforeEach(async () => {
    server = await startServer(target, { loginIpMaxFailures: 1000 });
  });
  afterEach(async () => {
    await second?.app.close();
    second = null;
    await server.close();
  });

  const max = () => server.config.loginMaxFailures;

  /** Splits a burst's answers into 401 (checked and wrong) and 429 (refused unchecked), and checks each. */
  function tally(responses: ApiResponse[]) {
    const unauthorized = responses.filter((r) => r.status === 401);
    const blocked = responses.filter((r) => r.status === 429);
    expect(unauthorized.length + blocked.length, `statuses: ${responses.map((r) => r.status).join(',')}`).toBe(responses.length);
    for (const response of unauthorized) expect(expectErrorResponse(response, 401)).toBe(INVALID);
    for (const response of blocked) {
      expectErrorResponse(response, 429);
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(server.config.loginWindowMs / 1000);
    }
    return { unauthorized: unauthorized.length, blocked: blocked.length };
  }

  it('checks exactly LOGIN_MAX_FAILURES of 64 simultaneous wrong guesses and answers the rest 429', async () => {
    const responses = await Promise.all(Array.from({ length: 64 }, (_, i) => login(server.baseUrl, DEMO.username, `wrong-${i}`)));
    expect(tally(responses)).toEqual({ unauthorized: max(), blocked: 64 - max() });
    // The window still holds: the right password is refused too.
    expectErrorResponse(await login(server.baseUrl, DEMO.username, DEMO.password), 429);
  });

  it('does not let a right password in, nor reset the count, once the limit is reached by parallel guesses', async () => {
    const guesses = Array.from({ length: 50 }, (_, i) => login(server.baseUrl, DEMO.username, `wrong-${i}`));
    // The right password goes while the guesses are in flight, once the database holds
    // LOGIN_MAX_FAILURES attempts of them.
    await pollUntil('the attempts of the guesses', async () => {
      const row = await server.app.ctx.db
        .selectFrom('login_failures')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('username_key', '=', 'demo')
        .executeTakeFirstOrThrow();
      return Number(row.n) >= max() ? true : null;
    });
    const right = await login(server.baseUrl, DEMO.username, DEMO.password);
    expect(tally(await Promise.all(guesses))).toEqual({ unauthorized: max(), blocked: 50 - max() });
    expectErrorResponse(right, 429);
    // Nothing was reset: the right password and another guess are still refused…
    expectErrorResponse(await login(server.baseUrl, DEMO.username, DEMO.password), 429);
    expectErrorResponse(await login(server.baseUrl, DEMO.username, 'wrong-again'), 429);
    // …until the window passes.
    server.clock.advance(server.config.loginWindowMs + 1);
    expect((await login(server.baseUrl, DEMO.username, DEMO.password)).status).toBe(200);
  });

  it('holds across two servers sharing the database', async () => {
    second = await buildApp({ ...server.config, port: 0 }, { now: server.clock.now });
    await second.app.listen({ port: 0, host: '127.0.0.1' });
    const secondUrl = `http://127.0.0.1:${(second.app.server.address() as AddressInfo).port}`;
    const responses = await Promise.all(Array.from({ length: 64 }, (_, i) => login(i % 2 === 0 ? server.baseUrl : secondUrl, DEMO.username, `wrong-${i}`)));
    expect(tally(responses)).toEqual({ unauthorized: max(), blocked: 64 - max() });
  });

  it('clears, on a success, the failures that had ended before it, not the attempts in flight', async () => {
    const repo = loginFailuresRepo(server.app.ctx.db, server.clock.now, server.config.loginWindowMs);
    const ids = async () =>
      (await server.app.ctx.db.selectFrom('login_failures').select('id').where('username_key', '=', 'someone').execute()).map((row) => row.id).sort();
    const ended = await repo.reserve('someone', '10.0.0.1', 3);
    if (!ended.ok) throw new Error('the first attempt was refused');
    await repo.failed(ended.id);
    const inFlight = await repo.reserve('someone', '10.0.0.1', 3);
    const right = await repo.reserve('someone', '10.0.0.1', 3);
    if (!inFlight.ok || !right.ok) throw new Error('an attempt under the limit was refused');
    expect(right.earlier).toEqual([ended.id]);
    expect(await repo.reserve('someone', '10.0.0.1', 3)).toEqual({ ok: false, oldestAt: server.clock.now() });
    await repo.succeeded(right);
    expect(await ids()).toEqual([inFlight.id]);
  });
});
