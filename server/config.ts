// Every server setting, read from the environment with a default. The README's settings
// table lists the same names; keep the two in step.
import { isIP } from 'node:net';
import path from 'node:path';
import type { SimulatorSettings } from './market/simulator.js';
import { DEFAULT_SESSIONS, MARKET_NAMES, parseSessionHours, type MarketName, type SessionHours } from './market/calendar.js';
import { DEFAULT_COST, type ScryptCost } from './auth/password.js';
import { parseBrokerUrls } from './broker/brokerUrl.js';
import { MAX_SECTIONS } from '../src/protocol/workspace.js';

export interface Config {
  /** TCP port for app, API and websockets. */
  port: number;
  /** Interface to bind. */
  host: string;
  /** Folder of the SQLite file (when no DATABASE_URL). */
  dataDir: string;
  /** postgres://… to use PostgreSQL instead of SQLite. */
  databaseUrl: string | null;
  /** On SIGTERM/SIGINT, how long requests in flight get to finish before the process exits anyway. */
  shutdownGraceMs: number;
  /** How long a request waits for a PostgreSQL connection of the pool before it is answered 503. */
  dbAcquireTimeoutMs: number;
  /** redis://… for cross-process fan-out of market data, one process running each feed. */
  redisUrl: string | null;
  /** Prefix of every Redis key and channel, so several installations can share a Redis. */
  redisPrefix: string;
  /** Folder of the built client; served at / with index.html fallback. */
  staticDir: string;
  /** A session ends after this long without use. */
  sessionIdleMs: number;
  /** A session ends this long after sign-in, however much it is used. */
  sessionAbsoluteMs: number;
  /** Failed sign-ins for one username from one address before 429… */
  loginMaxFailures: number;
  /** …within this window (also the window of the per-address and per-account budgets below). */
  loginWindowMs: number;
  /**
   * Failed password checks from one address, whatever the username (and the current-password
   * checks of a password change), within loginWindowMs; IPv6 addresses count by their /64.
   */
  loginIpMaxFailures: number;
  /** Password checks (scrypt, on libuv's thread pool) run at once in this process… */
  loginConcurrency: number;
  /** …and waiting for a turn; beyond it a sign-in is refused (429) before any hashing. */
  loginQueue: number;
  /** Checks of one address running and waiting at once in this process (the turns go round the addresses). */
  loginPerAddress: number;
  /** Requests of one signed-in user per window (all processes, with Redis); past it 429 before the body is read. */
  userRequests: number;
  userRequestsWindowMs: number;
  /** Requests of one signed-in user handled at once in this process; the next waits its turn (http/userTurns.ts). */
  userConcurrentRequests: number;
  /** How long a 429 is held before it is answered (at most its Retry-After; 0: at once): see http/refusalHold.ts. */
  refusalPauseMs: number;
  /**
   * Origins the app is served from (https://visores.example); the sockets accept these and
   * allowedOrigins, and the CSP lets pages connect to them. Empty: http:// on the listen
   * address and localhost at the server's port (see http/origins.ts).
   */
  publicOrigins: string[];
  /** Origins allowed to open websockets besides the public ones. */
  allowedOrigins: string[];
  /**
   * Origins of the client's build-time settings (VITE_API_BASE, VITE_POSITIONS_BASE,
   * VITE_MARKET_WS_URL, VITE_POSITIONS_WS_URL) when they are absolute URLs in the server's
   * environment (npm start builds and serves in one): the CSP lets pages connect to them.
   */
  clientOrigins: string[];
  /** Time a new socket has to send its auth message. */
  socketAuthTimeoutMs: number;
  /** Authenticated sockets (market and positions together) one user may hold in one process. */
  socketsPerUser: number;
  /**
   * scrypt cost of new password hashes. Not a setting of the environment: a weaker hash is
   * never what a deployment wants; only the API tests lower it, as each of their hundreds of
   * fresh servers hashes and checks passwords (each hash keeps its cost, so checks still work).
   */
  passwordCost: ScryptCost;
  /** Create demo/demo1234 and admin/admin1234 when the database has no users. */
  seedDemoUsers: boolean;
  /**
   * Which X-Forwarded-* hops to believe: false, none (the peer is the client); a number, that
   * many proxies in front of the server (the client address is the one the outermost wrote,
   * counted from the right); a list, the proxies' addresses or CIDR ranges (and proxy-addr's
   * names loopback, linklocal, uniquelocal). Never "everything".
   */
  trustProxy: TrustProxy;
  /** Fastify log level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
  /**
   * Origins of the Primary API brokers users may connect their broker sessions to, besides
   * sim:// (the paper broker). A host name must resolve to public addresses; a private or
   * loopback address is reached only when an origin names it (http://127.0.0.1:9000).
   */
  brokerUrls: string[];
  /**
   * Mean seconds between two fills of a watched paper-broker account (a chance of 1/n each
   * second); 20 by default. The end-to-end tests lower it to see fills arrive.
   */
  paperFillSeconds: number;
  /** The real exchange for the rofex feed; null runs the simulator. */
  primary: { url: string; username: string; password: string } | null;
  /** The market simulator (default feed); ticksPerSecond is each feed's. */
  simulator: SimulatorSettings;
  /**
   * The markets' calendar: each market's session hours (Buenos Aires), and whether the
   * simulator keeps to them ('real': closed outside the session, last prices hold) or keeps
   * prices moving at any hour ('demo', the default) while history still has only the sessions
   * of trading days.
   */
  market: {
    sessions: Record<MarketName, SessionHours>;
    simCalendar: 'demo' | 'real';
    /**
     * SIM_MARKET_TIME: the simulated market starts at this time (minutes after 00:00 in Buenos
     * Aires) of the last trading day and runs from there in real time, so a demo shown on a
     * weekend or at night plays a session; null: the market's clock is the real one.
     */
    simMarketTime: number | null;
  };
  /**
   * A feed meant to run that has published nothing for this long (while its market is open,
   * or at any hour for the demo simulator), or whose process has not been heard from for this
   * long, is told to clients as silent (FEED_SILENT_SECONDS).
   */
  feedSilentMs: number;
  /**
   * With Redis, a feed's lock lapses this long after its holder's last renewal (renewed every
   * third of it, asked for every sixth by the others): a dead process's feeds are taken over
   * within about this long; a holder whose event loop stalls longer loses them to another.
   */
  feedLockTtlMs: number;
  /** What one user may store (docs/security.md): a write past one of these is refused, never a write that shrinks. */
  quotas: StorageQuotas;
}

export interface StorageQuotas {
  /** Visores per user (MAX_VISORES_PER_USER): a create or clone past it is a 409. */
  visoresPerUser: number;
  /** Sections per visor (MAX_SECTIONS_PER_VISOR, at most the protocol's MAX_SECTIONS): a save past it is a 409. */
  sectionsPerVisor: number;
  /** Bytes of one section as stored, its JSON in UTF-8 (MAX_SECTION_KB): a save with a bigger one is a 413. */
  sectionBytes: number;
  /** Bytes of all a user's visores as stored: sections, title, emoji and colour (MAX_USER_STORAGE_MB): a write past it is a 413. */
  userBytes: number;
}

function decimal(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw == null || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new Error(`Setting ${name} must be a number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

type Env = Record<string, string | undefined>;

export type TrustProxy = false | number | string[];

const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An IP address, or one with a prefix length (10.0.0.0/8, fd00::/8). */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: false (the default), a hop count, or the proxies' addresses. `true` is refused:
 * it used to trust every X-Forwarded-For, so anyone could pick the address the limits count.
 */
function trustProxy(env: Env): TrustProxy {
  const raw = text(env, 'TRUST_PROXY');
  if (raw == null || ['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(raw.toLowerCase())) {
    throw new Error(
      'Setting TRUST_PROXY=true is no longer accepted: it trusted any X-Forwarded-For, which a client can write. ' +
        'Set the number of proxies in front of the server (TRUST_PROXY=1 for one nginx) or their addresses (TRUST_PROXY=127.0.0.1,10.0.0.0/8)',
    );
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops === 0) return false;
    if (hops > 10) throw new Error(`Setting TRUST_PROXY must be a number of proxies from 1 to 10, or their addresses, got "${raw}"`);
    return hops;
  }
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!PROXY_RANGE_NAMES.includes(entry.toLowerCase()) && !isAddressOrRange(entry)) {
      throw new Error(
        `Setting TRUST_PROXY must be false, a number of proxies (1) or the proxies' addresses and ranges (127.0.0.1,10.0.0.0/8, loopback), got "${entry}"`,
      );
    }
  }
  return entries.map((entry) => (PROXY_RANGE_NAMES.includes(entry.toLowerCase()) ? entry.toLowerCase() : entry));
}

/**
 * Half of libuv's thread pool (UV_THREADPOOL_SIZE, 4 by default): scrypt runs there, and so do
 * file reads, DNS look-ups and zlib, which must keep a thread while sign-ins are checked.
 */
function defaultLoginConcurrency(env: Env): number {
  const pool = Number(env.UV_THREADPOOL_SIZE);
  return Math.max(1, Math.floor((Number.isInteger(pool) && pool > 0 ? pool : 4) / 2));
}

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw == null || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`Setting ${name} must be an integer ≥ ${min}, got "${raw}"`);
  }
  return value;
}

function intUpTo(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = int(env, name, fallback, min);
  if (value > max) throw new Error(`Setting ${name} must be an integer from ${min} to ${max}, got "${env[name]}"`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw == null || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`Setting ${name} must be true or false, got "${env[name]}"`);
}

function text(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

function sessions(env: Env): Record<MarketName, SessionHours> {
  const hours = { ...DEFAULT_SESSIONS };
  for (const market of MARKET_NAMES) {
    const name = `SESSION_${market.toUpperCase()}`;
    const raw = text(env, name);
    if (raw == null) continue;
    const parsed = parseSessionHours(raw);
    if (!parsed) throw new Error(`Setting ${name} must be a session such as 10:00-17:00 (Buenos Aires time), got "${raw}"`);
    hours[market] = parsed;
  }
  return hours;
}

function simMarketTime(env: Env): number | null {
  const raw = text(env, 'SIM_MARKET_TIME');
  if (raw == null) return null;
  const match = /^(\d{1,2}):(\d{2})$/.exec(raw);
  const minutes = match ? Number(match[1]) * 60 + Number(match[2]) : NaN;
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59)
    throw new Error(`Setting SIM_MARKET_TIME must be a time such as 13:00 (Buenos Aires), got "${raw}"`);
  return minutes;
}

function simCalendar(env: Env): 'demo' | 'real' {
  const raw = text(env, 'SIM_CALENDAR')?.toLowerCase() ?? 'demo';
  if (raw !== 'demo' && raw !== 'real') throw new Error(`Setting SIM_CALENDAR must be demo or real, got "${env.SIM_CALENDAR}"`);
  return raw;
}

function primarySettings(env: Env): Config['primary'] {
  const url = text(env, 'PRIMARY_URL');
  const username = text(env, 'PRIMARY_USERNAME');
  const password = env.PRIMARY_PASSWORD ?? null;
  if (url == null && username == null && password == null) return null;
  if (url == null || username == null || password == null || password === '') {
    throw new Error('Settings PRIMARY_URL, PRIMARY_USERNAME and PRIMARY_PASSWORD go together: set all three or none');
  }
  if (!/^https?:\/\//.test(url)) throw new Error(`Setting PRIMARY_URL must be an http(s) URL, got "${url}"`);
  return { url, username, password };
}

/** A comma-separated list of origins (scheme://host[:port], nothing after). */
function origins(env: Env, name: string): string[] {
  return (text(env, name) ?? '')
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean)
    .map((origin) => {
      let parsed: URL | null = null;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = null;
      }
      if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin.toLowerCase()) {
        throw new Error(`Setting ${name} must list origins such as https://visores.example, got "${origin}"`);
      }
      return parsed.origin;
    });
}

const CLIENT_URL_SETTINGS = ['VITE_API_BASE', 'VITE_POSITIONS_BASE', 'VITE_MARKET_WS_URL', 'VITE_POSITIONS_WS_URL'];

/** Origins of the client's absolute server URLs (relative ones are the page's own origin). */
function clientOrigins(env: Env): string[] {
  const found = new Set<string>();
  for (const name of CLIENT_URL_SETTINGS) {
    const raw = text(env, name);
    if (raw == null || !/^(?:https?|wss?):\/\//i.test(raw)) continue;
    try {
      const url = new URL(raw);
      found.add(`${url.protocol}//${url.host}`.toLowerCase());
    } catch {
      throw new Error(`Setting ${name} must be a path or an absolute URL, got "${raw}"`);
    }
  }
  return [...found];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export function loadConfig(env: Env = process.env): Config {
  const root = process.cwd();
  return {
    port: int(env, 'PORT', 8080),
    host: text(env, 'HOST') ?? '0.0.0.0',
    dataDir: path.resolve(root, text(env, 'DATA_DIR') ?? 'data'),
    databaseUrl: text(env, 'DATABASE_URL'),
    dbAcquireTimeoutMs: int(env, 'DB_ACQUIRE_TIMEOUT_SECONDS', 5, 1) * 1000,
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_SECONDS', 10, 1) * 1000,
    redisUrl: text(env, 'REDIS_URL'),
    redisPrefix: text(env, 'REDIS_PREFIX') ?? 'visores:',
    staticDir: path.resolve(root, text(env, 'STATIC_DIR') ?? 'dist'),
    sessionIdleMs: int(env, 'SESSION_IDLE_MINUTES', 12 * 60, 1) * MINUTE,
    sessionAbsoluteMs: int(env, 'SESSION_ABSOLUTE_HOURS', 7 * 24, 1) * HOUR,
    loginMaxFailures: int(env, 'LOGIN_MAX_FAILURES', 5, 1),
    loginWindowMs: int(env, 'LOGIN_WINDOW_MINUTES', 15, 1) * MINUTE,
    loginIpMaxFailures: int(env, 'LOGIN_IP_MAX_FAILURES', 20, 1),
    loginConcurrency: int(env, 'LOGIN_CONCURRENCY', defaultLoginConcurrency(env), 1),
    loginQueue: int(env, 'LOGIN_QUEUE', 50, 0),
    loginPerAddress: int(env, 'LOGIN_PER_ADDRESS', 4, 1),
    userRequests: int(env, 'USER_REQUESTS', 200, 1),
    userRequestsWindowMs: int(env, 'USER_REQUESTS_WINDOW_SECONDS', 10, 1) * 1000,
    refusalPauseMs: int(env, 'REFUSAL_PAUSE_MS', 1000, 0),
    userConcurrentRequests: int(env, 'USER_CONCURRENT_REQUESTS', 2, 1),
    publicOrigins: origins(env, 'PUBLIC_ORIGINS'),
    allowedOrigins: (text(env, 'ALLOWED_ORIGINS') ?? '')
      .split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    clientOrigins: clientOrigins(env),
    socketAuthTimeoutMs: int(env, 'SOCKET_AUTH_TIMEOUT_SECONDS', 10, 1) * 1000,
    socketsPerUser: int(env, 'SOCKETS_PER_USER', 20, 2),
    passwordCost: DEFAULT_COST,
    seedDemoUsers: bool(env, 'SEED_DEMO_USERS', true),
    trustProxy: trustProxy(env),
    logLevel: text(env, 'LOG_LEVEL') ?? 'info',
    brokerUrls: parseBrokerUrls(text(env, 'BROKER_URLS')),
    paperFillSeconds: int(env, 'PAPER_FILL_SECONDS', 20, 1),
    primary: primarySettings(env),
    simulator: {
      seed: int(env, 'SIM_SEED', 20261122),
      ticksPerSecond: int(env, 'SIM_TICKS_PER_SECOND', 50, 0),
      dlrRate: decimal(env, 'SIM_DLR_RATE_PCT', 30, 0, 500) / 100,
      spot: decimal(env, 'SIM_SPOT', 1450, 1, 1e7),
      mep: decimal(env, 'SIM_MEP', 1480, 1, 1e7),
      ccl: decimal(env, 'SIM_CCL', 1510, 1, 1e7),
    },
    market: { sessions: sessions(env), simCalendar: simCalendar(env), simMarketTime: simMarketTime(env) },
    feedSilentMs: int(env, 'FEED_SILENT_SECONDS', 15, 1) * 1000,
    feedLockTtlMs: int(env, 'FEED_LOCK_TTL_MS', 1500, 300),
    quotas: {
      visoresPerUser: int(env, 'MAX_VISORES_PER_USER', 200, 1),
      sectionsPerVisor: intUpTo(env, 'MAX_SECTIONS_PER_VISOR', MAX_SECTIONS, 1, MAX_SECTIONS),
      sectionBytes: int(env, 'MAX_SECTION_KB', 256, 1) * 1024,
      userBytes: int(env, 'MAX_USER_STORAGE_MB', 16, 1) * 1024 * 1024,
    },
  };
}
