import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Visor } from '../protocol/workspace';
import { VisoresDb } from '../shared/db';
import { workspaceQueries } from './workspace';

const visor = (id: string, owner: string, title: string): Visor => ({
  visor_id: id,
  owner,
  title,
  emoji: '',
  color: 'red',
  fav: false,
  public: owner !== 'ana',
  secciones: [],
  version: 0,
  created_at: '2026-11-22T12:00:00.000Z',
  updated_at: '2026-11-22T12:00:00.000Z',
});

let database: VisoresDb;
let count = 0;
beforeEach(() => {
  database = new VisoresDb(`workspace-queries-${++count}`);
});
afterEach(async () => {
  await database.delete();
});

describe('workspace queries', () => {
  it('answer null for a user with nothing cached', async () => {
    expect(await workspaceQueries.tree(database, 'ana')).toBeNull();
    expect(await workspaceQueries.favourites(database, 'ana')).toBeNull();
    expect(await workspaceQueries.visor(database, 'ana', 'v1')).toBeNull();
    expect(await workspaceQueries.visores(database, 'ana')).toEqual([]);
  });

  it("list the user's own visores by title, leaving out public visores of others they opened and other users' records", async () => {
    await database.visores.bulkPut([
      { ...visor('v1', 'ana', 'ñandú'), userId: 'ana' },
      { ...visor('v2', 'ana', 'Acciones'), userId: 'ana' },
      { ...visor('v3', 'beto', 'Público de Beto'), userId: 'ana' },
      { ...visor('v4', 'beto', 'Zeta'), userId: 'beto' },
      { ...visor('v5', 'ana', 'bonos'), userId: 'ana' },
    ]);
    expect((await workspaceQueries.visores(database, 'ana')).map((item) => item.title)).toEqual(['Acciones', 'bonos', 'ñandú']);
    expect((await workspaceQueries.visor(database, 'ana', 'v3'))?.title).toBe('Público de Beto');
    expect(await workspaceQueries.visor(database, 'beto', 'v1')).toBeNull();
  });

  it("read a user's tree and favourites, never another user's", async () => {
    await database.folderTrees.bulkPut([
      { userId: 'ana', nodes: [], version: 4, syncedAt: 1 },
      { userId: 'beto', nodes: [], version: 9, syncedAt: 1 },
    ]);
    await database.favourites.put({ userId: 'beto', visores: [{ visor_id: 'v4', emoji: '', title: 'Zeta' }], folders: [] });
    expect((await workspaceQueries.tree(database, 'ana'))?.version).toBe(4);
    expect(await workspaceQueries.favourites(database, 'ana')).toBeNull();
    expect((await workspaceQueries.favourites(database, 'beto'))?.visores).toHaveLength(1);
  });
});
