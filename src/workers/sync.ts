// REST sync of the workspace into Dexie (issue 5): the worker reads the user's folder tree,
// visores and favourites into the local database that every tab renders from, and performs
// the writes tabs ask for. Each write is one request: the server answers it with the
// workspace as the write left it (tree, version, favourites; issue 16), which the worker
// stores as is (syncStore.ts). When to read the workspace again is syncRefresh.ts's. Tree
// saves carry If-Match; on 412 the workspace is read again and the change applied again when
// it still makes sense. Calls run one at a time, so an older read never overwrites a newer write.
import { applyTreeChange, type TreeChange } from '../lib/treeChanges';
import { mergeSections } from '../lib/sectionMerge';
import type { z } from 'zod';
import {
  DeleteVisorResponse,
  NewVisorResponse,
  SaveTreeResponse,
  ToggleFavResponse,
  UpdateVisorResponse,
  ReadVisorResponse,
  OwnerResponse,
  VisorResponse,
  isOwnVisor,
  type Section,
  type UpdateVisorRequest,
  type ReadVisor,
  type Visor,
} from '../protocol/workspace';
import type { VisoresDb } from '../shared/db';
import { ApiError, attempt, NOT_SIGNED_IN_MESSAGE, type Result } from '../shared/errors';
import type { HttpClient } from '../shared/http';
import type { WorkerSession } from './api';
import type { EventLogger } from './eventLog';
import { createSyncRefresh, workspacePaths, type Tree } from './syncRefresh';
import { createSyncStore } from './syncStore';

/** Saves tried again after a 412, each on a tree read again. */
export const MAX_CONFLICT_RETRIES = 3;

export const SYNC_LOG = {
  loadFailed: (message: string) => `Error al cargar las carpetas: ${message}`,
  conflict: 'El árbol de carpetas cambió en otra pestaña o dispositivo: se recarga y se vuelve a aplicar el cambio',
  visorConflict: 'El visor cambió en otra pestaña o dispositivo: se relee y se vuelve a aplicar el cambio cuando toca otras secciones',
} as const;

/** A tree change as a tab asks for it; the worker names a new folder. */
export type TreeChangeRequest = Exclude<TreeChange, { kind: 'addFolder' }> | { kind: 'addFolder'; parentId: string | null; name: string; emoji: string };

/** A save of a visor's sections: what the tab changed (`base` → `sections`) on the version it read. */
export interface SeccionesSave {
  base: Section[];
  sections: Section[];
  version: number;
}

/**
 * How a save ended: `saved` as sent; `merged` after a 412, this tab's change applied again on
 * the newer sections (they touched different sections); `server-won` after a 412 whose newer
 * sections changed the same sections as this tab (`clashes`): nothing was saved.
 */
export type SeccionesSaveAnswer = { visor: Visor; outcome: 'saved' | 'merged' } | { visor: Visor; outcome: 'server-won'; clashes: string[] };

/** Title, emoji and colour of a visor, as the server takes them to create or update one. */
export type VisorFields = z.input<typeof UpdateVisorRequest>;

export interface WorkspaceSyncDeps {
  db: VisoresDb;
  /** The worker's client of the API, sending the session's token. */
  http: HttpClient;
  getSession: () => WorkerSession | null;
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
  const { db, http, log } = deps;
  const now = deps.now ?? Date.now;
  const newFolderId = deps.newFolderId ?? randomFolderId;
  const notSignedIn = () => new ApiError({ code: 'not_signed_in', message: NOT_SIGNED_IN_MESSAGE, status: 0 });
  const { base, visor: visorPath } = workspacePaths;

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
  const store = createSyncStore({
    db,
    now,
    // Checked inside each write transaction: after a logout (the session gone or another
    // user's), an answer still on its way must not write the old user's data back.
    stillSignedIn: (userId) => {
      if (deps.getSession()?.userId !== userId) throw notSignedIn();
    },
  });
  const reads = createSyncRefresh({ db, http, store, now });

  /** Runs a read one at a time; a failure is only logged (spec section 8) and answered. */
  function logged(work: () => Promise<void>): Promise<Result<void>> {
    return serial(async () => {
      const result = await attempt(work);
      if (!result.ok) log.error(SYNC_LOG.loadFailed(result.error.message));
      return result;
    });
  }

  const isStale = (error: unknown) => error instanceof ApiError && error.status === 412;

  return {
    /** Reads tree, visores and favourites into Dexie (at sign-in). */
    refresh(): Promise<Result<void>> {
      return logged(async () => {
        await reads.readAll(userOf());
      });
    },

    /** A tab became visible: the version check, when the cache was last confirmed a while ago. Signed out, nothing. */
    visible(): Promise<Result<void>> {
      return logged(async () => {
        const userId = deps.getSession()?.userId;
        if (userId) await reads.visible(userId);
      });
    },

    /** GET one visor (own or public) into the cache, so it opens offline later. */
    loadVisor(visorId: string): Promise<Result<ReadVisor>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          try {
            const { body } = await http.request('GET', `${visorPath(visorId)}/get`, { schema: ReadVisorResponse });
            await store.putVisor(userId, body.data);
            return body.data;
          } catch (error) {
            // Gone, or no longer public: the cached copy must not keep showing it.
            if (error instanceof ApiError && error.status === 404) await store.forgetVisor(userId, visorId);
            throw error;
          }
        }),
      );
    },

    /** Creates a visor, placed in a folder (or the root with null) atomically by the server; answers its id. */
    createVisor(fields: VisorFields, folderId?: string | null): Promise<Result<{ visorId: string }>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          const request = folderId === undefined ? fields : { ...fields, folder_id: folderId };
          const { body } = await http.request('POST', `${base(userId)}/new`, { body: request, schema: NewVisorResponse });
          await store.applyWorkspace(userId, body.workspace, { visor: body.data.visor });
          return { visorId: body.data.id_visor };
        }),
      );
    },

    /** Title, emoji, colour; the server keeps the tree leaf in step. */
    updateVisor(visorId: string, fields: VisorFields): Promise<Result<Visor>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          const { body } = await http.request('PUT', visorPath(visorId), { body: fields, schema: UpdateVisorResponse });
          await store.applyWorkspace(userId, body.workspace, { visor: body.data });
          return body.data;
        }),
      );
    },

    /** Deletes a visor; its leaf leaves the tree when the server answers 'ok'. */
    deleteVisor(visorId: string): Promise<Result<void>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          const { body } = await http.request('DELETE', visorPath(visorId), { schema: DeleteVisorResponse });
          await store.applyWorkspace(userId, body.workspace, { removed: [visorId] });
        }),
      );
    },

    /** Flips a visor's favourite; answers the new value (the cached visor follows the favourites answered). */
    toggleVisorFavourite(visorId: string): Promise<Result<{ fav: boolean }>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          const { body } = await http.request('PUT', `${base(userId)}/${encodeURIComponent(visorId)}/fav`, { schema: ToggleFavResponse });
          await store.applyWorkspace(userId, body.workspace);
          return { fav: body.data.fav };
        }),
      );
    },

    /**
     * Applies a folder change to the cached tree and saves it with If-Match. On 412 the
     * workspace is read again and the change applied to it again, while what it names is still there.
     */
    changeTree(request: TreeChangeRequest): Promise<Result<{ version: number; folderId?: string }>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          const change: TreeChange = request.kind === 'addFolder' ? { ...request, folder_id: newFolderId() } : request;
          const named = change.kind === 'addFolder' ? { folderId: change.folder_id } : {};
          const cached = await db.folderTrees.get(userId);
          let tree: Tree = cached ?? (await reads.readAll(userId));
          let fresh = cached == null;
          for (let conflicts = 0; ;) {
            const outcome = applyTreeChange(tree.nodes, change);
            if (!outcome.ok && outcome.reason === 'gone' && !fresh) {
              // The cache may be behind another device: judge the change on the server's tree.
              tree = await reads.readAll(userId);
              fresh = true;
              continue;
            }
            if (!outcome.ok) throw new ApiError({ code: outcome.reason === 'gone' ? 'conflict' : 'invalid', message: outcome.message, status: 0 });
            if (!outcome.changed) return { version: tree.version, ...named };
            try {
              const { body } = await http.request('PUT', `${base(userId)}/folders`, {
                body: outcome.nodes,
                headers: { 'if-match': `"${tree.version}"` },
                schema: SaveTreeResponse,
              });
              await store.applyWorkspace(userId, body.workspace, { removed: body.deleted });
              return { version: body.version, ...named };
            } catch (error) {
              if (!isStale(error) || conflicts >= MAX_CONFLICT_RETRIES) throw error;
              conflicts += 1;
              log.warn(SYNC_LOG.conflict);
              tree = await reads.readAll(userId);
              fresh = true;
            }
          }
        }),
      );
    },

    /**
     * Saves a visor's sections with If-Match. On 412 the visor is read again and the tab's change
     * applied again on it when the two touched different sections (lib/sectionMerge.ts); else the
     * server's state stays. Every answer lands in Dexie, so every tab of the visor follows.
     */
    saveSecciones(visorId: string, save: SeccionesSave): Promise<Result<SeccionesSaveAnswer>> {
      return serial(() =>
        attempt(async (): Promise<SeccionesSaveAnswer> => {
          const userId = userOf();
          let { base, sections, version } = save;
          let merged = false;
          for (let conflicts = 0; ;) {
            try {
              const { body } = await http.request('PUT', `${visorPath(visorId)}/update_secciones`, {
                body: { secciones: sections },
                headers: { 'if-match': `"${version}"` },
                schema: VisorResponse,
              });
              await store.putVisor(userId, body.data);
              return { visor: body.data, outcome: merged ? 'merged' : 'saved' };
            } catch (error) {
              if (!isStale(error) || conflicts >= MAX_CONFLICT_RETRIES) throw error;
              conflicts += 1;
              log.warn(SYNC_LOG.visorConflict);
              const { body } = await http.request('GET', `${visorPath(visorId)}/get`, { schema: ReadVisorResponse });
              const fresh = body.data;
              if (!isOwnVisor(fresh)) throw error;
              await store.putVisor(userId, fresh);
              const outcome = mergeSections(base, sections, fresh.secciones);
              if (!outcome.ok) return { visor: fresh, outcome: 'server-won', clashes: outcome.clashes };
              base = fresh.secciones;
              sections = outcome.sections;
              version = fresh.version;
              merged = true;
            }
          }
        }),
      );
    },

    /** Public on or off (check_option); the cached visor follows. */
    setVisorPublic(visorId: string, value: boolean): Promise<Result<Visor>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          const { body } = await http.request('PUT', `${visorPath(visorId)}/check_option`, { body: { option: 'public', value }, schema: VisorResponse });
          await store.putVisor(userId, body.data);
          return body.data;
        }),
      );
    },

    /** Copies an own or public visor into the caller's tree (at the root); answers the copy's id. */
    cloneVisor(visorId: string): Promise<Result<{ visorId: string }>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          const { body } = await http.request('POST', `${base(userId)}/${encodeURIComponent(visorId)}/clonar`, { schema: NewVisorResponse });
          await store.applyWorkspace(userId, body.workspace, { visor: body.data.visor });
          return { visorId: body.data.id_visor };
        }),
      );
    },

    /** Whether the signed-in user owns the visor: the server decides (verify_owner_visor). */
    verifyOwner(visorId: string): Promise<Result<boolean>> {
      return attempt(async () => {
        const userId = userOf();
        const { body } = await http.request('POST', `${base(userId)}/${encodeURIComponent(visorId)}/verify_owner_visor`, { schema: OwnerResponse });
        return body.data.owner;
      });
    },

    /** The user opened a visor: Inicio's Recientes lists it first. */
    visorOpened(visorId: string): Promise<Result<void>> {
      return attempt(async () => {
        await store.opened(userOf(), visorId);
      });
    },

    /** Logout: deletes every cached record of the user. */
    wipe: (userId: string): Promise<void> => store.wipe(userId),
  };
}

export type WorkspaceSync = ReturnType<typeof createWorkspaceSync>;
