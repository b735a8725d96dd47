// A PostgreSQL schema of a bench's own: made in the database `url` names, with the DATABASE_URL a
// server is given to live in it (search_path), and dropped after the run.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface BenchSchema {
  /** `url` with the schema as its search_path. */
  databaseUrl: string;
  drop(): Promise<void>;
}

async function withPg<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function benchSchema(url: string, prefix: string): Promise<BenchSchema> {
  const schema = `${prefix}_${randomBytes(5).toString('hex')}`;
  await withPg(url, (client) => client.query(`CREATE SCHEMA "${schema}"`));
  const databaseUrl = new URL(url);
  databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
  return {
    databaseUrl: databaseUrl.toString(),
    drop: async () => {
      await withPg(url, (client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    },
  };
}
