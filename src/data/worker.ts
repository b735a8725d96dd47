// The tab's end of the data worker (issue 5): talks to the SharedWorker of this build (a
// dedicated Worker where SharedWorker is missing; data/workerPort.ts opens it, main.tsx as
// early as it can), checks its protocol, holds the tab's Web Lock for its life,
// beats, follows the session's token, and carries the tab's symbol subscriptions. Ticks and
// status arrive on a MessagePort of this tab and go into the Jotai store.
import * as Comlink from 'comlink';
import { db } from '../shared/db';
import type { PlainError } from '../shared/errors';
import { settings } from '../shared/settings';
import { TAB_HEARTBEAT_MS } from '../shared/tabLiveness';
import { DATA_WORKER_PROTOCOL } from '../shared/workerProtocol';
import type { DataWorkerApi, TabMessage, TabReply } from '../workers/api';
import { createOffScreenTracker } from './offScreen';
import { createPaintPacer, TICK_PAINT_INTERVAL_MS } from './paintPacer';
import { getSessionIdentity, onTokenChange } from './session';
import { applyCachedQuotes, applyTabMessage, applyTicks, markNotLive, setHeldSymbols } from './store';
import { createTabSubscriptions, type SubscriptionDiff } from './tabSubscriptions';
import { checkWorker } from './workerGate';
import { openWorkerPort, reopenWorkerPort } from './workerPort';

export type DataWorker = Comlink.Remote<DataWorkerApi>;

interface Connection {
  api: DataWorker;
  tabId: string;
  /** Settles once the worker knows this tab; calls that name the tab wait for it. */
  registered: Promise<void>;
}

let connection: Connection | null = null;

/** Takes a lock named for this tab and never lets it go: the worker learns of the tab's end by it. */
function holdTabLock(name: string): Promise<boolean> {
  if (!('locks' in navigator)) return Promise.resolve(false);
  return new Promise((resolve) => {
    navigator.locks
      .request(name, () => {
        resolve(true);
        return new Promise<never>(() => {});
      })
      .catch(() => resolve(false));
  });
}

const isUnknownTab = (error: unknown) => (error as PlainError | null)?.code === 'unknown_tab';
/** A worker of another protocol was logged once at connect; other failures stay as they were. */
const unlessWorkerVersion = (error: unknown) => {
  if ((error as PlainError | null)?.code !== 'worker_version') throw error;
};

const subscriptions = createTabSubscriptions({
  schedule: (task) => queueMicrotask(task),
  send: (diff) => {
    // What the screen shows: the visor's line names the markets of these.
    setHeldSymbols(subscriptions.held());
    void sendDiff(diff);
  },
});

async function sendDiff({ subscribe, unsubscribe }: SubscriptionDiff): Promise<void> {
  const { api, tabId, registered } = startDataWorker();
  // Cached quotes show at once, marked stale, while the worker subscribes.
  if (subscribe.length > 0) void db.quotes.bulkGet(subscribe).then(applyCachedQuotes, () => {});
  if (unsubscribe.length > 0) markNotLive(unsubscribe);
  try {
    await registered;
    // Both calls leave now, in order: a later diff's calls must not overtake these.
    const calls: Promise<unknown>[] = [];
    if (unsubscribe.length > 0) calls.push(api.unsubscribe(tabId, unsubscribe));
    if (subscribe.length > 0) calls.push(api.subscribe(tabId, subscribe));
    await Promise.all(calls);
  } catch (error) {
    if (isUnknownTab(error)) void reRegister();
    else console.warn('Market subscription failed', error);
  }
}

/** This tab's end of its port to the worker (replaced when the tab registers again). */
let tabPort: MessagePort | null = null;

/** One observer for every row that shows a symbol: rows a little beyond the edges count as in view. */
let rowObserver: IntersectionObserver | null = null;
const onRowView = new Map<Element, (inView: boolean) => void>();
const offScreen = createOffScreenTracker({
  observe(element, onChange) {
    if (typeof IntersectionObserver !== 'function') return () => {};
    rowObserver ??= new IntersectionObserver(
      (entries) => {
        for (const entry of entries) onRowView.get(entry.target)?.(entry.isIntersecting);
      },
      { rootMargin: '200px 0px' },
    );
    onRowView.set(element, onChange);
    rowObserver.observe(element);
    return () => {
      onRowView.delete(element);
      rowObserver?.unobserve(element);
    };
  },
  report: (symbols) => tabPort?.postMessage({ type: 'off-screen', symbols } satisfies TabReply),
  schedule: (task) => queueMicrotask(task),
});

/** Registers this tab with a fresh port (a port, once transferred, belongs to the worker). */
function register(api: DataWorker, tabId: string, lockName: string | null): Promise<void> {
  const channel = new MessageChannel();
  tabPort = channel.port1;
  offScreen.resend();
  const ticks = createPaintPacer({
    apply: applyTicks,
    painted: () => channel.port1.postMessage({ type: 'painted' } satisfies TabReply),
    requestFrame: (callback) => requestAnimationFrame(callback),
    minInterval: TICK_PAINT_INTERVAL_MS,
  });
  channel.port1.onmessage = (event: MessageEvent<TabMessage>) => {
    if (event.data.type === 'ticks') ticks.receive(event.data.quotes);
    else applyTabMessage(event.data);
  };
  return api.registerTab(Comlink.transfer({ tabId, lockName, port: channel.port2 }, [channel.port2]));
}

let lockName: string | null = null;
let reRegistering: Promise<void> | null = null;

const reRegisteredListeners = new Set<() => void>();

/**
 * Calls `listener` each time this tab registers with the worker again (the worker had forgotten
 * it, and everything it held): what the tab holds besides symbols (accounts) is held again.
 */
export function onRegisteredAgain(listener: () => void): () => void {
  reRegisteredListeners.add(listener);
  return () => reRegisteredListeners.delete(listener);
}

/** The worker forgot this tab (frozen in the background, or a worker restart): start over. */
export function reRegister(): Promise<void> {
  const { api, tabId } = startDataWorker();
  reRegistering ??= register(api, tabId, lockName)
    .then(() => {
      subscriptions.forgetAnnounced();
      for (const listener of reRegisteredListeners) listener();
    })
    .finally(() => (reRegistering = null));
  return reRegistering;
}

/** The data worker's answer to the tab's last session change (a sign-out: its wipe of the user's data). */
let sessionSynced: Promise<void> = Promise.resolve();

/** Resolves once the worker has taken the session's last change: after a sign-out, the user's cached data is gone from it. */
export function workerSessionSynced(): Promise<void> {
  return sessionSynced;
}

/** Starts the worker once per tab and returns it. */
export function startDataWorker(): Connection {
  if (connection) return connection;
  // A worker of another contract version is never used: every call waits for the check and
  // rejects with 'worker_version' when it fails (logged once). A worker that does not answer the
  // check is reached through a new port, a few times, before the tab gives up the same way.
  const { api, checked } = checkWorker(
    Comlink.wrap<DataWorkerApi>(openWorkerPort()),
    { protocol: DATA_WORKER_PROTOCOL, buildId: settings.buildId },
    (message) => console.error(message),
    { reopen: () => Comlink.wrap<DataWorkerApi>(reopenWorkerPort()), warn: (message) => console.warn(message) },
  );
  const tabId = crypto.randomUUID();
  const wantedLock = `visores-tab-${tabId}`;
  const registered = checked
    .then(() => holdTabLock(wantedLock))
    .then((held) => {
      lockName = held ? wantedLock : null;
      return register(api, tabId, lockName);
    });
  connection = { api, tabId, registered };

  let sentToken: string | null | undefined;
  const syncSession = () => {
    const identity = getSessionIdentity();
    if ((identity?.token ?? null) === sentToken) return;
    sentToken = identity?.token ?? null;
    const synced = api.setSession(identity);
    // A sign-out's wipe is done when the worker answers this call (data/logout.ts waits for it).
    sessionSynced = synced.catch(() => {});
    void synced.catch(unlessWorkerVersion);
  };
  syncSession();
  onTokenChange(syncSession);
  // Another tab signed in or out: with a dedicated worker per tab, each must follow.
  window.addEventListener('storage', syncSession);

  // Not registered (another protocol's worker): nothing to beat for.
  registered.catch(() => {});
  setInterval(() => {
    void registered.then(
      async () => {
        if (!(await api.heartbeat(tabId))) await reRegister();
      },
      () => {},
    );
  }, TAB_HEARTBEAT_MS);
  // Back after a while (another device may have changed the workspace): the worker decides
  // whether to check the tree's version (workers/syncRefresh.ts). Mounting screens reads nothing.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void api.workspaceVisible().catch(() => {});
  });
  window.addEventListener('pagehide', () => void api.unregisterTab(tabId).catch(unlessWorkerVersion));
  // Back from the back/forward cache: the worker let the tab go on pagehide.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) void reRegister();
  });
  return connection;
}

/** The worker's API (started on first use). */
export function dataWorker(): DataWorker {
  return startDataWorker().api;
}

/**
 * Holds a symbol's live quotes for this tab until the returned function is called. With the
 * element that shows it (a quote row), the symbol may come less often while every element
 * that shows it is off screen; 'off-screen' holds it for a row a virtual list does not render.
 */
export function holdSymbol(symbol: string, element: Element | null | 'off-screen' = null): () => void {
  startDataWorker();
  const release = subscriptions.hold(symbol);
  const releaseView = offScreen.hold(symbol, element);
  return () => {
    releaseView();
    release();
  };
}
