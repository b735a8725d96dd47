// Global setup of the API tests: names this run's PostgreSQL schemas (and databases) and drops them at the end
// (see pgSchemas.ts for why not before).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): () => Promise<void> {
  const prefix = `t_${randomBytes(3).toString('hex')}_`;
  project.provide('pgSchemaPrefix', prefix);
  return async () => {
    const url = process.env.TEST_DATABASE_URL?.trim();
    if (!url) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>('SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1)', [prefix]);
      for (const { name } of rows) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      // Databases of their own (harness.ts ownDatabase) that a failed test left behind.
      const databases = await client.query<{ name: string }>('SELECT datname AS name FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
      for (const { name } of databases.rows) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
}
