// PostgreSQL helpers of the API tests and the benches. No test runner in here, so a bench script
// can import it.
import pg from 'pg';

/** Runs `work` on a client of its own, connected to `url`, and ends the client after. */
export async function withPgClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * `url` whose connections use `schema`: node-postgres reads `options` from the connection
 * string and sends it at start-up, so every pooled connection of a server gets this search_path.
 */
export function schemaUrl(url: string, schema: string): URL {
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  return withSchema;
}
