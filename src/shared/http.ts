// JSON over HTTP to our server, one factory for both sides: the tab makes one client
// (data/api.ts), the data worker one for the API and one for the positions host. Its
// dependencies are passed in (fetch, base URL, token), so tests give fakes. Every failure is
// thrown as an ApiError carrying the one error shape (shared/errors.ts).
import type { ZodType } from 'zod';
import { ApiError, errorOfAnswer, NETWORK_ERROR_MESSAGE, NOT_SIGNED_IN_MESSAGE, UNEXPECTED_ANSWER_MESSAGE } from './errors';

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
      if (options.signal) init.signal = options.signal;

      let response: FetchResponse;
      try {
        response = await deps.fetch(`${baseUrl}${path}`, init);
      } catch (error) {
        // The caller gave up: not a failure of the server.
        if (options.signal?.aborted) throw error;
        throw new ApiError({ code: 'network', message: NETWORK_ERROR_MESSAGE, status: 0 });
      }
      let payload: unknown = null;
      try {
        payload = await response.json();
      } catch {
        payload = null;
      }
      if (response.status < 200 || response.status > 299) throw new ApiError(errorOfAnswer(response.status, payload));
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
