// Whether the worker can reach its server, and since when not (issue 21): the tabs' offline
// banner, the outbox's choice between sending a write and keeping it, and the moment to replay
// it. Every request the worker makes tells (an answer: reached; no answer: unreachable), and so
// does the market socket opening. A proxy's 502/503/504 for a request is not enough to say
// either: the server may be down behind it, or the proxy failed that one request; the health
// check decides, asked at once, and until it answers nothing changes (so a proxy failing one
// request in front of a healthy server does not flip the tabs' banner to offline and back).
// While unreachable, the server is asked again (HEAD /api/health) 1 s after, then doubling to
// 10 s apart, so the outbox is replayed soon after the network returns even with no socket or
// tab asking.

import { PROBE_FIRST_MS, PROBE_MAX_MS } from '../shared/health';

export interface OnlineState {
  online: boolean;
  /** Epoch ms since when the server could not be reached; null while online. */
  since: number | null;
}

export interface OnlineDeps {
  /** True when the server answered its health check. */
  check: () => Promise<boolean>;
  now?: () => number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export function createOnlineTracker(deps: OnlineDeps) {
  const now = deps.now ?? Date.now;
  const setTimer = deps.setTimer ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
  const clearTimer = deps.clearTimer ?? ((timer: unknown) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  let state: OnlineState = { online: true, since: null };
  const listeners = new Set<(state: OnlineState) => void>();
  let timer: unknown = null;
  let delay = PROBE_FIRST_MS;
  let probing = false;
  /** A proxy's 502/503/504 being checked against the server's health, until it is settled. */
  let verifying: Promise<void> | null = null;

  const set = (next: OnlineState) => {
    state = next;
    for (const listener of listeners) listener(state);
  };

  function schedule(): void {
    if (timer != null || state.online) return;
    timer = setTimer(() => {
      timer = null;
      void probe();
    }, delay);
    delay = Math.min(delay * 2, PROBE_MAX_MS);
  }

  async function probe(): Promise<void> {
    if (probing || state.online) return;
    probing = true;
    try {
      if (await deps.check()) tracker.reached();
      else schedule();
    } finally {
      probing = false;
    }
  }

  const tracker = {
    state: (): OnlineState => state,
    isOnline: (): boolean => state.online,
    /** The server answered. */
    reached(): void {
      delay = PROBE_FIRST_MS;
      if (timer != null) clearTimer(timer);
      timer = null;
      if (!state.online) set({ online: true, since: null });
    },
    /** A request got no answer from the server. */
    unreachable(): void {
      if (state.online) set({ online: false, since: now() });
      schedule();
    },
    /**
     * A proxy answered a request for the server with a 502/503/504: the health check decides,
     * asked now (answered: reached; not: unreachable). Nothing changes meanwhile.
     */
    gatewayFailed(): void {
      if (!state.online || verifying) return;
      verifying = deps
        .check()
        .catch(() => false)
        .then((reachable) => {
          verifying = null;
          if (reachable) tracker.reached();
          else tracker.unreachable();
        });
    },
    /** Whether the server is reached, once a 502/503/504 being checked (gatewayFailed) is settled. */
    async settled(): Promise<boolean> {
      await verifying;
      return state.online;
    },
    onChange(listener: (state: OnlineState) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose(): void {
      if (timer != null) clearTimer(timer);
      timer = null;
      listeners.clear();
    },
  };
  return tracker;
}

export type OnlineTracker = ReturnType<typeof createOnlineTracker>;
