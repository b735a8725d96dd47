// The REST half of positions (spec section 7): broker sessions, watching an account and
// reading its snapshot. Calls go to the positions host with credentials (spec section 6).
import type { PositionsSnapshot } from '../protocol/broker';
import type { EventLogger } from './eventLog';
import { attempt, createHttpClient, type FetchLike, type Result } from './http';

export interface SessionConnectRequest {
  /** `sim://` for the paper broker, or a Primary API base URL. */
  url: string;
  username: string;
  password: string;
}

export interface SessionConnectAnswer {
  sessionId: string;
  accounts: string[];
}

export const restFailedLog = (account: string, message: string) => `Posiciones: falló la consulta REST de la cuenta ${account}: ${message}`;

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value != null && !Array.isArray(value);

export function isSnapshot(value: unknown): value is PositionsSnapshot {
  return isRecord(value) && typeof value.account === 'string' && typeof value.as_of === 'string' && Array.isArray(value.positions);
}

export interface PositionsRestDeps {
  fetch: FetchLike;
  apiBase: string;
  getToken: () => string | null;
  log: EventLogger;
}

export function createPositionsRest(deps: PositionsRestDeps) {
  const http = createHttpClient({ fetch: deps.fetch, baseUrl: deps.apiBase, getToken: deps.getToken, credentials: 'include' });
  const accountPath = (account: string) => `/accounts/${encodeURIComponent(account)}`;

  return {
    /** POST /primary/sessions/connect. */
    connectSession(request: SessionConnectRequest): Promise<Result<SessionConnectAnswer>> {
      return attempt(async () => {
        const { body } = await http.request<SessionConnectAnswer>('POST', '/primary/sessions/connect', { body: request });
        return { sessionId: body.sessionId, accounts: body.accounts };
      });
    },

    /** POST /accounts/{account}/watch; throws RequestFailure with the server's message. */
    async watch(account: string, sessionId: string): Promise<void> {
      await http.request('POST', `${accountPath(account)}/watch`, { body: { sessionId } });
    },

    /** GET /accounts/{account}/positions: null while the broker warms up (202) and on any error. */
    async positions(account: string): Promise<PositionsSnapshot | null> {
      try {
        const answer = await http.request<unknown>('GET', `${accountPath(account)}/positions`);
        return answer.status === 202 || !isSnapshot(answer.body) ? null : answer.body;
      } catch (error) {
        deps.log.error(restFailedLog(account, error instanceof Error ? error.message : String(error)));
        return null;
      }
    },
  };
}

export type PositionsRest = ReturnType<typeof createPositionsRest>;
