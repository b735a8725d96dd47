// The one contract between the tabs and the data worker (issue 5). The worker exposes
// DataWorkerApi through Comlink; the tab imports only these types. Errors cross as plain
// WorkerError objects (a rejected promise's reason), never as class instances.
//
// Ticks and status do not travel as Comlink calls: each tab hands the worker a MessagePort
// of its own when it registers, and the worker posts TabMessage values on it. One
// postMessage per batch, no proxy, no reply: cheaper than a Comlink call per batch, and
// the port is the tab's alone, so a batch holds only that tab's symbols.
import type { Quote } from '../lib/quote';

export interface WorkerError {
  /** Stable and machine-readable: 'timeout', 'not_connected', 'unknown_tab', 'internal'… */
  code: string;
  /** What to log or show (the spec's text where it gives one). */
  message: string;
}

/** idle: no session; unauthorized: the server refused the token (no retry until a new one). */
export type MarketConnectionState = 'idle' | 'connecting' | 'open' | 'closed' | 'unauthorized';

export interface SocketUser {
  _id: string;
  username: string;
  role: string;
}

export interface MarketStatus {
  state: MarketConnectionState;
  /** True for 1 s after every open but the first of a session (spec section 4). */
  reconnected: boolean;
  /** Who the socket is authenticated as, while open. */
  user: SocketUser | null;
}

/** What the worker posts on a tab's port. */
export type TabMessage =
  /** The latest state of every symbol of the tab that changed since its last batch. */
  | { type: 'ticks'; quotes: Record<string, Quote> }
  | { type: 'market-status'; status: MarketStatus };

export interface SubscribeResult {
  /** Symbols the server does not know. */
  unknown: string[];
}

/** The worker's end of a tab's MessageChannel (a MessagePort; only this much is used). */
export interface TabPort {
  postMessage(message: TabMessage): void;
  close(): void;
}

export interface TabRegistration {
  /** Unique per tab and page load (crypto.randomUUID()). */
  tabId: string;
  /** The Web Lock the tab holds for its life, or null where there are no Web Locks. */
  lockName: string | null;
  /** Where the worker posts TabMessage values: a MessagePort, transferred. */
  port: TabPort;
}

export interface DataWorkerApi {
  // ── Session ──────────────────────────────────────────────────────────────────────
  /** Starts (or switches) the session; null signs out: sockets close, deliberately. */
  setSession(session: { token: string } | null): Promise<void>;

  // ── Tabs ─────────────────────────────────────────────────────────────────────────
  /** Registers (or re-registers) a tab; it receives the market status at once. */
  registerTab(registration: TabRegistration): Promise<void>;
  /** Heartbeat. False: the worker forgot the tab; register again and re-subscribe. */
  heartbeat(tabId: string): Promise<boolean>;
  /** The tab is leaving (pagehide); its subscriptions end. */
  unregisterTab(tabId: string): Promise<void>;

  // ── Market ───────────────────────────────────────────────────────────────────────
  /** One more want of each symbol by the tab; resolves when the server has answered. */
  subscribe(tabId: string, symbols: string[]): Promise<SubscribeResult>;
  /** One want less of each symbol by the tab. */
  unsubscribe(tabId: string, symbols: string[]): Promise<void>;
  getMarketStatus(): Promise<MarketStatus>;
  /** The worker's latest state of a symbol, if it has one. */
  getQuote(symbol: string): Promise<Quote | null>;

  // ── Waiting helpers (spec section 5) ─────────────────────────────────────────────
  /** Resolves when every symbol has data; rejects 'Timeout: Symbols not ready within {ms}ms'. */
  waitForSymbols(symbols: string[], timeoutMs?: number): Promise<void>;
  /** The symbol's expiration once known; undefined (and a warning) after the timeout. */
  waitForExpiration(symbol: string, timeoutMs?: number): Promise<Date | undefined>;
  /** Expiration of each contract, in order; null where it could not be had. */
  getExpirationDates(symbols: string[]): Promise<(Date | null)[]>;

  // ── Positions and workspace ──────────────────────────────────────────────────────
  // Added by the positions socket and REST sync work of issue 5 (not part of this half).
}
