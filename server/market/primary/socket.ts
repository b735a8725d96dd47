// One reconnecting websocket to the Primary API: the token on the upgrade (renewed when the
// upgrade is refused with 401), exponential backoff, a ping every interval and a dead-peer
// check that counts any inbound frame as liveness (dropped after two silent intervals), JSON
// parsing. What to send on each open and what to do with each message belong to
// the stream that owns the socket (streams.ts).
import WebSocket, { type RawData } from 'ws';
import type { LookupFunction } from 'node:net';
import type { BackoffOptions, PrimaryLogger, StreamStateName, TokenSource } from './types.js';

export interface PrimarySocketOptions {
  /** For log lines: 'market data', 'order reports'. */
  name: string;
  url: string;
  /** Resolves the host of `url`; default the system's. */
  lookup?: LookupFunction | undefined;
  tokens: TokenSource;
  logger: PrimaryLogger;
  backoff: BackoffOptions;
  pingIntervalMs: number;
  /** Called on every open, first or after a reconnect; sends the subscriptions. */
  onOpen(send: (message: object) => boolean): void;
  /** A parsed JSON message. */
  onMessage(message: unknown): void;
  /** The state changed. */
  onState(state: StreamStateName): void;
  /** A connection failed or dropped; the socket retries by itself. */
  onError(message: string): void;
}

export interface PrimarySocket {
  state(): StreamStateName;
  isOpen(): boolean;
  /** Connects when idle; otherwise does nothing. */
  start(): void;
  /** Replaces the connection with a fresh one at once (no backoff). */
  restart(): void;
  /** Back to idle: closes the connection and does not reconnect. */
  stop(): void;
  /** Closed for good. */
  close(): void;
  /** False when there is no open connection. */
  send(message: object): boolean;
}

function rawText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  if (raw instanceof ArrayBuffer) return Buffer.from(raw).toString('utf8');
  return raw.toString('utf8');
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createPrimarySocket(options: PrimarySocketOptions): PrimarySocket {
  const { name, url, tokens, logger, backoff, pingIntervalMs } = options;
  let state: StreamStateName = 'idle';
  let socket: WebSocket | null = null;
  /** Bumped whenever the attempt in flight is abandoned, so its late callbacks do nothing. */
  let generation = 0;
  /** Failed attempts since the last open; drives the backoff. */
  let attempt = 0;
  let retryTimer: NodeJS.Timeout | null = null;
  let pingTimer: NodeJS.Timeout | null = null;

  const setState = (next: StreamStateName) => {
    if (state === next) return;
    state = next;
    options.onState(next);
  };

  const fail = (message: string) => {
    logger.warn(`Primary ${name}: ${message}`);
    options.onError(message);
  };

  const clearTimers = () => {
    if (retryTimer) clearTimeout(retryTimer);
    if (pingTimer) clearInterval(pingTimer);
    retryTimer = null;
    pingTimer = null;
  };

  /** Drops the current connection and timers without reconnecting. */
  const discard = () => {
    generation++;
    clearTimers();
    const old = socket;
    socket = null;
    if (!old) return;
    old.removeAllListeners();
    // A handshake being aborted still emits 'error'; nobody needs it.
    old.on('error', () => {});
    if (old.readyState === WebSocket.OPEN) old.close(1000, 'resubscribing');
    else old.terminate();
  };

  const scheduleReconnect = () => {
    const delay = Math.min(backoff.initialMs * 2 ** attempt, backoff.maxMs);
    attempt++;
    setState('reconnecting');
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, delay);
  };

  const send = (message: object): boolean => {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  };

  /**
   * A ping every interval keeps proxies from closing an idle connection, but nothing shows
   * the exchange or its proxies answer pings: any inbound frame (a message, a pong, a ping)
   * shows the peer alive, and only two whole intervals without one drop the connection
   * (half-open TCP connections never report a close). Returns what marks a frame heard.
   */
  const startLiveness = (ws: WebSocket, onDead: () => void): (() => void) => {
    let heard = true;
    let silentIntervals = 0;
    const hear = () => {
      heard = true;
    };
    ws.on('pong', hear);
    ws.on('ping', hear);
    pingTimer = setInterval(() => {
      silentIntervals = heard ? 0 : silentIntervals + 1;
      heard = false;
      if (silentIntervals >= 2) {
        onDead();
        ws.terminate();
        return;
      }
      ws.ping();
    }, pingIntervalMs);
    pingTimer.unref();
    return hear;
  };

  const connect = async (): Promise<void> => {
    const mine = ++generation;
    setState(attempt === 0 ? 'connecting' : 'reconnecting');
    let token: string;
    try {
      token = await tokens.get();
    } catch (error) {
      if (mine !== generation) return;
      fail(`cannot authenticate: ${errorText(error)}`);
      scheduleReconnect();
      return;
    }
    if (mine !== generation) return;

    const ws = new WebSocket(url, { headers: { 'X-Auth-Token': token }, ...(options.lookup ? { lookup: options.lookup } : {}) });
    socket = ws;
    /** Why this connection ended, when something said so before the close. */
    let problem: string | null = null;
    /** Marks an inbound frame for the liveness check, once open. */
    let heard = () => {};

    ws.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      response.resume();
      if (status === 401) {
        tokens.invalidate(token);
        problem = 'websocket upgrade refused with HTTP 401; a new token will be requested';
      } else {
        problem = `websocket upgrade refused with HTTP ${status}`;
      }
      ws.terminate();
    });
    ws.on('open', () => {
      attempt = 0;
      logger.info(`Primary ${name}: connected to ${url}`);
      setState('open');
      heard = startLiveness(ws, () => {
        problem = `nothing received for two ping intervals (${2 * pingIntervalMs} ms); connection dropped`;
      });
      try {
        options.onOpen(send);
      } catch (error) {
        logger.error(`Primary ${name}: subscribing failed: ${errorText(error)}`);
      }
    });
    ws.on('message', (raw: RawData) => {
      heard();
      const text = rawText(raw);
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        logger.warn(`Primary ${name}: skipped a message that is not JSON: ${text.slice(0, 200)}`);
        return;
      }
      options.onMessage(message);
    });
    ws.on('error', (error: Error) => {
      problem ??= errorText(error);
    });
    ws.on('close', (code: number, reason: Buffer) => {
      if (socket !== ws) return;
      socket = null;
      if (pingTimer) clearInterval(pingTimer);
      pingTimer = null;
      if (state === 'closed' || state === 'idle') return;
      const why = reason.length > 0 ? `: ${reason.toString('utf8')}` : '';
      fail(problem ?? `connection closed (code ${code}${why})`);
      scheduleReconnect();
    });
  };

  return {
    state: () => state,
    isOpen: () => state === 'open' && socket?.readyState === WebSocket.OPEN,
    start() {
      if (state !== 'idle') return;
      attempt = 0;
      void connect();
    },
    restart() {
      if (state === 'closed') return;
      discard();
      attempt = 0;
      void connect();
    },
    stop() {
      if (state === 'closed' || state === 'idle') return;
      discard();
      setState('idle');
    },
    close() {
      if (state === 'closed') return;
      discard();
      setState('closed');
    },
    send,
  };
}
