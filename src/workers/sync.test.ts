// The sync's own rules with a scripted fetch: failures are logged and answered as plain
// errors, and an answer that arrives after a logout writes nothing. The full HTTP contract,
// If-Match and the 412 path run against the real server in tests/api/workspaceSync.test.ts.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { VisoresDb } from '../data/db';
import { NETWORK_ERROR_MESSAGE } from '../data/apiMessages';
import type { Visor } from '../protocol/workspace';
import { createWorkspaceSync, SYNC_LOG, type WorkspaceSession } from './sync';
import { fakeFetch, recordingLog, type FakeAnswer } from './testFakes';

const USER = 'u-ana';
const visor = (id: string, title: string): Visor => ({
  visor_id: id,
  owner: USER,
  title,
  emoji: '',
  color: 'red',
  fav: false,
  public: false,
  secciones: [],
  created_at: '2026-11-22T12:00:00.000Z',
  updated_at: '2026-11-22T12:00:00.000Z',
});
const tree = (version: number) => ({ status: 200, body: { status: 'success', data: [], version } });
const favs = { status: 200, body: { status: 'success', data: { visores: [], folders: [] } } };

/** A route that answers when the test says, and tells when it was called. */
function heldRoute() {
  let answer: (value: FakeAnswer) => void = () => undefined;
  let markCalled: () => void = () => undefined;
  const called = new Promise<void>((resolve) => (markCalled = resolve));
  const answered = new Promise<FakeAnswer>((resolve) => (answer = resolve));
  return {
    route: () => {
      markCalled();
      return answered;
    },
    called,
    answer: (value: FakeAnswer) => answer(value),
  };
}

let count = 0;
const databases: VisoresDb[] = [];
afterEach(async () => {
  for (const database of databases.splice(0)) await database.delete();
});

function setup(routes: Parameters<typeof fakeFetch>[1]) {
  const database = new VisoresDb(`sync-unit-${++count}`);
  databases.push(database);
  const http = fakeFetch('/api', routes);
  const log = recordingLog();
  const current: { session: WorkspaceSession | null } = { session: { token: 'token-ana', userId: USER } };
  const sync = createWorkspaceSync({ db: database, fetch: http.fetch, apiBase: '/api', getSession: () => current.session, log, now: () => 42 });
  return { sync, database, http, log, current };
}

describe('workspace sync', () => {
  it('sends the bearer token and stores what it read under the user', async () => {
    const { sync, database, http } = setup({
      [`GET /visores/${USER}/folders`]: () => tree(3),
      [`GET /visores/${USER}`]: () => ({ status: 200, body: { status: 'success', data: [visor('v1', 'Uno')] } }),
      [`GET /visores/${USER}/getFavs`]: () => favs,
    });
    expect(await sync.refresh()).toEqual({ ok: true, value: undefined });
    expect(http.calls.map((call) => call.headers.authorization)).toEqual(['Bearer token-ana', 'Bearer token-ana', 'Bearer token-ana']);
    expect(await database.folderTrees.get(USER)).toEqual({ userId: USER, nodes: [], version: 3, syncedAt: 42 });
    expect(await database.visores.get([USER, 'v1'])).toEqual({ ...visor('v1', 'Uno'), userId: USER });
  });

  it("a folder's favourite reaches the cached rows of the visores inside it, as on the server", async () => {
    const leaf = { visor_id: 'v1', name: 'Uno', emoji: '', color: 'red', fav: false, to: 'visor/v1/edit' };
    const folder = { folder_id: 'F', name: 'Agro', emoji: '', sub: [leaf] };
    const { sync, database } = setup({
      [`GET /visores/${USER}/folders`]: () => ({ status: 200, body: { status: 'success', data: [folder], version: 1 } }),
      [`GET /visores/${USER}`]: () => ({ status: 200, body: { status: 'success', data: [visor('v1', 'Uno'), visor('v2', 'Dos')] } }),
      [`GET /visores/${USER}/getFavs`]: () => favs,
      [`PUT /visores/${USER}/folders`]: () => ({ status: 200, body: { status: 'success', version: 2, deleted: [] } }),
    });
    await sync.refresh();
    expect(await sync.changeTree({ kind: 'setFolderFavourite', folderId: 'F', fav: true })).toEqual({ ok: true, value: { version: 2 } });
    expect((await database.visores.get([USER, 'v1']))?.fav).toBe(true);
    expect((await database.visores.get([USER, 'v2']))?.fav).toBe(false);
    await sync.changeTree({ kind: 'setFolderFavourite', folderId: 'F', fav: false });
    expect((await database.visores.get([USER, 'v1']))?.fav).toBe(false);
  });

  it('only logs a failed load, and answers it as a plain error', async () => {
    const { sync, log, database } = setup({
      [`GET /visores/${USER}/folders`]: () => Promise.reject(new TypeError('Failed to fetch')),
      [`GET /visores/${USER}`]: () => ({ status: 200, body: { status: 'success', data: [] } }),
      [`GET /visores/${USER}/getFavs`]: () => favs,
    });
    const answer = await sync.refresh();
    expect(answer).toEqual({ ok: false, error: { code: 'network', message: NETWORK_ERROR_MESSAGE } });
    expect(log.entries().at(-1)).toMatchObject({ level: 'error', text: SYNC_LOG.loadFailed(NETWORK_ERROR_MESSAGE) });
    expect(await database.folderTrees.count()).toBe(0);
  });

  it('answers not_signed_in without calling the server when nobody is signed in', async () => {
    const { sync, http, current } = setup({});
    current.session = null;
    expect(await sync.changeTree({ kind: 'deleteFolder', folderId: 'F' })).toEqual({ ok: false, error: { code: 'not_signed_in', message: 'No hay una sesión iniciada' } });
    expect(http.calls).toEqual([]);
  });

  it('writes nothing from an answer that arrives after the logout', async () => {
    const held = heldRoute();
    const { sync, database, current } = setup({
      [`GET /visores/${USER}/folders`]: held.route,
      [`GET /visores/${USER}`]: () => ({ status: 200, body: { status: 'success', data: [visor('v1', 'Uno')] } }),
      [`GET /visores/${USER}/getFavs`]: () => favs,
    });
    const pending = sync.refresh();
    await held.called;
    // The logout: the worker forgets the session, then wipes the user's records.
    current.session = null;
    await sync.wipe(USER);
    held.answer(tree(9));
    expect(await pending).toEqual({ ok: false, error: { code: 'not_signed_in', message: 'No hay una sesión iniciada' } });
    expect(await database.folderTrees.count()).toBe(0);
    expect(await database.visores.count()).toBe(0);
    expect(await database.favourites.count()).toBe(0);
  });

  it('writes nothing for a user who is no longer the one signed in', async () => {
    const held = heldRoute();
    const { sync, database, current } = setup({
      [`GET /visores/${USER}/folders`]: held.route,
      [`GET /visores/${USER}`]: () => ({ status: 200, body: { status: 'success', data: [] } }),
      [`GET /visores/${USER}/getFavs`]: () => favs,
    });
    const pending = sync.refresh();
    await held.called;
    current.session = { token: 'token-beto', userId: 'u-beto' };
    held.answer(tree(9));
    expect((await pending).ok).toBe(false);
    expect(await database.folderTrees.count()).toBe(0);
  });
});
