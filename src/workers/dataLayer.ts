// Builds the worker's API from its parts: the market service, the positions socket and the
// workspace sync, sharing one session and one event log. The entry (dataWorker.ts) gives it
// the browser's globals and exposes the result; tests give it fakes. Every method's failure
// crosses the boundary as a plain {code, message, status}
// (shared/errors.ts).
import { createRefCounts, type RefCounts } from '../lib/refCounts';
import type { VisoresDb } from '../shared/db';
import { isUnreachableStatus, toPlainError, type PlainError, type Result } from '../shared/errors';
import { createHttpClient, type FetchLike } from '../shared/http';
import { DATA_WORKER_PROTOCOL } from '../shared/workerProtocol';
import type { DataWorkerApi, OfflineStatus, TabMessage, WorkerSession } from './api';
import { createConnectivityCheck } from './connectivity';
import { createOnlineTracker, type OnlineTracker } from './online';
import { createCatalogue } from './catalogue';
import { createChartHistory } from './chartHistory';
import { createEventLog, type EventLog } from './eventLog';
import { createMarketService, type MarketServiceOptions } from './market';
import { createPositionsSocket } from './positionsSocket';
import type { SocketConstructor } from './socketTypes';
import { createWorkspaceSync } from './sync';

export interface DataLayerEnv extends Omit<MarketServiceOptions, 'http'> {
  fetch: FetchLike;
  /** Base of the REST API (`/api`). */
  apiBase: string;
  /** ws(s)://…/ws/positions */
  positionsSocketUrl: string;
  /** Base of the positions REST calls. */
  positionsBase: string;
  WebSocket: SocketConstructor;
  db: VisoresDb;
  eventLog?: EventLog;
  /** The build the worker runs (__BUILD_ID__), answered by hello(). */
  buildId?: string;
  /** The worker's reachability of the server (tests give their own). */
  online?: OnlineTracker;
}

/** The same API with every rejection turned into a PlainError. */
function withPlainErrors<T extends object>(api: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(api)) {
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (method as (...args: unknown[]) => unknown)(...args);
      } catch (error) {
        throw toPlainError(error);
      }
    };
  }
  return wrapped as T;
}

/** The value of a Result, or its error thrown (it crosses as is: plain data). */
async function unwrap<T>(result: Promise<Result<T>>): Promise<T> {
  const settled = await result;
  if (settled.ok) return settled.value;
  throw settled.error;
}

/**
 * How long a request of the worker waits for its whole answer before it counts as no answer
 * (issue 21): a dropped connection that never resets, a hung proxy. The write it carried stays
 * in the outbox and the server is probed, as when the network is gone. Charts' history
 * downloads take longer (chartHistory.ts HISTORY_TIMEOUT_MS).
 */
export const REQUEST_TIMEOUT_MS = 15_000;

/** The event log's lines when the server stops and starts answering: one each, not one per failed request. */
export const OFFLINE_LOG = {
  lost: 'Sin conexión con el servidor: los cambios se guardan en este navegador y se envían al volver',
  back: 'Conexión con el servidor restablecida',
} as const;

export function createDataWorkerApi(env: DataLayerEnv): DataWorkerApi {
  const eventLog = env.eventLog ?? createEventLog();
  let session: WorkerSession | null = null;
  /** Accounts each tab holds, with how many times (each hold is one positions subscriber). */
  const holds = new Map<string, RefCounts<string>>();

  /** Accounts whose fills each tab watches, with how many times. */
  const fillHolds = new Map<string, RefCounts<string>>();

  const releaseAll = (tabId: string) => {
    const accounts = holds.get(tabId);
    holds.delete(tabId);
    if (accounts) for (const account of accounts.keys()) for (let i = accounts.count(account); i > 0; i--) positions.unsubscribe(account);
    const watched = fillHolds.get(tabId);
    fillHolds.delete(tabId);
    if (watched) for (const account of watched.keys()) for (let i = watched.count(account); i > 0; i--) positions.releaseFills(account);
  };

  /** One hold less of `account` in a tab's counts; false when it held none. */
  const dropHold = (map: Map<string, RefCounts<string>>, tabId: string, account: string): boolean => {
    const accounts = map.get(tabId);
    if (!accounts?.has(account)) return false;
    accounts.release(account);
    return true;
  };
  const addHold = (map: Map<string, RefCounts<string>>, tabId: string, account: string) => {
    let accounts = map.get(tabId);
    if (!accounts) map.set(tabId, (accounts = createRefCounts()));
    accounts.add(account);
  };
  const unknownTab = (tabId: string): PlainError => ({ code: 'unknown_tab', message: `Pestaña desconocida: ${tabId}`, status: 0 });

  const getToken = () => session?.token ?? null;
  // Every request says whether the server answered (issue 21): an answer other than a
  // proxy's 502/503/504 is the server reached; a fetch that throws is no answer. A proxy's
  // 502/503/504 says so only for the health check; for any other request the health check is
  // asked (online.ts gatewayFailed): one failed request is not the network gone.
  let online: OnlineTracker | null = env.online ?? null;
  const healthUrl = `${env.apiBase.replace(/\/+$/, '')}/health`;
  const fetch: typeof env.fetch = async (url, init) => {
    try {
      const response = await env.fetch(url, init);
      if (!isUnreachableStatus(response.status)) online?.reached();
      else if (url === healthUrl) online?.unreachable();
      else online?.gatewayFailed();
      return response;
    } catch (error) {
      online?.unreachable();
      throw error;
    }
  };
  // One client of the API for the whole worker, one of the positions host (spec section 6). A
  // request past its time is aborted and counted as no answer.
  const timeout = { timeoutMs: REQUEST_TIMEOUT_MS, onTimeout: () => online?.unreachable() };
  const http = createHttpClient({ fetch, baseUrl: env.apiBase, getToken, ...timeout });
  const positionsHttp = createHttpClient({ fetch, baseUrl: env.positionsBase, getToken, credentials: 'include', ...timeout });
  const tracker = (online ??= createOnlineTracker({ check: createConnectivityCheck({ http }) }));

  const broadcast = (message: TabMessage) => {
    for (const port of market.ports()) port.postMessage(message);
  };
  let pending = 0;
  let replayError: string | null = null;
  const offlineStatus = (): OfflineStatus => ({ ...tracker.state(), pending, replayError });

  const market = createMarketService({
    ...env,
    http,
    log: env.log ?? eventLog,
    onTabGone: releaseAll,
    onStatus: (status) => {
      if (status.state === 'open') tracker.reached();
      // Back after being away (asleep, offline, a restart): what other devices changed meanwhile.
      if (status.state === 'open' && status.reconnected && session) void sync.reconnected();
    },
    onWorkspace: (event) => {
      if (session) void sync.changedElsewhere(event, session.userId);
    },
  });
  const positions = createPositionsSocket({ url: env.positionsSocketUrl, getToken, WebSocket: env.WebSocket, http: positionsHttp, log: eventLog });
  const sync = createWorkspaceSync({
    db: env.db,
    http,
    getSession: () => session,
    log: eventLog,
    isOnline: tracker.isOnline,
    settled: tracker.settled,
    onOutbox: (count) => {
      if (count === pending) return;
      pending = count;
      broadcast({ type: 'offline-status', status: offlineStatus() });
    },
    notify: (text) => broadcast({ type: 'notice', text }),
    onReplayFailing: (message) => {
      replayError = message;
      broadcast({ type: 'offline-status', status: offlineStatus() });
    },
  });
  tracker.onChange((state) => {
    if (state.online) eventLog.info(OFFLINE_LOG.back);
    else eventLog.warn(OFFLINE_LOG.lost);
    broadcast({ type: 'offline-status', status: offlineStatus() });
    // Back: what was kept offline goes to the server, in order.
    if (state.online && session) void sync.flush();
  });
  const charts = createChartHistory({ http, table: env.db.chartHistory });
  const catalogue = createCatalogue({ http, table: env.db.catalogue });

  positions.onSnapshot((account, snapshot) => {
    for (const [tabId, accounts] of holds) if (accounts.has(account)) market.portOf(tabId)?.postMessage({ type: 'positions', account, snapshot });
  });
  positions.onFills((account, fills) => {
    for (const [tabId, accounts] of fillHolds) if (accounts.has(account)) market.portOf(tabId)?.postMessage({ type: 'fills', account, fills });
  });
  positions.onStatus((status) => {
    for (const port of market.ports()) port.postMessage({ type: 'positions-status', status });
  });

  const api: DataWorkerApi = {
    async setSession(next) {
      if (next?.token === session?.token && next?.userId === session?.userId) return;
      const previous = session;
      // Cleared first: an answer that lands after sign-out must write nothing.
      session = null;
      if (previous) {
        for (const tabId of new Set([...holds.keys(), ...fillHolds.keys()])) releaseAll(tabId);
        positions.disconnect();
        if (previous.userId !== next?.userId) {
          // Logout (or another user): the socket stops before the wipe, so no tick of the
          // old session is cached after it; the last quotes seen are the old user's data too.
          market.setToken(null);
          await Promise.all([sync.wipe(previous.userId), market.clearQuoteCache(), charts.wipe(), catalogue.wipe()]);
          pending = 0;
          broadcast({ type: 'offline-status', status: offlineStatus() });
        }
      }
      session = next;
      market.setToken(next?.token ?? null);
      if (next) {
        const loaded = await sync.refresh();
        if (!loaded.ok) eventLog.warn(loaded.error.message);
      }
    },
    hello: async () => ({ protocol: DATA_WORKER_PROTOCOL, buildId: env.buildId ?? 'unknown' }),
    registerTab: async (registration) => {
      market.registerTab(registration);
      registration.port.postMessage({ type: 'positions-status', status: positions.status() });
      registration.port.postMessage({ type: 'offline-status', status: offlineStatus() });
    },
    heartbeat: async (tabId) => market.heartbeat(tabId),
    unregisterTab: async (tabId) => market.unregisterTab(tabId),
    subscribe: (tabId, symbols) => market.subscribe(tabId, symbols),
    unsubscribe: (tabId, symbols) => market.unsubscribe(tabId, symbols),
    getMarketStatus: async () => market.getMarketStatus(),
    getOfflineStatus: async () => offlineStatus(),
    getQuote: async (symbol) => market.getQuote(symbol),
    chartHistory: (symbol, range, interval, options) => charts.fetch(symbol, range, interval, options),
    catalogue: () => catalogue.get(),
    waitForSymbols: (symbols, timeoutMs) => market.waitForSymbols(symbols, timeoutMs),
    waitForExpiration: (symbol, timeoutMs) => market.waitForExpiration(symbol, timeoutMs),
    getExpirationDates: (symbols) => market.getExpirationDates(symbols),

    connectBrokerSession: (request) => unwrap(positions.connectSession(request)),
    async watchAccount(tabId, account, sessionId) {
      if (!market.portOf(tabId)) throw unknownTab(tabId);
      const snapshot = await unwrap(positions.watchAccount(account, sessionId));
      // watchAccount made one more subscriber: it is this tab's until released.
      addHold(holds, tabId, account);
      return snapshot;
    },
    async releaseAccount(tabId, account) {
      if (dropHold(holds, tabId, account)) positions.unsubscribe(account);
    },
    getPositions: async (account) => positions.snapshot(account),
    async watchFills(tabId, account, sessionId) {
      if (!market.portOf(tabId)) throw unknownTab(tabId);
      const fills = await unwrap(positions.watchFills(account, sessionId));
      addHold(fillHolds, tabId, account);
      return fills;
    },
    async releaseFills(tabId, account) {
      if (dropHold(fillHolds, tabId, account)) positions.releaseFills(account);
    },
    getFills: async (account) => positions.fills(account),
    getPositionsStatus: async () => positions.status(),
    getEventLog: async () => eventLog.entries(),

    async workspaceVisible() {
      // A failure is only logged by the sync (spec section 8): the tab has nothing to show for it.
      await sync.visible();
    },
    loadVisor: (visorId) => unwrap(sync.loadVisor(visorId)),
    createVisor: (fields, folderId) => unwrap(sync.createVisor(fields, folderId)),
    updateVisor: (visorId, fields) => unwrap(sync.updateVisor(visorId, fields)),
    deleteVisor: (visorId) => unwrap(sync.deleteVisor(visorId)),
    toggleVisorFavourite: (visorId) => unwrap(sync.toggleVisorFavourite(visorId)),
    changeTree: (request) => unwrap(sync.changeTree(request)),
    saveSecciones: (visorId, save) => unwrap(sync.saveSecciones(visorId, save)),
    setVisorPublic: (visorId, value) => unwrap(sync.setVisorPublic(visorId, value)),
    cloneVisor: (visorId) => unwrap(sync.cloneVisor(visorId)),
    verifyOwner: (visorId) => unwrap(sync.verifyOwner(visorId)),
    visorOpened: (visorId) => unwrap(sync.visorOpened(visorId)),
  };
  return withPlainErrors(api);
}
