import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, NETWORK_ERROR_MESSAGE, NOT_SIGNED_IN_MESSAGE, TIMEOUT_MESSAGE, toPlainError } from './errors';
import { createHttpClient, type FetchInit, type FetchLike } from './http';

/** A fetch that records each call and answers `status` with `body` (none: an empty body). */
function answering(status: number, body?: unknown) {
  const calls: { url: string; init: FetchInit }[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init });
    return new Response(body === undefined ? null : JSON.stringify(body), { status });
  };
  return { fetch, calls };
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

describe('shared HTTP client', () => {
  it("sends JSON under the base with the session's token, extra headers and credentials", async () => {
    const { fetch, calls } = answering(200, { version: 4 });
    const http = createHttpClient({ fetch, baseUrl: 'https://api.example/api//', getToken: () => 'tok', credentials: 'include' });
    const answer = await http.request<{ version: number }>('PUT', '/visores/u1/folders', { body: [], headers: { 'if-match': '"3"' } });
    expect(answer).toMatchObject({ status: 200, body: { version: 4 } });
    expect(calls).toEqual([
      {
        url: 'https://api.example/api/visores/u1/folders',
        init: {
          method: 'PUT',
          headers: { accept: 'application/json', 'if-match': '"3"', authorization: 'Bearer tok', 'content-type': 'application/json' },
          body: '[]',
          credentials: 'include',
        },
      },
    ]);
  });

  it("fails 'not_signed_in' without calling the server when a session request has no token; 'none' and a given token need none", async () => {
    const { fetch, calls } = answering(204);
    const http = createHttpClient({ fetch, baseUrl: '/api', getToken: () => null });
    const failure = await failureOf(http.request('GET', '/visores/u1'));
    expect(failure).toBeInstanceOf(ApiError);
    expect(toPlainError(failure)).toEqual({ code: 'not_signed_in', message: NOT_SIGNED_IN_MESSAGE, status: 0 });
    expect(calls).toEqual([]);

    await http.request('HEAD', '/health', { auth: 'none', cache: 'no-store' });
    await http.request('POST', '/logout', { auth: { token: 'given' } });
    expect(calls.map((call) => [call.init.method, call.init.headers.authorization, call.init.cache])).toEqual([
      ['HEAD', undefined, 'no-store'],
      ['POST', 'Bearer given', undefined],
    ]);
  });

  it("answers the server's message with the code and status of the refusal", async () => {
    const http = createHttpClient({ fetch: answering(412, { status: 'error', message: 'El árbol cambió' }).fetch, baseUrl: '/api', getToken: () => 'tok' });
    const failure = await failureOf(http.request('PUT', '/visores/u1/folders'));
    expect(failure).toMatchObject({ name: 'ApiError', code: 'conflict', message: 'El árbol cambió', status: 412, isNetwork: false });
    const plain = createHttpClient({ fetch: answering(500).fetch, baseUrl: '/api', getToken: () => 'tok' });
    expect(toPlainError(await failureOf(plain.request('GET', '/x')))).toEqual({ code: 'server', message: 'Error 500 del servidor', status: 500 });
  });

  it('counts no answer, and a proxy 502/503/504, as the network: status 0', async () => {
    const offline = createHttpClient({ fetch: () => Promise.reject(new TypeError('Failed to fetch')), baseUrl: '/api', getToken: () => 'tok' });
    const failure = await failureOf(offline.request('GET', '/x'));
    expect(failure).toMatchObject({ code: 'network', message: NETWORK_ERROR_MESSAGE, status: 0, isNetwork: true });
    for (const status of [502, 503, 504]) {
      const proxied = createHttpClient({ fetch: answering(status).fetch, baseUrl: '/api', getToken: () => 'tok' });
      expect(toPlainError(await failureOf(proxied.request('GET', '/x')))).toEqual({ code: 'network', message: NETWORK_ERROR_MESSAGE, status: 0 });
    }
    // Our own server's 503 says why.
    const told = createHttpClient({ fetch: answering(503, { message: 'El broker no respondió' }).fetch, baseUrl: '/api', getToken: () => 'tok' });
    expect(toPlainError(await failureOf(told.request('GET', '/x')))).toEqual({ code: 'network', message: 'El broker no respondió', status: 0 });
  });

  it('keeps the status that came back on the error, also where it counts as no answer', async () => {
    const proxied = createHttpClient({ fetch: answering(503).fetch, baseUrl: '/api', getToken: () => 'tok' });
    expect(await failureOf(proxied.request('GET', '/x'))).toMatchObject({ status: 0, answered: 503 });
    const failing = createHttpClient({ fetch: answering(500).fetch, baseUrl: '/api', getToken: () => 'tok' });
    expect(await failureOf(failing.request('GET', '/x'))).toMatchObject({ status: 500, answered: 500 });
    const offline = createHttpClient({ fetch: () => Promise.reject(new TypeError('Failed to fetch')), baseUrl: '/api', getToken: () => 'tok' });
    expect(await failureOf(offline.request('GET', '/x'))).toMatchObject({ status: 0, answered: 0 });
  });

  it("rethrows the caller's abort as is", async () => {
    const abort = new AbortController();
    const fetch: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))));
    const http = createHttpClient({ fetch, baseUrl: '/api' });
    const pending = failureOf(http.request('POST', '/visores/search', { auth: 'none', signal: abort.signal }));
    abort.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
  });

  it('parses a 2xx body with the schema given, and fails a body that does not match', async () => {
    const Answer = z.object({ data: z.object({ fav: z.boolean() }) });
    const good = createHttpClient({ fetch: answering(200, { status: 'success', data: { fav: true } }).fetch, baseUrl: '/api', getToken: () => 'tok' });
    const { body } = await good.request('PUT', '/fav', { schema: Answer });
    // Typed by the schema, and stripped to it.
    expect(body.data.fav).toBe(true);
    expect(body).toEqual({ data: { fav: true } });
    const bad = createHttpClient({ fetch: answering(200, { data: { fav: 'yes' } }).fetch, baseUrl: '/api', getToken: () => 'tok' });
    const failure = await failureOf(bad.request('PUT', '/fav', { schema: Answer }));
    expect(failure).toMatchObject({ code: 'server', status: 200 });
    expect((failure as ApiError).message).toMatch(/^Respuesta inesperada del servidor \(PUT \/fav\)/);
  });
});

describe('the time limit of a request (issue 21)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  // Only the timers: the bodies of real Responses are read on Node's own scheduling.
  const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

  /** A fetch that never answers, whatever its signal says (a hung proxy), and the signals it was given. */
  function hanging() {
    const signals: AbortSignal[] = [];
    const fetch: FetchLike = (_url, init) => {
      if (init.signal) signals.push(init.signal);
      return new Promise(() => undefined);
    };
    return { fetch, signals };
  }

  it('ends a request that never gets an answer as no answer once its time passes, its fetch aborted', async () => {
    fakeTimers();
    const { fetch, signals } = hanging();
    const timeouts: number[] = [];
    const http = createHttpClient({ fetch, baseUrl: '/api', getToken: () => 'tok', timeoutMs: 15_000, onTimeout: () => timeouts.push(1) });
    let settled: unknown = 'pending';
    void failureOf(http.request('PUT', '/visores/v1')).then((error) => (settled = error));
    await vi.advanceTimersByTimeAsync(14_999);
    expect(settled).toBe('pending');
    expect(signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBeInstanceOf(ApiError);
    expect(toPlainError(settled)).toEqual({ code: 'network', message: TIMEOUT_MESSAGE, status: 0 });
    expect((settled as ApiError).isNetwork).toBe(true);
    expect(signals[0]?.aborted).toBe(true);
    expect(timeouts).toHaveLength(1);
  });

  it('ends a request whose body never ends the same way', async () => {
    fakeTimers();
    const fetch: FetchLike = async () => ({ status: 200, headers: { get: () => null }, json: () => new Promise(() => undefined) });
    const http = createHttpClient({ fetch, baseUrl: '/api', getToken: () => 'tok', timeoutMs: 1000 });
    const pending = failureOf(http.request('GET', '/visores/primary/instruments'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(toPlainError(await pending)).toEqual({ code: 'network', message: TIMEOUT_MESSAGE, status: 0 });
  });

  it("gives a request its own time when it asks for one, and leaves the caller's abort as it was", async () => {
    fakeTimers();
    const { fetch } = hanging();
    const http = createHttpClient({ fetch, baseUrl: '/api', getToken: () => 'tok', timeoutMs: 1000 });
    let settled: unknown = 'pending';
    void failureOf(http.request('POST', '/visores/search/symbol/history', { timeoutMs: 60_000 })).then((error) => (settled = error));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(toPlainError(settled)).toMatchObject({ code: 'network', message: TIMEOUT_MESSAGE });

    const abort = new AbortController();
    const aborting: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))));
    const own = createHttpClient({ fetch: aborting, baseUrl: '/api', timeoutMs: 1000 });
    const given = failureOf(own.request('HEAD', '/health', { auth: 'none', signal: abort.signal }));
    abort.abort();
    expect(await given).toMatchObject({ name: 'AbortError' });
  });

  it('clears its timer once answered: an answer in time stays an answer', async () => {
    fakeTimers();
    const http = createHttpClient({ fetch: answering(200, { ok: true }).fetch, baseUrl: '/api', getToken: () => 'tok', timeoutMs: 1000 });
    await expect(http.request('GET', '/x')).resolves.toMatchObject({ status: 200, body: { ok: true } });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('toPlainError', () => {
  it('keeps known codes and statuses of plain objects and errors, and calls anything else internal', () => {
    expect(toPlainError({ code: 'timeout', message: 'Timeout' })).toEqual({ code: 'timeout', message: 'Timeout', status: 0 });
    expect(toPlainError(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toEqual({ code: 'internal', message: 'x', status: 0 });
    expect(toPlainError('boom')).toEqual({ code: 'internal', message: 'boom', status: 0 });
  });
});
