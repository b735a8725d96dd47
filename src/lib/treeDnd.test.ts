import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../protocol/workspace';
import { moveNode } from './folderTree';
import { dropAction, FAV_ZONE, favouriteRowId, flattenTree, GENERAL_ZONE, generalRowId, nodesByRowId, projectDrop, withoutDescendants } from './treeDnd';

const visor = (id: string) => ({ visor_id: id, name: id, emoji: '', color: 'red', to: `visor/${id}/edit` });
const folder = (id: string, sub: TreeNode[]) => ({ folder_id: id, name: id, emoji: '', sub });
// A [ a1, B [ b1 ] ], v1, C []
const tree: TreeNode[] = [folder('A', [visor('a1'), folder('B', [visor('b1')])]), visor('v1'), folder('C', [])];
const allOpen = () => true;

describe('flattenTree', () => {
  it('lists visible rows with depth and parent', () => {
    expect(flattenTree(tree, allOpen).map((row) => [row.id, row.depth, row.parentId])).toEqual([
      ['f:A', 0, null],
      ['v:a1', 1, 'A'],
      ['f:B', 1, 'A'],
      ['v:b1', 2, 'B'],
      ['v:v1', 0, null],
      ['f:C', 0, null],
    ]);
  });
  it('hides the children of closed folders', () => {
    expect(flattenTree(tree, (id) => id !== 'A').map((row) => row.id)).toEqual(['f:A', 'v:v1', 'f:C']);
  });
  it('drops the dragged folder’s descendants', () => {
    expect(withoutDescendants(flattenTree(tree, allOpen), 'f:A').map((row) => row.id)).toEqual(['f:A', 'v:v1', 'f:C']);
  });
});

describe('projectDrop', () => {
  const rows = flattenTree(tree, allOpen);
  it('reorders at the same level', () => {
    // v1 dragged over A (first row), no sideways move: root, index 0.
    expect(projectDrop(rows, 'v:v1', 'f:A', 0, 16)).toEqual({ depth: 0, parentId: null, index: 0 });
  });
  it('moves into a folder when dragged right under it', () => {
    // v1 over C: lands after C; dragged one indent right goes inside C.
    expect(projectDrop(rows, 'v:v1', 'f:C', 16, 16)).toEqual({ depth: 1, parentId: 'C', index: 0 });
    expect(projectDrop(rows, 'v:v1', 'f:C', 0, 16)).toEqual({ depth: 0, parentId: null, index: 2 });
  });
  it('moves out of folders when dragged left', () => {
    // b1 is last inside B (inside A): one level left puts it in A after B, two at the root after A.
    expect(projectDrop(rows, 'v:b1', 'v:b1', -16, 16)).toEqual({ depth: 1, parentId: 'A', index: 2 });
    expect(projectDrop(rows, 'v:b1', 'v:b1', -32, 16)).toEqual({ depth: 0, parentId: null, index: 1 });
  });
  it('never goes deeper than under a folder, and never under a visor', () => {
    // C over B lands after a1, a visor: at most a1's level, inside A.
    expect(projectDrop(rows, 'f:C', 'f:B', 200, 16)).toEqual({ depth: 1, parentId: 'A', index: 1 });
    // v1 over b1 lands after B, a folder: one level under it at most.
    expect(projectDrop(rows, 'v:v1', 'v:b1', 200, 16)).toEqual({ depth: 2, parentId: 'B', index: 0 });
  });
  it('gives a move that moveNode applies, and a folder cannot enter itself', () => {
    const projection = projectDrop(rows, 'v:v1', 'f:C', 16, 16)!;
    const moved = moveNode(tree, { kind: 'visor', id: 'v1' }, projection.parentId, projection.index);
    expect(moved.ok && moved.nodes.map((node) => ('folder_id' in node ? `${node.folder_id}:${node.sub.length}` : node.visor_id))).toEqual(['A:2', 'C:1']);
    expect(moveNode(tree, { kind: 'folder', id: 'A' }, 'B', 0)).toEqual({ ok: false, reason: 'into_itself' });
  });
});

describe('row ids', () => {
  it('index every node by its row id, nested ones too', () => {
    const byId = nodesByRowId(tree);
    expect([...byId.keys()]).toEqual(['f:A', 'v:a1', 'f:B', 'v:b1', 'v:v1', 'f:C']);
    expect(byId.get('v:b1')).toEqual(visor('b1'));
  });
  it('put a favourite row behind a prefix and take it off again', () => {
    expect(favouriteRowId('f:A')).toBe('fav:f:A');
    expect(generalRowId('fav:f:A')).toBe('f:A');
    expect(generalRowId('v:v1')).toBe('v:v1');
  });
});

describe('dropAction', () => {
  const rows = flattenTree(tree, allOpen);
  it('does nothing when dropped over nothing', () => {
    expect(dropAction(rows, 'v:v1', null, 0, 16)).toBeNull();
    expect(dropAction(rows, 'fav:v:v1', null, 0, 16)).toBeNull();
  });
  it('makes a general row a favourite when dropped on Favoritos or one of its rows', () => {
    expect(dropAction(rows, 'f:B', FAV_ZONE, 0, 16)).toEqual({ kind: 'favourite', rowId: 'f:B', fav: true });
    expect(dropAction(rows, 'v:v1', 'fav:f:C', 0, 16)).toEqual({ kind: 'favourite', rowId: 'v:v1', fav: true });
  });
  it('takes a favourite out of Favoritos when dropped on the general tree or one of its rows', () => {
    expect(dropAction(rows, 'fav:f:B', GENERAL_ZONE, 0, 16)).toEqual({ kind: 'favourite', rowId: 'f:B', fav: false });
    expect(dropAction(rows, 'fav:v:a1', 'v:v1', 0, 16)).toEqual({ kind: 'favourite', rowId: 'v:a1', fav: false });
  });
  it('leaves a favourite dropped inside Favoritos where it is', () => {
    expect(dropAction(rows, 'fav:v:a1', FAV_ZONE, 0, 16)).toBeNull();
    expect(dropAction(rows, 'fav:v:a1', 'fav:f:C', 0, 16)).toBeNull();
  });
  it('moves a general row where projectDrop puts it', () => {
    expect(dropAction(rows, 'v:v1', 'f:C', 16, 16)).toEqual({ kind: 'move', node: { kind: 'visor', id: 'v1' }, parentId: 'C', index: 0 });
    expect(dropAction(rows, 'v:v1', 'f:A', 0, 16)).toEqual({ kind: 'move', node: { kind: 'visor', id: 'v1' }, parentId: null, index: 0 });
  });
  it('asks for no move when the row would land where it is', () => {
    expect(dropAction(rows, 'v:v1', 'v:v1', 0, 16)).toBeNull();
    // b1 dragged a little sideways, less than half an indent: still inside B.
    expect(dropAction(rows, 'v:b1', 'v:b1', 5, 16)).toBeNull();
  });
  it('does nothing over the general tree’s area with no row under the pointer', () => {
    expect(dropAction(rows, 'v:v1', GENERAL_ZONE, 0, 16)).toBeNull();
  });
  it('moves a folder with what it holds: its descendants are left out of the rows', () => {
    const dragged = withoutDescendants(rows, 'f:A');
    expect(dropAction(dragged, 'f:A', 'f:C', 0, 16)).toEqual({ kind: 'move', node: { kind: 'folder', id: 'A' }, parentId: null, index: 2 });
  });
});
