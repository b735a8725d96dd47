import type { Kysely } from 'kysely';

// The sign-in limit reserves each attempt before the password is checked (issue 17):
// - login_failures rows may now be `pending` (reserved, the check still running) as well as
//   failed; both count towards the limit.
// - login_limits holds one row per username and address, which each reservation locks
//   (an upsert) before counting, so that concurrent reservations, from any process, count
//   one after the other.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('login_failures')
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('login_limits')
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('touched_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('login_limits_pk', ['username_key', 'ip'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_limits').execute();
  await db.schema.alterTable('login_failures').dropColumn('pending').execute();
}
