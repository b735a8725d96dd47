import { describe, expect, it } from 'vitest';
import type { FolderNode, TreeNode, VisorNode } from '../protocol/workspace';
import {
  appendNode,
  favouriteFolders,
  findFolder,
  insertNode,
  leafOfVisor,
  mapVisorLeaves,
  moveNode,
  removeNode,
  treeProblem,
  treeShape,
  updateFolder,
  withFavourite,
} from './folderTree';

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

/** A chain of `levels` folders, one inside the other. */
function chain(levels: number): TreeNode[] {
  let node: FolderNode = folder(`f${levels}`);
  for (let level = levels - 1; level >= 1; level--) node = folder(`f${level}`, [node]);
  return [node];
}

describe('treeShape', () => {
  it('counts nodes, measures depth and lists ids in order', () => {
    const tree = [folder('a', [visor('v1'), folder('b', [visor('v2')])]), visor('v3')];
    expect(treeShape(tree)).toEqual({ nodeCount: 5, depth: 3, visorIds: ['v1', 'v2', 'v3'], folderIds: ['a', 'b'] });
    expect(treeShape([])).toEqual({ nodeCount: 0, depth: 0, visorIds: [], folderIds: [] });
  });
});

describe('treeProblem', () => {
  it('accepts a tree within the limits', () => {
    expect(treeProblem(chain(16))).toBeNull();
  });

  it('refuses more than 16 levels', () => {
    expect(treeProblem(chain(17))).toBe('El árbol no puede superar 16 niveles');
  });

  it('refuses more than 5,000 nodes', () => {
    const many = Array.from({ length: 5001 }, (_, i) => visor(`v${i}`));
    expect(treeProblem(many)).toBe('El árbol no puede superar 5000 nodos');
    expect(treeProblem(many.slice(0, 5000))).toBeNull();
  });

  it('refuses a folder or a visor that appears twice, even in different folders', () => {
    expect(treeProblem([folder('a'), folder('b', [folder('a')])])).toBe('folder_id repetido en el árbol: a');
    expect(treeProblem([visor('v1'), folder('b', [visor('v1')])])).toBe('visor_id repetido en el árbol: v1');
  });
});

describe('mapVisorLeaves', () => {
  it('rewrites and removes leaves at any depth without changing the input', () => {
    const tree = [folder('a', [visor('v1'), visor('v2')]), visor('v3')];
    const before = structuredClone(tree);
    const next = mapVisorLeaves(tree, (leaf) => (leaf.visor_id === 'v2' ? null : { ...leaf, name: leaf.name.toUpperCase() }));
    expect(next).toEqual([folder('a', [visor('v1', { name: 'VISOR V1' })]), visor('v3', { name: 'VISOR V3' })]);
    expect(tree).toEqual(before);
  });
});

describe('appendNode', () => {
  it('appends at the root or inside a nested folder', () => {
    const tree = [folder('a', [folder('b')])];
    expect(appendNode(tree, null, visor('v1'))).toEqual([folder('a', [folder('b')]), visor('v1')]);
    expect(appendNode(tree, 'b', visor('v1'))).toEqual([folder('a', [folder('b', [visor('v1')])])]);
  });

  it('answers null for a folder that does not exist', () => {
    expect(appendNode([folder('a')], 'zzz', visor('v1'))).toBeNull();
  });
});

describe('favouriteFolders', () => {
  it('lists the outermost favourite folders with their subtrees', () => {
    const inner = folder('c', [], { fav: true });
    const outer = folder('b', [inner], { fav: true });
    const tree = [folder('a', [outer]), folder('d', [], { fav: false }), visor('v1', { fav: true })];
    expect(favouriteFolders(tree)).toEqual([outer]);
  });
});

describe('findFolder', () => {
  it('finds a folder at any depth, and not a visor with the same id', () => {
    const deep = folder('c');
    const tree = [visor('x'), folder('a', [folder('b', [deep])])];
    expect(findFolder(tree, 'c')).toBe(deep);
    expect(findFolder(tree, 'x')).toBeNull();
    expect(findFolder([], 'a')).toBeNull();
  });
});

describe('updateFolder', () => {
  it('rewrites one nested folder and leaves the input alone', () => {
    const tree = [folder('a', [folder('b', [visor('v1')])])];
    const before = structuredClone(tree);
    expect(updateFolder(tree, 'b', (item) => ({ ...item, name: 'Nueva' }))).toEqual([folder('a', [folder('b', [visor('v1')], { name: 'Nueva' })])]);
    expect(tree).toEqual(before);
  });

  it('answers null for a folder that does not exist', () => {
    expect(updateFolder([folder('a')], 'zzz', (item) => item)).toBeNull();
  });
});

describe('withFavourite', () => {
  it('sets the folder and everything inside it, folders and visores', () => {
    const tree = folder('a', [visor('v1'), folder('b', [visor('v2', { fav: true })], { fav: false })]);
    expect(withFavourite(tree, true)).toEqual(
      folder('a', [visor('v1', { fav: true }), folder('b', [visor('v2', { fav: true })], { fav: true })], { fav: true }),
    );
    expect(withFavourite(tree, false)).toEqual(
      folder('a', [visor('v1', { fav: false }), folder('b', [visor('v2', { fav: false })], { fav: false })], { fav: false }),
    );
  });
});

describe('removeNode', () => {
  it('takes out a nested visor or a folder with its subtree', () => {
    const tree = [folder('a', [visor('v1'), folder('b', [visor('v2')])]), visor('v3')];
    expect(removeNode(tree, { kind: 'visor', id: 'v1' })).toEqual({ nodes: [folder('a', [folder('b', [visor('v2')])]), visor('v3')], removed: visor('v1') });
    expect(removeNode(tree, { kind: 'folder', id: 'b' })).toEqual({ nodes: [folder('a', [visor('v1')]), visor('v3')], removed: folder('b', [visor('v2')]) });
  });

  it('tells folders and visores apart and answers null for a missing node', () => {
    const tree = [folder('same'), visor('same')];
    expect(removeNode(tree, { kind: 'visor', id: 'same' })!.nodes).toEqual([folder('same')]);
    expect(removeNode(tree, { kind: 'folder', id: 'nope' })).toBeNull();
  });
});

describe('insertNode', () => {
  it('inserts at a position of the root or of a folder, clamping the position', () => {
    const tree = [visor('v1'), folder('a', [visor('v2'), visor('v3')])];
    expect(insertNode(tree, null, 0, visor('n'))).toEqual([visor('n'), ...tree]);
    expect(insertNode(tree, 'a', 1, visor('n'))).toEqual([visor('v1'), folder('a', [visor('v2'), visor('n'), visor('v3')])]);
    expect(insertNode(tree, 'a', 99, visor('n'))).toEqual([visor('v1'), folder('a', [visor('v2'), visor('v3'), visor('n')])]);
    expect(insertNode(tree, 'a', -4, visor('n'))).toEqual([visor('v1'), folder('a', [visor('n'), visor('v2'), visor('v3')])]);
    expect(insertNode(tree, 'zzz', 0, visor('n'))).toBeNull();
  });
});

describe('moveNode', () => {
  const tree = [folder('a', [visor('v1'), folder('b', [visor('v2')])]), folder('c'), visor('v3')];

  it('reorders inside a folder, counting the index after the node left', () => {
    expect(moveNode(tree, { kind: 'visor', id: 'v1' }, 'a', 1)).toEqual({
      ok: true,
      nodes: [folder('a', [folder('b', [visor('v2')]), visor('v1')]), folder('c'), visor('v3')],
    });
  });

  it('moves a folder with its subtree to another parent, and a visor to the root', () => {
    expect(moveNode(tree, { kind: 'folder', id: 'b' }, 'c', 0)).toEqual({
      ok: true,
      nodes: [folder('a', [visor('v1')]), folder('c', [folder('b', [visor('v2')])]), visor('v3')],
    });
    expect(moveNode(tree, { kind: 'visor', id: 'v2' }, null, 0)).toEqual({
      ok: true,
      nodes: [visor('v2'), folder('a', [visor('v1'), folder('b')]), folder('c'), visor('v3')],
    });
  });

  it('refuses a folder into itself or its own descendant, a missing node and a missing target', () => {
    expect(moveNode(tree, { kind: 'folder', id: 'a' }, 'a', 0)).toEqual({ ok: false, reason: 'into_itself' });
    expect(moveNode(tree, { kind: 'folder', id: 'a' }, 'b', 0)).toEqual({ ok: false, reason: 'into_itself' });
    expect(moveNode(tree, { kind: 'visor', id: 'gone' }, null, 0)).toEqual({ ok: false, reason: 'node_missing' });
    expect(moveNode(tree, { kind: 'visor', id: 'v1' }, 'gone', 0)).toEqual({ ok: false, reason: 'target_missing' });
  });
});

describe('leafOfVisor', () => {
  it('takes the leaf fields from the visor, with the edit link', () => {
    expect(leafOfVisor({ visor_id: 'v9', title: 'Dólar', emoji: '💵', color: 'green', fav: true })).toEqual({
      visor_id: 'v9',
      name: 'Dólar',
      emoji: '💵',
      color: 'green',
      fav: true,
      to: 'visor/v9/edit',
    });
  });
});
