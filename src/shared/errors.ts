// One shape for every failure the client shows or passes on, in the tab and in the data
// worker alike: {code, message, status}, plain data, so it crosses the worker boundary as
// is. The message is the server's where it gave one (the UI shows it); the code is stable
// and machine-readable.

export const NETWORK_ERROR_MESSAGE = 'No se pudo conectar con el servidor. Revise su conexión.';
export const NOT_SIGNED_IN_MESSAGE = 'No hay una sesión iniciada';
export const UNEXPECTED_ANSWER_MESSAGE = 'Respuesta inesperada del servidor';
/** A request of the data worker that got no (whole) answer in its time: counted as no answer ('network'). */
export const TIMEOUT_MESSAGE = 'El servidor no respondió a tiempo. Revise su conexión.';

export const ERROR_CODES = [
  /** No answer from our server: offline, refused, or a proxy's 502/503/504. */
  'network',
  'not_signed_in',
  'unauthorized',
  'forbidden',
  'not_found',
  'invalid',
  'conflict',
  /** It was deleted for good (410): a create, change or delete of a visor another device deleted. */
  'gone',
  'precondition_required',
  'rate_limited',
  'server',
  'http',
  /** The data worker's own: a wait that ran out, a tab it does not know, anything else. */
  'timeout',
  'unknown_tab',
  /** The data worker speaks another protocol version than the tab, or never answered its check (workerProtocol.ts): not used. */
  'worker_version',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** What a failed call tells, on either side of the worker boundary. */
export interface PlainError {
  code: ErrorCode;
  message: string;
  /** HTTP status of the server's answer; 0 when none came back or none was asked for. */
  status: number;
}

/** A failed call, thrown by both HTTP clients (shared/http.ts); the tab's code catches it as ApiError. */
export class ApiError extends Error implements PlainError {
  readonly code: ErrorCode;
  readonly status: number;
  /**
   * The HTTP status that came back, also where `status` says 0 because it counts as no answer
   * (a proxy's 502/503/504); 0 when nothing came back. Stays on this side of the worker boundary.
   */
  readonly answered: number;
  /** How long the server asked to wait before asking again (its Retry-After), when it said. */
  readonly retryAfterMs: number | undefined;

  constructor({ code, message, status }: PlainError, { answered, retryAfterMs }: { answered?: number; retryAfterMs?: number } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.answered = answered ?? status;
    this.retryAfterMs = retryAfterMs;
  }

  /** True when no answer came back (offline, server down), as opposed to a refusal. */
  get isNetwork(): boolean {
    return this.code === 'network';
  }

  /** The plain data, for a postMessage or a Result. */
  toPlain(): PlainError {
    return { code: this.code, message: this.message, status: this.status };
  }
}

/** A proxy's 502/503/504 means the server is unreachable, not that it refused. */
export function isUnreachableStatus(status: number): boolean {
  return status === 502 || status === 503 || status === 504;
}

export function codeOfStatus(status: number): ErrorCode {
  if (status === 0 || isUnreachableStatus(status)) return 'network';
  if (status === 400 || status === 413 || status === 422) return 'invalid';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409 || status === 412) return 'conflict';
  if (status === 410) return 'gone';
  if (status === 428) return 'precondition_required';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  return 'http';
}

/**
 * A non-2xx answer as the error the UI shows: the server's `{message}` when it gave one,
 * else a text for the status. Status 0 when the server was not reached.
 */
export function errorOfAnswer(status: number, payload: unknown): PlainError {
  const code = codeOfStatus(status);
  const network = code === 'network';
  const given = payload && typeof payload === 'object' && 'message' in payload && typeof payload.message === 'string' ? payload.message : null;
  return { code, message: given ?? (network ? NETWORK_ERROR_MESSAGE : `Error ${status} del servidor`), status: network ? 0 : status };
}

const isErrorCode = (value: unknown): value is ErrorCode => (ERROR_CODES as readonly unknown[]).includes(value);

/** Any thrown value as a PlainError: known codes kept, anything else 'internal'. */
export function toPlainError(error: unknown): PlainError {
  if (error instanceof ApiError) return error.toPlain();
  if (typeof error === 'object' && error != null) {
    const { code, message, status } = error as { code?: unknown; message?: unknown; status?: unknown };
    if (typeof message === 'string') {
      return { code: isErrorCode(code) ? code : 'internal', message, status: typeof status === 'number' ? status : 0 };
    }
  }
  return { code: 'internal', message: String(error), status: 0 };
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: PlainError };

/** Runs `work`, turning a throw into `{ok:false, error}`. */
export async function attempt<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: toPlainError(error) };
  }
}
