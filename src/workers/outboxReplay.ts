// The replay of one outbox write when the server answers again (issue 21). Each write is
// sent so that sending it twice changes nothing more than once: tree changes are applied
// again on the server's tree and saved with If-Match (a change already there is done), a
// favourite is set to its value after reading it, a create names its visor's id, a section
// save whose sections the server already has is done. A 412 is rebased when the changes do
// not overlap; otherwise the server's state stays and the answer says what was kept. A create
// the server answers 410 (another device deleted that visor after the first send landed) is
// dropped with the edits of that visor, and the user told; so is a change (fields, sections,
// Público, favourite, a move in the tree) of a visor another device deleted meanwhile (410 too:
// the server's tombstone of its id). A delete answered 404 or 410 is done: it is gone either way.
import { TREE_CHANGE_MESSAGES } from '../lib/treeChanges';
import { mergeSections, sameJson } from '../lib/sectionMerge';
import {
  DeleteVisorResponse,
  FavResponse,
  FolderTreeResponse,
  NewVisorResponse,
  ReadVisorResponse,
  ToggleFavResponse,
  UpdateVisorResponse,
  VisorResponse,
  isOwnVisor,
} from '../protocol/workspace';
import { ApiError } from '../shared/errors';
import type { HttpClient } from '../shared/http';
import { visorOf, type OutboxOp } from './outbox';
import { workspacePaths } from './syncRefresh';
import type { SyncStore } from './syncStore';
import { saveTreeChange } from './treeSave';

/** Tries of one write that meet a 412 each (every try reads the server's state again). */
export const MAX_REPLAY_CONFLICTS = 3;

export const OUTBOX_MESSAGES = {
  refused: (what: string, message: string) => `No se guardó un cambio hecho sin conexión (${what}): ${message}`,
  sectionsClash: (title: string) =>
    `Visor «${title}»: otra pestaña o dispositivo cambió las mismas secciones mientras no había conexión; se conservó la versión del servidor y no el cambio hecho sin conexión.`,
  treeGone: (message: string) => `Un cambio de carpetas hecho sin conexión no se aplicó: ${message}. Se conservó el árbol del servidor.`,
  visorDeleted: (title: string) =>
    `El visor «${title}» se borró en otro dispositivo: no se volvió a crear y se descartaron los cambios hechos en él sin conexión.`,
  /** A change of a visor the server says was deleted (410); `null` when this device kept no title of it. */
  editsOfDeletedVisor: (title: string | null) =>
    `${title == null ? 'Un visor' : `El visor «${title}»`} se borró en otro dispositivo: se descartaron los cambios hechos en él sin conexión.`,
} as const;

/** What the op was, in words, for a toast. */
export function describeOp(op: OutboxOp): string {
  switch (op.kind) {
    case 'tree':
      return 'carpetas';
    case 'createVisor':
      return `crear el visor «${op.fields.title}»`;
    case 'updateVisor':
      return `cambiar el visor «${op.fields.title}»`;
    case 'deleteVisor':
      return 'borrar un visor';
    case 'favourite':
      return 'favorito';
    case 'public':
      return 'visor público';
    case 'secciones':
      return 'secciones del visor';
  }
}

/**
 * Done as asked (or already done), or left out with what the user is told; `deletedVisor`: the
 * create or change was refused because another device deleted that visor (410), so the ops
 * after it that name the visor go too (unsent, with this one toast).
 */
export type ReplayOutcome = { kind: 'done' } | { kind: 'dropped'; message: string; deletedVisor?: string };

const isStatus = (error: unknown, status: number) => error instanceof ApiError && error.status === status;

export interface ReplayDeps {
  http: HttpClient;
  store: SyncStore;
}

/**
 * Sends one write. Throws when it should be tried again later (no answer, a 5xx, a 401: the
 * session is the tab's to settle); answers `dropped` for any other refusal (a 4xx), so one bad
 * write never blocks the ones after it.
 */
export async function replayOp({ http, store }: ReplayDeps, userId: string, op: OutboxOp): Promise<ReplayOutcome> {
  const { base, visor: visorPath } = workspacePaths;
  const favPathOf = (visorId: string) => `${base(userId)}/${encodeURIComponent(visorId)}/fav`;

  /** The visor was deleted on the server (its tombstone): this device forgets it, and the op goes with the ones waiting for it. */
  const forgotten = async (visorId: string): Promise<ReplayOutcome> => {
    const title = (await store.forgetVisor(userId, visorId)) ?? (op.kind === 'updateVisor' ? op.fields.title : null);
    return { kind: 'dropped', message: OUTBOX_MESSAGES.editsOfDeletedVisor(title), deletedVisor: visorId };
  };

  /** Whether the server says the user's visor was deleted (410 on its favourite); another refusal is no; no answer or a 5xx throws (tried again later). */
  const deletedOnServer = async (visorId: string): Promise<boolean> => {
    try {
      await http.request('GET', favPathOf(visorId), { schema: FavResponse, cache: 'no-store' });
      return false;
    } catch (error) {
      if (isStatus(error, 410)) return true;
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
      throw error;
    }
  };

  try {
    switch (op.kind) {
      case 'tree': {
        const outcome = await saveTreeChange({ http, store }, userId, op.change, {
          read: async () => {
            const { body } = await http.request('GET', `${base(userId)}/folders`, { schema: FolderTreeResponse, cache: 'no-store' });
            return { nodes: body.data, version: body.version };
          },
          maxConflicts: MAX_REPLAY_CONFLICTS,
        });
        // The folder it adds is there: that save did land (its answer was lost).
        if (!outcome.ok && outcome.message === TREE_CHANGE_MESSAGES.duplicateFolder) return { kind: 'done' };
        // A move of a visor no longer in the server's tree: deleted on another device (its
        // fav answers 410), then this and its waiting edits go with one notice.
        const moved = op.change.kind === 'move' && op.change.node.kind === 'visor' ? op.change.node.id : null;
        if (!outcome.ok && moved != null && outcome.message === TREE_CHANGE_MESSAGES.nodeGone && (await deletedOnServer(moved))) {
          return await forgotten(moved);
        }
        if (!outcome.ok) return { kind: 'dropped', message: OUTBOX_MESSAGES.treeGone(outcome.message) };
        return { kind: 'done' };
      }
      case 'createVisor': {
        const request = { ...op.fields, visor_id: op.visorId, ...(op.folderId === undefined ? {} : { folder_id: op.folderId }) };
        const create = async (body: typeof request) => {
          const { body: answer } = await http.request('POST', `${base(userId)}/new`, { body, schema: NewVisorResponse });
          await store.applyWorkspace(userId, answer.workspace, { visor: answer.data.visor });
        };
        try {
          try {
            await create(request);
          } catch (error) {
            // Its folder was deleted meanwhile: the visor is made at the root rather than lost.
            if (!isStatus(error, 400) || op.folderId == null) throw error;
            await create({ ...request, folder_id: null });
          }
        } catch (error) {
          // Its first send landed (the answer was lost) and another device deleted it since: the
          // server keeps it deleted (a tombstone of its id), and so does this device.
          if (!isStatus(error, 410)) throw error;
          await store.forgetVisor(userId, op.visorId);
          return { kind: 'dropped', message: OUTBOX_MESSAGES.visorDeleted(op.fields.title), deletedVisor: op.visorId };
        }
        return { kind: 'done' };
      }
      case 'updateVisor': {
        const { body } = await http.request('PUT', visorPath(op.visorId), { body: op.fields, schema: UpdateVisorResponse });
        await store.applyWorkspace(userId, body.workspace, { visor: body.data });
        return { kind: 'done' };
      }
      case 'deleteVisor': {
        try {
          const { body } = await http.request('DELETE', visorPath(op.visorId), { schema: DeleteVisorResponse });
          await store.applyWorkspace(userId, body.workspace, { removed: [op.visorId] });
        } catch (error) {
          // Already gone (this very delete landed before, or another device's: 410 for a visor of
          // this user the server deleted, 404 for one it never had).
          if (!isStatus(error, 404) && !isStatus(error, 410)) throw error;
          await store.forgetVisor(userId, op.visorId);
        }
        return { kind: 'done' };
      }
      case 'favourite': {
        // PUT fav toggles: read it first, so a toggle that landed is not undone.
        const favPath = favPathOf(op.visorId);
        const { body: now } = await http.request('GET', favPath, { schema: FavResponse, cache: 'no-store' });
        if (now.data.fav === op.fav) return { kind: 'done' };
        const { body } = await http.request('PUT', favPath, { schema: ToggleFavResponse });
        await store.applyWorkspace(userId, body.workspace);
        return { kind: 'done' };
      }
      case 'public': {
        const { body } = await http.request('PUT', `${visorPath(op.visorId)}/check_option`, {
          body: { option: 'public', value: op.value },
          schema: VisorResponse,
        });
        await store.putVisor(userId, body.data);
        return { kind: 'done' };
      }
      case 'secciones': {
        let { base: from, sections, version } = op;
        for (let conflicts = 0; ; conflicts++) {
          try {
            const { body } = await http.request('PUT', `${visorPath(op.visorId)}/update_secciones`, {
              body: { secciones: sections },
              headers: { 'if-match': `"${version}"` },
              schema: VisorResponse,
            });
            await store.putVisor(userId, body.data);
            return { kind: 'done' };
          } catch (error) {
            if (!isStatus(error, 412) || conflicts >= MAX_REPLAY_CONFLICTS) throw error;
          }
          const { body } = await http.request('GET', `${visorPath(op.visorId)}/get`, { schema: ReadVisorResponse, cache: 'no-store' });
          const fresh = body.data;
          if (!isOwnVisor(fresh)) return { kind: 'dropped', message: OUTBOX_MESSAGES.refused(describeOp(op), 'el visor ya no es suyo') };
          await store.putVisor(userId, fresh);
          // The server has these sections already: this save landed before (its answer was lost).
          if (sameJson(fresh.secciones, sections)) return { kind: 'done' };
          const merged = mergeSections(from, sections, fresh.secciones);
          if (!merged.ok) return { kind: 'dropped', message: OUTBOX_MESSAGES.sectionsClash(fresh.title) };
          from = fresh.secciones;
          sections = merged.sections;
          version = fresh.version;
        }
      }
    }
  } catch (error) {
    // A change of a visor another device deleted meanwhile (its tombstone): it will never land,
    // nor will the others waiting for that visor. This device forgets it too.
    const visorId = visorOf(op);
    if (visorId != null && isStatus(error, 410)) return forgotten(visorId);
    if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 408 && error.status !== 429) {
      return { kind: 'dropped', message: OUTBOX_MESSAGES.refused(describeOp(op), error.message) };
    }
    throw error;
  }
}
