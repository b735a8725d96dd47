// The 412 rule of a visor's autosave (issue 18): when another tab or device saved the visor
// since this tab read it, this tab's change is applied again on the newer sections when the
// two changes touched different sections (by section id); when they touched the same one,
// the newer server state wins. Pure: the worker and the tab use it on what they hold.
import type { Section } from '../protocol/workspace';

/** Ids of the sections that differ between `from` and `to`: added, removed or changed. */
export function touchedSections(from: readonly Section[], to: readonly Section[]): Set<string> {
  const before = new Map(from.map((section) => [section.id, section]));
  const after = new Map(to.map((section) => [section.id, section]));
  const touched = new Set<string>();
  for (const [id, section] of after) {
    const old = before.get(id);
    if (!old || !sameSection(old, section)) touched.add(id);
  }
  for (const id of before.keys()) if (!after.has(id)) touched.add(id);
  return touched;
}

function sameSection(a: Section, b: Section): boolean {
  return sameJson(a, b);
}

/** Equal JSON values, whatever the order of their keys (a parsed answer orders them by its schema). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => sameJson(item, b[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((key) => left[key] !== undefined);
  if (keys.length !== Object.keys(right).filter((key) => right[key] !== undefined).length) return false;
  return keys.every((key) => sameJson(left[key], right[key]));
}

export type MergeOutcome =
  /** This tab's change applied on the server's sections (or nothing of it left to apply). */
  | { ok: true; sections: Section[] }
  /** Both changed these sections: the server's state wins. */
  | { ok: false; clashes: string[] };

/**
 * Applies this tab's change (`base` → `mine`) on the server's newer sections (`theirs`,
 * changed from `base` by someone else). Sections keep the server's order; the ones this tab
 * added come after them, in this tab's order. A section both changed to the same state (or
 * both deleted) is no clash: this tab's change is already there.
 */
export function mergeSections(base: readonly Section[], mine: readonly Section[], theirs: readonly Section[]): MergeOutcome {
  const ours = touchedSections(base, mine);
  const other = touchedSections(base, theirs);
  const mineById = new Map(mine.map((section) => [section.id, section]));
  const theirsById = new Map(theirs.map((section) => [section.id, section]));
  // Both changed it to the same thing (this change, already saved from elsewhere): no clash.
  const clashes = [...ours].filter((id) => other.has(id) && !sameJson(mineById.get(id), theirsById.get(id)));
  if (clashes.length > 0) return { ok: false, clashes };
  const merged: Section[] = [];
  for (const section of theirs) {
    if (!ours.has(section.id)) merged.push(section);
    else {
      const changed = mineById.get(section.id);
      if (changed) merged.push(changed);
    }
  }
  const present = new Set(merged.map((section) => section.id));
  for (const section of mine) if (ours.has(section.id) && !present.has(section.id)) merged.push(section);
  return { ok: true, sections: merged };
}

/**
 * A tab holds `draft`, its edit of `base`; the server now has `server` (another tab's save, or
 * this tab's own save answered while it kept editing). The draft moved onto `server`: as is
 * when it changed nothing, merged when the changes touched different sections, else the
 * server's sections (`lost`: this tab's change is gone, say so).
 */
export function rebaseDraft(base: readonly Section[], draft: Section[], server: Section[]): { sections: Section[]; lost: boolean } {
  if (draft === base) return { sections: server, lost: false };
  const merged = mergeSections(base, draft, server);
  return merged.ok ? { sections: merged.sections, lost: false } : { sections: server, lost: true };
}

/** A change kept in Dexie when it was made (the visor's pending draft): made on `base`, at `version`. */
export interface PendingDraft {
  base: Section[];
  version: number;
  draft: Section[];
}

/** The server's sections as this tab knows them. */
export interface SectionsAt {
  sections: Section[];
  version: number;
}

export type ResumedDraft =
  /** Nothing of it is left to save: the server has it already (or it changed nothing). `lost`: the server changed the same sections since, and won. */
  | { pending: false; lost: boolean }
  /** Save `draft` over `base` (the normal autosave). */
  | { pending: true; base: SectionsAt; draft: Section[] };

/**
 * A visor screen opens and finds a pending draft from a tab that went away before saving it.
 * When the server is still at the draft's version, the draft stands as it is; when the server
 * moved on since, the draft is moved onto the server's sections by the 412 rule (rebaseDraft:
 * different sections, both changes stay; the same one, the server wins). A draft whose changes
 * the server already has (saved before the tab went, or by another tab that took it) is not
 * pending: comparing contents, not only versions, keeps it from being saved again. A cached
 * copy older than the draft's base (`server.version < version`) gives way to that base: the
 * newer server state arrives later and is merged as any other.
 */
export function resumeDraft(stored: PendingDraft, server: SectionsAt): ResumedDraft {
  if (server.version < stored.version) {
    return sameJson(stored.draft, stored.base)
      ? { pending: false, lost: false }
      : { pending: true, base: { sections: stored.base, version: stored.version }, draft: stored.draft };
  }
  if (sameJson(stored.draft, server.sections)) return { pending: false, lost: false };
  if (server.version === stored.version) return { pending: true, base: server, draft: stored.draft };
  const rebased = rebaseDraft(stored.base, stored.draft, server.sections);
  if (rebased.lost || sameJson(rebased.sections, server.sections)) return { pending: false, lost: rebased.lost };
  return { pending: true, base: server, draft: rebased.sections };
}
