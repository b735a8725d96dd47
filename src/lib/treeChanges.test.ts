import { describe, expect, it } from 'vitest';
import type { FolderNode, TreeNode, VisorNode } from '../protocol/workspace';
import { applyTreeChange, TREE_CHANGE_MESSAGES } from './treeChanges';

const visor = (id: string, extra: Partial<VisorNode> = {}): VisorNode => ({
  visor_id: id,
  name: `Visor ${id}`,
  emoji: '📈',
  color: 'red',
  to: `visor/${id}/edit`,
  ...extra,
});
const folder = (id: string, sub: TreeNode[] = [], extra: Partial<FolderNode> = {}): FolderNode => ({
  folder_id: id,
  name: `Carpeta ${id}`,
  emoji: '📁',
  sub,
  ...extra,
});

const tree = [folder('a', [visor('v1'), folder('b', [visor('v2')])]), visor('v3')];

describe('applyTreeChange', () => {
  it('adds a folder at the end of the root or of a parent', () => {
    expect(applyTreeChange(tree, { kind: 'addFolder', parentId: null, folder_id: 'n', name: 'Nueva', emoji: '🆕' })).toEqual({
      ok: true,
      changed: true,
      nodes: [...tree, { folder_id: 'n', name: 'Nueva', emoji: '🆕', sub: [] }],
    });
    const inB = applyTreeChange(tree, { kind: 'addFolder', parentId: 'b', folder_id: 'n', name: 'Nueva', emoji: '' });
    expect(inB).toMatchObject({
      ok: true,
      nodes: [folder('a', [visor('v1'), folder('b', [visor('v2'), { folder_id: 'n', name: 'Nueva', emoji: '', sub: [] }])]), visor('v3')],
    });
  });

  it('refuses to add under a parent that is gone, or a folder id already there', () => {
    expect(applyTreeChange(tree, { kind: 'addFolder', parentId: 'gone', folder_id: 'n', name: 'x', emoji: '' })).toEqual({
      ok: false,
      reason: 'gone',
      message: TREE_CHANGE_MESSAGES.targetGone,
    });
    expect(applyTreeChange(tree, { kind: 'addFolder', parentId: null, folder_id: 'b', name: 'x', emoji: '' })).toEqual({
      ok: false,
      reason: 'invalid',
      message: TREE_CHANGE_MESSAGES.duplicateFolder,
    });
  });

  it('edits a folder name and emoji, keeping what it holds', () => {
    const outcome = applyTreeChange(tree, { kind: 'editFolder', folderId: 'b', name: 'Bonos', emoji: '💵' });
    expect(outcome).toEqual({
      ok: true,
      changed: true,
      nodes: [folder('a', [visor('v1'), folder('b', [visor('v2')], { name: 'Bonos', emoji: '💵' })]), visor('v3')],
    });
    expect(applyTreeChange(tree, { kind: 'editFolder', folderId: 'gone', name: 'x', emoji: '' })).toEqual({
      ok: false,
      reason: 'gone',
      message: TREE_CHANGE_MESSAGES.folderGone,
    });
  });

  it('deletes a folder with all it holds; one already gone is done, with nothing to save', () => {
    expect(applyTreeChange(tree, { kind: 'deleteFolder', folderId: 'a' })).toEqual({ ok: true, changed: true, nodes: [visor('v3')] });
    expect(applyTreeChange(tree, { kind: 'deleteFolder', folderId: 'gone' })).toEqual({ ok: true, changed: false, nodes: tree });
  });

  it('sets a folder favourite with everything inside; applying it twice gives the same tree', () => {
    const once = applyTreeChange(tree, { kind: 'setFolderFavourite', folderId: 'b', fav: true });
    expect(once).toEqual({
      ok: true,
      changed: true,
      nodes: [folder('a', [visor('v1'), folder('b', [visor('v2', { fav: true })], { fav: true })]), visor('v3')],
    });
    if (!once.ok) return;
    expect(applyTreeChange(once.nodes, { kind: 'setFolderFavourite', folderId: 'b', fav: true })).toEqual(once);
  });

  it('moves a node, and names why it cannot', () => {
    expect(applyTreeChange(tree, { kind: 'move', node: { kind: 'visor', id: 'v3' }, parentId: 'b', index: 0 })).toEqual({
      ok: true,
      changed: true,
      nodes: [folder('a', [visor('v1'), folder('b', [visor('v3'), visor('v2')])])],
    });
    expect(applyTreeChange(tree, { kind: 'move', node: { kind: 'visor', id: 'gone' }, parentId: null, index: 0 })).toEqual({
      ok: false,
      reason: 'gone',
      message: TREE_CHANGE_MESSAGES.nodeGone,
    });
    expect(applyTreeChange(tree, { kind: 'move', node: { kind: 'visor', id: 'v1' }, parentId: 'gone', index: 0 })).toEqual({
      ok: false,
      reason: 'gone',
      message: TREE_CHANGE_MESSAGES.targetGone,
    });
    expect(applyTreeChange(tree, { kind: 'move', node: { kind: 'folder', id: 'a' }, parentId: 'b', index: 0 })).toEqual({
      ok: false,
      reason: 'invalid',
      message: TREE_CHANGE_MESSAGES.intoItself,
    });
  });

  it('never changes the tree it is given', () => {
    const before = structuredClone(tree);
    applyTreeChange(tree, { kind: 'move', node: { kind: 'folder', id: 'b' }, parentId: null, index: 0 });
    applyTreeChange(tree, { kind: 'setFolderFavourite', folderId: 'a', fav: true });
    applyTreeChange(tree, { kind: 'deleteFolder', folderId: 'b' });
    expect(tree).toEqual(before);
  });
});
