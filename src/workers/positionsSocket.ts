// The positions side of the data worker (spec sections 4, 7, 8, 9), put together from its
// parts: the socket and its reconnects (positionsConnection.ts), the accounts it carries with
// their snapshots (positionsAccounts.ts), their fills, read again when a snapshot's
// quantities move (positionsFills.ts), and the REST calls (positionsRest.ts). Every
// dependency is passed in, so the whole behaviour runs against fakes in tests.
import type { Result } from '../shared/errors';
import type { HttpClient } from '../shared/http';
import type { EventLogger } from './eventLog';
import { createPositionsAccounts } from './positionsAccounts';
import { createPositionsConnection } from './positionsConnection';
import { createPositionsFills } from './positionsFills';
import { createPositionsRest, type SessionConnectAnswer, type SessionConnectRequest } from './positionsRest';
import { defaultTimers, type SocketConstructor, type Timers } from './socketTypes';

export interface PositionsSocketDeps {
  /** ws(s)://…/ws/positions */
  url: string;
  /** The token the socket authenticates with. */
  getToken: () => string | null;
  WebSocket: SocketConstructor;
  /** Client of the positions REST host (the API unless configured apart). */
  http: HttpClient;
  log: EventLogger;
  timers?: Timers;
}

export function createPositionsSocket(deps: PositionsSocketDeps) {
  const timers = deps.timers ?? defaultTimers;
  const { log } = deps;
  const rest = createPositionsRest({ http: deps.http, log });
  const connection = createPositionsConnection({
    url: deps.url,
    getToken: deps.getToken,
    WebSocket: deps.WebSocket,
    log,
    timers,
    onAuthenticated: () => accounts.resubscribe(),
    onPush: (account, push) => accounts.receive(account, push),
  });
  const accounts = createPositionsAccounts({ rest, connection, log, timers });
  const fills = createPositionsFills({ rest, log, timers });
  accounts.onSnapshot((account, snapshot) => fills.snapshot(account, snapshot));

  return {
    connect: connection.connect,
    /** Closes for good, cancelling any pending reconnect; subscriptions are kept for the next connect. */
    disconnect: connection.disconnect,
    status: connection.status,
    onStatus: connection.onStatus,
    subscribe: accounts.subscribe,
    unsubscribe: accounts.unsubscribe,
    watchAccount: accounts.watchAccount,
    snapshot: accounts.snapshot,
    subscriberCount: accounts.subscriberCount,
    onSnapshot: accounts.onSnapshot,
    /** One more watcher of an account's fills (POST watch-fills, then GET fills). */
    watchFills: fills.watch,
    releaseFills: fills.release,
    fills: fills.fills,
    fillsWatcherCount: fills.watcherCount,
    onFills: fills.onFills,
    connectSession: (request: SessionConnectRequest): Promise<Result<SessionConnectAnswer>> => rest.connectSession(request),
  };
}

export type PositionsSocket = ReturnType<typeof createPositionsSocket>;
