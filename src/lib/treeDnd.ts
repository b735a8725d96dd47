// Drag and drop in the sidebar's tree (issue 6), as pure functions: the visible tree flattened
// to rows with a depth, the depth and parent a dragged row would land at (from where it is over
// and how far it was dragged sideways), and the move that results — a folder never into itself.
import { isFolderNode, type TreeNode } from '../protocol/workspace';
import type { NodeRef } from './folderTree';

export interface FlatRow {
  /** 'f:<folder_id>' or 'v:<visor_id>'. */
  id: string;
  ref: NodeRef;
  depth: number;
  /** The folder_id of the folder holding it; null at the root. */
  parentId: string | null;
  isFolder: boolean;
}

export function rowId(node: TreeNode): string {
  return isFolderNode(node) ? `f:${node.folder_id}` : `v:${node.visor_id}`;
}

/** The rows a person sees: folders' children only when the folder is open. */
export function flattenTree(nodes: readonly TreeNode[], isOpen: (folderId: string) => boolean, depth = 0, parentId: string | null = null): FlatRow[] {
  const rows: FlatRow[] = [];
  for (const node of nodes) {
    if (isFolderNode(node)) {
      rows.push({ id: rowId(node), ref: { kind: 'folder', id: node.folder_id }, depth, parentId, isFolder: true });
      if (isOpen(node.folder_id)) rows.push(...flattenTree(node.sub, isOpen, depth + 1, node.folder_id));
    } else {
      rows.push({ id: rowId(node), ref: { kind: 'visor', id: node.visor_id }, depth, parentId, isFolder: false });
    }
  }
  return rows;
}

/** The rows without those inside the dragged folder (they travel with it). */
export function withoutDescendants(rows: readonly FlatRow[], activeId: string): FlatRow[] {
  const start = rows.findIndex((row) => row.id === activeId);
  if (start < 0) return [...rows];
  const depth = rows[start]!.depth;
  let end = start + 1;
  while (end < rows.length && rows[end]!.depth > depth) end += 1;
  return [...rows.slice(0, start + 1), ...rows.slice(end)];
}

export interface Projection {
  depth: number;
  parentId: string | null;
  /** Position among the new parent's children, counted without the dragged node. */
  index: number;
}

/**
 * Where the dragged row lands when it is over `overId` having moved `offsetX` pixels
 * sideways: one level per `indent` pixels, kept between what the rows around allow (only a
 * folder takes children). `rows` must not hold the dragged folder's descendants.
 */
export function projectDrop(rows: readonly FlatRow[], activeId: string, overId: string, offsetX: number, indent: number): Projection | null {
  const from = rows.findIndex((row) => row.id === activeId);
  const to = rows.findIndex((row) => row.id === overId);
  if (from < 0 || to < 0) return null;
  const active = rows[from]!;
  const moved = [...rows];
  moved.splice(from, 1);
  moved.splice(to, 0, active);
  const previous = moved[to - 1];
  const next = moved[to + 1];
  const wanted = active.depth + Math.round(offsetX / indent);
  const maxDepth = previous ? (previous.isFolder ? previous.depth + 1 : previous.depth) : 0;
  const minDepth = next ? next.depth : 0;
  const depth = Math.max(minDepth, Math.min(maxDepth, wanted));

  let parentId: string | null = null;
  if (depth > 0 && previous) {
    if (depth === previous.depth) parentId = previous.parentId;
    else if (depth > previous.depth) parentId = previous.ref.id;
    else
      parentId =
        moved
          .slice(0, to)
          .reverse()
          .find((row) => row.depth === depth)?.parentId ?? null;
  }
  const index = moved.slice(0, to).filter((row) => row.parentId === parentId && row.depth === depth).length;
  return { depth, parentId, index };
}
