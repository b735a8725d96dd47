// Builds the worker's API from its parts: the market service, the positions socket and the
// workspace sync, sharing one session and one event log. The entry (dataWorker.ts) gives it
// the browser's globals and exposes the result; tests give it fakes. Every method's failure
// crosses the boundary as a plain {code, message}.
import type { VisoresDb } from '../data/db';
import type { DataWorkerApi, WorkerError, WorkerSession } from './api';
import { createEventLog, type EventLog } from './eventLog';
import type { FetchLike as HttpFetch, Result } from './http';
import { createMarketService, type MarketServiceOptions } from './market';
import { createPositionsSocket } from './positionsSocket';
import type { SocketConstructor } from './socketTypes';
import { createWorkspaceSync } from './sync';

export interface DataLayerEnv extends Omit<MarketServiceOptions, 'fetch'> {
  /** The global fetch fits both views of it (the market's and the REST client's). */
  fetch: MarketServiceOptions['fetch'] & HttpFetch;
  /** ws(s)://…/ws/positions */
  positionsSocketUrl: string;
  /** Base of the positions REST calls. */
  positionsBase: string;
  WebSocket: SocketConstructor;
  db: VisoresDb;
  eventLog?: EventLog;
}

export function toWorkerError(error: unknown): WorkerError {
  if (typeof error === 'object' && error != null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (typeof message === 'string') return { code: typeof code === 'string' ? code : 'internal', message };
  }
  return { code: 'internal', message: String(error) };
}

/** The same API with every rejection turned into a WorkerError. */
function withPlainErrors<T extends object>(api: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(api)) {
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (method as (...args: unknown[]) => unknown)(...args);
      } catch (error) {
        throw toWorkerError(error);
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

export function createDataWorkerApi(env: DataLayerEnv): DataWorkerApi {
  const eventLog = env.eventLog ?? createEventLog();
  let session: WorkerSession | null = null;
  /** Accounts each tab holds, with how many times (each hold is one positions subscriber). */
  const holds = new Map<string, Map<string, number>>();

  const releaseAll = (tabId: string) => {
    const accounts = holds.get(tabId);
    holds.delete(tabId);
    if (accounts) for (const [account, count] of accounts) for (let i = 0; i < count; i++) positions.unsubscribe(account);
  };

  const market = createMarketService({ ...env, log: env.log ?? eventLog, onTabGone: releaseAll });
  const positions = createPositionsSocket({
    url: env.positionsSocketUrl,
    apiBase: env.positionsBase,
    getToken: () => session?.token ?? null,
    WebSocket: env.WebSocket,
    fetch: env.fetch,
    log: eventLog,
  });
  const sync = createWorkspaceSync({ db: env.db, fetch: env.fetch, apiBase: env.apiBase, getSession: () => session, log: eventLog });

  positions.onSnapshot((account, snapshot) => {
    for (const [tabId, accounts] of holds) if (accounts.has(account)) market.portOf(tabId)?.postMessage({ type: 'positions', account, snapshot });
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
        for (const tabId of [...holds.keys()]) releaseAll(tabId);
        positions.disconnect();
        if (previous.userId !== next?.userId) {
          // Logout (or another user): the socket stops before the wipe, so no tick of the
          // old session is cached after it; the last quotes seen are the old user's data too.
          market.setToken(null);
          await Promise.all([sync.wipe(previous.userId), market.clearQuoteCache()]);
        }
      }
      session = next;
      market.setToken(next?.token ?? null);
      if (next) {
        const loaded = await sync.refresh();
        if (!loaded.ok) eventLog.warn(loaded.error.message);
      }
    },
    registerTab: async (registration) => {
      market.registerTab(registration);
      registration.port.postMessage({ type: 'positions-status', status: positions.status() });
    },
    heartbeat: async (tabId) => market.heartbeat(tabId),
    unregisterTab: async (tabId) => market.unregisterTab(tabId),
    subscribe: (tabId, symbols) => market.subscribe(tabId, symbols),
    unsubscribe: (tabId, symbols) => market.unsubscribe(tabId, symbols),
    getMarketStatus: async () => market.getMarketStatus(),
    getQuote: async (symbol) => market.getQuote(symbol),
    waitForSymbols: (symbols, timeoutMs) => market.waitForSymbols(symbols, timeoutMs),
    waitForExpiration: (symbol, timeoutMs) => market.waitForExpiration(symbol, timeoutMs),
    getExpirationDates: (symbols) => market.getExpirationDates(symbols),

    connectBrokerSession: (request) => unwrap(positions.connectSession(request)),
    async watchAccount(tabId, account, sessionId) {
      if (!market.portOf(tabId)) throw { code: 'unknown_tab', message: `Pestaña desconocida: ${tabId}` } satisfies WorkerError;
      const snapshot = await unwrap(positions.watchAccount(account, sessionId));
      // watchAccount made one more subscriber: it is this tab's until released.
      const accounts = holds.get(tabId) ?? new Map<string, number>();
      holds.set(tabId, accounts.set(account, (accounts.get(account) ?? 0) + 1));
      return snapshot;
    },
    async releaseAccount(tabId, account) {
      const accounts = holds.get(tabId);
      const count = accounts?.get(account);
      if (!accounts || count == null) return;
      if (count > 1) accounts.set(account, count - 1);
      else accounts.delete(account);
      positions.unsubscribe(account);
    },
    getPositions: async (account) => positions.snapshot(account),
    getPositionsStatus: async () => positions.status(),
    getEventLog: async () => eventLog.entries(),

    refreshWorkspace: () => unwrap(sync.refresh()),
    loadVisor: (visorId) => unwrap(sync.loadVisor(visorId)),
    createVisor: (fields, folderId) => unwrap(sync.createVisor(fields, folderId)),
    updateVisor: (visorId, fields) => unwrap(sync.updateVisor(visorId, fields)),
    deleteVisor: (visorId) => unwrap(sync.deleteVisor(visorId)),
    toggleVisorFavourite: (visorId) => unwrap(sync.toggleVisorFavourite(visorId)),
    changeTree: (request) => unwrap(sync.changeTree(request)),
    saveTree: (nodes, version) => unwrap(sync.saveTree(nodes, version)),
  };
  return withPlainErrors(api);
}
