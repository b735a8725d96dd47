// PostgreSQL connections ended under the server (a database restart, a failover, an
// administrator's pg_terminate_backend, an idle-connection killer): the server stays up,
// answers what failed with a JSON 503 and Retry-After, and serves again without a restart.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.js';
import { api, expectSuccess, session, type Api, type ApiResponse } from './helpers.js';

const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || null;

/** Ends every connection of the server (they carry its schema as application_name). */
async function terminateServerConnections(server: TestServer): Promise<number> {
  const name = new URL(server.config.databaseUrl!).searchParams.get('application_name');
  const client = new pg.Client({ connectionString: postgresUrl! });
  await client.connect();
  try {
    const { rows } = await client.query<{ ended: boolean }>('SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1', [
      name,
    ]);
    return rows.filter((row) => row.ended).length;
  } finally {
    await client.end();
  }
}

/** A request that touches the database (the session check, then the profile). */
const profile = (client: Api) => client.get('/api/profile');

function expectOkOr503(response: ApiResponse): void {
  if (response.status === 200) return;
  expect(response.status, response.text).toBe(503);
  expect(response.body).toEqual({ status: 'error', message: expect.stringContaining('base de datos') });
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe.runIf(postgresUrl)('PostgreSQL connections ended under the server', () => {
  let server: TestServer;
  let client: Api;

  beforeAll(async () => {
    server = await startServer({ name: 'postgres' });
    client = api(server, (await session(server)).token);
  });
  afterAll(async () => server?.close());

  it('survives its idle connections being ended, and the next requests are served', async () => {
    await Promise.all(Array.from({ length: 8 }, () => profile(client)));
    expect(await terminateServerConnections(server)).toBeGreaterThan(0);
    // An idle connection's end arrives as an event of the pool; the process must not die of it
    // (Vitest fails the file on the unhandled 'error' otherwise), and the next request is
    // served on a new connection, or told to retry when it took a dead one.
    for (let i = 0; i < 3; i += 1) expectOkOr503(await profile(client));
    expectSuccess(await profile(client));
  });

  it('answers 503 with Retry-After (never 500) while its connections are ended every 0.5 s under load, then recovers', async () => {
    const statuses = new Map<number, number>();
    const answers: ApiResponse[] = [];
    let stop = false;
    const load = async () => {
      while (!stop) {
        const response = await profile(client);
        answers.push(response);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    };
    const workers = Array.from({ length: 12 }, load);
    let kills = 0;
    for (let round = 0; round < 6; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      kills += await terminateServerConnections(server);
    }
    stop = true;
    await Promise.all(workers);
    expect(kills).toBeGreaterThan(0);
    answers.forEach(expectOkOr503);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expectSuccess(await profile(client));
  });
});
