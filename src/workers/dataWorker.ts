// Entry of the data worker. The same module runs as a SharedWorker (one for every tab of
// this build: the tab names it with the app version) or, where SharedWorker is missing, as
// a dedicated Worker per tab. It only wires browser globals into the factories.
import * as Comlink from 'comlink';
import { db } from '../shared/db';
import { settings } from '../shared/settings';
import { openBrowserSocket } from './browserSocket';
import { createDataWorkerApi } from './dataLayer';

const api = createDataWorkerApi({
  socketUrl: settings.marketSocketUrl,
  apiBase: settings.apiBase,
  openSocket: openBrowserSocket,
  fetch: (url, init) => fetch(url, init),
  locks: typeof navigator !== 'undefined' && 'locks' in navigator ? navigator.locks : null,
  quoteTable: db.quotes,
  positionsSocketUrl: settings.positionsSocketUrl,
  positionsBase: settings.positionsBase,
  WebSocket,
  db,
  buildId: settings.buildId,
  ...(import.meta.env.VITE_TAB_BATCH_INTERVAL_MS ? { tabBatchIntervalMs: Number(import.meta.env.VITE_TAB_BATCH_INTERVAL_MS) } : {}),
});

// The DOM lib types `self` as a Window; only this much of a SharedWorker's scope is used.
interface SharedWorkerScope {
  onconnect: ((event: MessageEvent) => void) | null;
}

if ('SharedWorkerGlobalScope' in globalThis) {
  (self as unknown as SharedWorkerScope).onconnect = (event) => {
    for (const port of event.ports) Comlink.expose(api, port);
  };
} else {
  Comlink.expose(api);
}
