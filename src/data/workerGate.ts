// The tab's check of its data worker's protocol version (issue 21, shared/workerProtocol.ts):
// hello() first; until it answers, every call waits; when the worker speaks another version,
// the tab logs why once and every call rejects with that 'worker_version' error, so nothing
// of the tab reaches that worker.
import type { PlainError } from '../shared/errors';
import { workerMismatch, type WorkerHello } from '../shared/workerProtocol';

export interface CheckedWorker<T> {
  /** The worker's API; every call waits for the check and rejects if it failed. */
  api: T;
  /** Settles when the check passed; rejects with the mismatch (a PlainError). */
  checked: Promise<void>;
}

/**
 * Checks `remote`'s protocol (a Comlink remote of DataWorkerApi, whose methods all answer
 * promises) against the tab's (`tab`) and answers the API gated on it. `log` receives the
 * mismatch (console.error in the tab).
 */
export function checkWorker<T extends { hello(): Promise<unknown> }>(remote: T, tab: WorkerHello, log: (message: string) => void): CheckedWorker<T> {
  const checked = remote
    .hello()
    .then(
      (answer: unknown) => answer,
      (error: unknown) => ({ failed: String((error as PlainError | null)?.message ?? error) }),
    )
    .then((answer) => {
      const mismatch = workerMismatch(tab, answer);
      if (mismatch) {
        log(mismatch.message);
        throw mismatch;
      }
    });
  // Callers see the rejection on their own calls; this one is only the check's.
  checked.catch(() => {});
  const api = new Proxy(remote, {
    get(target, property, receiver) {
      // Comlink's own symbols (release, endpoint) and 'then' (the proxy is no promise) pass as they are.
      if (typeof property === 'symbol' || property === 'then') return Reflect.get(target, property, receiver);
      return (...args: unknown[]) => checked.then(() => (Reflect.get(target, property, receiver) as (...args: unknown[]) => unknown)(...args));
    },
  });
  return { api, checked };
}
