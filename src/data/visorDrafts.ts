// A visor's pending section change in Dexie (issue 18's autosave, made safe against a reload or
// a closed tab): the visor screen writes the draft here on every change, at once, not after the
// autosave's second, and clears it when the server has it. The record is the tab's own (the
// worker never writes it; a logout wipes it with the user's cache, and the worker deletes it with a
// visor the server says was deleted, workers/syncStore.ts forgetVisor), one per user and visor: the
// latest change of any tab of the visor. The screen that opens the visor next reads it
// (lib/sectionMerge.ts resumeDraft decides what is left to save).
import type { Section } from '../protocol/workspace';
import { db as defaultDb, type VisorDraftRecord, type VisoresDb } from '../shared/db';
import { sameJson } from '../lib/sectionMerge';
import { trackWrite } from './pendingWrites';

/**
 * Keeps the draft, replacing the visor's earlier one (of this tab or another). Tracked
 * (pendingWrites.ts): the update's reload waits for it.
 */
export async function keepVisorDraft(record: VisorDraftRecord, database: VisoresDb = defaultDb): Promise<void> {
  await trackWrite(database.visorDrafts.put(record));
}

/** The visor's pending draft for the user, or null. */
export async function readVisorDraft(userId: string, visorId: string, database: VisoresDb = defaultDb): Promise<VisorDraftRecord | null> {
  return (await database.visorDrafts.get([userId, visorId])) ?? null;
}

export interface SettledBy {
  /** The screen that has nothing pending now: its own draft goes, whatever it held. */
  editor: string;
  /** Sections the server has (or answered in place of a draft): a draft equal to one of them goes too, whoever made it. */
  confirmed: readonly (readonly Section[])[];
}

/**
 * The screen `editor` has nothing pending: the visor's draft is deleted when it was that
 * screen's, or when the server already has its sections. Another tab's draft with changes the
 * server does not have stays. Answers whether it deleted one.
 */
export async function settleVisorDraft(userId: string, visorId: string, settled: SettledBy, database: VisoresDb = defaultDb): Promise<boolean> {
  return database.transaction('rw', database.visorDrafts, async () => {
    const record = await database.visorDrafts.get([userId, visorId]);
    if (!record) return false;
    if (record.editor !== settled.editor && !settled.confirmed.some((sections) => sameJson(record.draft, sections))) return false;
    await database.visorDrafts.delete([userId, visorId]);
    return true;
  });
}
