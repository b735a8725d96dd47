import type { Kysely } from 'kysely';

// Each visor keeps the bytes it stores (sections, title, emoji and colour as UTF-8), and one
// index per owner covers both the list of a user's visores and the sum of their bytes. Without
// them SQLite read every byte of a user's sections for each list (the columns after a large one
// sit behind its overflow pages) and for each quota check: 16 MB a request at the quota.

interface Tables {
  visores: { id: string; secciones: string; title: string; emoji: string; color: string; stored_bytes: number };
}

const PAGE = 100;

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('visores')
    .addColumn('stored_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // Counted as the app counts them (workspace/service.ts visorBytes), a page of visores at a time.
  const typed = db as unknown as Kysely<Tables>;
  let after = '';
  for (;;) {
    const rows = await typed
      .selectFrom('visores')
      .select(['id', 'secciones', 'title', 'emoji', 'color'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    for (const row of rows) {
      const bytes = utf8Bytes(row.secciones) + utf8Bytes(row.title) + utf8Bytes(row.emoji) + utf8Bytes(row.color);
      await typed.updateTable('visores').set({ stored_bytes: bytes }).where('id', '=', row.id).execute();
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.id;
  }
  await db.schema
    .createIndex('visores_owner_listing')
    .on('visores')
    .columns(['owner', 'updated_at', 'id', 'title', 'emoji', 'color', 'fav', 'public', 'version', 'created_at', 'stored_bytes'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('visores_owner_listing').execute();
  await db.schema.alterTable('visores').dropColumn('stored_bytes').execute();
}
