// When the worker reads the workspace from the server (issue 16, "refresh policy"): at
// sign-in (the whole of it: the tree, the list of visores without their sections, the
// favourites, then the sections of each visor not cached at its listed version, so every own
// visor still opens offline), on a 412 (the tree moved on: the whole of it again), and when a
// tab becomes visible after a while, with a version check that costs one GET answered 304
// without a body while nothing changed; when it did (another device), the whole of it. And
// when the market socket is back after being away (what other devices changed meanwhile; while
// it is connected, their changes come on it whole, and only a visor too big to push is read).
// Mounting a screen reads nothing: the tabs render Dexie, which every write keeps current.
// Tabs of one browser share the worker and Dexie, so a change in one needs no read in another.
import { FavsResponse, FolderTreeResponse, ReadVisorResponse, VisorListResponse, isOwnVisor, type TreeNode, type VisorSummary } from '../protocol/workspace';
import type { VisoresDb } from '../shared/db';
import { ApiError } from '../shared/errors';
import type { HttpClient } from '../shared/http';
import type { SyncStore } from './syncStore';

/**
 * A tab that becomes visible asks for a version check only when the cached workspace was last
 * confirmed by the server at least this long ago. A minute: going back and forth between tabs
 * or windows while working costs nothing, and a change made on another device shows within a
 * minute of coming back. Every write and every check confirms it, in any tab of the browser.
 */
export const CHECK_AFTER_MS = 60_000;

/** The API's paths of a user's workspace. */
export const workspacePaths = {
  base: (userId: string) => `/visores/${encodeURIComponent(userId)}`,
  visor: (visorId: string) => `/visores/${encodeURIComponent(visorId)}`,
};

/** A tree as read, with the version a save sends as If-Match. */
export interface Tree {
  nodes: TreeNode[];
  version: number;
}

export interface SyncRefreshDeps {
  db: VisoresDb;
  http: HttpClient;
  store: SyncStore;
  now: () => number;
}

/** Visores whose sections a full read fetches at once: a first sign-in with many reads them a few at a time. */
export const PARALLEL_VISOR_READS = 4;
/** A read refused for the user's pace (429) without a Retry-After is asked again after this… */
const PACED_RETRY_MS = 2000;
/** …and a full read gives up after this many refusals (the next one goes on). */
const MAX_PACED_REFUSALS = 20;

export function createSyncRefresh({ db, http, store, now }: SyncRefreshDeps) {
  const { base, visor } = workspacePaths;

  async function fetchTree(userId: string): Promise<Tree> {
    const { body } = await http.request('GET', `${base(userId)}/folders`, { schema: FolderTreeResponse });
    return { nodes: body.data, version: body.version };
  }

  /**
   * Reads the sections of the user's visores `visorIds` (GET …/get, a few at a time) into the
   * cache, so each opens offline later. One deleted meanwhile (404, 410) is skipped: the next
   * read of the list drops it.
   */
  async function readVisores(userId: string, visorIds: readonly string[]): Promise<void> {
    const queue = [...visorIds];
    let refusals = 0;
    // A reader that failed ends the read: the others stop at their next visor.
    let failed = false;
    const reader = async () => {
      for (let visorId = queue.shift(); visorId !== undefined && !failed; visorId = queue.shift()) {
        try {
          const { body } = await http.request('GET', `${visor(visorId)}/get`, { schema: ReadVisorResponse });
          if (isOwnVisor(body.data)) await store.putVisor(userId, body.data);
        } catch (error) {
          if (error instanceof ApiError && error.status === 429 && refusals++ < MAX_PACED_REFUSALS) {
            // Many visores read on a new device can pass the user's request budget: this one
            // again once the server says, the rest after it.
            queue.unshift(visorId);
            await new Promise((resolve) => setTimeout(resolve, error.retryAfterMs ?? PACED_RETRY_MS));
            continue;
          }
          if (!(error instanceof ApiError && (error.status === 404 || error.status === 410))) {
            failed = true;
            throw error;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_VISOR_READS, queue.length) }, reader));
  }

  /**
   * Reads tree (unless given: the version check just read it), the list of visores and the
   * favourites and stores them as one state, then the sections of each visor this browser lacks
   * or has at another version (the list carries none); answers the tree stored.
   */
  async function readAll(userId: string, known?: Tree): Promise<Tree> {
    const [tree, visores, favourites] = await Promise.all([
      known ?? fetchTree(userId),
      http.request('GET', base(userId), { schema: VisorListResponse }).then((answer): VisorSummary[] => answer.body.data),
      http.request('GET', `${base(userId)}/getFavs`, { schema: FavsResponse }).then((answer) => answer.body.data),
    ]);
    const unread = await store.applyWorkspace(userId, { tree: tree.nodes, version: tree.version, favourites }, { ownVisores: visores });
    await readVisores(userId, unread);
    return tree;
  }

  /**
   * GET the tree with If-None-Match: the cached version. 304 (the server answers it without
   * a body, which the HTTP client reports as a non-2xx status): nothing changed, the cache is
   * confirmed. 200: another device changed it; the whole workspace is read again.
   */
  async function checkVersion(userId: string): Promise<void> {
    const cached = await db.folderTrees.get(userId);
    if (!cached) {
      await readAll(userId);
      return;
    }
    let tree: Tree;
    try {
      const { body } = await http.request('GET', `${base(userId)}/folders`, {
        schema: FolderTreeResponse,
        headers: { 'if-none-match': `"${cached.version}"` },
        // The answer is for this comparison only; the browser's cache must neither answer nor keep it.
        cache: 'no-store',
      });
      tree = { nodes: body.data, version: body.version };
    } catch (error) {
      if (error instanceof ApiError && error.status === 304) {
        await store.confirmed(userId);
        return;
      }
      throw error;
    }
    await readAll(userId, tree);
  }

  return {
    readAll,

    /**
     * Reads a visor into the cache (a `workspace` event's `behind`) unless it has its sections at
     * `version` or later; `always`: read it whatever its version (a rename or Público, which leave it).
     */
    async readBehind(userId: string, visorId: string, version: number, always = false): Promise<void> {
      const cached = await db.visores.get([userId, visorId]);
      if (!always && cached && cached.version >= version) return;
      await readVisores(userId, [visorId]);
    },

    /** A tab became visible: a version check when the cache was last confirmed CHECK_AFTER_MS ago or more (or never). */
    async visible(userId: string): Promise<void> {
      const cached = await db.folderTrees.get(userId);
      if (cached && now() - cached.syncedAt < CHECK_AFTER_MS) return;
      await checkVersion(userId);
    },
  };
}

export type SyncRefresh = ReturnType<typeof createSyncRefresh>;
