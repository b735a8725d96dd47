// Every server setting, read from the environment with a default. The README's settings
// table lists the same names; keep the two in step.
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
  /** …within this window. */
  loginWindowMs: number;
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
  /**
   * scrypt cost of new password hashes. Not a setting of the environment: a weaker hash is
   * never what a deployment wants; only the API tests lower it, as each of their hundreds of
   * fresh servers hashes and checks passwords (each hash keeps its cost, so checks still work).
   */
  passwordCost: ScryptCost;
  /** Create demo/demo1234 and admin/admin1234 when the database has no users. */
  seedDemoUsers: boolean;
  /** Trust X-Forwarded-* headers (behind a reverse proxy). */
  trustProxy: boolean;
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
    redisUrl: text(env, 'REDIS_URL'),
    redisPrefix: text(env, 'REDIS_PREFIX') ?? 'visores:',
    staticDir: path.resolve(root, text(env, 'STATIC_DIR') ?? 'dist'),
    sessionIdleMs: int(env, 'SESSION_IDLE_MINUTES', 12 * 60, 1) * MINUTE,
    sessionAbsoluteMs: int(env, 'SESSION_ABSOLUTE_HOURS', 7 * 24, 1) * HOUR,
    loginMaxFailures: int(env, 'LOGIN_MAX_FAILURES', 5, 1),
    loginWindowMs: int(env, 'LOGIN_WINDOW_MINUTES', 15, 1) * MINUTE,
    publicOrigins: origins(env, 'PUBLIC_ORIGINS'),
    allowedOrigins: (text(env, 'ALLOWED_ORIGINS') ?? '')
      .split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    clientOrigins: clientOrigins(env),
    socketAuthTimeoutMs: int(env, 'SOCKET_AUTH_TIMEOUT_SECONDS', 10, 1) * 1000,
    passwordCost: DEFAULT_COST,
    seedDemoUsers: bool(env, 'SEED_DEMO_USERS', true),
    trustProxy: bool(env, 'TRUST_PROXY', false),
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
    quotas: {
      visoresPerUser: int(env, 'MAX_VISORES_PER_USER', 200, 1),
      sectionsPerVisor: intUpTo(env, 'MAX_SECTIONS_PER_VISOR', MAX_SECTIONS, 1, MAX_SECTIONS),
      sectionBytes: int(env, 'MAX_SECTION_KB', 256, 1) * 1024,
      userBytes: int(env, 'MAX_USER_STORAGE_MB', 16, 1) * 1024 * 1024,
    },
  };
}
