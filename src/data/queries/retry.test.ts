import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { MAX_RETRIES, retryDelay, shouldRetry } from './retry';

describe('shouldRetry', () => {
  it('does not ask again after a refusal (4xx)', () => {
    for (const status of [400, 401, 403, 404, 409, 412, 429]) expect(shouldRetry(0, status)).toBe(false);
  });

  it('asks twice more when no answer came back or the server failed', () => {
    for (const status of [0, 500, 501]) {
      expect(shouldRetry(0, status)).toBe(true);
      expect(shouldRetry(1, status)).toBe(true);
      expect(shouldRetry(MAX_RETRIES, status)).toBe(false);
    }
  });

  it('does not ask again after an error that is not an HTTP failure (a body that does not parse, a bug)', () => {
    expect(shouldRetry(0, undefined)).toBe(false);
  });

  it('waits 500 ms, then 1 s', () => {
    expect([retryDelay(0), retryDelay(1)]).toEqual([500, 1000]);
  });
});

describe('the rule in a QueryClient', () => {
  class HttpFailure extends Error {
    constructor(readonly status: number) {
      super(`status ${status}`);
    }
  }

  /** Calls of a query that always fails with `status`, under the rule as client.ts sets it. */
  async function attempts(status: number): Promise<number> {
    const client = new QueryClient({
      defaultOptions: {
        queries: {
          retry: (failureCount, error) => shouldRetry(failureCount, error instanceof HttpFailure ? error.status : undefined),
          retryDelay: 1,
          networkMode: 'always',
        },
      },
    });
    let calls = 0;
    const query = client.getQueryCache().build(client, {
      queryKey: ['failing', status],
      queryFn: () => {
        calls += 1;
        throw new HttpFailure(status);
      },
    });
    await expect(query.fetch()).rejects.toThrow(`status ${status}`);
    client.clear();
    return calls;
  }

  it('tries once on a 4xx and three times in all on a network failure or a 5xx', async () => {
    expect(await attempts(404)).toBe(1);
    expect(await attempts(401)).toBe(1);
    expect(await attempts(0)).toBe(1 + MAX_RETRIES);
    expect(await attempts(503)).toBe(1 + MAX_RETRIES);
  });
});
