// Which tabs are alive (issue 5, reference/browser-notes.md). A MessagePort has no close
// event, so each tab holds a Web Lock with a unique name for its whole life and the worker
// queues for the same lock: the grant means the tab is gone (closed, crashed, navigated
// away). A heartbeat with a timeout is the fallback where locks are missing or not released
// (Safari on reload). A tab dropped by mistake (frozen in the background) learns it from its
// next heartbeat and registers again.
import { TAB_HEARTBEAT_MS, TAB_TIMEOUT_MS } from '../shared/tabLiveness';

export interface LockRequester {
  request(name: string, callback: () => unknown): Promise<unknown>;
}

export interface TabRegistryOptions<T> {
  /** navigator.locks, or null where the browser has none. */
  locks: LockRequester | null;
  timeoutMs?: number;
  /** How often silent tabs are looked for. */
  sweepEveryMs?: number;
  now?: () => number;
  /** Called once per registration that ends, however it ends. */
  onGone(tabId: string, tab: T): void;
}

export interface TabRegistry<T> {
  /** Starts (or restarts) tracking a tab; `lockName` is the lock the tab holds, if any. */
  register(tabId: string, lockName: string | null, tab: T): void;
  /** A heartbeat: false when the tab is not (any more) registered. */
  touch(tabId: string): boolean;
  /** The tab says it is leaving. */
  remove(tabId: string): void;
  get(tabId: string): T | undefined;
  /** Every registered tab's value. */
  values(): T[];
  readonly size: number;
  /** Stops the sweep; registrations are forgotten without onGone. */
  dispose(): void;
}

interface Registration<T> {
  tab: T;
  lastSeen: number;
}

export function createTabRegistry<T>(options: TabRegistryOptions<T>): TabRegistry<T> {
  const timeoutMs = options.timeoutMs ?? TAB_TIMEOUT_MS;
  const sweepEveryMs = options.sweepEveryMs ?? TAB_HEARTBEAT_MS;
  const now = options.now ?? Date.now;
  const tabs = new Map<string, Registration<T>>();
  let sweepTimer: ReturnType<typeof setInterval> | null = null;

  // Removes the registration only if it is still the current one: a lock granted for an
  // old registration must not end the tab's new one.
  const end = (tabId: string, registration: Registration<T>) => {
    if (tabs.get(tabId) !== registration) return;
    tabs.delete(tabId);
    if (tabs.size === 0 && sweepTimer != null) {
      clearInterval(sweepTimer);
      sweepTimer = null;
    }
    options.onGone(tabId, registration.tab);
  };

  const sweep = () => {
    const cutoff = now() - timeoutMs;
    for (const [tabId, registration] of [...tabs]) if (registration.lastSeen < cutoff) end(tabId, registration);
  };

  return {
    register(tabId, lockName, tab) {
      const previous = tabs.get(tabId);
      if (previous) end(tabId, previous);
      const registration: Registration<T> = { tab, lastSeen: now() };
      tabs.set(tabId, registration);
      sweepTimer ??= setInterval(sweep, sweepEveryMs);
      if (lockName != null && options.locks) {
        options.locks
          .request(lockName, () => end(tabId, registration))
          .catch(() => {
            // Lock requests fail only when the context goes away; the heartbeat covers it.
          });
      }
    },
    touch(tabId) {
      const registration = tabs.get(tabId);
      if (!registration) return false;
      registration.lastSeen = now();
      return true;
    },
    remove(tabId) {
      const registration = tabs.get(tabId);
      if (registration) end(tabId, registration);
    },
    get: (tabId) => tabs.get(tabId)?.tab,
    values: () => [...tabs.values()].map((registration) => registration.tab),
    get size() {
      return tabs.size;
    },
    dispose() {
      if (sweepTimer != null) clearInterval(sweepTimer);
      sweepTimer = null;
      tabs.clear();
    },
  };
}
