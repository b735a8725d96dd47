import { sql, type Kysely } from 'kysely';

// A clone of another user's public visor copied its positions sections whole, with the owner's
// broker account, broker address and broker username (clones now leave them out). This finds
// the clones made before from the operator log (each `visor_clone` names the copy and its
// source) and empties their positions sections' config, as a clone gets today: the section
// stays, and its new owner picks their own broker and account. A clone whose source is gone
// with no tombstone saying whose it was is treated as someone else's. The version is bumped, so
// the clients holding the old sections read them again. Not undone by `down`.

/** The tables as this migration reads them (the app's types may change after it). */
interface Tables {
  operator_log: { action: string; user_id: string | null; detail: string | null };
  visores: { id: string; owner: string; secciones: string; version: number; updated_at: number };
  visor_tombstones: { id: string; owner: string };
}

function cloneOf(detail: string | null): { clone: string; source: string } | null {
  try {
    const parsed = JSON.parse(detail ?? 'null') as { visor_id?: unknown; source?: unknown } | null;
    return typeof parsed?.visor_id === 'string' && typeof parsed.source === 'string' ? { clone: parsed.visor_id, source: parsed.source } : null;
  } catch {
    return null;
  }
}

export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as unknown as Kysely<Tables>;
  const clones = await db.selectFrom('operator_log').select('detail').where('action', '=', 'visor_clone').execute();
  for (const { detail } of clones) {
    const found = cloneOf(detail);
    if (!found) continue;
    const copy = await db.selectFrom('visores').select(['owner', 'secciones']).where('id', '=', found.clone).executeTakeFirst();
    if (!copy) continue;
    const source =
      (await db.selectFrom('visores').select('owner').where('id', '=', found.source).executeTakeFirst()) ??
      (await db.selectFrom('visor_tombstones').select('owner').where('id', '=', found.source).executeTakeFirst());
    if (source?.owner === copy.owner) continue;
    const sections = JSON.parse(copy.secciones) as { type?: unknown; config?: unknown }[];
    const carries = (section: { type?: unknown; config?: unknown }) =>
      section.type === 'positions' && section.config != null && typeof section.config === 'object' && Object.keys(section.config).length > 0;
    if (!Array.isArray(sections) || !sections.some(carries)) continue;
    const emptied = sections.map((section) => (carries(section) ? { ...section, config: {} } : section));
    await db
      .updateTable('visores')
      .set({ secciones: JSON.stringify(emptied), version: sql<number>`version + 1`, updated_at: Date.now() })
      .where('id', '=', found.clone)
      .execute();
  }
}

export async function down(): Promise<void> {
  // What was taken out is not kept anywhere: nothing to put back.
}
