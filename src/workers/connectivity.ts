// The connectivity check the market socket makes before reconnecting (spec section 4). The
// spec HEADs a public site; this app's only network is its own server, so it HEADs that:
// GET|HEAD /api/health answers 204 from the app process itself. A public site says nothing
// about our server (up while ours restarts, unreachable in closed networks that still reach
// ours), and a proxy's 502/503/504 in front of a restarting server is not "reachable". The
// request is bounded in time: a black-holed network must not hold the reconnect up.
import { HEALTH_TIMEOUT_MS } from '../shared/health';
import type { HttpClient } from '../shared/http';

/** True when our server answered the health check with a 2xx within the time allowed. */
export function createConnectivityCheck(options: { http: HttpClient; timeoutMs?: number }): () => Promise<boolean> {
  const timeoutMs = options.timeoutMs ?? HEALTH_TIMEOUT_MS;
  return () =>
    new Promise<boolean>((resolve) => {
      const abort = new AbortController();
      // Resolved here too, not only through the abort: a fetch that ignores it still ends.
      const timer = setTimeout(() => {
        abort.abort();
        resolve(false);
      }, timeoutMs);
      options.http
        .request('HEAD', '/health', { auth: 'none', cache: 'no-store', signal: abort.signal })
        .then(
          () => true,
          // Offline, refused, not a 2xx, or aborted by the timeout.
          () => false,
        )
        .then((reachable) => {
          clearTimeout(timer);
          resolve(reachable);
        });
    });
}
