// A PostgreSQL schema of a bench's own: made in the database `url` names, with the DATABASE_URL a
// server is given to live in it (search_path), and dropped after the run.
import { randomBytes } from 'node:crypto';
import { schemaUrl, withPgClient } from '../tests/pg.js';

export interface BenchSchema {
  /** `url` with the schema as its search_path. */
  databaseUrl: string;
  drop(): Promise<void>;
}

export async function benchSchema(url: string, prefix: string): Promise<BenchSchema> {
  const schema = `${prefix}_${randomBytes(5).toString('hex')}`;
  await withPgClient(url, (client) => client.query(`CREATE SCHEMA "${schema}"`));
  return {
    databaseUrl: schemaUrl(url, schema).toString(),
    drop: async () => {
      await withPgClient(url, (client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    },
  };
}
