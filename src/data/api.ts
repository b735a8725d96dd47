// JSON over HTTP from the tab to the backend: the tab's one client of the shared factory
// (shared/http.ts). Every error is an ApiError carrying the server's message, which is what
// the UI shows.
import { ApiError, NETWORK_ERROR_MESSAGE } from '../shared/errors';
import { createHttpClient, type HttpMethod, type HttpRequestOptions } from '../shared/http';
import { settings } from '../shared/settings';

export { ApiError, NETWORK_ERROR_MESSAGE };

export interface ApiRequestOptions<T = unknown> extends Pick<HttpRequestOptions<T>, 'body' | 'signal' | 'schema'> {
  method?: Exclude<HttpMethod, 'HEAD'>;
  /** The session's token; without one the request is sent anonymously. */
  token?: string | null;
}

const client = createHttpClient({ fetch: (url, init) => fetch(url, init), baseUrl: settings.apiBase });

/** The answer's body (parsed by `schema` when given); throws ApiError, or the abort error when `signal` aborted. */
export async function apiRequest<T>(path: string, options: ApiRequestOptions<T> = {}): Promise<T> {
  const { method = 'GET', token, ...rest } = options;
  const answer = await client.request<T>(method, path, { ...rest, auth: token ? { token } : 'none' });
  return answer.body;
}
