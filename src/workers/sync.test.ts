// The sync's own rules with a scripted fetch: failures are logged and answered as plain
// errors, and an answer that arrives after a logout writes nothing. The full HTTP contract,
// If-Match and the 412 path run against the real server in tests/api/workspaceSync.test.ts.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { VisoresDb, type VisorRecord } from '../shared/db';
import { NETWORK_ERROR_MESSAGE } from '../shared/errors';
import { createHttpClient } from '../shared/http';
import { isOwnVisor, type Section, type Visor } from '../protocol/workspace';
import type { WorkerSession } from './api';
import { createWorkspaceSync, SYNC_LOG } from './sync';
import { CHECK_AFTER_MS } from './syncRefresh';
import { fakeFetch, recordingLog, type FakeAnswer } from '../../tests/fakes/worker/fakes';

/** The cached `fav` of an own visor (another user's public visor has none). */
const favOf = (record: VisorRecord | undefined) => (record && isOwnVisor(record) ? record.fav : undefined);

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
  version: 0,
  created_at: '2026-11-22T12:00:00.000Z',
  updated_at: '2026-11-22T12:00:00.000Z',
});
const tree = (version: number) => ({ status: 200, body: { status: 'success', data: [], version } });
/** GET /visores/{userId} as the server answers it: every field of each visor but its sections. */
const listed = (...visores: Visor[]) => ({ status: 200, body: { status: 'success', data: visores.map(({ secciones: _sections, ...summary }) => summary) } });
/** GET /visores/{id}/get of each visor, whole: a full read fetches the sections it has not cached. */
const whole = (...visores: Visor[]) =>
  Object.fromEntries(visores.map((item) => [`GET /visores/${item.visor_id}/get`, () => ({ status: 200, body: { status: 'success', data: item } })]));
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
  const current: { session: WorkerSession | null; now: number } = { session: { token: 'token-ana', userId: USER }, now: 42 };
  const sync = createWorkspaceSync({
    db: database,
    http: createHttpClient({ fetch: http.fetch, baseUrl: '/api', getToken: () => current.session?.token ?? null }),
    getSession: () => current.session,
    log,
    now: () => current.now,
  });
  return { sync, database, http, log, current };
}

describe('workspace sync', () => {
  it('sends the bearer token and stores what it read under the user', async () => {
    const { sync, database, http } = setup({
      [`GET /visores/${USER}/folders`]: () => tree(3),
      [`GET /visores/${USER}`]: () => listed(visor('v1', 'Uno')),
      ...whole(visor('v1', 'Uno')),
      [`GET /visores/${USER}/getFavs`]: () => favs,
    });
    expect(await sync.refresh()).toEqual({ ok: true, value: undefined });
    // The tree, the list, the favourites, then the visor the list names, whole (nothing cached yet).
    expect(http.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      `GET /visores/${USER}/folders`,
      `GET /visores/${USER}`,
      `GET /visores/${USER}/getFavs`,
      'GET /visores/v1/get',
    ]);
    expect(http.calls.map((call) => call.headers.authorization)).toEqual(Array(4).fill('Bearer token-ana'));
    expect(await database.folderTrees.get(USER)).toEqual({ userId: USER, nodes: [], version: 3, syncedAt: 42 });
    expect(await database.visores.get([USER, 'v1'])).toEqual({ ...visor('v1', 'Uno'), userId: USER });
  });

  it('reads whole only the listed visores not cached at their version, or with offline changes applied, and skips one deleted meanwhile', async () => {
    const current = { ...visor('v1', 'Uno'), version: 2 };
    const changed = { ...visor('v2', 'Dos'), version: 5 };
    const edited = { ...visor('v3', 'Tres'), version: 1 };
    const { sync, database, http } = setup({
      [`GET /visores/${USER}/folders`]: () => tree(1),
      [`GET /visores/${USER}`]: () => listed({ ...current, title: 'Uno, renombrado' }, changed, edited, visor('v4', 'Borrado')),
      [`GET /visores/${USER}/getFavs`]: () => favs,
      ...whole(changed, edited),
    });
    const title = (id: string) => ({ id, type: 'formula' as const, title: id, layout: { x: 0, y: 0, w: 6, h: 4 }, config: { formulas: [] } });
    await database.visores.bulkPut([
      { ...current, secciones: [title('mía')], userId: USER },
      { ...changed, version: 4, userId: USER },
      { ...edited, secciones: [title('sin enviar')], localRev: 3, userId: USER },
    ]);
    expect(await sync.refresh()).toEqual({ ok: true, value: undefined });
    expect(http.calls.filter((call) => call.path.endsWith('/get')).map((call) => call.path)).toEqual(['/visores/v2/get', '/visores/v3/get', '/visores/v4/get']);
    // The same version keeps its cached sections and takes the listed fields.
    expect(await database.visores.get([USER, 'v1'])).toEqual({ ...current, title: 'Uno, renombrado', secciones: [title('mía')], userId: USER });
    expect(await database.visores.get([USER, 'v2'])).toEqual({ ...changed, userId: USER });
    expect(await database.visores.get([USER, 'v3'])).toEqual({ ...edited, userId: USER });
    // Answered 404 (deleted after the list was read): nothing kept, no error.
    expect(await database.visores.get([USER, 'v4'])).toBeUndefined();
  });

  it("reads again, after the server's Retry-After, a visor refused for the user's pace (429)", async () => {
    const first = visor('v1', 'Uno');
    let refused = 0;
    const { sync, database, http } = setup({
      [`GET /visores/${USER}/folders`]: () => tree(1),
      [`GET /visores/${USER}`]: () => listed(first),
      [`GET /visores/${USER}/getFavs`]: () => favs,
      'GET /visores/v1/get': () =>
        refused++ === 0
          ? { status: 429, body: { status: 'error', message: 'Demasiadas solicitudes seguidas de este usuario.' }, headers: { 'retry-after': '1' } }
          : { status: 200, body: { status: 'success', data: first } },
    });
    expect(await sync.refresh()).toEqual({ ok: true, value: undefined });
    expect(http.calls.filter((call) => call.path.endsWith('/get')).map((call) => call.path)).toEqual(['/visores/v1/get', '/visores/v1/get']);
    expect(await database.visores.get([USER, 'v1'])).toEqual({ ...first, userId: USER });
  });

  it("caches another user's public visor with its public fields only, apart from the user's own visores (issue 17)", async () => {
    const shared = { visor_id: 'p1', title: 'Compartido', emoji: '', color: '#00ff00', public: true, secciones: [], version: 0 };
    const { sync, database } = setup({
      [`GET /visores/${USER}/folders`]: () => tree(1),
      [`GET /visores/${USER}`]: () => listed(visor('v1', 'Uno')),
      ...whole(visor('v1', 'Uno')),
      [`GET /visores/${USER}/getFavs`]: () => favs,
      'GET /visores/p1/get': () => ({ status: 200, body: { status: 'success', data: shared } }),
      'GET /visores/v1/get': () => ({ status: 200, body: { status: 'success', data: visor('v1', 'Uno') } }),
    });
    expect(await sync.loadVisor('p1')).toEqual({ ok: true, value: shared });
    expect(await sync.loadVisor('v1')).toEqual({ ok: true, value: visor('v1', 'Uno') });
    expect(await database.visores.get([USER, 'p1'])).toEqual({ ...shared, userId: USER });
    // A full read of the user's own visores keeps the public one opened here.
    await sync.refresh();
    expect(await database.visores.get([USER, 'p1'])).toEqual({ ...shared, userId: USER });
    expect((await database.visores.where('userId').equals(USER).toArray()).filter(isOwnVisor).map((item) => item.visor_id)).toEqual(['v1']);
  });

  it("stores the favourites the server answered, and sets each cached visor's favourite from them", async () => {
    // The server applies the rule (a folder's favourite reaches what it holds); the worker only stores its answer.
    const leaf = { visor_id: 'v1', name: 'Uno', emoji: '', color: 'red', fav: false, to: 'visor/v1/edit' };
    const folder = { folder_id: 'F', name: 'Agro', emoji: '', sub: [leaf] };
    const favouriteFolder = { ...folder, fav: true, sub: [{ ...leaf, fav: true }] };
    const saved = (version: number, fav: boolean) => ({
      status: 200,
      body: {
        status: 'success',
        version,
        deleted: [],
        workspace: {
          tree: [fav ? favouriteFolder : folder],
          version,
          favourites: fav ? { visores: [{ visor_id: 'v1', emoji: '', title: 'Uno' }], folders: [favouriteFolder] } : { visores: [], folders: [] },
        },
      },
    });
    let saves = 0;
    const { sync, database, http } = setup({
      [`GET /visores/${USER}/folders`]: () => ({ status: 200, body: { status: 'success', data: [folder], version: 1 } }),
      [`GET /visores/${USER}`]: () => listed(visor('v1', 'Uno'), visor('v2', 'Dos')),
      ...whole(visor('v1', 'Uno'), visor('v2', 'Dos')),
      [`GET /visores/${USER}/getFavs`]: () => favs,
      [`PUT /visores/${USER}/folders`]: () => saved(1 + ++saves, saves === 1),
    });
    await sync.refresh();
    expect(await sync.changeTree({ kind: 'setFolderFavourite', folderId: 'F', fav: true })).toEqual({ ok: true, value: { version: 2 } });
    expect(http.calls.map((call) => call.method)).toEqual(['GET', 'GET', 'GET', 'GET', 'GET', 'PUT']);
    expect(await database.folderTrees.get(USER)).toEqual({ userId: USER, nodes: [favouriteFolder], version: 2, syncedAt: 42 });
    expect((await database.favourites.get(USER))?.folders).toEqual([favouriteFolder]);
    expect(favOf(await database.visores.get([USER, 'v1']))).toBe(true);
    expect(favOf(await database.visores.get([USER, 'v2']))).toBe(false);
    await sync.changeTree({ kind: 'setFolderFavourite', folderId: 'F', fav: false });
    expect(favOf(await database.visores.get([USER, 'v1']))).toBe(false);
    expect(await database.favourites.get(USER)).toEqual({ userId: USER, visores: [], folders: [] });
  });

  describe('a tab that becomes visible', () => {
    /** The server's tree is at `server.version`; GET folders answers 304 to If-None-Match of it. */
    function withServer() {
      const server = { version: 3 };
      const setupResult = setup({
        [`GET /visores/${USER}/folders`]: (call) => (call.headers['if-none-match'] === `"${server.version}"` ? { status: 304 } : tree(server.version)),
        [`GET /visores/${USER}`]: () => listed(visor('v1', 'Uno')),
        ...whole(visor('v1', 'Uno')),
        [`GET /visores/${USER}/getFavs`]: () => favs,
      });
      return { ...setupResult, server };
    }
    const requests = (calls: { method: string; path: string; headers: Record<string, string> }[]) =>
      calls.map((call) => [call.method, call.path, call.headers['if-none-match'] ?? null]);

    it('asks nothing within a minute of the last news from the server (a refresh, a write, a check)', async () => {
      const { sync, http, current } = withServer();
      await sync.refresh();
      http.calls.length = 0;
      current.now += CHECK_AFTER_MS - 1;
      expect(await sync.visible()).toEqual({ ok: true, value: undefined });
      expect(http.calls).toEqual([]);
    });

    it('after a minute checks the version: a 304 (nothing changed) costs one request and confirms the cache', async () => {
      const { sync, http, current, database } = withServer();
      await sync.refresh();
      http.calls.length = 0;
      current.now += CHECK_AFTER_MS;
      expect(await sync.visible()).toEqual({ ok: true, value: undefined });
      expect(requests(http.calls)).toEqual([['GET', `/visores/${USER}/folders`, '"3"']]);
      expect(await database.folderTrees.get(USER)).toEqual({ userId: USER, nodes: [], version: 3, syncedAt: current.now });
      // Confirmed now: the next tab that comes back within the minute asks nothing.
      await sync.visible();
      expect(http.calls).toHaveLength(1);
    });

    it('reads the whole workspace again when another device changed the tree', async () => {
      const { sync, http, current, database, server } = withServer();
      await sync.refresh();
      http.calls.length = 0;
      server.version = 7;
      current.now += 5 * CHECK_AFTER_MS;
      await sync.visible();
      expect(requests(http.calls)).toEqual([
        ['GET', `/visores/${USER}/folders`, '"3"'],
        ['GET', `/visores/${USER}`, null],
        ['GET', `/visores/${USER}/getFavs`, null],
      ]);
      expect((await database.folderTrees.get(USER))?.version).toBe(7);
    });

    it('asks nothing when nobody is signed in', async () => {
      const { sync, http, current } = withServer();
      current.session = null;
      expect(await sync.visible()).toEqual({ ok: true, value: undefined });
      expect(http.calls).toEqual([]);
    });
  });

  it('only logs a failed load, and answers it as a plain error', async () => {
    const { sync, log, database } = setup({
      [`GET /visores/${USER}/folders`]: () => Promise.reject(new TypeError('Failed to fetch')),
      [`GET /visores/${USER}`]: () => ({ status: 200, body: { status: 'success', data: [] } }),
      [`GET /visores/${USER}/getFavs`]: () => favs,
    });
    const answer = await sync.refresh();
    expect(answer).toEqual({ ok: false, error: { code: 'network', message: NETWORK_ERROR_MESSAGE, status: 0 } });
    expect(log.entries().at(-1)).toMatchObject({ level: 'error', text: SYNC_LOG.loadFailed(NETWORK_ERROR_MESSAGE) });
    expect(await database.folderTrees.count()).toBe(0);
  });

  it('answers not_signed_in without calling the server when nobody is signed in', async () => {
    const { sync, http, current } = setup({});
    current.session = null;
    expect(await sync.changeTree({ kind: 'deleteFolder', folderId: 'F' })).toEqual({
      ok: false,
      error: { code: 'not_signed_in', message: 'No hay una sesión iniciada', status: 0 },
    });
    expect(http.calls).toEqual([]);
  });

  it('writes nothing from an answer that arrives after the logout', async () => {
    const held = heldRoute();
    const { sync, database, current } = setup({
      [`GET /visores/${USER}/folders`]: held.route,
      [`GET /visores/${USER}`]: () => listed(visor('v1', 'Uno')),
      ...whole(visor('v1', 'Uno')),
      [`GET /visores/${USER}/getFavs`]: () => favs,
    });
    const pending = sync.refresh();
    await held.called;
    // The logout: the worker forgets the session, then wipes the user's records.
    current.session = null;
    await sync.wipe(USER);
    held.answer(tree(9));
    expect(await pending).toEqual({ ok: false, error: { code: 'not_signed_in', message: 'No hay una sesión iniciada', status: 0 } });
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

describe('saving a visor’s sections (issue 18)', () => {
  const section = (id: string, title: string): Section => ({
    id,
    type: 'formula',
    title,
    layout: { x: 0, y: 0, w: 6, h: 4 },
    config: { formulas: [] },
  });
  const base = [section('a', 'A'), section('b', 'B')];
  const withSections = (secciones: Section[], version: number): Visor => ({ ...visor('v1', 'Uno'), secciones, version });
  const ok = (data: Visor) => ({ status: 200, body: { status: 'success', data } });
  const stale = { status: 412, body: { status: 'error', message: 'El visor cambió en otra pestaña o dispositivo.' } };

  it('sends If-Match with the version read and stores the answer', async () => {
    const mine = [section('a', 'Mía'), section('b', 'B')];
    const { sync, database, http } = setup({ 'PUT /visores/v1/update_secciones': () => ok(withSections(mine, 4)) });
    const answer = await sync.saveSecciones('v1', { base, sections: mine, version: 3 });
    expect(answer).toEqual({ ok: true, value: { visor: withSections(mine, 4), outcome: 'saved' } });
    expect(http.calls[0]!.headers['if-match']).toBe('"3"');
    expect(http.calls[0]!.body).toEqual({ secciones: mine });
    expect((await database.visores.get([USER, 'v1']))?.version).toBe(4);
  });

  it('on 412 re-reads and saves this tab’s change again on the newer sections when they touched different sections', async () => {
    const theirs = [section('a', 'A'), section('b', 'Suya')];
    const merged = [section('a', 'Mía'), section('b', 'Suya')];
    let puts = 0;
    const { sync, http } = setup({
      'PUT /visores/v1/update_secciones': () => (++puts === 1 ? stale : ok(withSections(merged, 5))),
      'GET /visores/v1/get': () => ok(withSections(theirs, 4)),
    });
    const answer = await sync.saveSecciones('v1', { base, sections: [section('a', 'Mía'), section('b', 'B')], version: 3 });
    expect(answer).toEqual({ ok: true, value: { visor: withSections(merged, 5), outcome: 'merged' } });
    const retry = http.calls.at(-1)!;
    expect(retry.headers['if-match']).toBe('"4"');
    expect(retry.body).toEqual({ secciones: merged });
  });

  it('on 412 keeps the server’s state when both changed the same section', async () => {
    const theirs = [section('a', 'Suya'), section('b', 'B')];
    const { sync, database, http } = setup({
      'PUT /visores/v1/update_secciones': () => stale,
      'GET /visores/v1/get': () => ok(withSections(theirs, 4)),
    });
    const answer = await sync.saveSecciones('v1', { base, sections: [section('a', 'Mía'), section('b', 'B')], version: 3 });
    expect(answer).toEqual({ ok: true, value: { visor: withSections(theirs, 4), outcome: 'server-won', clashes: ['a'] } });
    expect(http.calls.filter((call) => call.method === 'PUT')).toHaveLength(1);
    expect((await database.visores.get([USER, 'v1']))?.secciones).toEqual(theirs);
  });
});

describe('a change of a visor deleted on another device or in another tab (410)', () => {
  const leaf = (id: string, name: string, fav: boolean) => ({ visor_id: id, name, emoji: '', color: 'red', fav, to: `visor/${id}/edit` });
  const folderWith = (...sub: ReturnType<typeof leaf>[]) => ({ folder_id: 'F', name: 'Agro', emoji: '', sub });
  const gone = { status: 410, body: { status: 'error', message: 'El visor ya se borró' } };
  const draftOf = (visorId: string) => ({ userId: USER, visor_id: visorId, base: [], version: 0, draft: [], editor: 'tab-1', savedAt: 1 });

  /** Ana's workspace with v1 (a favourite) and v2 in folder F; `deleted` makes the server's reads lack v1, as its delete left them. */
  function withDeletedVisor(reads: 'answer' | 'fail' = 'answer') {
    const server = { deleted: false };
    const failing = () => Promise.reject(new TypeError('Failed to fetch'));
    const answers = (answer: () => FakeAnswer) => () => (server.deleted && reads === 'fail' ? failing() : answer());
    const setupResult = setup({
      [`GET /visores/${USER}/folders`]: answers(() => ({
        status: 200,
        body: {
          status: 'success',
          data: [server.deleted ? folderWith(leaf('v2', 'Dos', false)) : folderWith(leaf('v1', 'Uno', true), leaf('v2', 'Dos', false))],
          version: server.deleted ? 2 : 1,
        },
      })),
      [`GET /visores/${USER}`]: answers(() => (server.deleted ? listed(visor('v2', 'Dos')) : listed({ ...visor('v1', 'Uno'), fav: true }, visor('v2', 'Dos')))),
      ...whole({ ...visor('v1', 'Uno'), fav: true }, visor('v2', 'Dos')),
      [`GET /visores/${USER}/getFavs`]: answers(() => ({
        status: 200,
        body: { status: 'success', data: { visores: server.deleted ? [] : [{ visor_id: 'v1', emoji: '', title: 'Uno' }], folders: [] } },
      })),
      'PUT /visores/v1/update_secciones': () => gone,
      'PUT /visores/v1': () => gone,
      'PUT /visores/v1/check_option': () => gone,
      [`PUT /visores/${USER}/v1/fav`]: () => gone,
    });
    return { ...setupResult, server };
  }

  const changes = {
    'a save of its sections': (sync: ReturnType<typeof setup>['sync']) => sync.saveSecciones('v1', { base: [], sections: [], version: 0 }),
    'a change of its title': (sync: ReturnType<typeof setup>['sync']) => sync.updateVisor('v1', { title: 'Nuevo' }),
    Público: (sync: ReturnType<typeof setup>['sync']) => sync.setVisorPublic('v1', true),
    'its favourite': (sync: ReturnType<typeof setup>['sync']) => sync.toggleVisorFavourite('v1'),
  };

  it.each(Object.entries(changes))('%s: forgets the visor here, reads the workspace again and answers the 410', async (_, send) => {
    const { sync, database, http, server } = withDeletedVisor();
    await sync.refresh();
    await database.visorDrafts.bulkPut([draftOf('v1'), draftOf('v2')]);
    server.deleted = true;
    http.calls.length = 0;
    expect(await send(sync)).toEqual({ ok: false, error: { code: 'gone', message: 'El visor ya se borró', status: 410 } });
    // Sent once, then the workspace read again: the tree and favourites are the server's.
    const [sent, ...read] = http.calls.map((call) => `${call.method} ${call.path}`);
    expect(sent).toMatch(/^PUT /);
    expect(read).toEqual([`GET /visores/${USER}/folders`, `GET /visores/${USER}`, `GET /visores/${USER}/getFavs`]);
    expect(await database.visores.get([USER, 'v1'])).toBeUndefined();
    expect(await database.folderTrees.get(USER)).toMatchObject({ nodes: [folderWith(leaf('v2', 'Dos', false))], version: 2 });
    expect((await database.favourites.get(USER))?.visores).toEqual([]);
    // Its pending draft will never land: it goes; another visor's stays.
    expect(await database.visorDrafts.get([USER, 'v1'])).toBeUndefined();
    expect(await database.visorDrafts.get([USER, 'v2'])).toBeDefined();
  });

  it('a delete answered 410 is done: the visor is forgotten here, the workspace read again, and no error', async () => {
    const { sync, database, http, server } = withDeletedVisor();
    await sync.refresh();
    server.deleted = true;
    http.routes['DELETE /visores/v1'] = () => gone;
    http.calls.length = 0;
    expect(await sync.deleteVisor('v1')).toEqual({ ok: true, value: undefined });
    expect(http.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'DELETE /visores/v1',
      `GET /visores/${USER}/folders`,
      `GET /visores/${USER}`,
      `GET /visores/${USER}/getFavs`,
    ]);
    expect(await database.visores.get([USER, 'v1'])).toBeUndefined();
    expect(await database.folderTrees.get(USER)).toMatchObject({ nodes: [folderWith(leaf('v2', 'Dos', false))], version: 2 });
  });

  it('forgets its record, leaf, favourite and draft here even when the read after it fails', async () => {
    const { sync, database, server, log } = withDeletedVisor('fail');
    await sync.refresh();
    await database.visorDrafts.put(draftOf('v1'));
    server.deleted = true;
    expect(await sync.saveSecciones('v1', { base: [], sections: [], version: 0 })).toMatchObject({ ok: false, error: { code: 'gone', status: 410 } });
    expect(await database.visores.get([USER, 'v1'])).toBeUndefined();
    expect(await database.visores.get([USER, 'v2'])).toBeDefined();
    // The tree keeps the version read (the next tree save meets a 412 and reads the server's).
    expect(await database.folderTrees.get(USER)).toMatchObject({ nodes: [folderWith(leaf('v2', 'Dos', false))], version: 1 });
    expect((await database.favourites.get(USER))?.visores).toEqual([]);
    expect(await database.visorDrafts.get([USER, 'v1'])).toBeUndefined();
    expect(log.texts()).toContain(SYNC_LOG.loadFailed(NETWORK_ERROR_MESSAGE));
  });
});
