// JSON over HTTP to our server, one factory for both sides: the tab makes one client
// (data/api.ts), the data worker one for the API and one for the positions host. Its
// dependencies are passed in (fetch, base URL, token), so tests give fakes. Every failure is
// thrown as an ApiError carrying the one error shape (shared/errors.ts).
import type { ZodType } from 'zod';
import { ApiError, errorOfAnswer, NETWORK_ERROR_MESSAGE, NOT_SIGNED_IN_MESSAGE, TIMEOUT_MESSAGE, UNEXPECTED_ANSWER_MESSAGE } from './errors';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

/** What the client hands fetch; the global fetch takes it. */
export interface FetchInit {
  method: HttpMethod;
  headers: Record<string, string>;
  body?: string;
  credentials?: 'include' | 'same-origin' | 'omit';
  cache?: 'no-store';
  signal?: AbortSignal;
}

/** The part of a fetch Response the client reads. */
export interface FetchResponse {
  status: number;
  headers: { get(name: string): string | null };
  json(): Promise<unknown>;
}

/** The part of fetch the clients use: the global fetch fits it (wrap it, `(url, init) => fetch(url, init)`). */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>;

/**
 * Who a request is made as: 'session' (the default) sends the client's getToken() as a
 * Bearer token and fails 'not_signed_in' without one; 'none' sends no token (GET /health,
 * sign-in); `{token}` sends that token.
 */
export type HttpAuth = 'session' | 'none' | { token: string };

export interface HttpRequestOptions<T = unknown> {
  /** Sent as JSON. */
  body?: unknown;
  /** Extra headers, e.g. If-Match. */
  headers?: Record<string, string>;
  auth?: HttpAuth;
  signal?: AbortSignal;
  cache?: FetchInit['cache'];
  /** Parses a 2xx answer's body, which then has the schema's type; a mismatch fails 'server'. */
  schema?: ZodType<T>;
  /** This request's time limit in ms, instead of the client's `timeoutMs` (e.g. a long download). */
  timeoutMs?: number;
}

export interface HttpAnswer<T> {
  status: number;
  body: T;
  headers: FetchResponse['headers'];
}

export interface HttpClient {
  /** Resolves with any 2xx answer; throws ApiError otherwise (an abort by `signal` is rethrown as is). */
  request<T = unknown>(method: HttpMethod, path: string, options?: HttpRequestOptions<T>): Promise<HttpAnswer<T>>;
}

export interface HttpClientDeps {
  fetch: FetchLike;
  /** `/api`, or the positions host (spec section 6). */
  baseUrl: string;
  /** The session's token, for requests made as 'session'; none: such requests fail 'not_signed_in'. */
  getToken?: () => string | null;
  credentials?: FetchInit['credentials'];
  /**
   * Time limit of a request in ms, answer and body: past it the request is aborted and fails as
   * no answer ('network', TIMEOUT_MESSAGE), even when the fetch ignores the abort. None: no limit.
   */
  timeoutMs?: number;
  /** Called when a request ran out of time (the data worker counts it as the server not reached). */
  onTimeout?: () => void;
}

/** The time limit of one request: aborts `signal` and rejects `expired` when it passes. */
function deadline(timeoutMs: number | undefined, callerSignal: AbortSignal | undefined) {
  if (timeoutMs == null || !Number.isFinite(timeoutMs)) return null;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let passed = false;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      passed = true;
      controller.abort();
      reject(new Error('timeout'));
    }, timeoutMs);
  });
  // Nobody may be racing it when it passes (the request already ended).
  expired.catch(() => undefined);
  const forward = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) forward();
  else callerSignal?.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    expired,
    passed: () => passed,
    clear() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', forward);
    },
  };
}

export function createHttpClient(deps: HttpClientDeps): HttpClient {
  const baseUrl = deps.baseUrl.replace(/\/+$/, '');

  const tokenFor = (auth: HttpAuth): string | null => {
    if (auth === 'none') return null;
    if (typeof auth === 'object') return auth.token;
    const token = deps.getToken?.() ?? null;
    if (!token) throw new ApiError({ code: 'not_signed_in', message: NOT_SIGNED_IN_MESSAGE, status: 0 });
    return token;
  };

  return {
    async request<T = unknown>(method: HttpMethod, path: string, options: HttpRequestOptions<T> = {}): Promise<HttpAnswer<T>> {
      const token = tokenFor(options.auth ?? 'session');
      const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
      if (token) headers.authorization = `Bearer ${token}`;
      const init: FetchInit = { method, headers };
      if (options.body !== undefined) {
        headers['content-type'] = 'application/json';
        init.body = JSON.stringify(options.body);
      }
      if (deps.credentials) init.credentials = deps.credentials;
      if (options.cache) init.cache = options.cache;
      const limit = deadline(options.timeoutMs ?? deps.timeoutMs, options.signal);
      if (limit) init.signal = limit.signal;
      else if (options.signal) init.signal = options.signal;
      /** What the request waits for, given up when its time runs out. */
      const bounded = <V>(work: Promise<V>): Promise<V> => (limit ? Promise.race([work, limit.expired]) : work);
      const timedOut = () => {
        deps.onTimeout?.();
        return new ApiError({ code: 'network', message: TIMEOUT_MESSAGE, status: 0 });
      };

      let response: FetchResponse;
      let payload: unknown = null;
      try {
        try {
          response = await bounded(deps.fetch(`${baseUrl}${path}`, init));
        } catch (error) {
          if (limit?.passed()) throw timedOut();
          // The caller gave up: not a failure of the server.
          if (options.signal?.aborted) throw error;
          throw new ApiError({ code: 'network', message: NETWORK_ERROR_MESSAGE, status: 0 });
        }
        try {
          payload = await bounded(response.json());
        } catch {
          // A body that never ends is no answer; one that is not JSON is an answer without a body.
          if (limit?.passed()) throw timedOut();
          payload = null;
        }
      } finally {
        limit?.clear();
      }
      if (response.status < 200 || response.status > 299) {
        const retryAfter = Number(response.headers.get('retry-after'));
        const retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined;
        throw new ApiError(errorOfAnswer(response.status, payload), { answered: response.status, ...(retryAfterMs ? { retryAfterMs } : {}) });
      }
      if (!options.schema) return { status: response.status, body: payload as T, headers: response.headers };
      const parsed = options.schema.safeParse(payload);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const message = issue ? `${UNEXPECTED_ANSWER_MESSAGE} (${method} ${path}): ${issue.message}` : UNEXPECTED_ANSWER_MESSAGE;
        throw new ApiError({ code: 'server', message, status: response.status });
      }
      return { status: response.status, body: parsed.data, headers: response.headers };
    },
  };
}
