// The one contract between the tabs and the data worker (issue 5). The worker exposes
// DataWorkerApi through Comlink; the tab imports only these types. Errors cross as plain
// PlainError objects (shared/errors.ts: a rejected promise's reason), never as class instances.
//
// Ticks and status do not travel as Comlink calls: each tab hands the worker a MessagePort
// of its own when it registers, and the worker posts TabMessage values on it. One
// postMessage per batch, no proxy, no reply: cheaper than a Comlink call per batch, and
// the port is the tab's alone, so a batch holds only that tab's symbols.
import type { Quote } from '../lib/quote';
import type { Fill } from '../protocol/broker';
import type { MarketsEvent } from '../protocol/market';
import type { ControlEvent } from '../protocol/socket';
import type { ChartInterval, ChartRange, ReadVisor, Visor } from '../protocol/workspace';
import type { Catalogue } from './catalogue';
import type { ChartHistory } from './chartHistory';
import type { LogEntry } from './eventLog';
import type { CachedPositions } from './positionsAccounts';
import type { PositionsStatus } from './positionsConnection';
import type { SessionConnectAnswer, SessionConnectRequest } from './positionsRest';
import type { WorkerHello } from '../shared/workerProtocol';
import type { SeccionesSave, SeccionesSaveAnswer, TreeChangeRequest, VisorFields } from './sync';

export type {
  MarketsEvent,
  CachedPositions,
  Catalogue,
  ChartHistory,
  Fill,
  LogEntry,
  PositionsStatus,
  SeccionesSave,
  SeccionesSaveAnswer,
  SessionConnectAnswer,
  SessionConnectRequest,
  TreeChangeRequest,
  VisorFields,
  WorkerHello,
};

/** idle: no session; unauthorized: the server refused the token (no retry until a new one). */
export type MarketConnectionState = 'idle' | 'connecting' | 'open' | 'closed' | 'unauthorized';

/** Who the market socket is authenticated as (its 'authenticated' event). */
export type SocketUser = Extract<ControlEvent, { event: 'authenticated' }>['user'];

export interface MarketStatus {
  state: MarketConnectionState;
  /** True for 1 s after every open but the first of a session (spec section 4). */
  reconnected: boolean;
  /** Who the socket is authenticated as, while open. */
  user: SocketUser | null;
}

/** Whether the worker reaches the server (issue 21), since when not, and the writes its outbox holds. */
export interface OfflineStatus {
  online: boolean;
  /** Epoch ms since when the server could not be reached; null while online. */
  since: number | null;
  /** Workspace writes kept until the server has them. */
  pending: number;
  /** The server answers their replay with a failure (a 5xx): its message, while it lasts; else null. */
  replayError: string | null;
}

/** What the worker posts on a tab's port. */
export type TabMessage =
  /** The latest state of every symbol of the tab that changed since its last batch. */
  | { type: 'ticks'; quotes: Record<string, Quote> }
  | { type: 'market-status'; status: MarketStatus }
  /** Every market's state, as the market socket last told it (null: not known, no session). */
  | { type: 'markets'; markets: MarketsEvent | null }
  /** A new snapshot of an account the tab watches; null when it was dropped. */
  | { type: 'positions'; account: string; snapshot: CachedPositions | null }
  | { type: 'positions-status'; status: PositionsStatus }
  /** The fills of an account the tab watches the fills of, as the server lists them (oldest first); null when dropped. */
  | { type: 'fills'; account: string; fills: Fill[] | null }
  | { type: 'offline-status'; status: OfflineStatus }
  /** Something the user is told once (a toast): an offline write the server refused or did not apply. */
  | { type: 'notice'; text: string };

/** What a tab says on its port. */
export type TabReply =
  /** It applied its last ticks batch in an animation frame. */
  | { type: 'painted' }
  /** The symbols it now shows only off screen (all of them, replacing the last list): they may come less often. */
  | { type: 'off-screen'; symbols: string[] };

/** Who is signed in: the token for the server, the user id for the local cache. */
export interface WorkerSession {
  token: string;
  userId: string;
}

export interface SubscribeResult {
  /** Symbols the server does not know. */
  unknown: string[];
}

/** Checked bivariantly (method syntax), so MessagePort's `(ev: MessageEvent) => any` fits. */
type PortHandler = { bivarianceHack(event: { data: unknown }): void }['bivarianceHack'];

/** The worker's end of a tab's MessageChannel (a MessagePort; only this much is used). */
export interface TabPort {
  postMessage(message: TabMessage): void;
  close(): void;
  /** Where the tab's replies (TabReply) arrive; the worker sets it. */
  onmessage?: PortHandler | null;
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
  // ── Version (issue 21) ───────────────────────────────────────────────────────────
  /**
   * The contract's version (shared/workerProtocol.ts DATA_WORKER_PROTOCOL) and the worker's
   * build. A tab asks it before anything else; another protocol and the tab does not use the
   * worker (every call rejects with 'worker_version'); no answer, and the tab opens its port
   * again a few times before it gives up the same way (data/workerGate.ts).
   */
  hello(): Promise<WorkerHello>;

  // ── Session ──────────────────────────────────────────────────────────────────────
  /** Starts (or switches) the session; null signs out: sockets close, deliberately. */
  setSession(session: WorkerSession | null): Promise<void>;

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
  /** Whether the server answers, since when not, and the outbox's pending writes (issue 21). */
  getOfflineStatus(): Promise<OfflineStatus>;
  /** The worker's latest state of a symbol, if it has one. */
  getQuote(symbol: string): Promise<Quote | null>;

  // ── Charts (issue 19) ───────────────────────────────────────────────────────────
  /** The symbol's candles from the server (daily history, or the minutes of the last sessions gathered into the interval), kept. */
  /** `options.today`: only today's minutes again, merged into the cached ones (an older worker asks the whole range). */
  chartHistory(symbol: string, range: ChartRange, interval: ChartInterval, options?: { today?: boolean }): Promise<ChartHistory>;

  // ── The catalogue (issue 21) ────────────────────────────────────────────────────
  /**
   * The instruments (GET /visores/primary/instruments), kept in Dexie as last answered; when the
   * server cannot be reached or fails, the kept ones, `stale`. Rejects when none was ever kept.
   */
  catalogue(): Promise<Catalogue>;

  // ── Waiting helpers (spec section 5) ─────────────────────────────────────────────
  /** Resolves when every symbol has data; rejects 'Timeout: Symbols not ready within {ms}ms'. */
  waitForSymbols(symbols: string[], timeoutMs?: number): Promise<void>;
  /** The symbol's expiration once known; undefined (and a warning) after the timeout. */
  waitForExpiration(symbol: string, timeoutMs?: number): Promise<Date | undefined>;
  /** Expiration of each contract, in order; null where it could not be had. */
  getExpirationDates(symbols: string[]): Promise<(Date | null)[]>;

  // ── Positions (spec sections 4 and 7) ───────────────────────────────────────────
  /** `sim://` connects the paper broker. */
  connectBrokerSession(request: SessionConnectRequest): Promise<SessionConnectAnswer>;
  /** Watch, seed from REST, subscribe; the tab holds the account until it releases it or goes. */
  watchAccount(tabId: string, account: string, sessionId: string): Promise<CachedPositions | null>;
  releaseAccount(tabId: string, account: string): Promise<void>;
  getPositions(account: string): Promise<CachedPositions | null>;
  /**
   * Watches the account's fills (watch-fills, then /fills) for the tab until it releases them
   * or goes; they are read again whenever a snapshot's quantities move (a fill) and posted to
   * the tabs that watch them. Answers the fills known at the end (null while warming up).
   */
  watchFills(tabId: string, account: string, sessionId: string): Promise<Fill[] | null>;
  releaseFills(tabId: string, account: string): Promise<void>;
  getFills(account: string): Promise<Fill[] | null>;
  getPositionsStatus(): Promise<PositionsStatus>;
  /** The last 200 entries of the worker's event log, oldest first. */
  getEventLog(): Promise<LogEntry[]>;

  // ── Workspace (REST sync into Dexie; tabs read Dexie with useLiveQuery) ──────────
  // The worker reads the whole workspace at sign-in and on a 412; every write's answer keeps
  // Dexie current. Screens read Dexie and never ask for a refresh.
  /**
   * This tab became visible (its visibilitychange listener): the worker checks the version of
   * the user's tree when it was last confirmed a while ago, and reads the workspace again
   * when another device changed it. Failures are only logged.
   */
  workspaceVisible(): Promise<void>;
  loadVisor(visorId: string): Promise<ReadVisor>;
  /** Creates the visor and places it in `folderId` (or the root). */
  createVisor(fields: VisorFields, folderId?: string | null): Promise<{ visorId: string }>;
  updateVisor(visorId: string, fields: VisorFields): Promise<Visor>;
  deleteVisor(visorId: string): Promise<void>;
  toggleVisorFavourite(visorId: string): Promise<{ fav: boolean }>;
  /** A tree change (add, edit, move, delete, favourite), re-applied after a 412 when it still fits. */
  changeTree(request: TreeChangeRequest): Promise<{ version: number; folderId?: string }>;

  // ── The visor screen (issue 18) ─────────────────────────────────────────────────
  /** Saves the sections with If-Match; a 412 re-reads and re-applies when the changes touched different sections. */
  saveSecciones(visorId: string, save: SeccionesSave): Promise<SeccionesSaveAnswer>;
  /** `Público` on or off (check_option). */
  setVisorPublic(visorId: string, value: boolean): Promise<Visor>;
  /** `Clonar`: the copy lands in the caller's tree; answers its id. */
  cloneVisor(visorId: string): Promise<{ visorId: string }>;
  /** The server says whether the signed-in user owns the visor. */
  verifyOwner(visorId: string): Promise<boolean>;
  /** Records the opening for Inicio's Recientes. */
  visorOpened(visorId: string): Promise<void>;
}
