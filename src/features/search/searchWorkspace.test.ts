import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../protocol/workspace';
import { searchWorkspace, visorPaths } from './searchWorkspace';

const visor = (id: string, name: string) => ({ visor_id: id, name, emoji: '📈', color: 'red', to: `visor/${id}/edit` });
const tree: TreeNode[] = [
  {
    folder_id: 'f1',
    name: 'Bonos',
    emoji: '💵',
    sub: [{ folder_id: 'f2', name: 'Cortos', emoji: '', sub: [visor('v1', 'Lecap')] }, visor('v2', 'Curva bonos')],
  },
  visor('v3', 'Acciones'),
];
const visores = [
  { visor_id: 'v1', title: 'Lecap', emoji: '📈', color: 'red' },
  { visor_id: 'v2', title: 'Curva bonos', emoji: '📈', color: 'red' },
  { visor_id: 'v3', title: 'Acciones', emoji: '📈', color: 'red' },
];

describe('searchWorkspace', () => {
  it('gives each visor the folders that hold it, outermost first', () => {
    expect(visorPaths(tree).get('v1')).toEqual(['Bonos', 'Cortos']);
    expect(visorPaths(tree).get('v3')).toEqual([]);
  });

  it('finds folders and visores by title, ignoring case and accents', () => {
    const result = searchWorkspace('BONOS', tree, visores);
    expect(result.folders).toEqual([{ folderId: 'f1', name: 'Bonos', emoji: '💵', path: [] }]);
    expect(result.visores).toEqual([{ visor: visores[1], path: ['Bonos'] }]);
    expect(searchWorkspace('cortós', tree, visores).folders[0]).toMatchObject({ folderId: 'f2', path: ['Bonos'] });
  });

  it('finds nothing for blank text', () => {
    expect(searchWorkspace('  ', tree, visores)).toEqual({ folders: [], visores: [] });
  });
});
