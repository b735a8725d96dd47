// The folder-tree changes a tab asks for, as intents rather than finished trees, so the
// worker can apply one again to a tree another tab or device saved in between (a 412 on
// save): it still makes sense when the folders it names are still there.
import type { TreeNode } from '../protocol/workspace';
import { appendNode, findFolder, moveNode, removeNode, updateFolder, withFavourite, type NodeRef } from './folderTree';

export type TreeChange =
  /** Spec: add at the root or under a chosen parent; the worker gives the folder its id. */
  | { kind: 'addFolder'; parentId: string | null; folder_id: string; name: string; emoji: string }
  | { kind: 'editFolder'; folderId: string; name: string; emoji: string }
  /** Deleting a folder deletes every visor inside it (the server does, on save). */
  | { kind: 'deleteFolder'; folderId: string }
  /** Set rather than toggled, so applying it again after a conflict cannot undo it. */
  | { kind: 'setFolderFavourite'; folderId: string; fav: boolean }
  | { kind: 'move'; node: NodeRef; parentId: string | null; index: number };

export const TREE_CHANGE_MESSAGES = {
  folderGone: 'La carpeta ya no existe: se borró en otra pestaña o dispositivo',
  nodeGone: 'El elemento ya no está en el árbol: se borró en otra pestaña o dispositivo',
  targetGone: 'La carpeta de destino ya no existe: se borró en otra pestaña o dispositivo',
  intoItself: 'No se puede mover una carpeta dentro de sí misma',
  duplicateFolder: 'Ya existe una carpeta con ese identificador',
} as const;

/**
 * The tree with the change applied (`changed` false when there is nothing left to do), or
 * why not: 'gone' when something it names is no longer in the tree, 'invalid' when it never
 * could apply.
 */
export type ChangeOutcome = { ok: true; nodes: TreeNode[]; changed: boolean } | { ok: false; reason: 'gone' | 'invalid'; message: string };

const done = (nodes: TreeNode[] | null, missing: string): ChangeOutcome =>
  nodes == null ? { ok: false, reason: 'gone', message: missing } : { ok: true, nodes, changed: true };

export function applyTreeChange(nodes: readonly TreeNode[], change: TreeChange): ChangeOutcome {
  switch (change.kind) {
    case 'addFolder': {
      // Applied again after a conflict, the folder may be there already (a save that did land).
      if (findFolder(nodes, change.folder_id) != null) return { ok: false, reason: 'invalid', message: TREE_CHANGE_MESSAGES.duplicateFolder };
      const folder = { folder_id: change.folder_id, name: change.name, emoji: change.emoji, sub: [] };
      return done(appendNode(nodes, change.parentId, folder), TREE_CHANGE_MESSAGES.targetGone);
    }
    case 'editFolder':
      return done(
        updateFolder(nodes, change.folderId, (folder) => ({ ...folder, name: change.name, emoji: change.emoji })),
        TREE_CHANGE_MESSAGES.folderGone,
      );
    case 'deleteFolder': {
      const taken = removeNode(nodes, { kind: 'folder', id: change.folderId });
      // Already gone (another tab deleted it): what the user wanted is done.
      return taken == null ? { ok: true, nodes: [...nodes], changed: false } : { ok: true, nodes: taken.nodes, changed: true };
    }
    case 'setFolderFavourite':
      return done(
        updateFolder(nodes, change.folderId, (folder) => withFavourite(folder, change.fav)),
        TREE_CHANGE_MESSAGES.folderGone,
      );
    case 'move': {
      const moved = moveNode(nodes, change.node, change.parentId, change.index);
      if (moved.ok) return { ok: true, nodes: moved.nodes, changed: true };
      if (moved.reason === 'into_itself') return { ok: false, reason: 'invalid', message: TREE_CHANGE_MESSAGES.intoItself };
      return { ok: false, reason: 'gone', message: moved.reason === 'node_missing' ? TREE_CHANGE_MESSAGES.nodeGone : TREE_CHANGE_MESSAGES.targetGone };
    }
  }
}
