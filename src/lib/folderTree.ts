// Pure functions over a user's folder tree (spec section 3). No I/O: the server validates
// and rewrites trees with them, and the client can reuse them.
import { isFolderNode, TREE_LIMITS, type FolderNode, type TreeNode, type VisorNode } from '../protocol/workspace';

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
  if (shape.nodeCount > TREE_LIMITS.maxNodes) return `El árbol no puede superar ${TREE_LIMITS.maxNodes} nodos`;
  if (shape.depth > TREE_LIMITS.maxDepth) return `El árbol no puede superar ${TREE_LIMITS.maxDepth} niveles`;
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

/** Appends `node` to the folder `parentId`, or to the root when it is null; null when there is no such folder. */
export function appendNode(nodes: readonly TreeNode[], parentId: string | null, node: TreeNode): TreeNode[] | null {
  if (parentId == null) return [...nodes, node];
  let found = false;
  const visit = (list: readonly TreeNode[]): TreeNode[] =>
    list.map((item) => {
      if (!isFolderNode(item)) return item;
      if (item.folder_id === parentId) {
        found = true;
        return { ...item, sub: [...item.sub, node] };
      }
      return { ...item, sub: visit(item.sub) };
    });
  const next = visit(nodes);
  return found ? next : null;
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
