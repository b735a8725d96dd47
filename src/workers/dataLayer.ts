// Builds the worker's API from its parts. The entry (dataWorker.ts) gives it the browser's
// globals and exposes the result; tests give it fakes. Every method's failure crosses the
// boundary as a plain {code, message}.
import type { DataWorkerApi, WorkerError } from './api';
import { createMarketService, type MarketServiceOptions } from './market';

export type DataLayerEnv = MarketServiceOptions;

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

export function createDataWorkerApi(env: DataLayerEnv): DataWorkerApi {
  const market = createMarketService(env);
  const api: DataWorkerApi = {
    async setSession(session) {
      market.setToken(session?.token ?? null);
      // Positions socket and REST sync: started and stopped here too (their half of issue 5).
    },
    registerTab: async (registration) => market.registerTab(registration),
    heartbeat: async (tabId) => market.heartbeat(tabId),
    unregisterTab: async (tabId) => market.unregisterTab(tabId),
    subscribe: (tabId, symbols) => market.subscribe(tabId, symbols),
    unsubscribe: (tabId, symbols) => market.unsubscribe(tabId, symbols),
    getMarketStatus: async () => market.getMarketStatus(),
    getQuote: async (symbol) => market.getQuote(symbol),
    waitForSymbols: (symbols, timeoutMs) => market.waitForSymbols(symbols, timeoutMs),
    waitForExpiration: (symbol, timeoutMs) => market.waitForExpiration(symbol, timeoutMs),
    getExpirationDates: (symbols) => market.getExpirationDates(symbols),
  };
  return withPlainErrors(api);
}
