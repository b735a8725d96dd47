// Starts a real server on an ephemeral port against a real, throw-away database: a SQLite
// file in a temp folder, or a fresh schema of the PostgreSQL database TEST_DATABASE_URL names.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createTestSchema, withPgClient } from './pgSchemas.js';
import { schemaUrl } from '../pg.js';
import { buildApp, type AppOptions, type BuiltApp } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';

/**
 * `ownDatabase`: a PostgreSQL database of its own instead of a schema, for a test that drops
 * tables (down migrations): a table dropped while another file's server migrates in the shared
 * database breaks that migration (its catalog read sees the table go), as a dropped schema does.
 */
export type DatabaseTarget = { name: 'sqlite' } | { name: 'postgres'; ownDatabase?: boolean };

const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || null;

if (!postgresUrl) {
  // Said once per test file, at load: the PostgreSQL variants are not collected at all.
  console.log('PostgreSQL API tests skipped: TEST_DATABASE_URL is not set');
}

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export function databaseTargets(): DatabaseTarget[] {
  return postgresUrl ? [{ name: 'sqlite' }, { name: 'postgres' }] : [{ name: 'sqlite' }];
}

/** A clock the tests move by hand, so sessions and login windows expire without waiting. */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

export function createClock(start = Date.now()): TestClock {
  let current = start;
  return {
    now: () => current,
    advance(ms: number) {
      if (ms < 0) throw new Error('The test clock only moves forward');
      current += ms;
    },
  };
}

export interface TestServer {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** ws://127.0.0.1:<port><path> */
  wsUrl(socketPath: string): string;
  clock: TestClock;
  /** What buildApp returned: the Fastify instance and the context (ctx.db is the Kysely instance). */
  app: BuiltApp;
  config: Config;
  close(): Promise<void>;
}

/** The tables the migrations create; used to check that a PostgreSQL server landed in its own schema. */
const APP_TABLES = ['login_failures', 'operator_log', 'sessions', 'users'];

interface PreparedDatabase {
  databaseUrl: string | null;
  /** Checks, once the server has migrated, that the data lives where this harness put it. */
  verify(built: BuiltApp): Promise<void>;
  dispose(): Promise<void>;
}

async function prepareDatabase(target: DatabaseTarget, dataDir: string): Promise<PreparedDatabase> {
  if (target.name === 'sqlite') {
    return {
      databaseUrl: null,
      async verify(built) {
        if (built.dialect !== 'sqlite' || !built.databaseLocation.startsWith(dataDir + path.sep)) {
          throw new Error(`Expected a SQLite file under ${dataDir}, got ${built.dialect} at ${built.databaseLocation}`);
        }
      },
      dispose: async () => {},
    };
  }

  if (!postgresUrl) throw new Error('The postgres target needs TEST_DATABASE_URL');
  if (target.ownDatabase) return ownDatabase(postgresUrl);
  const schema = await createTestSchema(postgresUrl);
  const url = schemaUrl(postgresUrl, schema);
  // Names the server's connections in pg_stat_activity (a test ends them to stage a failover).
  url.searchParams.set('application_name', schema);
  return {
    databaseUrl: url.toString(),
    async verify(built) {
      const { rows } = await withPgClient(postgresUrl, (client) =>
        client.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [schema]),
      );
      const names = rows.map((row) => row.table_name);
      const missing = APP_TABLES.filter((table) => !names.includes(table));
      if (built.dialect !== 'postgres' || missing.length > 0) {
        throw new Error(`Schema ${schema} lacks ${missing.join(', ')}: the search_path option did not reach the server`);
      }
    },
    // Dropped by the global teardown, after every file (pgSchemas.ts says why).
    dispose: async () => {},
  };
}

/** A new database on TEST_DATABASE_URL's server, dropped when the server closes (no other database's catalog sees it go). */
async function ownDatabase(url: string): Promise<PreparedDatabase> {
  const name = `${inject('pgSchemaPrefix')}db_${randomBytes(6).toString('hex')}`;
  await withPgClient(url, (client) => client.query(`CREATE DATABASE "${name}"`));
  const databaseUrl = new URL(url);
  databaseUrl.pathname = `/${name}`;
  return {
    databaseUrl: databaseUrl.toString(),
    async verify(built) {
      if (built.dialect !== 'postgres') throw new Error(`Expected PostgreSQL database ${name}, got ${built.dialect}`);
    },
    dispose: () => withPgClient(url, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** scrypt cost of the passwords of the servers this harness starts. */
export const TEST_PASSWORD_COST = { N: 2 ** 10, r: 8, p: 1 };

/**
 * Builds and starts a server; `overrides` replace settings after they are read from the env.
 * `options.now` starts its clock at that instant instead of the real now (a known trading day,
 * weekend or holiday of the market's calendar); `options.hooks` are handed to buildApp.
 */
export async function startServer(
  target: DatabaseTarget,
  overrides: Partial<Config> = {},
  options: { now?: number; hooks?: Omit<AppOptions, 'now'> } = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'visores-api-'));
  const removeDataDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  let database: PreparedDatabase;
  try {
    database = await prepareDatabase(target, dataDir);
  } catch (error) {
    removeDataDir();
    throw error;
  }

  const clock = createClock(options.now);
  const config: Config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(dataDir, 'no-client'),
      HOST: '127.0.0.1',
      PORT: '0',
      // Warnings and errors still show, so a server failure behind a test failure is visible.
      LOG_LEVEL: 'warn',
    }),
    databaseUrl: database.databaseUrl,
    // Cheap hashes: scrypt at the real cost (~100 ms a hash or check) was most of the API
    // tests' time. server/auth/password.test.ts covers the real cost.
    passwordCost: TEST_PASSWORD_COST,
    // The tests call the API as fast as a script, one user for many calls (quotas fill 200
    // visores): no person's pace. userRequests.test.ts holds a server to the real budget.
    userRequests: 1_000_000,
    // A 429 answered at once: the pause (server/http/refusalHold.ts) is for clients that do not
    // wait; these tests read each refusal. userRequests.test.ts holds a server to the real pause.
    refusalPauseMs: 0,
    ...overrides,
  };

  let built: BuiltApp | null = null;
  try {
    built = await buildApp(config, { ...options.hooks, now: clock.now });
    await database.verify(built);
    await built.app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await built?.app.close();
    await database.dispose();
    removeDataDir();
    throw error;
  }

  const { port } = built.app.server.address() as AddressInfo;
  const app = built;
  let closed = false;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    wsUrl: (socketPath) => `ws://127.0.0.1:${port}${socketPath}`,
    clock,
    app,
    config,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await app.app.close();
      } finally {
        await database.dispose();
        removeDataDir();
      }
    },
  };
}
