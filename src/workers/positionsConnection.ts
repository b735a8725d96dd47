// The positions socket itself (spec sections 4, 8, 9): one for every tab, opened lazily,
// authenticated by a first {action:'auth', token}, reconnected with backoff until a
// deliberate disconnect. It knows channels, not accounts' data: control events are handled
// here, each account's pushes handed on (positionsAccounts.ts).
import { backoffDelay } from '../lib/backoff';
import { isRecord } from '../lib/isRecord';
import { POSITIONS_CHANNEL_PREFIX } from '../protocol/broker';
import type { EventLogger } from './eventLog';
import { POSITIONS_LOG } from './positionsLog';
import type { SocketConstructor, SocketLike, Timers } from './socketTypes';

/** Spec section 9: the timer exists but sends nothing (the server pings at protocol level). */
export const KEEPALIVE_MS = 25_000;
const SOCKET_OPEN = 1;

export type PositionsState = 'idle' | 'connecting' | 'open' | 'closed' | 'error';

export interface PositionsStatus {
  state: PositionsState;
  /** 'websocket_error' after a socket error, until the next open. */
  lastError: string | null;
  /** True once the server answered the auth message on the current socket. */
  authenticated: boolean;
}

export interface PositionsConnectionDeps {
  /** ws(s)://…/ws/positions */
  url: string;
  /** The token the socket authenticates with. */
  getToken: () => string | null;
  WebSocket: SocketConstructor;
  log: EventLogger;
  timers: Timers;
  /** The current socket is authenticated: every account held must be subscribed (again). */
  onAuthenticated(): void;
  /** A push on an account's channel. */
  onPush(account: string, push: unknown): void;
}

const channelOf = (account: string) => `${POSITIONS_CHANNEL_PREFIX}${account}`;

export function createPositionsConnection(deps: PositionsConnectionDeps) {
  const { log, timers } = deps;
  let socket: SocketLike | null = null;
  let state: PositionsState = 'idle';
  let lastError: string | null = null;
  let authenticated = false;
  let reconnectAttempt = 0;
  let retryTimer: unknown = null;
  let keepaliveTimer: unknown = null;
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
      if (key.startsWith(POSITIONS_CHANNEL_PREFIX)) deps.onPush(key.slice(POSITIONS_CHANNEL_PREFIX.length), push);
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
        deps.onAuthenticated();
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

  function connect() {
    if (socket) return;
    retryTimer = clearTimer(retryTimer, timers.clearTimeout);
    open();
  }

  /** Closes for good: cancels any pending reconnect (spec section 4). */
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

  return {
    connect,
    disconnect,
    status,
    /** True once the current socket is authenticated: subscriptions can be sent. */
    isAuthenticated: () => authenticated,
    /**
     * Someone wants data now: connects unless a socket is there or a reconnect is pending
     * (lazily at first, and again after a deliberate disconnect).
     */
    wake() {
      if (!socket && retryTimer == null) connect();
    },
    /** Subscribes an account's channel; nothing before authentication (which subscribes them all). */
    subscribe(account: string) {
      if (authenticated) send({ action: 'subscribe', symbol: channelOf(account) });
    },
    unsubscribe(account: string) {
      if (authenticated) send({ action: 'unsubscribe', symbol: channelOf(account) });
    },
    onStatus(listener: (status: PositionsStatus) => void): () => void {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
  };
}

export type PositionsConnection = ReturnType<typeof createPositionsConnection>;
