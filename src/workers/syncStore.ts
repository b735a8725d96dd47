// The workspace sync's writes into Dexie (issue 5; issue 16: one round trip per write). The
// worker stores what the server answered, as it answered it: the tree with its version, the
// favourites, and each cached own visor's `fav` from the favourites list. It computes no
// rule of its own. Each write is one transaction that first checks that the user it was
// read for is still the one signed in.
import type { OwnVisorRecord, VisoresDb } from '../shared/db';
import { favouriteFolders, removeNode } from '../lib/folderTree';
import { isOwnVisor, type FolderNode, type ReadVisor, type Visor, type VisorSummary, type WorkspaceState } from '../protocol/workspace';

/** What a write changed beside the workspace state, stored in the same transaction. */
export interface WorkspaceRows {
  /** A visor the write created or changed. */
  visor?: Visor;
  /** Visores the write deleted. */
  removed?: readonly string[];
  /**
   * Every own visor as the list names it, without sections (a full read): own visores not in it
   * are gone; others' public ones opened here stay. A cached one takes the listed fields and
   * keeps the sections it has, with their version, until they are read (readVisores).
   */
  ownVisores?: readonly VisorSummary[];
}

export interface SyncStoreDeps {
  db: VisoresDb;
  now: () => number;
  /** Throws when `userId` is no longer the one signed in: an answer on its way after a logout writes nothing. */
  stillSignedIn: (userId: string) => void;
}

export function createSyncStore({ db, now, stillSignedIn }: SyncStoreDeps) {
  return {
    /**
     * Tree, version, favourites and the visor rows a write changed, with each own visor's `fav` as
     * the server's favourites say. Answers the listed visores (`rows.ownVisores`) whose sections
     * this browser lacks: not cached, cached at another version, or with offline changes applied
     * (a record of the server's replaces them, as a full read always did).
     */
    async applyWorkspace(userId: string, state: WorkspaceState, rows: WorkspaceRows = {}): Promise<string[]> {
      return db.transaction('rw', db.folderTrees, db.visores, db.favourites, async () => {
        stillSignedIn(userId);
        await db.folderTrees.put({ userId, nodes: state.tree, version: state.version, syncedAt: now() });
        await db.favourites.put({ userId, ...state.favourites });
        const unread: string[] = [];
        if (rows.ownVisores) {
          const listed = new Set(rows.ownVisores.map((visor) => visor.visor_id));
          const gone = await db.visores
            .where('userId')
            .equals(userId)
            .filter((visor) => isOwnVisor(visor) && visor.owner === userId && !listed.has(visor.visor_id))
            .primaryKeys();
          await db.visores.bulkDelete(gone);
          const cached = await db.visores.bulkGet(rows.ownVisores.map((visor): [string, string] => [userId, visor.visor_id]));
          const kept: OwnVisorRecord[] = [];
          rows.ownVisores.forEach((summary, index) => {
            const record = cached[index];
            const own = record && isOwnVisor(record) && record.owner === userId ? record : null;
            if (!own || own.version !== summary.version || (own.localRev ?? 0) > 0) unread.push(summary.visor_id);
            // The listed fields now; the sections, and the version they are of, stay the cached ones until read.
            if (own) kept.push({ ...own, ...summary, version: own.version, userId });
          });
          await db.visores.bulkPut(kept);
        }
        if (rows.removed?.length) await db.visores.bulkDelete(rows.removed.map((visorId): [string, string] => [userId, visorId]));
        if (rows.visor) await db.visores.put({ ...rows.visor, userId });
        const favourite = new Set(state.favourites.visores.map((item) => item.visor_id));
        const changed = await db.visores
          .where('userId')
          .equals(userId)
          .filter((visor) => isOwnVisor(visor) && visor.owner === userId && visor.fav !== favourite.has(visor.visor_id))
          .toArray();
        await db.visores.bulkPut(changed.flatMap((visor) => (isOwnVisor(visor) ? [{ ...visor, fav: !visor.fav }] : [])));
        return unread;
      });
    },

    /** Visores deleted elsewhere, without touching the tree (a pushed delete whose tree is older than this one). */
    async removeVisores(userId: string, visorIds: readonly string[]): Promise<void> {
      await db.transaction('rw', db.visores, async () => {
        stillSignedIn(userId);
        await db.visores.bulkDelete(visorIds.map((visorId): [string, string] => [userId, visorId]));
      });
    },

    /** One visor (own, or another user's public one) as read, without touching the tree. */
    async putVisor(userId: string, visor: ReadVisor): Promise<void> {
      await db.transaction('rw', db.visores, async () => {
        stillSignedIn(userId);
        await db.visores.put({ ...visor, userId });
      });
    },

    /**
     * A visor the server no longer shows the user (deleted, or no longer public): its record, its
     * leaf in the cached tree, its favourite and its pending section draft (data/visorDrafts.ts:
     * the server will never take it) go, as the server's own delete leaves them, until a read
     * replaces them. Answers the title it had here (null: none kept).
     */
    async forgetVisor(userId: string, visorId: string): Promise<string | null> {
      return db.transaction('rw', [db.folderTrees, db.visores, db.favourites, db.visorDrafts], async () => {
        stillSignedIn(userId);
        const kept = await db.visores.get([userId, visorId]);
        await db.visores.delete([userId, visorId]);
        await db.visorDrafts.delete([userId, visorId]);
        const tree = await db.folderTrees.get(userId);
        let folders: FolderNode[] | null = null;
        const left = tree ? removeNode(tree.nodes, { kind: 'visor', id: visorId }) : null;
        if (tree && left) {
          // The version stays the one read: the next tree save meets a 412 and reads the server's.
          await db.folderTrees.put({ ...tree, nodes: left.nodes });
          folders = favouriteFolders(left.nodes);
        }
        const favourites = await db.favourites.get(userId);
        if (favourites) {
          const visores = favourites.visores.filter((item) => item.visor_id !== visorId);
          await db.favourites.put({ ...favourites, visores, folders: folders ?? favourites.folders });
        }
        return kept?.title ?? null;
      });
    },

    /** The user opened a visor (Inicio's Recientes). */
    async opened(userId: string, visorId: string): Promise<void> {
      await db.transaction('rw', db.recentVisores, async () => {
        stillSignedIn(userId);
        await db.recentVisores.put({ userId, visor_id: visorId, openedAt: now() });
      });
    },

    /** The version check found the cached tree current: it counts as read now. */
    async confirmed(userId: string): Promise<void> {
      await db.transaction('rw', db.folderTrees, async () => {
        stillSignedIn(userId);
        const tree = await db.folderTrees.get(userId);
        if (tree) await db.folderTrees.put({ ...tree, syncedAt: now() });
      });
    },

    /** Logout: deletes every cached record of the user, and the visor changes the server did not confirm. */
    async wipe(userId: string): Promise<void> {
      await db.transaction('rw', [db.folderTrees, db.visores, db.favourites, db.recentVisores, db.visorDrafts], async () => {
        await db.folderTrees.delete(userId);
        await db.visorDrafts.where('userId').equals(userId).delete();
        await db.recentVisores.where('userId').equals(userId).delete();
        await db.visores.where('userId').equals(userId).delete();
        await db.favourites.delete(userId);
      });
    },
  };
}

export type SyncStore = ReturnType<typeof createSyncStore>;
