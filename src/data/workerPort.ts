// The tab's port to the data worker, opened once per tab. The worker's script is the app's
// largest (Dexie, the sockets, the outbox): main.tsx opens the port first thing when this
// browser holds a session, so the worker loads and compiles while the first screen's chunks
// do, instead of after the chunk of data/worker.ts (which wraps this port) has loaded.
// A trace of a cached visor opened offline (bench:load, BENCH_TRACE) had the worker start
// 1.2 s after the navigation and compile for 0.5 s more, the last thing the content waited for.
import { settings } from '../shared/settings';
import { reopenablePort } from './reopenablePort';

const port = reopenablePort<MessagePort | Worker>(
  () => {
    // The build in the name: a tab of a new build never talks to a worker of an old one.
    const name = `visores-data-${settings.buildId}`;
    return typeof SharedWorker === 'function'
      ? new SharedWorker(new URL('../workers/dataWorker.ts', import.meta.url), { type: 'module', name }).port
      : new Worker(new URL('../workers/dataWorker.ts', import.meta.url), { type: 'module', name });
  },
  (open) => {
    if ('terminate' in open) open.terminate();
    else open.close();
  },
);

/** The SharedWorker of this build (a dedicated Worker where SharedWorker is missing): its port. */
export function openWorkerPort(): MessagePort | Worker {
  return port.open();
}

/**
 * The port to the worker closed and a new one opened (a new SharedWorker connection, or a new
 * dedicated Worker in place of the old): the tab's check got no answer on the old one
 * (data/workerGate.ts). A SharedWorker that is alive gets the new connection; one that went
 * away is started again.
 */
export function reopenWorkerPort(): MessagePort | Worker {
  return port.reopen();
}
