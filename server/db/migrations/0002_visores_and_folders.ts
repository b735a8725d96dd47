import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('visores')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('fav', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON list of sections, validated by the protocol schema before it is written.
    .addColumn('secciones', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('visores_owner').on('visores').columns(['owner', 'updated_at']).execute();

  await db.schema
    .createTable('folder_trees')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    // JSON list of nodes (spec section 3).
    .addColumn('nodes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('folder_trees').execute();
  await db.schema.dropTable('visores').execute();
}
