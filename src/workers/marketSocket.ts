// The market socket client (spec sections 4, 8, 9; server in server/ws/market.ts). It
// authenticates first ({action:'auth', token} → {event:'authenticated'}); keeps the set of
// symbols wanted and, once authenticated, sends only the difference from what the server
// has, in batch messages of up to 500 symbols carrying a requestId, so a reconnect
// subscribes every wanted symbol again exactly once. What is asked before the socket is
// ready waits for it. Inbound messages go through the 100/10 buffer (src/lib/inboundBuffer).
// The `markets` event (each market's state, after auth and on every change) and the
// `workspace` event (the user's workspace changed elsewhere) are checked against the protocol
// and handed on as they are.
import { MAX_SYMBOLS_PER_MESSAGE, MarketsEvent } from '../protocol/market';
import { SocketCloseCode } from '../protocol/socket';
import { WorkspaceEvent } from '../protocol/workspace';
import { backoffDelay } from '../lib/backoff';
import { createInboundBuffer, type InboundEntry, type InboundMessage } from '../lib/inboundBuffer';
import { applyPayload, type Quote } from '../lib/quote';
import type { MarketStatus, SocketUser, SubscribeResult } from './api';
import type { OpenSocket, SocketHandle } from './socketTransport';
import { createSymbolRequests } from './symbolRequests';

export const RECONNECT_FLAG_MS = 1000;
/**
 * Subscription changes wait this long to leave together (many cells mount in one render).
 * At most 20 flushes a second, each an unsubscribe and a subscribe message for up to 500
 * symbols: churning tabs stay under the server's 50 messages a second.
 */
export const SUBSCRIBE_DELAY_MS = 50;
/** A socket silent this long gets a ping; without any answer in PING_TIMEOUT_MS it is abandoned. */
export const IDLE_PING_MS = 30_000;
export const PING_TIMEOUT_MS = 10_000;

export const LOG_NOT_READY = 'WebSocket not ready. Message enqueued.';
export const LOG_NOT_CONNECTED = 'WebSocket is not connected.';

export interface Logger {
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

export interface MarketSocketOptions {
  url: string;
  openSocket: OpenSocket;
  /** True when the server answers at all (checked before each reconnect). */
  checkConnectivity(): Promise<boolean>;
  /** Symbols whose state changed, after each processed batch. */
  onQuotes(symbols: string[]): void;
  onStatus(status: MarketStatus): void;
  /** Each `markets` event (every market's state), as the server sends it; null when the session ends. */
  onMarkets?(event: MarketsEvent | null): void;
  /** Each `workspace` event: the user's workspace changed on another device or browser. */
  onWorkspace?(event: WorkspaceEvent): void;
  /** Runs `task` after yielding to the event loop (between inbound batches). */
  yieldThen?(task: () => void): void;
  /** A number in [0, 1): spreads the reconnects after a server restart. Math.random unless tested. */
  random?: () => number;
  log?: Logger;
}

/**
 * After a server restart (1012) every tab of every user reconnects at once; the first retry
 * waits this base plus a random part of the spread, so the new process is not met by all of
 * them in the same instant.
 */
export const RESTART_RECONNECT_BASE_MS = 250;
export const RESTART_RECONNECT_SPREAD_MS = 1000;
/**
 * A restarting server is back within seconds, or a minute when `npm start` rebuilds the app
 * first: for this long after a 1012 every retry waits that same spread, not the doubling
 * backoff, which could put the reconnect up to 10 s past the moment the new process listens.
 */
export const RESTART_RETRY_WINDOW_MS = 120_000;

export interface MarketSocket {
  /** Starts a session with this token (no-op when it is the current one). */
  start(token: string): void;
  /** Deliberate close: no reconnect until the next start(). */
  stop(): void;
  subscribe(symbols: readonly string[]): Promise<SubscribeResult>;
  unsubscribe(symbols: readonly string[]): void;
  quote(symbol: string): Quote | undefined;
  readonly status: MarketStatus;
}

const defaultYield = (task: () => void) => setTimeout(task, 0);

/**
 * A symbol as the server keys it, apart from spelling: the server answers in the catalogue's
 * spelling of the name written, its variants in letter case and spaces being one symbol
 * (server/market/catalogue.ts foldSymbol).
 */
const fold = (symbol: string) => symbol.trim().replace(/\s+/g, ' ').toUpperCase();

export function createMarketSocket(options: MarketSocketOptions): MarketSocket {
  const log = options.log ?? console;
  const random = options.random ?? Math.random;
  const wanted = new Set<string>();
  /** The wanted symbols by their folded form: the server's key for any of them reaches them all. */
  const wantedByFold = new Map<string, Set<string>>();
  const wantedAs = (key: string): Iterable<string> => wantedByFold.get(fold(key)) ?? [];
  /** Symbols subscribed on the current connection (sent, not unsubscribed). */
  const onServer = new Set<string>();
  const quotes = new Map<string, Quote>();
  const requests = createSymbolRequests();

  let token: string | null = null;
  let status: MarketStatus = { state: 'idle', reconnected: false, user: null };
  let socket: SocketHandle | null = null;
  let ready = false;
  let reconnectAllowed = false;
  let hasOpened = false;
  let attempt = 0;
  /** Until then the retries are a restart's (RESTART_RETRY_WINDOW_MS). */
  let restartRetriesUntil = 0;
  let session = 0; // bumped by start/stop: late callbacks of an older session do nothing
  let lastMessageAt = 0;
  let pingSentAt: number | null = null;
  let nextRequest = 0;
  const timers: {
    reconnect?: ReturnType<typeof setTimeout>;
    flag?: ReturnType<typeof setTimeout>;
    flush?: ReturnType<typeof setTimeout>;
    keepalive?: ReturnType<typeof setInterval>;
  } = {};

  const setStatus = (next: Partial<MarketStatus>) => {
    const merged = { ...status, ...next };
    if (merged.state === status.state && merged.reconnected === status.reconnected && merged.user === status.user) return;
    status = merged;
    options.onStatus(status);
  };

  const process = (batch: InboundEntry[]) => {
    const changed: string[] = [];
    for (const entry of batch) {
      if (entry.kind === 'event') {
        handleEvent(entry.message);
        continue;
      }
      for (const [key, payload] of entry.symbols) {
        // Each wanted spelling of the name (a late update of a symbol already let go of reaches none).
        for (const symbol of wantedAs(key)) {
          quotes.set(symbol, applyPayload(quotes.get(symbol), payload));
          changed.push(symbol);
        }
      }
      if (entry.requestId != null) requests.answered(entry.requestId);
    }
    if (changed.length > 0) options.onQuotes(changed);
  };
  const inbound = createInboundBuffer({ process, yieldThen: options.yieldThen ?? defaultYield });

  const handleEvent = (message: InboundMessage) => {
    const requestId = typeof message.requestId === 'string' ? message.requestId : undefined;
    if (message.event === 'markets') {
      const parsed = MarketsEvent.safeParse(message);
      if (parsed.success) options.onMarkets?.(parsed.data);
      else log.warn(`Market socket: a markets event outside the protocol (${parsed.error.issues[0]?.message ?? ''})`);
      return;
    }
    if (message.event === 'workspace') {
      const parsed = WorkspaceEvent.safeParse(message);
      if (parsed.success) options.onWorkspace?.(parsed.data);
      else log.warn(`Market socket: a workspace event outside the protocol (${parsed.error.issues[0]?.message ?? ''})`);
      return;
    }
    if (message.event === 'error') {
      log.warn(`Market socket error: ${String(message.message)}`);
      const symbols = Array.isArray(message.symbols) ? message.symbols.map(String) : typeof message.symbol === 'string' ? [message.symbol] : null;
      if (requestId != null) requests.failed(requestId, symbols);
    }
  };

  const send = (message: object) => socket?.send(JSON.stringify(message));

  const flush = () => {
    clearTimeout(timers.flush);
    timers.flush = undefined;
    if (!ready) return;
    // The server holds one subscription for every spelling of a name: it goes when none is wanted.
    const toRemove = [...onServer].filter((symbol) => !wantedByFold.has(fold(symbol)));
    const toAdd = [...wanted].filter((symbol) => !onServer.has(symbol));
    for (const [action, symbols] of [
      ['unsubscribe', toRemove],
      ['subscribe', toAdd],
    ] as const) {
      for (let at = 0; at < symbols.length; at += MAX_SYMBOLS_PER_MESSAGE) {
        const chunk = symbols.slice(at, at + MAX_SYMBOLS_PER_MESSAGE);
        const requestId = `m${++nextRequest}`;
        for (const symbol of chunk)
          if (action === 'subscribe') onServer.add(symbol);
          else onServer.delete(symbol);
        if (action === 'subscribe') requests.sent(requestId, chunk);
        send({ action, symbols: chunk, requestId });
      }
    }
  };
  const scheduleFlush = () => {
    if (ready) timers.flush ??= setTimeout(flush, SUBSCRIBE_DELAY_MS);
  };

  const keepalive = () => {
    if (!ready) return;
    const now = Date.now();
    if (pingSentAt != null && now - pingSentAt >= PING_TIMEOUT_MS) {
      // A dead connection may take minutes to report its close: give up on it now.
      const dead = socket;
      connectionLost(4000, 'ping timeout');
      dead?.close(4000, 'ping timeout');
    } else if (pingSentAt == null && now - lastMessageAt >= IDLE_PING_MS) {
      pingSentAt = now;
      send({ action: 'ping' });
    }
  };

  const authenticated = (user: SocketUser) => {
    ready = true;
    attempt = 0;
    restartRetriesUntil = 0;
    if (hasOpened) {
      clearTimeout(timers.flag);
      timers.flag = setTimeout(() => setStatus({ reconnected: false }), RECONNECT_FLAG_MS);
    }
    setStatus({ state: 'open', reconnected: hasOpened, user });
    hasOpened = true;
    timers.keepalive = setInterval(keepalive, PING_TIMEOUT_MS / 2);
    flush();
  };

  /** The connection is over; what it had delivered is processed first. */
  const connectionLost = (code: number, reason: string) => {
    socket = null;
    inbound.drain();
    ready = false;
    onServer.clear();
    requests.connectionLost();
    clearInterval(timers.keepalive);
    clearTimeout(timers.flush);
    timers.flush = undefined;
    if (code === 1006) log.error('Market WebSocket closed: network failure (1006)');
    else log.warn(`Market WebSocket closed: ${code}${reason ? ` ${reason}` : ''}`);
    if (code === SocketCloseCode.unauthorized) {
      reconnectAllowed = false;
      setStatus({ state: 'unauthorized', user: null });
      return;
    }
    setStatus({ state: 'closed', user: null });
    if (!reconnectAllowed) return;
    if (code === SocketCloseCode.serviceRestart) restartRetriesUntil = Date.now() + RESTART_RETRY_WINDOW_MS;
    scheduleReconnect();
  };

  const retryDelay = () => (Date.now() < restartRetriesUntil ? RESTART_RECONNECT_BASE_MS + random() * RESTART_RECONNECT_SPREAD_MS : backoffDelay(attempt++));

  const scheduleReconnect = (delayMs = retryDelay()) => {
    const mine = session;
    timers.reconnect = setTimeout(async () => {
      const online = await options.checkConnectivity().catch(() => false);
      if (mine !== session || !reconnectAllowed) return;
      if (online) connect();
      else scheduleReconnect();
    }, delayMs);
  };

  const connect = () => {
    setStatus({ state: 'connecting' });
    const mine = session;
    const current: SocketHandle = options.openSocket(options.url, {
      open: () => {
        if (socket === current) socket.send(JSON.stringify({ action: 'auth', token }));
      },
      message: (data) => {
        if (socket !== current || mine !== session) return;
        lastMessageAt = Date.now();
        pingSentAt = null;
        let message: unknown;
        try {
          message = JSON.parse(data);
        } catch {
          log.warn('Market socket: unparseable message', data.slice(0, 200));
          return;
        }
        if (typeof message !== 'object' || message == null || Array.isArray(message)) return;
        const body = message as InboundMessage;
        if (ready) inbound.push(body);
        else if (body.event === 'authenticated') authenticated(body.user as SocketUser);
        else if (body.event === 'error') log.warn(`Market socket error: ${String(body.message)}`);
      },
      close: (code, reason) => {
        if (socket === current) connectionLost(code, reason);
      },
    });
    socket = current;
  };

  const stop = () => {
    session += 1;
    reconnectAllowed = false;
    for (const timer of [timers.reconnect, timers.flag, timers.flush]) clearTimeout(timer);
    clearInterval(timers.keepalive);
    timers.flush = undefined;
    const closing = socket;
    socket = null;
    ready = false;
    onServer.clear();
    inbound.clear();
    requests.connectionLost();
    token = null;
    closing?.close(1000, 'session ended');
    options.onMarkets?.(null);
    setStatus({ state: 'idle', reconnected: false, user: null });
  };

  return {
    start(next) {
      if (next === token && status.state !== 'unauthorized') return;
      stop();
      token = next;
      reconnectAllowed = true;
      hasOpened = false;
      attempt = 0;
      restartRetriesUntil = 0;
      connect();
    },
    stop,
    subscribe(symbols) {
      for (const symbol of symbols) {
        wanted.add(symbol);
        let spellings = wantedByFold.get(fold(symbol));
        if (!spellings) wantedByFold.set(fold(symbol), (spellings = new Set()));
        spellings.add(symbol);
      }
      // Asked before the socket is ready, the subscription waits for it (sent once it is).
      if (status.state === 'idle' || status.state === 'unauthorized') log.warn(LOG_NOT_CONNECTED);
      else if (!ready) log.info(LOG_NOT_READY);
      const result = requests.waitFor(symbols);
      scheduleFlush();
      return result;
    },
    unsubscribe(symbols) {
      for (const symbol of symbols) {
        wanted.delete(symbol);
        quotes.delete(symbol);
        const spellings = wantedByFold.get(fold(symbol));
        spellings?.delete(symbol);
        if (spellings?.size === 0) wantedByFold.delete(fold(symbol));
      }
      requests.released(symbols);
      scheduleFlush();
    },
    quote: (symbol) => quotes.get(symbol),
    get status() {
      return status;
    },
  };
}
