// The REST half of positions (spec section 7): broker sessions, watching an account and
// reading its snapshot. Calls go to the positions host with credentials (spec section 6).
import {
  ConnectResponse,
  FillsResponse,
  PositionsResponse,
  WarmingUpResponse,
  WatchResponse,
  PositionsSnapshot,
  type ConnectRequest,
  type Fill,
} from '../protocol/broker';
import type { z } from '../protocol/zod';
import { ApiError, attempt, type Result } from '../shared/errors';
import type { HttpClient } from '../shared/http';
import type { EventLogger } from './eventLog';
import { POSITIONS_LOG } from './positionsLog';

/** `url`: `sim://` for the paper broker, or a Primary API base URL. */
export type SessionConnectRequest = z.input<typeof ConnectRequest>;
export type SessionConnectAnswer = Pick<ConnectResponse, 'sessionId' | 'accounts'>;

/**
 * The time limit of a broker connection (the worker's other requests have REQUEST_TIMEOUT_MS):
 * the server signs in to the broker and reads its accounts, each call allowed 15 s there.
 */
export const BROKER_CONNECT_TIMEOUT_MS = 45_000;

export function isSnapshot(value: unknown): value is PositionsSnapshot {
  return PositionsSnapshot.safeParse(value).success;
}

export interface PositionsRestDeps {
  /** The worker's client of the positions host (with credentials), sending the session's token. */
  http: HttpClient;
  log: EventLogger;
}

export function createPositionsRest(deps: PositionsRestDeps) {
  const { http } = deps;
  const accountPath = (account: string) => `/accounts/${encodeURIComponent(account)}`;

  return {
    /** POST /accounts/{account}/watch-fills; throws ApiError with the server's message. */
    async watchFills(account: string, sessionId: string): Promise<void> {
      await http.request('POST', `${accountPath(account)}/watch-fills`, { body: { sessionId }, schema: WatchResponse });
    },

    /**
     * GET /accounts/{account}/fills: null while the broker warms up (202); any failure throws
     * 'getFills failed' with the status or the message (spec section 7).
     */
    async fills(account: string): Promise<Fill[] | null> {
      try {
        const answer = await http.request('GET', `${accountPath(account)}/fills`, { schema: FillsResponse.or(WarmingUpResponse) });
        return 'status' in answer.body ? null : answer.body.fills;
      } catch (error) {
        const detail = error instanceof ApiError && error.status > 0 ? String(error.status) : error instanceof Error ? error.message : String(error);
        throw new Error(`getFills failed: ${detail}`);
      }
    },

    /** POST /primary/sessions/connect. */
    connectSession(request: SessionConnectRequest): Promise<Result<SessionConnectAnswer>> {
      return attempt(async () => {
        const { body } = await http.request('POST', '/primary/sessions/connect', {
          body: request,
          schema: ConnectResponse,
          timeoutMs: BROKER_CONNECT_TIMEOUT_MS,
        });
        return { sessionId: body.sessionId, accounts: body.accounts };
      });
    },

    /** POST /accounts/{account}/watch; throws ApiError with the server's message. */
    async watch(account: string, sessionId: string): Promise<void> {
      await http.request('POST', `${accountPath(account)}/watch`, { body: { sessionId }, schema: WatchResponse });
    },

    /** GET /accounts/{account}/positions: null while the broker warms up (202) and on any error. */
    async positions(account: string): Promise<PositionsSnapshot | null> {
      try {
        const answer = await http.request('GET', `${accountPath(account)}/positions`, { schema: PositionsResponse.or(WarmingUpResponse) });
        return 'status' in answer.body ? null : answer.body;
      } catch (error) {
        deps.log.error(POSITIONS_LOG.restFailed(account, error instanceof Error ? error.message : String(error)));
        return null;
      }
    },
  };
}

export type PositionsRest = ReturnType<typeof createPositionsRest>;
