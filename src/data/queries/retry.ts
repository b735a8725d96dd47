// Which failed requests TanStack Query asks again, and after how long (client.ts). Kept out
// of client.ts, which reads the tab's build settings through api.ts, so it is tested in node.
import { backoffDelay } from '../../lib/backoff';

/** Tries after the first: a third failure is shown. */
export const MAX_RETRIES = 2;

/**
 * `status` is the failed request's ApiError status (0 when no answer came back), undefined
 * for any other error. A refusal (4xx) gets the same answer again, and so does a body that
 * does not parse or a bug; no answer (offline, a proxy's 502/503/504, which ApiError reports
 * as 0) or a server error (5xx) may well pass a moment later.
 */
export function shouldRetry(failureCount: number, status: number | undefined): boolean {
  if (status === undefined) return false;
  if (status !== 0 && status < 500) return false;
  return failureCount < MAX_RETRIES;
}

/** 500 ms, then 1 s: the reconnect curve of the sockets (lib/backoff.ts). */
export function retryDelay(failureCount: number): number {
  return backoffDelay(failureCount);
}
