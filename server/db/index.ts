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

export function openDatabase(options: { databaseUrl: string | null; dataDir: string }): OpenedDb {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      // Epoch-millisecond timestamps are bigint columns; they fit a JS number exactly.
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          oid === PG_INT8_OID ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    });
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
