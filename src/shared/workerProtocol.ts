// The version of the tab ⇄ data worker contract (workers/api.ts), checked when a tab connects
// (issue 21). The SharedWorker is named with the build id, so a tab of a new build normally
// starts a worker of its own; this check is what makes a mismatch that gets through anyway (a
// worker kept by the browser under an old name, a build id reused) a clear refusal rather
// than calls misread on either side. Both ends import it: the worker answers hello() with it,
// the tab compares.
import type { PlainError } from './errors';

/** Raise it whenever a change of DataWorkerApi, TabMessage or TabReply would be misread by an older peer. */
export const DATA_WORKER_PROTOCOL = 2;

/** What the worker answers a tab's hello(). */
export interface WorkerHello {
  protocol: number;
  /** The build the worker runs (__BUILD_ID__), for the message. */
  buildId: string;
}

const isHello = (value: unknown): value is WorkerHello =>
  typeof value === 'object' && value !== null && typeof (value as WorkerHello).protocol === 'number' && typeof (value as WorkerHello).buildId === 'string';

/**
 * Null when the worker's answer speaks the tab's protocol; otherwise the error the tab logs and
 * every call of the tab rejects with. `answer` is what hello() resolved to, or, when it failed
 * (a worker of a build before hello() existed), `{ failed: reason }`.
 */
export function workerMismatch(tab: WorkerHello, answer: unknown): PlainError | null {
  if (isHello(answer) && answer.protocol === tab.protocol) return null;
  const worker = isHello(answer) ? `el protocolo ${answer.protocol} (build ${answer.buildId})` : 'sin versión de protocolo';
  return {
    code: 'worker_version',
    message: `El worker de datos habla ${worker} y esta pestaña el protocolo ${tab.protocol} (build ${tab.buildId}): no se usa. Recargue la página.`,
    status: 0,
  };
}

/**
 * The refusal of a worker that never answered the tab's check (`checks` of them, the port opened
 * again between them, `waitedMs` in all): the same code as a mismatch, so the tab treats it the
 * same way (logged once, every call rejects with it, nothing of the tab reaches that worker).
 */
export function workerSilent(tab: WorkerHello, checks: number, waitedMs: number): PlainError {
  const tries = `en ${waitedMs / 1000} s${checks === 1 ? '' : ` y ${checks} intentos`}`;
  return {
    code: 'worker_version',
    message: `El worker de datos no respondió a la verificación del protocolo ${tab.protocol} (build ${tab.buildId}) ${tries}: no se usa. Recargue la página.`,
    status: 0,
  };
}
