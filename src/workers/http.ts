// JSON over HTTP from the data worker, with its dependencies passed in (fetch, base URL,
// token) so it can be tested and pointed at the API or the positions host. Failures
// become plain {code, message} errors: the message is the server's, which the UI shows.
import { isUnreachableStatus, NETWORK_ERROR_MESSAGE, serverMessage } from '../data/apiMessages';

export type WorkerErrorCode =
  | 'network'
  | 'not_signed_in'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'invalid'
  | 'conflict'
  | 'precondition_required'
  | 'rate_limited'
  | 'server'
  | 'http'
  | 'internal';

/** What crosses to a tab when a call fails: plain data, never a class instance. */
export interface WorkerError {
  code: WorkerErrorCode;
  message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: WorkerError };

export const NOT_SIGNED_IN_MESSAGE = 'No hay una sesión iniciada';

/** The part of `fetch` the worker uses; the global `fetch` fits it. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  credentials?: 'include' | 'same-origin' | 'omit';
}
export interface FetchResponse {
  status: number;
  headers: { get(name: string): string | null };
  json(): Promise<unknown>;
}
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>;

/** A failed call inside the worker; `error` is what the tab receives. */
export class RequestFailure extends Error {
  constructor(
    readonly error: WorkerError,
    /** HTTP status; 0 when no answer came back or none was asked for. */
    readonly status: number,
  ) {
    super(error.message);
    this.name = 'RequestFailure';
  }
}

export function codeOfStatus(status: number): WorkerErrorCode {
  if (status === 0 || isUnreachableStatus(status)) return 'network';
  if (status === 400 || status === 413 || status === 422) return 'invalid';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409 || status === 412) return 'conflict';
  if (status === 428) return 'precondition_required';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  return 'http';
}

/** Any failure as the plain error a tab receives. */
export function toWorkerError(error: unknown): WorkerError {
  if (error instanceof RequestFailure) return { ...error.error };
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

/** Runs `work`, turning a throw into `{ok:false, error}`. */
export async function attempt<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: toWorkerError(error) };
  }
}

export interface HttpAnswer<T> {
  status: number;
  body: T;
  headers: { get(name: string): string | null };
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
}

export interface HttpClient {
  /** Resolves with any 2xx answer; throws RequestFailure otherwise. */
  request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options?: RequestOptions): Promise<HttpAnswer<T>>;
}

export interface HttpClientDeps {
  fetch: FetchLike;
  /** `/api`, or the positions host (spec section 6). */
  baseUrl: string;
  getToken: () => string | null;
  credentials?: FetchInit['credentials'];
}

export function createHttpClient(deps: HttpClientDeps): HttpClient {
  const baseUrl = deps.baseUrl.replace(/\/+$/, '');
  return {
    async request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options: RequestOptions = {}): Promise<HttpAnswer<T>> {
      const token = deps.getToken();
      if (!token) throw new RequestFailure({ code: 'not_signed_in', message: NOT_SIGNED_IN_MESSAGE }, 0);
      const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token}`, ...options.headers };
      const init: FetchInit = { method, headers };
      if (options.body !== undefined) {
        headers['content-type'] = 'application/json';
        init.body = JSON.stringify(options.body);
      }
      if (deps.credentials) init.credentials = deps.credentials;
      let response: FetchResponse;
      try {
        response = await deps.fetch(`${baseUrl}${path}`, init);
      } catch {
        throw new RequestFailure({ code: 'network', message: NETWORK_ERROR_MESSAGE }, 0);
      }
      let payload: unknown = null;
      try {
        payload = await response.json();
      } catch {
        payload = null;
      }
      if (response.status < 200 || response.status > 299) {
        const code = codeOfStatus(response.status);
        const message = code === 'network' ? NETWORK_ERROR_MESSAGE : serverMessage(response.status, payload);
        throw new RequestFailure({ code, message }, response.status);
      }
      return { status: response.status, body: payload as T, headers: response.headers };
    },
  };
}
