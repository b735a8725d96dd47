import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient, type FetchLike } from '../shared/http';
import { HEALTH_TIMEOUT_MS } from '../shared/health';
import { createConnectivityCheck } from './connectivity';

const checkWith = (fetch: FetchLike, baseUrl = '/api') => createConnectivityCheck({ http: createHttpClient({ fetch, baseUrl, getToken: () => 'tok' }) });

describe('connectivity check', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('HEADs our own health route, uncached, and counts only a 2xx as reachable', async () => {
    const asked: { url: string; method: string; cache: string | undefined; authorization: string | undefined }[] = [];
    let status = 204;
    const check = checkWith(async (url, init) => {
      asked.push({ url, method: init.method, cache: init.cache, authorization: init.headers.authorization });
      return new Response(null, { status });
    }, '/api/');
    await expect(check()).resolves.toBe(true);
    // Anonymous: the check is about the server, not the session.
    expect(asked).toEqual([{ url: '/api/health', method: 'HEAD', cache: 'no-store', authorization: undefined }]);
    // A proxy in front of a server that is not up yet.
    for (status of [502, 503, 504, 404]) await expect(check()).resolves.toBe(false);
  });

  it('is not reachable when the request fails (offline, refused)', async () => {
    const check = checkWith(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(check()).resolves.toBe(false);
  });

  it('gives up after the timeout on a request that never ends, aborting it', async () => {
    let signal: AbortSignal | undefined;
    const check = checkWith((_url, init) => {
      signal = init.signal;
      return new Promise(() => {});
    });
    let answer: boolean | undefined;
    void check().then((reachable) => (answer = reachable));
    await vi.advanceTimersByTimeAsync(HEALTH_TIMEOUT_MS - 1);
    expect(answer).toBeUndefined();
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toBe(false);
    expect(signal?.aborted).toBe(true);
  });
});
