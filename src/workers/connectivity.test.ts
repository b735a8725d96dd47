import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONNECTIVITY_TIMEOUT_MS, createConnectivityCheck, healthUrl, type HeadFetch } from './connectivity';

describe('connectivity check', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('HEADs our own health route, uncached, and counts only a 2xx as reachable', async () => {
    const asked: { url: string; method: string; cache: string }[] = [];
    let status = 204;
    const fetch: HeadFetch = async (url, init) => {
      asked.push({ url, method: init.method, cache: init.cache });
      return new Response(null, { status });
    };
    const check = createConnectivityCheck({ fetch, apiBase: '/api/' });
    await expect(check()).resolves.toBe(true);
    expect(asked).toEqual([{ url: '/api/health', method: 'HEAD', cache: 'no-store' }]);
    // A proxy in front of a server that is not up yet.
    for (status of [502, 503, 504, 404]) await expect(check()).resolves.toBe(false);
  });

  it('is not reachable when the request fails (offline, refused)', async () => {
    const check = createConnectivityCheck({ fetch: () => Promise.reject(new TypeError('Failed to fetch')), apiBase: '/api' });
    await expect(check()).resolves.toBe(false);
  });

  it('gives up after the timeout on a request that never ends, aborting it', async () => {
    let signal: AbortSignal | undefined;
    const check = createConnectivityCheck({
      fetch: (_url, init) => {
        signal = init.signal;
        return new Promise(() => {});
      },
      apiBase: '/api',
    });
    let answer: boolean | undefined;
    void check().then((reachable) => (answer = reachable));
    await vi.advanceTimersByTimeAsync(CONNECTIVITY_TIMEOUT_MS - 1);
    expect(answer).toBeUndefined();
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toBe(false);
    expect(signal?.aborted).toBe(true);
  });

  it('builds the health URL under any API base', () => {
    expect(healthUrl('https://api.example.com/api')).toBe('https://api.example.com/api/health');
    expect(healthUrl('/api//')).toBe('/api/health');
  });
});
