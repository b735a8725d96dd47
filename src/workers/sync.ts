// REST sync of the workspace into Dexie (issue 5): the worker reads the user's folder tree,
// visores and favourites into the local database that every tab renders from, and performs
// the writes tabs ask for. Each write is one request: the server answers it with the
// workspace as the write left it (tree, version, favourites; issue 16), which the worker
// stores as is (syncStore.ts). When to read the workspace again is syncRefresh.ts's. Tree
// saves carry If-Match; on 412 the workspace is read again and the change applied again when
// it still makes sense. A change of a visor answered 410 (deleted on another device or in another
// tab) forgets the visor here and reads the workspace again. Calls run one at a time, so an older
// read never overwrites a newer write.
import { applyTreeChange, type TreeChange } from '../lib/treeChanges';
import { mergeSections } from '../lib/sectionMerge';
import type { z } from 'zod';
import {
  DeleteVisorResponse,
  NewVisorResponse,
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
  type WorkspaceEvent,
} from '../protocol/workspace';
import type { LocalRevision, VisoresDb } from '../shared/db';
import { backoffDelay } from '../lib/backoff';
import { ApiError, attempt, NETWORK_ERROR_MESSAGE, NOT_SIGNED_IN_MESSAGE, toPlainError, type PlainError, type Result } from '../shared/errors';
import type { HttpClient } from '../shared/http';
import type { WorkerSession } from './api';
import type { EventLogger } from './eventLog';
import { createOutbox, type OutboxOp } from './outbox';
import { replayOp } from './outboxReplay';
import { createSyncRefresh, workspacePaths, type Tree } from './syncRefresh';
import { createSyncStore } from './syncStore';
import { saveTreeChange as saveTree } from './treeSave';

/** Saves tried again after a 412, each on a tree read again. */
export const MAX_CONFLICT_RETRIES = 3;

export const SYNC_LOG = {
  loadFailed: (message: string) => `Error al cargar las carpetas: ${message}`,
  conflict: 'El árbol de carpetas cambió en otra pestaña o dispositivo: se recarga y se vuelve a aplicar el cambio',
  visorConflict: 'El visor cambió en otra pestaña o dispositivo: se relee y se vuelve a aplicar el cambio cuando toca otras secciones',
  replayFailed: (message: string) => `No se pudieron enviar los cambios hechos sin conexión: ${message}. Se reintentará.`,
  visorGone: 'El servidor dice que el visor ya se borró (en otra pestaña o dispositivo): se olvida en este navegador y se releen las carpetas',
} as const;

/** What the user is told, once per run of failures, when the server fails the outbox's replay. */
export const REPLAY_FAILING_NOTICE = (message: string) =>
  `Hay cambios sin enviar porque el servidor falla (${message}). Se reintenta solo, cada vez más espaciado; no se pierde ningún cambio.`;

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
export type SeccionesSaveAnswer =
  { visor: Visor & LocalRevision; outcome: 'saved' | 'merged' } | { visor: Visor & LocalRevision; outcome: 'server-won'; clashes: string[] };

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
  /** A new visor's id: 32 lowercase hex digits (the create sends it, so a replay makes one visor). */
  newVisorId?: () => string;
  /** False while the server cannot be reached: writes go to the outbox (workers/online.ts). */
  isOnline?: () => boolean;
  /** Whether the server is reached once a proxy's 502/503/504 being checked is settled (online.ts); isOnline() by default. */
  settled?: () => Promise<boolean>;
  /** The user's outbox now holds this many writes (after every change of it). */
  onOutbox?: (pending: number) => void;
  /** A write of the outbox was refused or not applied: what the user is told (a toast in the tabs). */
  notify?: (message: string) => void;
  /** The server fails the replay (a 5xx): its message, while it lasts; null once a write goes through. */
  onReplayFailing?: (message: string | null) => void;
}

/** 128 random bits as 32 hex digits: letters and digits, as folder ids must be. */
export function randomFolderId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

/** 128 random bits as 32 lowercase hex digits, as a visor id the client chooses must be. */
export function randomVisorId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

/**
 * A replay the server failed (a 5xx, or anything else but no answer) is tried again after
 * OUTBOX_BACKOFF_FIRST_MS, doubling after each failure in a row up to OUTBOX_BACKOFF_MAX_MS;
 * a write that goes through starts the count again. The write is never dropped for it.
 */
export const OUTBOX_BACKOFF_FIRST_MS = 1000;
export const OUTBOX_BACKOFF_MAX_MS = 60_000;

/** How a replay step ended: `answered` is the HTTP status that came back (0: none). */
type ReplayStep = { ok: true; value: 'empty' | 'more' } | { ok: false; error: PlainError; answered: number };

/** The failure as the event log and the user read it: a proxy's 5xx without a message says its status. */
function failureText(error: PlainError, answered: number): string {
  return answered >= 500 && error.message === NETWORK_ERROR_MESSAGE ? `Error ${answered} del servidor` : error.message;
}

/** No answer from the server (offline, refused, a proxy's 502/503/504): the write waits in the outbox. */
const unreachable = (error: unknown) => error instanceof ApiError && error.isNetwork;

export function createWorkspaceSync(deps: WorkspaceSyncDeps) {
  const { db, http, log } = deps;
  const now = deps.now ?? Date.now;
  const newFolderId = deps.newFolderId ?? randomFolderId;
  const newVisorId = deps.newVisorId ?? randomVisorId;
  const isOnline = deps.isOnline ?? (() => true);
  const settled = deps.settled ?? (async () => isOnline());
  const notSignedIn = () => new ApiError({ code: 'not_signed_in', message: NOT_SIGNED_IN_MESSAGE, status: 0 });
  const { base, visor: visorPath } = workspacePaths;

  let chain: Promise<unknown> = Promise.resolve();
  /** One call at a time, in the order asked. */
  function serial<R extends Result<unknown> | ReplayStep>(work: () => Promise<R>): Promise<R> {
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
  const outbox = createOutbox({ db, now });

  const announce = async (userId: string) => deps.onOutbox?.(await outbox.count(userId));

  /** The outbox's writes applied again over what the server just answered (still pending there). */
  async function reapplyPending(userId: string): Promise<void> {
    for (const entry of await outbox.entries(userId)) await outbox.applyLocally(userId, entry.op);
  }

  /**
   * A write, offline first: kept in the outbox (and applied to the cache) when the server is
   * known to be unreachable or earlier writes still wait there (order), or when the request gets
   * no answer; else sent. `optimistic` answers the tab from the cache once kept.
   */
  async function offlineFirst<T>(userId: string, op: OutboxOp, online: () => Promise<T>, optimistic: () => Promise<T>): Promise<T> {
    let proxyFailed = false;
    if (isOnline() && (await outbox.count(userId)) === 0) {
      try {
        return await online();
      } catch (error) {
        // Sent and no answer: it may have landed; the replay is made to be harmless then.
        if (!unreachable(error)) throw error;
        proxyFailed = error instanceof ApiError && error.answered > 0;
      }
    }
    await outbox.add(userId, op);
    await announce(userId);
    if (proxyFailed) replayIfReached();
    return optimistic();
  }

  /**
   * A write kept after a proxy's 502/503/504: its server's health decides (online.ts). Reached,
   * no return of the network would send the write: it is replayed now, and while the server
   * keeps failing, after the backoff of a failing server (told once). Not reached, the return
   * replays it, as any write kept offline.
   */
  function replayIfReached(): void {
    void settled().then((reached) => {
      if (reached) void flush();
    });
  }

  const cachedOwnVisor = async (userId: string, visorId: string): Promise<Visor & LocalRevision> => {
    const record = await db.visores.get([userId, visorId]);
    if (!record || !isOwnVisor(record)) throw new ApiError({ code: 'not_found', message: 'El visor no está guardado en este navegador', status: 0 });
    const { userId: _owner, ...visor } = record;
    return visor;
  };

  let flushing: Promise<void> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Replays in a row the server failed: the next try waits backoffDelay of it. */
  let failures = 0;
  /** The failure last written to the event log in this run of failures: one entry per distinct failure. */
  let lastLogged: string | null = null;
  /** The server's failure the user was told of, until a write goes through. */
  let failing: string | null = null;

  /** A write went through (or there is none left): the backoff and the failure told are over. */
  function recovered(): void {
    failures = 0;
    lastLogged = null;
    if (failing == null) return;
    failing = null;
    deps.onReplayFailing?.(null);
  }

  /** The replay failed for a reason other than no answer: tried again later, each time later. */
  function failed(error: PlainError, answered: number): void {
    const text = failureText(error, answered);
    if (text !== lastLogged) {
      lastLogged = text;
      log.warn(SYNC_LOG.replayFailed(text));
    }
    if (answered >= 500 && failing !== text) {
      if (failing == null) deps.notify?.(REPLAY_FAILING_NOTICE(text));
      failing = text;
      deps.onReplayFailing?.(text);
    }
    const delay = backoffDelay(failures, OUTBOX_BACKOFF_FIRST_MS, OUTBOX_BACKOFF_MAX_MS);
    failures += 1;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void replay();
    }, delay);
  }

  /**
   * Replays the outbox (the server answers again, a worker starts). While a failure of the server
   * is being waited out, its timer replays and this asks nothing sooner.
   */
  function flush(): Promise<void> {
    if (retryTimer != null) return flushing ?? Promise.resolve();
    return replay();
  }

  /** Replays the outbox, one write per turn of the chain (edits made meanwhile queue behind). */
  function replay(): Promise<void> {
    flushing ??= (async () => {
      let replayed = false;
      for (;;) {
        const step = await serial(async (): Promise<ReplayStep> => {
          try {
            const userId = userOf();
            const [next] = await outbox.entries(userId);
            if (!next) return { ok: true, value: 'empty' };
            const outcome = await replayOp({ http, store }, userId, next.op);
            await outbox.remove(next.seq);
            if (outcome.kind === 'dropped') {
              // Another device deleted the visor this create made or this change was for: its later
              // edits go too, unsent, and the user is told once, unless one of them deleted it here as well.
              const unsent = outcome.deletedVisor == null ? [] : await outbox.dropNaming(userId, outcome.deletedVisor);
              log.warn(outcome.message);
              if (!unsent.some((op) => op.kind === 'deleteVisor')) deps.notify?.(outcome.message);
            }
            await reapplyPending(userId);
            await announce(userId);
            return { ok: true, value: 'more' };
          } catch (error) {
            return { ok: false, error: toPlainError(error), answered: error instanceof ApiError ? error.answered : 0 };
          }
        });
        if (!step.ok) {
          // No answer (offline, timed out): the tracker calls again when the server answers.
          // Signed out: nothing to send. Anything else (a 5xx, a proxy's 502/503/504 while the
          // server's health answers, a 401 the session will settle) is tried again later.
          if (step.error.code === 'not_signed_in') return;
          if (step.error.code === 'network' && step.answered === 0) return;
          failed(step.error, step.answered);
          return;
        }
        recovered();
        if (step.value === 'empty') break;
        replayed = true;
      }
      // Drained: the whole workspace once, so the cache is the server's again.
      if (replayed) {
        const read = await logged(async () => {
          const userId = userOf();
          await reads.readAll(userId);
          await reapplyPending(userId);
        });
        if (!read.ok) return;
      }
    })().finally(() => (flushing = null));
    return flushing;
  }

  /**
   * A pushed tree older than the cached one (events of two processes may cross on their way):
   * not stored over it. One of the same version is stored (a favourite of a visor outside the
   * tree, a rename, leave the version as it was).
   */
  async function olderTree(userId: string, version: number): Promise<boolean> {
    const cached = await db.folderTrees.get(userId);
    return cached != null && cached.version > version;
  }

  /** A pushed visor not older than the cached one (by its sections' version); one not cached only when `made` by the write. */
  async function newerVisor(userId: string, visor: Visor, made: boolean): Promise<boolean> {
    const cached = await db.visores.get([userId, visor.visor_id]);
    return cached == null ? made : cached.version <= visor.version;
  }

  /** Runs a read one at a time; a failure is only logged (spec section 8) and answered. */
  function logged(work: () => Promise<void>): Promise<Result<void>> {
    return serial(async () => {
      const result = await attempt(work);
      if (!result.ok) log.error(SYNC_LOG.loadFailed(result.error.message));
      return result;
    });
  }

  const isStale = (error: unknown) => error instanceof ApiError && error.status === 412;

  /**
   * A change of a visor answered 410: its owner deleted it on another device or in another tab
   * (server/workspace/service.ts missing()). It will never land, so this browser forgets the visor
   * at once (record, tree leaf, favourite, pending draft: the screen showing it says it is gone)
   * and reads the workspace again for the server's tree and favourites. The 410 still reaches the
   * caller; a failed read is only logged, the forgetting stands until the next one.
   */
  async function onVisor<T>(userId: string, visorId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 410)) throw error;
      log.warn(SYNC_LOG.visorGone);
      const read = await attempt(async () => {
        await store.forgetVisor(userId, visorId);
        await reads.readAll(userId);
      });
      if (!read.ok) log.error(SYNC_LOG.loadFailed(read.error.message));
      throw error;
    }
  }

  type Named = { folderId?: string };

  /** Applies a folder change to the tree and saves it with If-Match; on 412 reads it again and applies it again, while what it names is still there. */
  async function saveTreeChange(userId: string, cached: Tree | undefined, change: TreeChange, named: Named): Promise<{ version: number; folderId?: string }> {
    const outcome = await saveTree({ http, store }, userId, change, {
      ...(cached ? { tree: cached } : {}),
      read: () => reads.readAll(userId),
      maxConflicts: MAX_CONFLICT_RETRIES,
      onConflict: () => log.warn(SYNC_LOG.conflict),
    });
    if (!outcome.ok) throw new ApiError({ code: outcome.reason === 'gone' ? 'conflict' : 'invalid', message: outcome.message, status: 0 });
    return { version: outcome.version, ...named };
  }

  /** Offline: the change checked on the cached tree, kept in the outbox and applied to the cache. */
  async function keepTreeChange(userId: string, cached: Tree, change: TreeChange, named: Named): Promise<{ version: number; folderId?: string }> {
    const outcome = applyTreeChange(cached.nodes, change);
    if (!outcome.ok) throw new ApiError({ code: outcome.reason === 'gone' ? 'conflict' : 'invalid', message: outcome.message, status: 0 });
    if (outcome.changed) {
      await outbox.add(userId, { kind: 'tree', change });
      await announce(userId);
    }
    return { version: cached.version, ...named };
  }

  /**
   * PUT update_secciones with If-Match. On 412 the visor is read again and the change applied
   * again on it when the two touched different sections (lib/sectionMerge.ts); else the
   * server's state stays.
   */
  async function sendSecciones(userId: string, visorId: string, save: SeccionesSave): Promise<SeccionesSaveAnswer> {
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
  }

  return {
    /** Reads tree, visores and favourites into Dexie (at sign-in). */
    refresh(): Promise<Result<void>> {
      return logged(async () => {
        const userId = userOf();
        await announce(userId);
        // Writes wait from an earlier worker or tab: they go first (the read follows them).
        if ((await outbox.count(userId)) > 0) {
          void flush();
          return;
        }
        await reads.readAll(userId);
      });
    },

    /** The server answers again: the outbox is replayed. */
    flush,

    /**
     * Another device or browser of the user wrote (a `workspace` event on the market socket): what
     * the write answered its writer is stored the same way the writer stored it, in order with
     * this browser's own writes; a visor too big to push is read. While this browser's offline
     * changes wait, nothing is stored: their replay reads the workspace after it.
     */
    changedElsewhere(event: WorkspaceEvent, userId: string): Promise<Result<void>> {
      return logged(async () => {
        // Heard for `userId`: after a sign-out meanwhile, the store's checks refuse it.
        if (deps.getSession()?.userId !== userId || (await outbox.count(userId)) > 0) return;
        // A visor this browser does not have is stored only when the event made it; any other
        // (a late event of a visor deleted since) is read, which a deleted one answers 410.
        const made = event.change === 'create' || event.change === 'clone';
        const visor = event.visor && (await newerVisor(userId, event.visor, made)) ? event.visor : undefined;
        if (event.workspace && !(await olderTree(userId, event.workspace.version))) {
          await store.applyWorkspace(userId, event.workspace, { ...(visor ? { visor } : {}), ...(event.removed ? { removed: event.removed } : {}) });
        } else {
          if (visor) await store.putVisor(userId, visor);
          // A delete is never undone: its ids go even when the tree that came with them is older.
          if (event.removed?.length) await store.removeVisores(userId, event.removed);
        }
        if (event.visor && !visor && !made && !(await db.visores.get([userId, event.visor.visor_id]))) {
          await reads.readBehind(userId, event.visor.visor_id, event.visor.version, true);
        }
        // A rename or Público leaves the sections' version as it was: read whatever it says.
        if (event.behind) await reads.readBehind(userId, event.behind.id, event.behind.version, event.change !== 'sections');
      });
    },

    /** The market socket is back after being away: what changed meanwhile, elsewhere, is read once. */
    reconnected(): Promise<Result<void>> {
      return logged(async () => {
        const userId = deps.getSession()?.userId;
        if (userId && (await outbox.count(userId)) === 0) await reads.readAll(userId);
      });
    },

    /** A tab became visible: the version check, when the cache was last confirmed a while ago. Signed out, nothing. */
    visible(): Promise<Result<void>> {
      return logged(async () => {
        const userId = deps.getSession()?.userId;
        // While writes wait, a read would show the server without them; the replay reads after.
        if (userId && (await outbox.count(userId)) === 0) await reads.visible(userId);
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
            await reapplyPending(userId);
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
          const visorId = newVisorId();
          const request = { ...fields, visor_id: visorId, ...(folderId === undefined ? {} : { folder_id: folderId }) };
          const op: OutboxOp = folderId === undefined ? { kind: 'createVisor', visorId, fields } : { kind: 'createVisor', visorId, fields, folderId };
          return offlineFirst(
            userId,
            op,
            async () => {
              const { body } = await http.request('POST', `${base(userId)}/new`, { body: request, schema: NewVisorResponse });
              await store.applyWorkspace(userId, body.workspace, { visor: body.data.visor });
              return { visorId: body.data.id_visor };
            },
            async () => ({ visorId }),
          );
        }),
      );
    },

    /** Title, emoji, colour; the server keeps the tree leaf in step. */
    updateVisor(visorId: string, fields: VisorFields): Promise<Result<Visor>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          return offlineFirst(
            userId,
            { kind: 'updateVisor', visorId, fields },
            () =>
              onVisor(userId, visorId, async () => {
                const { body } = await http.request('PUT', visorPath(visorId), { body: fields, schema: UpdateVisorResponse });
                await store.applyWorkspace(userId, body.workspace, { visor: body.data });
                return body.data;
              }),
            () => cachedOwnVisor(userId, visorId),
          );
        }),
      );
    },

    /** Deletes a visor; its leaf leaves the tree when the server answers 'ok', or 410 (deleted already). */
    deleteVisor(visorId: string): Promise<Result<void>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          await offlineFirst(
            userId,
            { kind: 'deleteVisor', visorId },
            async () => {
              try {
                await onVisor(userId, visorId, async () => {
                  const { body } = await http.request('DELETE', visorPath(visorId), { schema: DeleteVisorResponse });
                  await store.applyWorkspace(userId, body.workspace, { removed: [visorId] });
                });
              } catch (error) {
                // Deleted already, on another device or in another tab: what the user asked is done
                // (onVisor forgot it here), as the outbox's replay counts it.
                if (!(error instanceof ApiError && error.status === 410)) throw error;
              }
            },
            async () => undefined,
          );
        }),
      );
    },

    /** Flips a visor's favourite; answers the new value (the cached visor follows the favourites answered). */
    toggleVisorFavourite(visorId: string): Promise<Result<{ fav: boolean }>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          // Kept offline as the value it sets (a toggle sent twice would undo itself).
          const cached = await db.visores.get([userId, visorId]);
          const fav = !(cached && isOwnVisor(cached) && cached.fav);
          return offlineFirst(
            userId,
            { kind: 'favourite', visorId, fav },
            () =>
              onVisor(userId, visorId, async () => {
                const { body } = await http.request('PUT', `${base(userId)}/${encodeURIComponent(visorId)}/fav`, { schema: ToggleFavResponse });
                await store.applyWorkspace(userId, body.workspace);
                return { fav: body.data.fav };
              }),
            async () => ({ fav }),
          );
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
          if (cached && (!isOnline() || (await outbox.count(userId)) > 0)) return keepTreeChange(userId, cached, change, named);
          try {
            return await saveTreeChange(userId, cached, change, named);
          } catch (error) {
            if (!unreachable(error)) throw error;
            const now = await db.folderTrees.get(userId);
            if (!now) throw error;
            const kept = await keepTreeChange(userId, now, change, named);
            if (error instanceof ApiError && error.answered > 0) replayIfReached();
            return kept;
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
          return offlineFirst(
            userId,
            { kind: 'secciones', visorId, base: save.base, sections: save.sections, version: save.version },
            () => onVisor(userId, visorId, () => sendSecciones(userId, visorId, save)),
            async () => ({ visor: await cachedOwnVisor(userId, visorId), outcome: 'saved' }),
          );
        }),
      );
    },

    /** Public on or off (check_option); the cached visor follows. */
    setVisorPublic(visorId: string, value: boolean): Promise<Result<Visor>> {
      return serial(() =>
        attempt(async () => {
          const userId = userOf();
          return offlineFirst(
            userId,
            { kind: 'public', visorId, value },
            () =>
              onVisor(userId, visorId, async () => {
                const { body } = await http.request('PUT', `${visorPath(visorId)}/check_option`, { body: { option: 'public', value }, schema: VisorResponse });
                await store.putVisor(userId, body.data);
                return body.data;
              }),
            () => cachedOwnVisor(userId, visorId),
          );
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

    /** Logout: deletes every cached record of the user (and stops waiting to replay their writes). */
    async wipe(userId: string): Promise<void> {
      if (retryTimer != null) clearTimeout(retryTimer);
      retryTimer = null;
      recovered();
      await Promise.all([store.wipe(userId), outbox.wipe(userId)]);
    },

    /** How many writes the user's outbox holds. */
    pending: (userId: string): Promise<number> => outbox.count(userId),
  };
}

export type WorkspaceSync = ReturnType<typeof createWorkspaceSync>;
