// The tab's view of the cached workspace: live Dexie queries of the signed-in user's tree,
// visores and favourites. The data worker writes them; every tab re-renders when it does
// (Dexie broadcasts each committed write), so a change in one tab shows in all of them.
// Each hook answers undefined while loading and null when nothing is cached for the user.
import { useLiveQuery } from 'dexie-react-hooks';
import { isOwnVisor } from '../protocol/workspace';
import { db as defaultDb, type FavouritesRecord, type FolderTreeRecord, type OwnVisorRecord, type VisoresDb, type VisorRecord } from '../shared/db';

const byTitle = (a: OwnVisorRecord, b: OwnVisorRecord) => a.title.localeCompare(b.title, 'es', { sensitivity: 'base' });

/** The queries behind the hooks, usable (and tested) without React. */
export const workspaceQueries = {
  async tree(database: VisoresDb, userId: string): Promise<FolderTreeRecord | null> {
    return (await database.folderTrees.get(userId)) ?? null;
  },
  /** The user's own visores, by title. */
  async visores(database: VisoresDb, userId: string): Promise<OwnVisorRecord[]> {
    const records = await database.visores.where('userId').equals(userId).toArray();
    return records.filter((visor): visor is OwnVisorRecord => isOwnVisor(visor) && visor.owner === userId).sort(byTitle);
  },
  /** One visor as cached for the user: their own, or a public one they opened. */
  async visor(database: VisoresDb, userId: string, visorId: string): Promise<VisorRecord | null> {
    return (await database.visores.get([userId, visorId])) ?? null;
  },
  async favourites(database: VisoresDb, userId: string): Promise<FavouritesRecord | null> {
    return (await database.favourites.get(userId)) ?? null;
  },
  /** The visores the user opened, the latest first, that are still cached (own, or public ones of others). */
  async recent(database: VisoresDb, userId: string, limit: number): Promise<RecentVisor[]> {
    const opened = await database.recentVisores.where('userId').equals(userId).toArray();
    opened.sort((a, b) => b.openedAt - a.openedAt);
    const visores = await database.visores.bulkGet(opened.map((entry): [string, string] => [userId, entry.visor_id]));
    const recent: RecentVisor[] = [];
    opened.forEach((entry, index) => {
      const visor = visores[index];
      if (visor && recent.length < limit) recent.push({ visor, openedAt: entry.openedAt });
    });
    return recent;
  },
};

/** A visor the user opened, and when (epoch ms). */
export interface RecentVisor {
  visor: VisorRecord;
  openedAt: number;
}

type UserId = string | null | undefined;

export function useFolderTree(userId: UserId, database: VisoresDb = defaultDb): FolderTreeRecord | null | undefined {
  return useLiveQuery(() => (userId ? workspaceQueries.tree(database, userId) : null), [userId, database]);
}

export function useVisores(userId: UserId, database: VisoresDb = defaultDb): OwnVisorRecord[] | null | undefined {
  return useLiveQuery(() => (userId ? workspaceQueries.visores(database, userId) : null), [userId, database]);
}

export function useVisor(userId: UserId, visorId: string | null | undefined, database: VisoresDb = defaultDb): VisorRecord | null | undefined {
  return useLiveQuery(() => (userId && visorId ? workspaceQueries.visor(database, userId, visorId) : null), [userId, visorId, database]);
}

export function useRecentVisores(userId: UserId, limit: number, database: VisoresDb = defaultDb): RecentVisor[] | null | undefined {
  return useLiveQuery(() => (userId ? workspaceQueries.recent(database, userId, limit) : null), [userId, limit, database]);
}

export function useFavourites(userId: UserId, database: VisoresDb = defaultDb): FavouritesRecord | null | undefined {
  return useLiveQuery(() => (userId ? workspaceQueries.favourites(database, userId) : null), [userId, database]);
}
