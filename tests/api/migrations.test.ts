// The numbered migrations on a database that already holds data (0006's visor tombstones, and 0007 that
// takes another user's broker out of clones made before clones left it out): taken back and
// applied again, on SQLite and PostgreSQL. The other API tests run them on empty databases only.
import { Migrator, PostgresIntrospector, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type Db } from '../../server/db/index.js';
import { migrations } from '../../server/db/migrations/index.js';
import { visorBytes } from '../../server/workspace/service.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { ADMIN, createUser, expectErrorResponse, expectSuccess, session } from './helpers.js';
import { SECTIONS, SECTIONS_WITHOUT_BROKER, newVisor, readVisor } from './workspace.js';

/** The schema the app's tables are in (PostgreSQL); undefined on SQLite. */
async function schemaOf(db: Db): Promise<string | undefined> {
  if (!(db.introspection instanceof PostgresIntrospector)) return undefined;
  const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(db);
  return rows[0]?.name;
}

// PostgreSQL in a database of its own: taking migrations back drops tables (harness.ts says why that matters).
const targets = databaseTargets().map((target) => (target.name === 'postgres' ? { ...target, ownDatabase: true } : target));

describe.each(targets)('migrations on $name', (target) => {
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
    expect(down.results?.map((result) => [result.migrationName, result.direction, result.status])).toEqual([
      ['0008_visor_stored_bytes', 'Down', 'Success'],
      ['0007_clones_without_broker', 'Down', 'Success'],
      ['0006_visor_tombstones', 'Down', 'Success'],
    ]);
    expect(await tables()).not.toContain('visor_tombstones');

    expect(await migrateToLatest(db)).toEqual(['0006_visor_tombstones', '0007_clones_without_broker', '0008_visor_stored_bytes']);
    expect(await tables()).toContain('visor_tombstones');
    // The data is as it was; a delete from now on leaves its tombstone.
    expect((await readVisor(demo, visorId)).title).toBe('Antes de 0006');
    expectSuccess(await demo.api.del(`/api/visores/${visorId}`));
    expectErrorResponse(await demo.api.post(`/api/visores/${demo.user._id}/new`, { title: 'Otra vez', visor_id: visorId }), 410);
  });

  it("0007 empties the positions sections of clones of another user's visor made before, and keeps the owners' own", async () => {
    const { db } = server.app.ctx;
    const admin = await session(server, ADMIN);
    const owner = await createUser(server, admin.token);
    const cloner = await createUser(server, admin.token);
    const source = await newVisor(owner, { title: 'Fuente' });
    expectSuccess(await owner.api.put(`/api/visores/${source}/update_secciones`, { secciones: SECTIONS }));
    expectSuccess(await owner.api.put(`/api/visores/${source}/check_option`, { option: 'public', value: true }));
    const gone = await newVisor(owner, { title: 'Borrada' });
    expectSuccess(await owner.api.put(`/api/visores/${gone}/check_option`, { option: 'public', value: true }));
    // Clones as they were made before: the sections copied whole (written here, as today's clone leaves the broker out).
    const cloneOf = async (who: typeof owner, from: string) => {
      const id = expectSuccess<{ data: { id_visor: string } }>(await who.api.post(`/api/visores/${who.user._id}/${from}/clonar`)).data.id_visor;
      await db
        .updateTable('visores')
        .set({ secciones: JSON.stringify(SECTIONS) })
        .where('id', '=', id)
        .execute();
      return id;
    };
    const foreign = await cloneOf(cloner, source);
    const own = await cloneOf(owner, source);
    const orphan = await cloneOf(cloner, gone);
    // Its source deleted with no tombstone: whose it was is not known, so it is treated as someone else's.
    await db.deleteFrom('visores').where('id', '=', gone).execute();
    const before = await readVisor(cloner, foreign);

    const schema = await schemaOf(db);
    const migrator = new Migrator({ db, migrationTableSchema: schema, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0006_visor_tombstones')).error).toBeUndefined();
    expect(await migrateToLatest(db)).toEqual(['0007_clones_without_broker', '0008_visor_stored_bytes']);

    const after = await readVisor(cloner, foreign);
    expect(after.secciones).toEqual(SECTIONS_WITHOUT_BROKER);
    expect(after.version).toBe(before.version + 1);
    expect((await readVisor(cloner, orphan)).secciones).toEqual(SECTIONS_WITHOUT_BROKER);
    expect((await readVisor(owner, own)).secciones).toEqual(SECTIONS);
    expect((await readVisor(owner, source)).secciones).toEqual(SECTIONS);
  });

  it('0008 counts the bytes every visor stores, as the app counts them, so the storage quota sums the column', async () => {
    const { db } = server.app.ctx;
    const demo = await session(server);
    const visorId = await newVisor(demo, { title: 'Año ñandú 📈' });
    expectSuccess(await demo.api.put(`/api/visores/${visorId}/update_secciones`, { secciones: SECTIONS }));
    const schema = await schemaOf(db);
    const migrator = new Migrator({ db, migrationTableSchema: schema, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0007_clones_without_broker')).error).toBeUndefined();
    expect(await migrateToLatest(db)).toEqual(['0008_visor_stored_bytes']);
    const rows = await db.selectFrom('visores').select(['id', 'secciones', 'title', 'emoji', 'color', 'stored_bytes']).execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Number(row.stored_bytes), row.id).toBe(visorBytes(row));
    // What the app writes from now on is counted the same way.
    expectSuccess(await demo.api.put(`/api/visores/${visorId}`, { title: 'Otro título más largo' }));
    const renamed = await db.selectFrom('visores').selectAll().where('id', '=', visorId).executeTakeFirstOrThrow();
    expect(Number(renamed.stored_bytes)).toBe(visorBytes(renamed));
  });
});
