// The positions live connection of the data worker (spec sections 4, 7, 8, 9): one socket
// for every tab, authenticated by a first {action:'auth', token}; per-account subscriptions
// counted across tabs; the last snapshot of each subscribed account kept in memory. Every
// dependency is passed in, so the whole behaviour runs against fakes in tests.
import { backoffDelay } from '../lib/backoff';
import { POSITIONS_CHANNEL_PREFIX, type PositionsSnapshot } from '../protocol/broker';
import type { EventLogger } from './eventLog';
import { attempt, type FetchLike, type Result } from './http';
import { createPositionsRest, isRecord, isSnapshot, restFailedLog, type SessionConnectAnswer, type SessionConnectRequest } from './positionsRest';
import { defaultTimers, type SocketConstructor, type SocketLike, type Timers } from './socketTypes';

/** Spec section 9: the timer exists but sends nothing (the server pings at protocol level). */
export const KEEPALIVE_MS = 25_000;
/** Seed reads retried while the broker warms up (500 ms, 1 s, 2 s, 4 s, 8 s); pushes carry on after. */
export const SEED_RETRIES = 5;
const SOCKET_OPEN = 1;

export type PositionsState = 'idle' | 'connecting' | 'open' | 'closed' | 'error';

export interface PositionsStatus {
  state: PositionsState;
  /** 'websocket_error' after a socket error, until the next open. */
  lastError: string | null;
  /** True once the server answered the auth message on the current socket. */
  authenticated: boolean;
}

/** A snapshot as the worker keeps it: 'refresh' when a push brought it, 'seed' from the first REST read. */
export interface CachedPositions extends PositionsSnapshot {
  source: 'seed' | 'refresh';
}

export const POSITIONS_LOG = {
  open: 'Posiciones: conexión abierta',
  authenticated: 'Posiciones: autenticado',
  noToken: 'Posiciones: no hay sesión iniciada; se cierra la conexión',
  socketError: 'Posiciones: error de websocket',
  closed: (code: number, delayMs: number) => `Posiciones: conexión cerrada (código ${code}); reintento en ${delayMs} ms`,
  disconnected: 'Posiciones: desconectado',
  subscribed: (symbol: string) => `Posiciones: suscripto a ${symbol}`,
  unsubscribed: (symbol: string) => `Posiciones: desuscripto de ${symbol}`,
  serverError: (message: string) => `Posiciones: el servidor informó un error: ${message}`,
  parseError: 'Posiciones: error al parsear el mensaje',
  unknownPush: (account: string) => `Posiciones: mensaje de tipo desconocido para la cuenta ${account}`,
  emptyRest: (account: string) => `Posiciones: la consulta REST de la cuenta ${account} no trajo datos; se conserva la foto anterior`,
  restFailed: restFailedLog,
} as const;

export interface PositionsSocketDeps {
  /** ws(s)://…/ws/positions */
  url: string;
  /** Base of the positions REST calls (the API base unless configured apart). */
  apiBase: string;
  getToken: () => string | null;
  WebSocket: SocketConstructor;
  fetch: FetchLike;
  log: EventLogger;
  timers?: Timers;
}

const channelOf = (account: string) => `${POSITIONS_CHANNEL_PREFIX}${account}`;

export function createPositionsSocket(deps: PositionsSocketDeps) {
  const timers = deps.timers ?? defaultTimers;
  const log = deps.log;
  const rest = createPositionsRest({ fetch: deps.fetch, apiBase: deps.apiBase, getToken: deps.getToken, log });

  let socket: SocketLike | null = null;
  let state: PositionsState = 'idle';
  let lastError: string | null = null;
  let authenticated = false;
  let reconnectAttempt = 0;
  let retryTimer: unknown = null;
  let keepaliveTimer: unknown = null;
  /** Subscribers per account, across tabs. */
  const counts = new Map<string, number>();
  const snapshots = new Map<string, CachedPositions>();
  const seedTimers = new Map<string, unknown>();
  const snapshotListeners = new Set<(account: string, snapshot: CachedPositions | null) => void>();
  const statusListeners = new Set<(status: PositionsStatus) => void>();

  const status = (): PositionsStatus => ({ state, lastError, authenticated });
  const announce = () => {
    const current = status();
    for (const listener of statusListeners) listener(current);
  };
  const setState = (next: PositionsState) => {
    state = next;
    announce();
  };
  const setSnapshot = (account: string, snapshot: CachedPositions | null) => {
    if (snapshot) snapshots.set(account, snapshot);
    else if (!snapshots.delete(account)) return;
    for (const listener of snapshotListeners) listener(account, snapshot);
  };
  const send = (message: unknown) => {
    if (socket?.readyState === SOCKET_OPEN) socket.send(JSON.stringify(message));
  };

  function clearTimer(handle: unknown, clear: (handle: unknown) => void): null {
    if (handle != null) clear(handle);
    return null;
  }

  function scheduleReconnect(code: number) {
    const delay = backoffDelay(reconnectAttempt);
    reconnectAttempt += 1;
    log.info(POSITIONS_LOG.closed(code, delay));
    retryTimer = timers.setTimeout(() => {
      retryTimer = null;
      open();
    }, delay);
  }

  function open() {
    setState('connecting');
    let next: SocketLike;
    try {
      next = new deps.WebSocket(deps.url);
    } catch (error) {
      // An invalid URL throws at once; it is a socket error that closes, like any other.
      log.error(POSITIONS_LOG.socketError, error);
      lastError = 'websocket_error';
      setState('closed');
      scheduleReconnect(1006);
      return;
    }
    socket = next;
    next.onopen = () => {
      if (socket !== next) return;
      reconnectAttempt = 0;
      lastError = null;
      setState('open');
      log.info(POSITIONS_LOG.open);
      keepaliveTimer = timers.setInterval(() => undefined, KEEPALIVE_MS);
      const token = deps.getToken();
      if (!token) {
        log.warn(POSITIONS_LOG.noToken);
        disconnect();
        return;
      }
      send({ action: 'auth', token });
    };
    next.onerror = (event) => {
      if (socket !== next) return;
      lastError = 'websocket_error';
      setState('error');
      log.error(POSITIONS_LOG.socketError, event);
    };
    next.onclose = (event) => {
      if (socket !== next) return;
      socket = null;
      authenticated = false;
      keepaliveTimer = clearTimer(keepaliveTimer, timers.clearInterval);
      setState('closed');
      scheduleReconnect(event.code);
    };
    next.onmessage = (event) => {
      if (socket === next) handleMessage(event.data);
    };
  }

  function handleMessage(raw: unknown) {
    let message: unknown;
    try {
      message = JSON.parse(typeof raw === 'string' ? raw : String(raw));
    } catch (error) {
      log.error(POSITIONS_LOG.parseError, { raw, error });
      return;
    }
    if (!isRecord(message)) {
      log.error(POSITIONS_LOG.parseError, { raw });
      return;
    }
    if (typeof message.event === 'string') {
      handleEvent(message);
      return;
    }
    for (const [key, push] of Object.entries(message)) {
      if (key.startsWith(POSITIONS_CHANNEL_PREFIX)) handlePush(key.slice(POSITIONS_CHANNEL_PREFIX.length), push);
    }
  }

  function handleEvent(message: Record<string, unknown>) {
    const symbol = String(message.symbol ?? '');
    switch (message.event) {
      case 'authenticated':
        authenticated = true;
        log.info(POSITIONS_LOG.authenticated);
        announce();
        // Spec: on (re)open every account already subscribed is subscribed again.
        for (const account of counts.keys()) send({ action: 'subscribe', symbol: channelOf(account) });
        return;
      case 'subscribed':
        log.info(POSITIONS_LOG.subscribed(symbol));
        return;
      case 'unsubscribed':
        log.info(POSITIONS_LOG.unsubscribed(symbol));
        return;
      case 'error':
        log.warn(POSITIONS_LOG.serverError(String(message.message ?? '')));
        return;
      default:
        return;
    }
  }

  function handlePush(account: string, push: unknown) {
    // A push that crossed an unsubscribe must not bring the dropped snapshot back.
    if (!counts.has(account)) return;
    if (!isRecord(push) || push.type !== 'positions') {
      log.warn(POSITIONS_LOG.unknownPush(account), push);
      return;
    }
    if (isSnapshot(push.data)) setSnapshot(account, { ...push.data, source: 'refresh' });
    else void refreshFromRest(account);
  }

  async function refreshFromRest(account: string) {
    const fetched = await rest.positions(account);
    if (!counts.has(account)) return;
    if (fetched == null) {
      log.warn(POSITIONS_LOG.emptyRest(account));
      return;
    }
    // A push with data may have landed while the request was out: never go back in time.
    const current = snapshots.get(account);
    if (current && Date.parse(fetched.as_of) < Date.parse(current.as_of)) return;
    setSnapshot(account, { ...fetched, source: 'refresh' });
  }

  /** While the broker warms up, reads again with the backoff delays until a snapshot exists. */
  function retrySeed(account: string, round: number) {
    if (round >= SEED_RETRIES || snapshots.has(account) || !counts.has(account)) return;
    seedTimers.set(
      account,
      timers.setTimeout(async () => {
        seedTimers.delete(account);
        const fetched = await rest.positions(account);
        if (!counts.has(account) || snapshots.has(account)) return;
        if (fetched) setSnapshot(account, { ...fetched, source: 'seed' });
        else retrySeed(account, round + 1);
      }, backoffDelay(round)),
    );
  }

  function connect() {
    if (socket) return;
    retryTimer = clearTimer(retryTimer, timers.clearTimeout);
    open();
  }

  /** Closes for good: cancels any pending reconnect (spec section 4). Subscriptions are kept for the next connect. */
  function disconnect() {
    retryTimer = clearTimer(retryTimer, timers.clearTimeout);
    keepaliveTimer = clearTimer(keepaliveTimer, timers.clearInterval);
    const closing = socket;
    socket = null;
    authenticated = false;
    closing?.close(1000, 'disconnect');
    if (state !== 'idle') setState('closed');
    log.info(POSITIONS_LOG.disconnected);
  }

  /**
   * One more subscriber of `account` (a tab, or a section of one). The first sends subscribe
   * once authenticated; with no socket and no retry pending it also connects (lazily, and
   * again after a manual disconnect, since someone wants data now).
   */
  function subscribe(account: string) {
    const count = counts.get(account) ?? 0;
    counts.set(account, count + 1);
    if (count > 0) return;
    if (authenticated) send({ action: 'subscribe', symbol: channelOf(account) });
    else if (!socket && retryTimer == null) connect();
  }

  /** One subscriber fewer; the last sends unsubscribe and drops the cached snapshot. */
  function unsubscribe(account: string) {
    const count = counts.get(account);
    if (count == null) return;
    if (count > 1) {
      counts.set(account, count - 1);
      return;
    }
    counts.delete(account);
    const seed = seedTimers.get(account);
    if (seed != null) timers.clearTimeout(seed);
    seedTimers.delete(account);
    if (authenticated) send({ action: 'unsubscribe', symbol: channelOf(account) });
    setSnapshot(account, null);
  }

  return {
    connect,
    disconnect,
    subscribe,
    unsubscribe,
    status,
    snapshot: (account: string): CachedPositions | null => snapshots.get(account) ?? null,
    subscriberCount: (account: string): number => counts.get(account) ?? 0,

    connectSession: (request: SessionConnectRequest): Promise<Result<SessionConnectAnswer>> => rest.connectSession(request),

    /**
     * Spec section 4: watch the account, seed its snapshot from REST, then subscribe (one
     * more subscriber). While the broker warms up the first snapshot comes from a later
     * read or the first push. Answers the snapshot known at the end, if any.
     */
    watchAccount(account: string, sessionId: string): Promise<Result<CachedPositions | null>> {
      return attempt(async () => {
        await rest.watch(account, sessionId);
        const seeded = snapshots.has(account) ? null : await rest.positions(account);
        subscribe(account);
        if (seeded && !snapshots.has(account)) setSnapshot(account, { ...seeded, source: 'seed' });
        if (!snapshots.has(account) && !seedTimers.has(account)) retrySeed(account, 0);
        return snapshots.get(account) ?? null;
      });
    },

    /** Calls `listener` with each new snapshot of an account, and null when it is dropped. */
    onSnapshot(listener: (account: string, snapshot: CachedPositions | null) => void): () => void {
      snapshotListeners.add(listener);
      return () => snapshotListeners.delete(listener);
    },

    onStatus(listener: (status: PositionsStatus) => void): () => void {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
  };
}

export type PositionsSocket = ReturnType<typeof createPositionsSocket>;
