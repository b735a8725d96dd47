// Recently used emojis (spec sections 3, 4, 7, 9): at most 24, most recent first, stored as
// one serialized list in the record with id 0. Local to the browser, so tabs read and write
// it directly; Dexie's change broadcast keeps every open picker in step.
import { useLiveQuery } from 'dexie-react-hooks';
import { db as defaultDb, type VisoresDb } from '../shared/db';

export const MAX_RECENT_EMOJIS = 24;
export const RECENT_EMOJIS_ID = 0;

/** One recent emoji: unicode code and names, as the picker gives them. */
export interface RecentEmoji {
  u: string;
  n: string[];
}

function isRecentEmoji(value: unknown): value is RecentEmoji {
  if (typeof value !== 'object' || value == null) return false;
  const entry = value as Record<string, unknown>;
  return typeof entry.u === 'string' && Array.isArray(entry.n) && entry.n.every((name) => typeof name === 'string');
}

/** The stored list; a record that is missing or unreadable counts as no recents. */
export function parseRecentEmojis(data: string | undefined): RecentEmoji[] {
  if (data == null) return [];
  try {
    const parsed: unknown = JSON.parse(data);
    return Array.isArray(parsed) ? parsed.filter(isRecentEmoji).slice(0, MAX_RECENT_EMOJIS) : [];
  } catch {
    return [];
  }
}

/**
 * The list after selecting `emoji`: moved (or added) to the front, capped at 24. Returns
 * the same list when it is already first, so the caller can skip the write.
 */
export function withSelected(list: readonly RecentEmoji[], emoji: RecentEmoji): readonly RecentEmoji[] {
  if (list[0]?.u === emoji.u) return list;
  return [{ u: emoji.u, n: [...emoji.n] }, ...list.filter((entry) => entry.u !== emoji.u)].slice(0, MAX_RECENT_EMOJIS);
}

/** Reads every record (spec: all records are read on start) and returns the list of record 0. */
export async function readRecentEmojis(database: VisoresDb = defaultDb): Promise<RecentEmoji[]> {
  const records = await database.recentEmojis.toArray();
  return parseRecentEmojis(records.find((record) => record.id === RECENT_EMOJIS_ID)?.data);
}

/** Selects an emoji when the picker shows recents; returns the list as stored afterwards. */
export async function selectRecentEmoji(emoji: RecentEmoji, database: VisoresDb = defaultDb): Promise<RecentEmoji[]> {
  // Read and write in one transaction, so two tabs selecting at once do not lose one another's pick.
  return database.transaction('rw', database.recentEmojis, async () => {
    const current = parseRecentEmojis((await database.recentEmojis.get(RECENT_EMOJIS_ID))?.data);
    const next = withSelected(current, emoji);
    if (next !== current) await database.recentEmojis.put({ id: RECENT_EMOJIS_ID, data: JSON.stringify(next) });
    return [...next];
  });
}

/** The recent list for the picker, live across tabs; undefined while loading. */
export function useRecentEmojis(database: VisoresDb = defaultDb): RecentEmoji[] | undefined {
  return useLiveQuery(() => readRecentEmojis(database), [database]);
}
