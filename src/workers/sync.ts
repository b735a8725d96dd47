// REST sync of the workspace into Dexie (issue 5): the worker reads the user's folder tree,
// visores and favourites into the local database that every tab renders from, and performs
// the writes tabs ask for, updating the local copy when the server accepts them. Tree saves
// carry If-Match; on 412 the tree is read again and the change applied again when it still
// makes sense. Calls run one at a time, so an older read never overwrites a newer write.
import type { VisoresDb } from '../data/db';
import { appendNode, leafOfVisor, mapVisorLeaves, treeShape } from '../lib/folderTree';
import { applyTreeChange, type TreeChange } from '../lib/treeChanges';
import type { FavItem, FolderNode, FolderTreeResponse, TreeNode, Visor } from '../protocol/workspace';
import type { EventLogger } from './eventLog';
import { attempt, createHttpClient, NOT_SIGNED_IN_MESSAGE, RequestFailure, type FetchLike, type Result } from './http';

/** Saves tried again after a 412, each on a tree read again. */
export const MAX_CONFLICT_RETRIES = 3;

export const SYNC_LOG = {
  loadFailed: (message: string) => `Error al cargar las carpetas: ${message}`,
  conflict: 'El árbol de carpetas cambió en otra pestaña o dispositivo: se recarga y se vuelve a aplicar el cambio',
} as const;

export interface WorkspaceSession {
  token: string;
  userId: string;
}

/** A tree change as a tab asks for it; the worker names a new folder. */
export type TreeChangeRequest = Exclude<TreeChange, { kind: 'addFolder' }> | { kind: 'addFolder'; parentId: string | null; name: string; emoji: string };

export interface VisorFields {
  title: string;
  emoji?: string;
  color?: string;
}

export interface WorkspaceSyncDeps {
  db: VisoresDb;
  fetch: FetchLike;
  apiBase: string;
  getSession: () => WorkspaceSession | null;
  log: EventLogger;
  now?: () => number;
  /** Random letters and digits (spec section 3). */
  newFolderId?: () => string;
}

/** 128 random bits as 32 hex digits: letters and digits, as folder ids must be. */
export function randomFolderId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

export function createWorkspaceSync(deps: WorkspaceSyncDeps) {
  const { db, log } = deps;
  const now = deps.now ?? Date.now;
  const newFolderId = deps.newFolderId ?? randomFolderId;
  const http = createHttpClient({ fetch: deps.fetch, baseUrl: deps.apiBase, getToken: () => deps.getSession()?.token ?? null });
  const notSignedIn = () => new RequestFailure({ code: 'not_signed_in', message: NOT_SIGNED_IN_MESSAGE }, 0);

  let chain: Promise<unknown> = Promise.resolve();
  /** One call at a time, in the order asked. */
  function serial<T>(work: () => Promise<Result<T>>): Promise<Result<T>> {
    const run = chain.catch(() => undefined).then(work);
    chain = run;
    return run;
  }

  const userOf = (): string => {
    const session = deps.getSession();
    if (!session) throw notSignedIn();
    return session.userId;
  };
  /**
   * Checked inside each write transaction: after a logout (the session gone or another
   * user's), an answer still on its way must not write the old user's data back.
   */
  const stillSignedIn = (userId: string) => {
    if (deps.getSession()?.userId !== userId) throw notSignedIn();
  };
  const base = (userId: string) => `/visores/${encodeURIComponent(userId)}`;
  const visorPath = (visorId: string) => `/visores/${encodeURIComponent(visorId)}`;

  async function fetchTree(userId: string) {
    const { body } = await http.request<FolderTreeResponse>('GET', `${base(userId)}/folders`);
    return { nodes: body.data, version: body.version };
  }
  async function fetchFavourites(userId: string) {
    const { body } = await http.request<{ data: { visores: FavItem[]; folders: FolderNode[] } }>('GET', `${base(userId)}/getFavs`);
    return body.data;
  }
  async function fetchVisor(visorId: string) {
    return (await http.request<{ data: Visor }>('GET', `${visorPath(visorId)}/get`)).body.data;
  }

  /** Reads the tree again and stores it; answers what was stored. */
  async function reloadTree(userId: string) {
    const tree = await fetchTree(userId);
    const record = { userId, ...tree, syncedAt: now() };
    await db.transaction('rw', db.folderTrees, async () => {
      stillSignedIn(userId);
      await db.folderTrees.put(record);
    });
    return record;
  }

  /**
   * After a visor write the server has rewritten the tree (new version) and favourites:
   * read both again. The write itself succeeded, so a failure here is only logged.
   */
  async function followUp(userId: string) {
    try {
      const [tree, favourites] = await Promise.all([fetchTree(userId), fetchFavourites(userId)]);
      await db.transaction('rw', db.folderTrees, db.favourites, async () => {
        stillSignedIn(userId);
        await db.folderTrees.put({ userId, ...tree, syncedAt: now() });
        await db.favourites.put({ userId, ...favourites });
      });
    } catch (error) {
      log.error(SYNC_LOG.loadFailed(error instanceof Error ? error.message : String(error)), error);
    }
  }

  /** Writes a visor (or its removal) and its tree leaf locally, at once, before the follow-up read. */
  async function storeVisor(userId: string, visorId: string, visor: Visor | null, placeIn?: string | null) {
    await db.transaction('rw', db.visores, db.folderTrees, async () => {
      stillSignedIn(userId);
      if (visor) await db.visores.put({ ...visor, userId });
      else await db.visores.delete([userId, visorId]);
      const tree = await db.folderTrees.get(userId);
      if (!tree) return;
      let nodes = mapVisorLeaves(tree.nodes, (leaf) => (leaf.visor_id !== visorId ? leaf : visor ? leafOfVisor(visor) : null));
      if (visor && placeIn !== undefined && !treeShape(nodes).visorIds.includes(visorId)) nodes = appendNode(nodes, placeIn, leafOfVisor(visor)) ?? nodes;
      await db.folderTrees.put({ ...tree, nodes });
    });
  }

  /** PUT the tree with If-Match; stores it (and drops the visores the save deleted) on success. */
  async function putTree(userId: string, nodes: TreeNode[], version: number): Promise<number> {
    const { body } = await http.request<{ version: number; deleted: string[] }>('PUT', `${base(userId)}/folders`, {
      body: nodes,
      headers: { 'if-match': `"${version}"` },
    });
    const favourites = await fetchFavourites(userId).catch((error: unknown) => {
      log.error(SYNC_LOG.loadFailed(error instanceof Error ? error.message : String(error)), error);
      return null;
    });
    await db.transaction('rw', db.folderTrees, db.visores, db.favourites, async () => {
      stillSignedIn(userId);
      await db.folderTrees.put({ userId, nodes, version: body.version, syncedAt: now() });
      await db.visores.bulkDelete(body.deleted.map((visorId): [string, string] => [userId, visorId]));
      // The server took each leaf's favourite into its visor row (a folder's favourite applies
      // to all it holds); the cached rows follow, so every list of favourites agrees.
      const leafFav = new Map<string, boolean>();
      mapVisorLeaves(nodes, (leaf) => {
        leafFav.set(leaf.visor_id, leaf.fav === true);
        return leaf;
      });
      const changed = await db.visores
        .where('userId')
        .equals(userId)
        .filter((visor) => leafFav.has(visor.visor_id) && visor.fav !== leafFav.get(visor.visor_id))
        .toArray();
      await db.visores.bulkPut(changed.map((visor) => ({ ...visor, fav: leafFav.get(visor.visor_id) === true })));
      if (favourites) await db.favourites.put({ userId, ...favourites });
    });
    return body.version;
  }

  const isStale = (error: unknown) => error instanceof RequestFailure && error.status === 412;

  return {
    /** Reads tree, visores and favourites into Dexie. Failures are only logged (spec section 8) and answered. */
    refresh(): Promise<Result<void>> {
      return serial(async () => {
        const result = await attempt(async () => {
          const userId = userOf();
          const [tree, visores, favourites] = await Promise.all([
            fetchTree(userId),
            http.request<{ data: Visor[] }>('GET', base(userId)).then((answer) => answer.body.data),
            fetchFavourites(userId),
          ]);
          await db.transaction('rw', db.folderTrees, db.visores, db.favourites, async () => {
            stillSignedIn(userId);
            await db.folderTrees.put({ userId, ...tree, syncedAt: now() });
            // Own visores the server no longer lists are gone; others' public visores opened here stay.
            const listed = new Set(visores.map((visor) => visor.visor_id));
            const gone = await db.visores
              .where('userId')
              .equals(userId)
              .filter((visor) => visor.owner === userId && !listed.has(visor.visor_id))
              .primaryKeys();
            await db.visores.bulkDelete(gone);
            await db.visores.bulkPut(visores.map((visor) => ({ ...visor, userId })));
            await db.favourites.put({ userId, ...favourites });
          });
        });
        if (!result.ok) log.error(SYNC_LOG.loadFailed(result.error.message));
        return result;
      });
    },

    /** GET one visor (own or public) into the cache, so it opens offline later. */
    loadVisor(visorId: string): Promise<Result<Visor>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          const visor = await fetchVisor(visorId);
          await db.transaction('rw', db.visores, async () => {
            stillSignedIn(userId);
            await db.visores.put({ ...visor, userId });
          });
          return visor;
        }),
      );
    },

    /** Creates a visor, placed in a folder (or the root with null) atomically by the server; answers its id. */
    createVisor(fields: VisorFields, folderId?: string | null): Promise<Result<{ visorId: string }>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          const body = folderId === undefined ? fields : { ...fields, folder_id: folderId };
          const created = await http.request<{ data: { id_visor: string } }>('POST', `${base(userId)}/new`, { body });
          const visorId = created.body.data.id_visor;
          await storeVisor(userId, visorId, await fetchVisor(visorId), folderId);
          await followUp(userId);
          return { visorId };
        }),
      );
    },

    /** Title, emoji, colour; the server keeps the tree leaf in step. */
    updateVisor(visorId: string, fields: VisorFields): Promise<Result<Visor>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          const { body } = await http.request<{ data: Visor }>('PUT', visorPath(visorId), { body: fields });
          await storeVisor(userId, visorId, body.data);
          await followUp(userId);
          return body.data;
        }),
      );
    },

    /** Deletes a visor; its leaf leaves the tree when the server answers 'ok'. */
    deleteVisor(visorId: string): Promise<Result<void>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          await http.request('DELETE', visorPath(visorId));
          await storeVisor(userId, visorId, null);
          await followUp(userId);
        }),
      );
    },

    /** Flips a visor's favourite; answers the new value. */
    toggleVisorFavourite(visorId: string): Promise<Result<{ fav: boolean }>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          const { body } = await http.request<{ data: { fav: boolean } }>('PUT', `${base(userId)}/${encodeURIComponent(visorId)}/fav`);
          const cached = await db.visores.get([userId, visorId]);
          await storeVisor(userId, visorId, cached ? { ...cached, fav: body.data.fav } : await fetchVisor(visorId));
          await followUp(userId);
          return { fav: body.data.fav };
        }),
      );
    },

    /**
     * Applies a folder change to the cached tree and saves it with If-Match. On 412 the tree
     * is read again and the change applied to it again, while what it names is still there.
     */
    changeTree(request: TreeChangeRequest): Promise<Result<{ version: number; folderId?: string }>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          const change: TreeChange = request.kind === 'addFolder' ? { ...request, folder_id: newFolderId() } : request;
          const named = change.kind === 'addFolder' ? { folderId: change.folder_id } : {};
          const cached = await db.folderTrees.get(userId);
          let tree = cached ?? (await reloadTree(userId));
          let fresh = cached == null;
          for (let conflicts = 0; ; ) {
            const outcome = applyTreeChange(tree.nodes, change);
            if (!outcome.ok && outcome.reason === 'gone' && !fresh) {
              // The cache may be behind another device: judge the change on the server's tree.
              tree = await reloadTree(userId);
              fresh = true;
              continue;
            }
            if (!outcome.ok) throw new RequestFailure({ code: outcome.reason === 'gone' ? 'conflict' : 'invalid', message: outcome.message }, 0);
            if (!outcome.changed) return { version: tree.version, ...named };
            try {
              return { version: await putTree(userId, outcome.nodes, tree.version), ...named };
            } catch (error) {
              if (!isStale(error) || conflicts >= MAX_CONFLICT_RETRIES) throw error;
              conflicts += 1;
              log.warn(SYNC_LOG.conflict);
              tree = await reloadTree(userId);
              fresh = true;
            }
          }
        }),
      );
    },

    /**
     * Saves a whole tree the tab built (e.g. after a drag between the two trees) against
     * the version it was built on. A finished tree cannot be re-applied: on 412 the tree is
     * read again (tabs re-render it) and the server's message answered.
     */
    saveTree(nodes: TreeNode[], version: number): Promise<Result<{ version: number }>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          try {
            return { version: await putTree(userId, nodes, version) };
          } catch (error) {
            if (isStale(error)) await reloadTree(userId);
            throw error;
          }
        }),
      );
    },

    /** Logout: deletes every cached record of the user. */
    async wipe(userId: string): Promise<void> {
      await db.transaction('rw', db.folderTrees, db.visores, db.favourites, async () => {
        await db.folderTrees.delete(userId);
        await db.visores.where('userId').equals(userId).delete();
        await db.favourites.delete(userId);
      });
    },
  };
}

export type WorkspaceSync = ReturnType<typeof createWorkspaceSync>;
