// The tab's port to the data worker, opened once per tab. The worker's script is the app's
// largest (Dexie, the sockets, the outbox): main.tsx opens the port first thing when this
// browser holds a session, so the worker loads and compiles while the first screen's chunks
// do, instead of after the chunk of data/worker.ts (which wraps this port) has loaded.
// A trace of a cached visor opened offline (bench:load, BENCH_TRACE) had the worker start
// 1.2 s after the navigation and compile for 0.5 s more, the last thing the content waited for.
import { settings } from '../shared/settings';

let port: MessagePort | Worker | null = null;

/** The SharedWorker of this build (a dedicated Worker where SharedWorker is missing): its port. */
export function openWorkerPort(): MessagePort | Worker {
  if (port) return port;
  // The build in the name: a tab of a new build never talks to a worker of an old one.
  const name = `visores-data-${settings.buildId}`;
  port =
    typeof SharedWorker === 'function'
      ? new SharedWorker(new URL('../workers/dataWorker.ts', import.meta.url), { type: 'module', name }).port
      : new Worker(new URL('../workers/dataWorker.ts', import.meta.url), { type: 'module', name });
  return port;
}
