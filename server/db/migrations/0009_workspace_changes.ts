import type { Kysely } from 'kysely';

// A count of the changes of a user's tree and visores, kept on the tree's row: every change
// takes that row's lock first (workspace/treeStore.ts), and the lock now counts it. The list of
// a user's visores is then answered from a copy kept while the count stands, instead of being
// read, shaped and serialised again for each of many reads in a row.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('folder_trees')
    .addColumn('changes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('folder_trees').dropColumn('changes').execute();
}
