// Whether this tab can reach the server (issue 21): the data worker's view (every request it
// makes, the market socket, its health probes) and the browser's (navigator.onLine: a network
// that is gone for certain). Controls that need the server read it; edits that the worker's
// outbox keeps offline do not. The sign-in page, before any worker, asks by itself
// (reachability.ts, which also follows navigator.onLine for both).
import { NEEDS_SERVER_REASON, useBrowserOfflineSince } from './reachability';
import { useOfflineStatus } from './store';

export { NEEDS_SERVER_REASON };

export interface Connection {
  online: boolean;
  /** Since when it is offline (epoch ms), or null while online. */
  since: number | null;
  /** Writes the worker's outbox keeps until the server has them. */
  pending: number;
  /** The server fails their replay (a 5xx): its message, while it lasts; else null. */
  replayError: string | null;
}

/** The tab's connection: offline when the worker cannot reach the server or the browser has no network. */
export function useConnection(): Connection {
  const browserSince = useBrowserOfflineSince();
  const worker = useOfflineStatus();
  // A worker of before replayError answers none: null.
  const replayError = worker.replayError ?? null;
  if (worker.online && browserSince == null) return { online: true, since: null, pending: worker.pending, replayError };
  const since = worker.since != null && browserSince != null ? Math.min(worker.since, browserSince) : (worker.since ?? browserSince);
  return { online: false, since, pending: worker.pending, replayError };
}

/** True while the server can be reached, as far as this tab knows. */
export function useOnline(): boolean {
  return useConnection().online;
}

/** NEEDS_SERVER_REASON while offline, else null: for a control's `disabled` and `title`. */
export function useNeedsServerReason(): string | null {
  return useOnline() ? null : NEEDS_SERVER_REASON;
}
