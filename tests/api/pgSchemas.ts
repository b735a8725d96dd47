// Throw-away PostgreSQL schemas of the API tests. Test files run two at a time, and dropping a
// schema while another file's server migrates broke that migration: Kysely's migrator reads
// the catalog of every schema (pg_attribute with catalog functions), which fails on a table
// whose schema vanishes under it ('schema "t_…" does not exist'). So no schema is dropped
// during the run: each is named after the run and the global teardown (pgTeardown.ts) drops
// them all once every file has ended.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { schemaUrl, withPgClient } from '../pg.js';

export { withPgClient };

declare module 'vitest' {
  export interface ProvidedContext {
    /** Prefix of this run's schemas (t_<run>_), from the global setup. */
    pgSchemaPrefix: string;
  }
}

/** Creates a new, empty schema of this run and returns its name. */
export async function createTestSchema(url: string): Promise<string> {
  const schema = `${inject('pgSchemaPrefix')}${randomBytes(6).toString('hex')}`;
  await withPgClient(url, (client) => client.query(`CREATE SCHEMA "${schema}"`));
  return schema;
}

/** A new schema of this run and a connection URL whose connections use it (search_path). */
export async function testSchemaUrl(url: string): Promise<{ schema: string; databaseUrl: string }> {
  const schema = await createTestSchema(url);
  return { schema, databaseUrl: schemaUrl(url, schema).toString() };
}
