import type { Kysely } from 'kysely';

// The admin's operator log pages newest first through up to hundreds of thousands of rows
// (issue 20): keyset pages on (at, id) with a filter by action or by user read an index in
// the page's order, so a page costs its rows, not the table. (at, id) alone is 0001's.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('operator_log_action_at').on('operator_log').columns(['action', 'at', 'id']).execute();
  await db.schema.createIndex('operator_log_username_at').on('operator_log').columns(['username', 'at', 'id']).execute();
  await db.schema.createIndex('operator_log_user_id_at').on('operator_log').columns(['user_id', 'at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('operator_log_user_id_at').execute();
  await db.schema.dropIndex('operator_log_username_at').execute();
  await db.schema.dropIndex('operator_log_action_at').execute();
}
