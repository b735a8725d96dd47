// Drag and drop in the sidebar's trees (issue 6), as pure functions: the visible tree flattened
// to rows with a depth, the depth and parent a dragged row would land at (from where it is over
// and how far it was dragged sideways), and what a drop asks for — a move in the general tree
// (a folder never into itself), or a row becoming a favourite or stopping being one.
import { isFolderNode, type TreeNode } from '../protocol/workspace';
import type { NodeRef } from './folderTree';

/** The drop areas of the two trees: Favoritos, and the general tree (Espacio de trabajo). */
export const FAV_ZONE = 'zone:favoritos';
export const GENERAL_ZONE = 'zone:general';
/** A favourite's row has the id of its general row behind this prefix: 'fav:f:<folder_id>', 'fav:v:<visor_id>'. */
const FAV_PREFIX = 'fav:';

export interface FlatRow {
  /** 'f:<folder_id>' or 'v:<visor_id>'. */
  id: string;
  ref: NodeRef;
  depth: number;
  /** The folder_id of the folder holding it; null at the root. */
  parentId: string | null;
  isFolder: boolean;
}

export const folderRowId = (folderId: string): string => `f:${folderId}`;
export const visorRowId = (visorId: string): string => `v:${visorId}`;

export function rowId(node: TreeNode): string {
  return isFolderNode(node) ? folderRowId(node.folder_id) : visorRowId(node.visor_id);
}

/** The id of a row in Favoritos, from its general row id. */
export const favouriteRowId = (id: string): string => `${FAV_PREFIX}${id}`;
export const isFavouriteRow = (id: string): boolean => id.startsWith(FAV_PREFIX);
/** The general row id behind any row id: 'fav:f:A' → 'f:A', 'f:A' → 'f:A'. */
export const generalRowId = (id: string): string => (isFavouriteRow(id) ? id.slice(FAV_PREFIX.length) : id);

/** Every node of the tree by its row id ('f:…' / 'v:…'). */
export function nodesByRowId(nodes: readonly TreeNode[], into = new Map<string, TreeNode>()): Map<string, TreeNode> {
  for (const node of nodes) {
    into.set(rowId(node), node);
    if (isFolderNode(node)) nodesByRowId(node.sub, into);
  }
  return into;
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

/** What a drop asks for: a move inside the general tree, or a node (by general row id) set as favourite or not. */
export type DropAction = { kind: 'move'; node: NodeRef; parentId: string | null; index: number } | { kind: 'favourite'; rowId: string; fav: boolean };

/**
 * What dropping the dragged row `activeId` over `overId` asks for, or null for nothing: a
 * favourite dropped on the general tree (its area or a row) stops being one; a general row
 * dropped on Favoritos (its area or a row) becomes one; a general row dropped on a general row
 * moves where projectDrop puts it, unless that is where it already is. `rows` are the general
 * tree's rows without the dragged folder's descendants.
 */
export function dropAction(rows: readonly FlatRow[], activeId: string, overId: string | null, offsetX: number, indent: number): DropAction | null {
  if (!overId) return null;
  const overGeneralRow = rows.some((row) => row.id === overId);
  if (isFavouriteRow(activeId)) return overId === GENERAL_ZONE || overGeneralRow ? { kind: 'favourite', rowId: generalRowId(activeId), fav: false } : null;
  if (overId === FAV_ZONE || isFavouriteRow(overId)) return { kind: 'favourite', rowId: activeId, fav: true };
  const active = rows.find((row) => row.id === activeId);
  const projection = overGeneralRow ? projectDrop(rows, activeId, overId, offsetX, indent) : null;
  if (!active || !projection) return null;
  const siblings = rows.filter((row) => row.parentId === active.parentId && row.depth === active.depth);
  const unchanged = projection.parentId === active.parentId && projection.index === siblings.findIndex((row) => row.id === activeId);
  return unchanged ? null : { kind: 'move', node: active.ref, parentId: projection.parentId, index: projection.index };
}
