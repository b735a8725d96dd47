import { describe, expect, it } from 'vitest';
import type { FolderNode, TreeNode, VisorNode } from '../protocol/workspace';
import { appendNode, favouriteFolders, mapVisorLeaves, treeProblem, treeShape } from './folderTree';

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
