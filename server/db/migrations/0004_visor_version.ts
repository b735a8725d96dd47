import type { Kysely } from 'kysely';

// A visor's version (issue 18): update_secciones takes If-Match and answers 412 when the
// sections changed since the version the client read, so two tabs or devices editing one
// visor never overwrite each other unseen. Existing visores start at 0.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('visores')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('visores').dropColumn('version').execute();
}
