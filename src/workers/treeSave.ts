// A folder change saved on the server's tree (issues 5 and 21): the one save behind a tab's tree
// change (sync.ts) and behind the outbox's replay of one made offline (outboxReplay.ts). The
// change is applied to a tree and the result saved with If-Match; the server's answer (the
// workspace as the save left it) is stored. On a 412 the tree is read again and the change
// applied again, while what it names is still there.
import { applyTreeChange, type TreeChange } from '../lib/treeChanges';
import { SaveTreeResponse } from '../protocol/workspace';
import { ApiError } from '../shared/errors';
import type { HttpClient } from '../shared/http';
import { workspacePaths, type Tree } from './syncRefresh';
import type { SyncStore } from './syncStore';

export interface TreeSaveDeps {
  http: HttpClient;
  store: SyncStore;
}

export interface TreeSaveOptions {
  /** The tree to apply the change to first (the cached one); without it, `read` gives it. */
  tree?: Tree;
  /** The server's tree, read again (and first, without `tree`). */
  read(): Promise<Tree>;
  /** Saves tried again after a 412, each on a tree read again. */
  maxConflicts: number;
  /** A save met a 412 and is tried again. */
  onConflict?(): void;
}

/** Saved, or nothing to save (`changed: false`: the tree has it already), with the tree's version; or why the change no longer applies. */
export type TreeSaveOutcome = { ok: true; changed: boolean; version: number } | { ok: false; reason: 'gone' | 'invalid'; message: string };

/** Applies `change` and saves the tree with If-Match; throws what the server answered otherwise (a 412 after `maxConflicts` tries). */
export async function saveTreeChange({ http, store }: TreeSaveDeps, userId: string, change: TreeChange, options: TreeSaveOptions): Promise<TreeSaveOutcome> {
  let tree = options.tree ?? (await options.read());
  let fresh = options.tree == null;
  for (let conflicts = 0; ;) {
    const outcome = applyTreeChange(tree.nodes, change);
    if (!outcome.ok && outcome.reason === 'gone' && !fresh) {
      // The cache may be behind another device: judge the change on the server's tree.
      tree = await options.read();
      fresh = true;
      continue;
    }
    if (!outcome.ok) return outcome;
    if (!outcome.changed) return { ok: true, changed: false, version: tree.version };
    try {
      const { body } = await http.request('PUT', `${workspacePaths.base(userId)}/folders`, {
        body: outcome.nodes,
        headers: { 'if-match': `"${tree.version}"` },
        schema: SaveTreeResponse,
      });
      await store.applyWorkspace(userId, body.workspace, { removed: body.deleted });
      return { ok: true, changed: true, version: body.version };
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 412) || conflicts >= options.maxConflicts) throw error;
      conflicts += 1;
      options.onConflict?.();
      tree = await options.read();
      fresh = true;
    }
  }
}
