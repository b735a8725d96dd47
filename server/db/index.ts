// Opens the database the settings name: PostgreSQL when DATABASE_URL is set, otherwise a
// SQLite file under DATA_DIR. Both run the same migrations and the same repositories.
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, PostgresIntrospector, SqliteDialect, sql, type MigrationResultSet } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface OpenedDb {
  db: Db;
  dialect: Dialect;
  /** Where the data lives, for the start-up banner (no password). */
  location: string;
}

const PG_INT8_OID = 20;

/** How long a request waits for a pooled PostgreSQL connection before it is answered 503. */
export const DEFAULT_DB_ACQUIRE_TIMEOUT_MS = 5000;

export interface OpenOptions {
  databaseUrl: string | null;
  dataDir: string;
  dbAcquireTimeoutMs?: number;
  /**
   * A pooled PostgreSQL connection failed (the server restarted, an administrator or a
   * failover ended it, the network dropped). The pool drops it and opens another when asked.
   */
  onConnectionError?: (error: Error) => void;
}

/**
 * SQLSTATE classes and codes, and Node's socket errors, that mean the database cannot be
 * reached now rather than that the statement is wrong: 08 connection exceptions, 57P01–57P03
 * (administrator shutdown, crash shutdown, cannot connect now), 53300 too many connections.
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/** Whether `error` says the database is unreachable for now (answered 503, not 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_CODES.has(code))) return true;
  return UNAVAILABLE_MESSAGES.some((text) => error.message.startsWith(text));
}

export function openDatabase(options: OpenOptions): OpenedDb {
  if (options.databaseUrl) {
    const onError = options.onConnectionError ?? (() => {});
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: options.dbAcquireTimeoutMs ?? DEFAULT_DB_ACQUIRE_TIMEOUT_MS,
      // Epoch-millisecond timestamps are bigint columns; they fit a JS number exactly.
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          oid === PG_INT8_OID ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    });
    // An ended connection emits 'error': on an idle one the pool passes it to its own 'error'
    // event, on one in use nobody listens but the client itself. Unheard, either ends the
    // process. Its query (if any) fails on its own, and the pool drops the connection when it
    // comes back (it is no longer queryable).
    pool.on('error', onError);
    pool.on('connect', (client) => client.on('error', onError));
    const url = new URL(options.databaseUrl);
    url.password = '';
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres', location: url.toString() };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, 'visores.sqlite');
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), dialect: 'sqlite', location: file };
}

export class MigrationError extends Error {
  constructor(
    message: string,
    readonly results: MigrationResultSet['results'],
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}

/** Brings the schema up to date. Throws MigrationError when any migration fails. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  // Without a schema, Kysely looks for its migration tables in every schema of a PostgreSQL
  // database; when another schema has them, it skips creating its own and fails. So name
  // the schema the app's tables go to (the first of the search_path).
  let migrationTableSchema: string | undefined;
  if (db.introspection instanceof PostgresIntrospector) {
    const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(db);
    migrationTableSchema = rows[0]?.name ?? undefined;
  }
  const migrator = new Migrator({ db, migrationTableSchema, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Migration ${failed} failed: ${reason}`, results);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
