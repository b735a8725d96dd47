// The tab's check of its data worker's protocol version (issue 21, shared/workerProtocol.ts):
// hello() first; until it answers, every call waits; when the worker speaks another version,
// the tab logs why once and every call rejects with that 'worker_version' error, so nothing
// of the tab reaches that worker.
//
// A worker that never answers the check (a SharedWorker start lost under heavy load: the tab's
// connection reached a worker that was going away, or its connect never arrived) is not waited
// for forever: after HELLO_TIMEOUT_MS the tab opens its port again (a new SharedWorker
// connection: the same worker when it is alive, a new one when it is not) and asks again, each
// check waiting twice as long as the one before, up to HELLO_ATTEMPTS checks in all (5 + 10 +
// 20 s); then it gives up with the same refusal, saying why. The waits grow because a dedicated
// Worker (where SharedWorker is missing) opened again starts its script over: one merely slow
// to load under load gets a longer time at each try.
import type { PlainError } from '../shared/errors';
import { workerMismatch, workerSilent, type WorkerHello } from '../shared/workerProtocol';

/** How long the first protocol check waits for the worker's answer before the port is opened again; each next one waits twice as long. */
export const HELLO_TIMEOUT_MS = 5000;
/** Protocol checks in all (the first port and the ones opened again) before the tab gives up. */
export const HELLO_ATTEMPTS = 3;

/** How long check number `attempt` (from 1) waits: `first`, doubled at each check. */
export const helloWait = (attempt: number, first = HELLO_TIMEOUT_MS): number => first * 2 ** (attempt - 1);

export interface CheckedWorker<T> {
  /** The worker's API; every call waits for the check and rejects if it failed. */
  api: T;
  /** Settles when the check passed; rejects with the mismatch (a PlainError). */
  checked: Promise<void>;
}

export interface WorkerCheckOptions<T> {
  /**
   * Closes the port that did not answer, opens a new one and answers its remote. Without it a
   * check that gets no answer gives up at once.
   */
  reopen?: () => T;
  /** Each port opened again, and why (console.warn in the tab). */
  warn?: (message: string) => void;
  timeoutMs?: number;
  attempts?: number;
}

const NO_ANSWER = Symbol('no answer');

/** `promise`'s value, or NO_ANSWER when it has not settled within `ms`. */
function within<V>(promise: Promise<V>, ms: number): Promise<V | typeof NO_ANSWER> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof NO_ANSWER>((resolve) => {
    timer = setTimeout(() => resolve(NO_ANSWER), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Checks `remote`'s protocol (a Comlink remote of DataWorkerApi, whose methods all answer
 * promises) against the tab's (`tab`) and answers the API gated on it. `log` receives the
 * refusal (console.error in the tab). A worker silent for `timeoutMs` (doubled at each check) is
 * reached again through `reopen`, at most `attempts` checks in all; calls go to the remote whose
 * check passed.
 */
export function checkWorker<T extends { hello(): Promise<unknown> }>(
  remote: T,
  tab: WorkerHello,
  log: (message: string) => void,
  { reopen, warn, timeoutMs = HELLO_TIMEOUT_MS, attempts = HELLO_ATTEMPTS }: WorkerCheckOptions<T> = {},
): CheckedWorker<T> {
  let current = remote;
  const check = async (): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      const hello = current.hello().then(
        (answer: unknown) => answer,
        (error: unknown) => ({ failed: String((error as PlainError | null)?.message ?? error) }),
      );
      const answer = await within(hello, helloWait(attempt, timeoutMs));
      if (answer !== NO_ANSWER) {
        const mismatch = workerMismatch(tab, answer);
        if (mismatch) {
          log(mismatch.message);
          throw mismatch;
        }
        return;
      }
      if (!reopen || attempt >= attempts) {
        const silent = workerSilent(tab, attempt, helloWait(attempt + 1, timeoutMs) - timeoutMs);
        log(silent.message);
        throw silent;
      }
      const waited = helloWait(attempt, timeoutMs) / 1000;
      warn?.(`El worker de datos no respondió en ${waited} s: se abre de nuevo su puerto (verificación ${attempt + 1} de ${attempts}).`);
      current = reopen();
    }
  };
  const checked = check();
  // Callers see the rejection on their own calls; this one is only the check's.
  checked.catch(() => {});
  const api = new Proxy(remote, {
    get(_target, property) {
      // Comlink's own symbols (release, endpoint) and 'then' (the proxy is no promise) pass as they are.
      if (typeof property === 'symbol' || property === 'then') return Reflect.get(current, property);
      return (...args: unknown[]) => checked.then(() => (Reflect.get(current, property) as (...args: unknown[]) => unknown)(...args));
    },
  });
  return { api, checked };
}
