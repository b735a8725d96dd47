import type { Kysely } from 'kysely';

// Deleted visores leave a tombstone (issue 21): their id, owner and when. An offline create
// carries its visor's id, and a replay of one whose first answer was lost would otherwise make
// again a visor another device deleted meanwhile. Kept for good (one short row per deleted
// visor); they go with their owner's account. Visores deleted before this migration have none.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('visor_tombstones')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('deleted_at', 'bigint', (c) => c.notNull())
    .execute();
  // Deleting an account deletes its tombstones: without an index PostgreSQL would scan them all.
  await db.schema.createIndex('visor_tombstones_owner').on('visor_tombstones').columns(['owner', 'deleted_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('visor_tombstones').execute();
}
