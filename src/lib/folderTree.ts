// Pure functions over a user's folder tree (spec section 3). No I/O: the server validates
// and rewrites trees with them, and the client can reuse them.
import {
  isFolderNode,
  storedColor,
  TREE_LIMITS,
  TREE_TOO_DEEP,
  TREE_TOO_LARGE,
  visorLink,
  type FolderNode,
  type TreeNode,
  type Visor,
  type VisorNode,
} from '../protocol/workspace';

export interface TreeShape {
  nodeCount: number;
  /** Deepest level; a root node is at depth 1. */
  depth: number;
  visorIds: string[];
  folderIds: string[];
}

export function treeShape(nodes: readonly TreeNode[]): TreeShape {
  const shape: TreeShape = { nodeCount: 0, depth: 0, visorIds: [], folderIds: [] };
  const walk = (list: readonly TreeNode[], level: number) => {
    for (const node of list) {
      shape.nodeCount += 1;
      shape.depth = Math.max(shape.depth, level);
      if (isFolderNode(node)) {
        shape.folderIds.push(node.folder_id);
        walk(node.sub, level + 1);
      } else {
        shape.visorIds.push(node.visor_id);
      }
    }
  };
  walk(nodes, 1);
  return shape;
}

function firstDuplicate(ids: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return null;
}

/** The first rule the tree breaks, as the message the UI shows, or null when it is valid. */
export function treeProblem(nodes: readonly TreeNode[]): string | null {
  const shape = treeShape(nodes);
  if (shape.nodeCount > TREE_LIMITS.maxNodes) return TREE_TOO_LARGE;
  if (shape.depth > TREE_LIMITS.maxDepth) return TREE_TOO_DEEP;
  const folder = firstDuplicate(shape.folderIds);
  if (folder != null) return `folder_id repetido en el árbol: ${folder}`;
  const visor = firstDuplicate(shape.visorIds);
  if (visor != null) return `visor_id repetido en el árbol: ${visor}`;
  return null;
}

/**
 * Rewrites every visor leaf with `update`; a leaf for which it returns null is removed.
 * Returns a new tree; the input is not changed.
 */
export function mapVisorLeaves(nodes: readonly TreeNode[], update: (leaf: VisorNode) => VisorNode | null): TreeNode[] {
  const result: TreeNode[] = [];
  for (const node of nodes) {
    if (isFolderNode(node)) {
      result.push({ ...node, sub: mapVisorLeaves(node.sub, update) });
    } else {
      const next = update(node);
      if (next != null) result.push(next);
    }
  }
  return result;
}

/** The tree leaf of a visor: the visor row is the truth for its fields (issue 3). */
export function leafOfVisor(visor: Pick<Visor, 'visor_id' | 'title' | 'emoji' | 'color' | 'fav'>): VisorNode {
  return { visor_id: visor.visor_id, name: visor.title, emoji: visor.emoji, color: visor.color, fav: visor.fav, to: visorLink(visor.visor_id) };
}

/**
 * A stored tree as the server answers it (issue 17): a folder with its own fields only (a
 * tree saved before kept a client's `to`, `icon` and `subActivePaths`), a leaf with the link
 * the server derives and a colour that parses. A tree saved now comes out unchanged.
 */
export function cleanStoredTree(nodes: readonly TreeNode[]): TreeNode[] {
  return nodes.map((node): TreeNode => {
    if (isFolderNode(node)) {
      const folder: FolderNode = { folder_id: node.folder_id, name: node.name, emoji: node.emoji, sub: cleanStoredTree(node.sub) };
      if (node.fav !== undefined) folder.fav = node.fav;
      if (node.heading !== undefined) folder.heading = node.heading;
      if (node.over !== undefined) folder.over = node.over;
      return folder;
    }
    const leaf: VisorNode = { visor_id: node.visor_id, name: node.name, emoji: node.emoji, color: storedColor(node.color), to: visorLink(node.visor_id) };
    if (node.fav !== undefined) leaf.fav = node.fav;
    return leaf;
  });
}

/** Appends `node` to the folder `parentId`, or to the root when it is null; null when there is no such folder. */
export function appendNode(nodes: readonly TreeNode[], parentId: string | null, node: TreeNode): TreeNode[] | null {
  return insertNode(nodes, parentId, Number.MAX_SAFE_INTEGER, node);
}

/** Favourite folders, each with its whole subtree; folders inside a favourite are not repeated. */
export function favouriteFolders(nodes: readonly TreeNode[]): FolderNode[] {
  const result: FolderNode[] = [];
  const walk = (list: readonly TreeNode[]) => {
    for (const node of list) {
      if (!isFolderNode(node)) continue;
      if (node.fav === true) result.push(node);
      else walk(node.sub);
    }
  };
  walk(nodes);
  return result;
}

// ------------------------------------------------------------ edits by id (new trees)

/** A node of the tree by its id: a folder's folder_id or a leaf's visor_id. */
export type NodeRef = { kind: 'folder'; id: string } | { kind: 'visor'; id: string };

function isNode(node: TreeNode, ref: NodeRef): boolean {
  return ref.kind === 'folder' ? isFolderNode(node) && node.folder_id === ref.id : !isFolderNode(node) && node.visor_id === ref.id;
}

/** The folder with `folderId`, anywhere in the tree; null when there is none. */
export function findFolder(nodes: readonly TreeNode[], folderId: string): FolderNode | null {
  for (const node of nodes) {
    if (!isFolderNode(node)) continue;
    if (node.folder_id === folderId) return node;
    const inside = findFolder(node.sub, folderId);
    if (inside != null) return inside;
  }
  return null;
}

/** Replaces the folder `folderId` with what `update` makes of it; null when there is no such folder. */
export function updateFolder(nodes: readonly TreeNode[], folderId: string, update: (folder: FolderNode) => FolderNode): TreeNode[] | null {
  let found = false;
  const visit = (list: readonly TreeNode[]): TreeNode[] =>
    list.map((item) => {
      if (!isFolderNode(item)) return item;
      if (item.folder_id === folderId) {
        found = true;
        return update(item);
      }
      return { ...item, sub: visit(item.sub) };
    });
  const next = visit(nodes);
  return found ? next : null;
}

/** The folder and all it holds set to favourite or not (spec: a folder's toggle applies to all descendants). */
export function withFavourite(folder: FolderNode, fav: boolean): FolderNode {
  return { ...folder, fav, sub: folder.sub.map((child) => (isFolderNode(child) ? withFavourite(child, fav) : { ...child, fav })) };
}

/** Takes a node (and its subtree) out of the tree; null when it is not there. */
export function removeNode(nodes: readonly TreeNode[], ref: NodeRef): { nodes: TreeNode[]; removed: TreeNode } | null {
  let removed: TreeNode | null = null;
  const visit = (list: readonly TreeNode[]): TreeNode[] => {
    const result: TreeNode[] = [];
    for (const item of list) {
      if (removed == null && isNode(item, ref)) removed = item;
      else result.push(isFolderNode(item) ? { ...item, sub: visit(item.sub) } : item);
    }
    return result;
  };
  const next = visit(nodes);
  return removed == null ? null : { nodes: next, removed };
}

/** Inserts `node` at `index` (clamped) of the folder `parentId`, or of the root when null; null when there is no such folder. */
export function insertNode(nodes: readonly TreeNode[], parentId: string | null, index: number, node: TreeNode): TreeNode[] | null {
  const insert = (list: readonly TreeNode[]) => {
    const at = Math.min(Math.max(0, Math.floor(index)), list.length);
    return [...list.slice(0, at), node, ...list.slice(at)];
  };
  if (parentId == null) return insert(nodes);
  return updateFolder(nodes, parentId, (folder) => ({ ...folder, sub: insert(folder.sub) }));
}

export type MoveOutcome = { ok: true; nodes: TreeNode[] } | { ok: false; reason: 'node_missing' | 'target_missing' | 'into_itself' };

/**
 * Moves a node to position `index` of the folder `parentId` (null: the root), the index
 * counted after the node left its old place (as drag and drop reports it).
 */
export function moveNode(nodes: readonly TreeNode[], ref: NodeRef, parentId: string | null, index: number): MoveOutcome {
  const taken = removeNode(nodes, ref);
  if (taken == null) return { ok: false, reason: 'node_missing' };
  if (ref.kind === 'folder' && parentId != null && findFolder([taken.removed], parentId) != null) return { ok: false, reason: 'into_itself' };
  const placed = insertNode(taken.nodes, parentId, index, taken.removed);
  return placed == null ? { ok: false, reason: 'target_missing' } : { ok: true, nodes: placed };
}
