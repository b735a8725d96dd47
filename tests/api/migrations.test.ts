// The numbered migrations on a database that already holds data (issue 21's 0006): taken back
// to 0005 and applied again, on SQLite and PostgreSQL. The other API tests run them on empty
// databases only.
import { Migrator, PostgresIntrospector, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type Db } from '../../server/db/index.js';
import { migrations } from '../../server/db/migrations/index.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { expectErrorResponse, expectSuccess, session } from './helpers.js';
import { newVisor, readVisor } from './workspace.js';

/** The schema the app's tables are in (PostgreSQL); undefined on SQLite. */
async function schemaOf(db: Db): Promise<string | undefined> {
  if (!(db.introspection instanceof PostgresIntrospector)) return undefined;
  const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(db);
  return rows[0]?.name;
}

describe.each(databaseTargets())('migrations on $name', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('takes back 0006 (visor tombstones) and applies it again on a database with users and visores', async () => {
    const { db } = server.app.ctx;
    const schema = await schemaOf(db);
    const tables = async () =>
      (await db.introspection.getTables())
        .filter((table) => schema === undefined || table.schema === schema)
        .map((table) => table.name)
        .sort();
    const demo = await session(server);
    const visorId = await newVisor(demo, { title: 'Antes de 0006' });
    expect(await tables()).toContain('visor_tombstones');

    const migrator = new Migrator({ db, migrationTableSchema: schema, provider: { getMigrations: async () => migrations } });
    const down = await migrator.migrateTo('0005_operator_log_indexes');
    expect(down.error).toBeUndefined();
    expect(down.results?.map((result) => [result.migrationName, result.direction, result.status])).toEqual([['0006_visor_tombstones', 'Down', 'Success']]);
    expect(await tables()).not.toContain('visor_tombstones');

    expect(await migrateToLatest(db)).toEqual(['0006_visor_tombstones']);
    expect(await tables()).toContain('visor_tombstones');
    // The data is as it was; a delete from now on leaves its tombstone.
    expect((await readVisor(demo, visorId)).title).toBe('Antes de 0006');
    expectSuccess(await demo.api.del(`/api/visores/${visorId}`));
    expectErrorResponse(await demo.api.post(`/api/visores/${demo.user._id}/new`, { title: 'Otra vez', visor_id: visorId }), 410);
  });
});
