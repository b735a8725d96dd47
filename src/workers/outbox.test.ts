// The outbox (issue 21) through the workspace sync, against a small stateful fake of the
// server: writes made while the server cannot be reached are kept in Dexie, shown at once,
// replayed in order when it answers again, rebased on a 412 when they do not overlap, never
// applied twice when an answer was lost, dropped with a notice when refused, and replayed by
// a new worker (a new sync over the same database).
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VisoresDb } from '../shared/db';
import { createHttpClient } from '../shared/http';
import { isOwnVisor, type Favourites, type Section, type TreeNode, type Visor } from '../protocol/workspace';
import { leafOfVisor, mapVisorLeaves, favouriteFolders } from '../lib/folderTree';
import { createWorkspaceSync, OUTBOX_BACKOFF_FIRST_MS, OUTBOX_BACKOFF_MAX_MS, REPLAY_FAILING_NOTICE, SYNC_LOG, type WorkspaceSyncDeps } from './sync';
import { OUTBOX_MESSAGES } from './outboxReplay';
import { fakeFetch, recordingLog, type FakeAnswer, type FetchCall } from '../../tests/fakes/worker/fakes';

const USER = 'u-ana';
const section = (id: string, title: string): Section => ({ id, type: 'formula', title, layout: { x: 0, y: 0, w: 6, h: 4 }, config: { formulas: [] } });
const visor = (id: string, title: string): Visor => ({
  visor_id: id,
  owner: USER,
  title,
  emoji: '',
  color: 'red',
  fav: false,
  public: false,
  secciones: [section('a', 'A'), section('b', 'B')],
  version: 1,
  created_at: '2026-11-22T12:00:00.000Z',
  updated_at: '2026-11-22T12:00:00.000Z',
});
const ok = (body: Record<string, unknown>): FakeAnswer => ({ status: 200, body: { status: 'success', ...body } });

/** The server's side: one user's tree, visores and favourites, with the API's rules that matter here. */
function fakeServer() {
  const state = {
    up: true,
    tree: { nodes: [{ folder_id: 'F1', name: 'Dólar', emoji: '', sub: [] }] as TreeNode[], version: 1 },
    visores: new Map<string, Visor>([['v1', visor('v1', 'Uno')]]),
    /** Set by a test: the next answer of this route is lost after the server applied the call. */
    loseAnswer: new Set<string>(),
    /** Set by a test: this route answers with this status instead. */
    refuse: new Map<string, number>(),
    /** Ids of visores deleted here: a create naming one is answered 410 (the server's tombstones). */
    deleted: new Set<string>(),
  };
  state.tree.nodes.push(leafOfVisor(visor('v1', 'Uno')));
  const favourites = (): Favourites => ({
    visores: [...state.visores.values()].filter((item) => item.fav).map((item) => ({ visor_id: item.visor_id, emoji: item.emoji, title: item.title })),
    folders: favouriteFolders(state.tree.nodes),
  });
  const workspace = () => ({ tree: state.tree.nodes, version: state.tree.version, favourites: favourites() });
  const syncLeaf = (item: Visor) => {
    state.tree = {
      ...state.tree,
      nodes: mapVisorLeaves(state.tree.nodes, (leaf) => (leaf.visor_id === item.visor_id ? leafOfVisor(item) : leaf)),
      version: state.tree.version + 1,
    };
  };
  /** `visorId`: the visor the route changes; once deleted here, a change of it is answered 410 (its tombstone). */
  const route =
    (name: string, handle: (call: FetchCall) => FakeAnswer, visorId?: string) =>
    (call: FetchCall): FakeAnswer => {
      if (!state.up) throw new TypeError('Failed to fetch');
      const refused = state.refuse.get(name);
      if (refused) return { status: refused, body: { status: 'error', message: `Rechazado (${refused})` } };
      if (visorId != null && state.deleted.has(visorId)) return { status: 410, body: { status: 'error', message: 'El visor ya se borró' } };
      const answer = handle(call);
      if (state.loseAnswer.delete(name)) throw new TypeError('Failed to fetch');
      return answer;
    };
  const ifMatch = (call: FetchCall) => Number(call.headers['if-match']?.replace(/"/g, ''));
  const routes = {
    [`GET /visores/${USER}/folders`]: route('tree', () => ok({ data: state.tree.nodes, version: state.tree.version })),
    [`PUT /visores/${USER}/folders`]: route('saveTree', (call) => {
      if (ifMatch(call) !== state.tree.version) return { status: 412, body: { status: 'error', message: 'stale' } };
      state.tree = { nodes: call.body as TreeNode[], version: state.tree.version + 1 };
      return ok({ version: state.tree.version, deleted: [], workspace: workspace() });
    }),
    // The list carries no sections; a full read fetches those it has not cached with …/get.
    [`GET /visores/${USER}`]: route('list', () => ok({ data: [...state.visores.values()].map(({ secciones: _sections, ...summary }) => summary) })),
    [`GET /visores/${USER}/getFavs`]: route('favs', () => ok({ data: favourites() })),
    [`GET /visores/${USER}/v1/fav`]: route('getFav', () => ok({ data: { fav: state.visores.get('v1')!.fav } }), 'v1'),
    [`PUT /visores/${USER}/v1/fav`]: route(
      'fav',
      () => {
        const item = state.visores.get('v1')!;
        item.fav = !item.fav;
        syncLeaf(item);
        return ok({ data: { fav: item.fav }, workspace: workspace() });
      },
      'v1',
    ),
    'PUT /visores/v1': route(
      'update',
      (call) => {
        const item = { ...state.visores.get('v1')!, ...(call.body as { title: string }) };
        state.visores.set('v1', item);
        syncLeaf(item);
        return ok({ data: item, workspace: workspace() });
      },
      'v1',
    ),
    'DELETE /visores/v1': route(
      'delete',
      () => {
        deleteVisor('v1');
        return { status: 200, body: { status: 'ok', workspace: workspace() } };
      },
      'v1',
    ),
    'GET /visores/v1/get': route('get', () =>
      state.visores.has('v1') ? ok({ data: state.visores.get('v1') }) : { status: 404, body: { status: 'error', message: 'El visor no existe' } },
    ),
    'PUT /visores/v1/check_option': route(
      'public',
      (call) => {
        state.visores.set('v1', { ...state.visores.get('v1')!, public: (call.body as { value: boolean }).value });
        return ok({ data: state.visores.get('v1') });
      },
      'v1',
    ),
    'PUT /visores/v1/update_secciones': route(
      'secciones',
      (call) => {
        const item = state.visores.get('v1')!;
        if (ifMatch(call) !== item.version) return { status: 412, body: { status: 'error', message: 'stale' } };
        state.visores.set('v1', { ...item, secciones: (call.body as { secciones: Section[] }).secciones, version: item.version + 1 });
        return ok({ data: state.visores.get('v1') });
      },
      'v1',
    ),
    [`POST /visores/${USER}/new`]: route('create', (call) => {
      const body = call.body as { title: string; visor_id: string; folder_id?: string | null };
      if (state.deleted.has(body.visor_id)) return { status: 410, body: { status: 'error', message: 'El visor se borró' } };
      let item = state.visores.get(body.visor_id);
      if (!item) {
        item = { ...visor(body.visor_id, body.title), secciones: [], version: 0 };
        state.visores.set(item.visor_id, item);
        state.tree = { nodes: [...state.tree.nodes, leafOfVisor(item)], version: state.tree.version + 1 };
      }
      return ok({ data: { id_visor: item.visor_id, visor: item }, workspace: workspace() });
    }),
  };
  /** Another device deletes a visor (or this one, through DELETE). */
  function deleteVisor(visorId: string): void {
    state.visores.delete(visorId);
    state.deleted.add(visorId);
    state.tree = { nodes: mapVisorLeaves(state.tree.nodes, (leaf) => (leaf.visor_id === visorId ? null : leaf)), version: state.tree.version + 1 };
  }
  return { state, routes, deleteVisor };
}

let count = 0;
const databases: VisoresDb[] = [];
afterEach(async () => {
  for (const database of databases.splice(0)) await database.delete();
});

function setup(database = new VisoresDb(`outbox-unit-${++count}`), server = fakeServer(), extra: Partial<WorkspaceSyncDeps> = {}) {
  databases.push(database);
  const http = fakeFetch('/api', server.routes);
  const notices: string[] = [];
  /** What the sync said of the server failing the replay, in order (null: over). */
  const failing: (string | null)[] = [];
  const log = recordingLog();
  let online = server.state.up;
  const sync = createWorkspaceSync({
    db: database,
    http: createHttpClient({ fetch: http.fetch, baseUrl: '/api', getToken: () => 'token-ana' }),
    getSession: () => ({ token: 'token-ana', userId: USER }),
    log,
    isOnline: () => online,
    notify: (text) => notices.push(text),
    onReplayFailing: (message) => failing.push(message),
    newVisorId: () => 'ab'.repeat(16),
    ...extra,
  });
  const goOffline = () => {
    server.state.up = false;
    online = false;
  };
  const goOnline = async () => {
    server.state.up = true;
    online = true;
    await sync.flush();
  };
  const writes = () => http.calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.path}`);
  return { sync, database, http, server, notices, failing, log, goOffline, goOnline, writes };
}

const cachedVisor = async (database: VisoresDb, id = 'v1') => {
  const record = await database.visores.get([USER, id]);
  return record && isOwnVisor(record) ? record : undefined;
};

describe('the outbox', () => {
  it('keeps offline edits, shows them at once, and replays them in order when the server answers', async () => {
    const { sync, database, server, goOffline, goOnline, writes } = setup();
    await sync.refresh();
    goOffline();
    expect(await sync.changeTree({ kind: 'editFolder', folderId: 'F1', name: 'Pesos', emoji: '' })).toEqual({ ok: true, value: { version: 1 } });
    expect(await sync.toggleVisorFavourite('v1')).toEqual({ ok: true, value: { fav: true } });
    const moved = [section('b', 'B'), section('a', 'A')];
    const saved = await sync.saveSecciones('v1', { base: visor('v1', 'Uno').secciones, sections: moved, version: 1 });
    expect(saved.ok && saved.value.outcome).toBe('saved');
    expect(await sync.updateVisor('v1', { title: 'Uno bis' })).toMatchObject({ ok: true, value: { title: 'Uno bis', fav: true } });

    // Shown at once: the cache has every edit, the server none.
    const tree = await database.folderTrees.get(USER);
    expect(tree?.nodes[0]).toMatchObject({ folder_id: 'F1', name: 'Pesos' });
    expect(tree?.nodes[1]).toMatchObject({ visor_id: 'v1', name: 'Uno bis', fav: true });
    expect((await database.favourites.get(USER))?.visores).toEqual([{ visor_id: 'v1', emoji: '', title: 'Uno bis' }]);
    expect(await cachedVisor(database)).toMatchObject({ title: 'Uno bis', fav: true, secciones: moved });
    expect(await sync.pending(USER)).toBe(4);
    expect(writes()).toEqual([]);

    await goOnline();
    expect(writes()).toEqual([`PUT /visores/${USER}/folders`, `PUT /visores/${USER}/v1/fav`, 'PUT /visores/v1/update_secciones', 'PUT /visores/v1']);
    expect(await sync.pending(USER)).toBe(0);
    expect(server.state.tree.nodes[0]).toMatchObject({ name: 'Pesos' });
    expect(server.state.visores.get('v1')).toMatchObject({ title: 'Uno bis', fav: true, secciones: moved, version: 2 });
    // The cache is the server's again.
    expect(await cachedVisor(database)).toMatchObject({ title: 'Uno bis', fav: true, secciones: moved, version: 2 });
  });

  it('folds the section saves of one visor into one write, on the version they were made on', async () => {
    const { sync, goOffline, goOnline, writes, server } = setup();
    await sync.refresh();
    goOffline();
    const start = visor('v1', 'Uno').secciones;
    const first = [section('a', 'A1'), section('b', 'B')];
    const second = [section('a', 'A2'), section('b', 'B')];
    await sync.saveSecciones('v1', { base: start, sections: first, version: 1 });
    await sync.saveSecciones('v1', { base: first, sections: second, version: 1 });
    expect(await sync.pending(USER)).toBe(1);
    await goOnline();
    expect(writes()).toEqual(['PUT /visores/v1/update_secciones']);
    expect(server.state.visores.get('v1')).toMatchObject({ secciones: second, version: 2 });
  });

  it('rebases a section save on a newer version that changed other sections, and keeps the server’s when they overlap', async () => {
    const { sync, database, server, notices, goOffline, goOnline } = setup();
    await sync.refresh();
    goOffline();
    const mine = [section('a', 'Mía'), section('b', 'B')];
    await sync.saveSecciones('v1', { base: visor('v1', 'Uno').secciones, sections: mine, version: 1 });
    // Another device saved section b meanwhile.
    server.state.visores.set('v1', { ...visor('v1', 'Uno'), secciones: [section('a', 'A'), section('b', 'Suya')], version: 2 });
    await goOnline();
    expect(server.state.visores.get('v1')).toMatchObject({ secciones: [section('a', 'Mía'), section('b', 'Suya')], version: 3 });
    expect(notices).toEqual([]);

    goOffline();
    const current = (await cachedVisor(database))!;
    await sync.saveSecciones('v1', { base: current.secciones, sections: [section('a', 'Otra mía'), section('b', 'Suya')], version: current.version });
    server.state.visores.set('v1', { ...visor('v1', 'Uno'), secciones: [section('a', 'De otro'), section('b', 'Suya')], version: 4 });
    await goOnline();
    expect(server.state.visores.get('v1')).toMatchObject({ secciones: [section('a', 'De otro'), section('b', 'Suya')], version: 4 });
    expect(notices).toEqual([OUTBOX_MESSAGES.sectionsClash('Uno')]);
    expect((await cachedVisor(database))?.secciones).toEqual([section('a', 'De otro'), section('b', 'Suya')]);
  });

  it('applies nothing twice when the server applied a write whose answer was lost', async () => {
    const { sync, server, goOnline, writes } = setup();
    await sync.refresh();
    // Sent online, one at a time: the server applies it and the answer never comes back, so the
    // write waits in the outbox (it may not have landed) and is replayed.
    const lost = async (route: string, write: () => Promise<unknown>) => {
      server.state.loseAnswer.add(route);
      expect(await write()).toMatchObject({ ok: true });
      expect(await sync.pending(USER)).toBe(1);
      await goOnline();
      expect(await sync.pending(USER)).toBe(0);
    };
    const moved = [section('b', 'B'), section('a', 'A')];
    await lost('fav', () => sync.toggleVisorFavourite('v1'));
    await lost('secciones', () => sync.saveSecciones('v1', { base: visor('v1', 'Uno').secciones, sections: moved, version: 1 }));
    await lost('create', () => sync.createVisor({ title: 'Nuevo' }, null));
    await lost('saveTree', () => sync.changeTree({ kind: 'addFolder', parentId: null, name: 'Nueva', emoji: '' }));

    const v1 = server.state.visores.get('v1')!;
    expect(v1.fav).toBe(true);
    expect(v1).toMatchObject({ secciones: moved, version: 2 });
    expect([...server.state.visores.keys()]).toEqual(['v1', 'ab'.repeat(16)]);
    expect(server.state.tree.nodes.filter((node) => 'folder_id' in node && node.name === 'Nueva')).toHaveLength(1);
    // The toggle was sent once (the replay read it done); the create twice, making one visor.
    expect(writes().filter((write) => write.endsWith('/fav'))).toEqual([`PUT /visores/${USER}/v1/fav`]);
    expect(writes().filter((write) => write.endsWith('/new'))).toHaveLength(2);
    expect(writes().filter((write) => write.endsWith('/update_secciones'))).toHaveLength(2);
  });

  it('drops a create that landed and was deleted on another device (410), with its later edits, and tells the user once', async () => {
    const { sync, database, server, notices, goOffline, goOnline, writes } = setup();
    await sync.refresh();
    const made = 'ab'.repeat(16);
    // The create reaches the server, its answer is lost: it waits in the outbox to be sent again.
    server.state.loseAnswer.add('create');
    expect(await sync.createVisor({ title: 'Nuevo' }, null)).toMatchObject({ ok: true });
    goOffline();
    // Edits of the new visor made offline, and one of another visor.
    await sync.updateVisor(made, { title: 'Nuevo bis' });
    await sync.changeTree({ kind: 'move', node: { kind: 'visor', id: made }, parentId: 'F1', index: 0 });
    await sync.toggleVisorFavourite('v1');
    expect(await sync.pending(USER)).toBe(4);
    // Meanwhile another device deletes the visor the first send made.
    expect(server.state.visores.has(made)).toBe(true);
    server.deleteVisor(made);

    await goOnline();
    expect(notices).toEqual([OUTBOX_MESSAGES.visorDeleted('Nuevo')]);
    expect(server.state.visores.has(made)).toBe(false);
    // Sent again once (refused); its edits never sent; the other visor's edit replayed.
    expect(writes()).toEqual([`POST /visores/${USER}/new`, `POST /visores/${USER}/new`, `PUT /visores/${USER}/v1/fav`]);
    expect(server.state.visores.get('v1')?.fav).toBe(true);
    expect(await sync.pending(USER)).toBe(0);
    // This device shows it deleted too.
    expect(await database.visores.get([USER, made])).toBeUndefined();
    const leaves = JSON.stringify((await database.folderTrees.get(USER))?.nodes);
    expect(leaves).not.toContain(made);
  });

  it('says nothing of a create refused with 410 when this device deleted that visor too', async () => {
    const { sync, server, notices, goOffline, goOnline, writes } = setup();
    await sync.refresh();
    const made = 'ab'.repeat(16);
    server.state.loseAnswer.add('create');
    await sync.createVisor({ title: 'Nuevo' }, null);
    goOffline();
    await sync.deleteVisor(made);
    server.deleteVisor(made);
    await goOnline();
    expect(notices).toEqual([]);
    expect(writes()).toEqual([`POST /visores/${USER}/new`, `POST /visores/${USER}/new`]);
    expect(await sync.pending(USER)).toBe(0);
  });

  it('drops the changes of a visor deleted on another device (410), every one waiting for it, and tells the user once', async () => {
    const { sync, database, server, http, notices, log, goOffline, goOnline, writes } = setup();
    await sync.refresh();
    goOffline();
    // Every kind of change of v1, and one of the tree that does not name it.
    await sync.toggleVisorFavourite('v1');
    await sync.saveSecciones('v1', { base: visor('v1', 'Uno').secciones, sections: [section('b', 'B')], version: 1 });
    await sync.setVisorPublic('v1', true);
    await sync.changeTree({ kind: 'editFolder', folderId: 'F1', name: 'Pesos', emoji: '' });
    await sync.updateVisor('v1', { title: 'Uno bis' });
    expect(await sync.pending(USER)).toBe(5);
    // Meanwhile another device deletes v1.
    server.deleteVisor('v1');

    await goOnline();
    // The favourite's read met the tombstone: nothing of v1 was sent; the tree change was.
    expect(http.calls.filter((call) => call.method === 'GET' && call.path.endsWith('/v1/fav'))).toHaveLength(1);
    expect(writes()).toEqual([`PUT /visores/${USER}/folders`]);
    expect(notices).toEqual([OUTBOX_MESSAGES.editsOfDeletedVisor('Uno bis')]);
    expect(log.texts().filter((text) => text.includes('se borró en otro dispositivo'))).toHaveLength(1);
    expect(server.state.tree.nodes[0]).toMatchObject({ folder_id: 'F1', name: 'Pesos' });
    expect(await sync.pending(USER)).toBe(0);
    // This device shows it deleted too, and nothing is tried again.
    expect(await database.visores.get([USER, 'v1'])).toBeUndefined();
    expect(JSON.stringify((await database.folderTrees.get(USER))?.nodes)).not.toContain('"v1"');
    await sync.flush();
    expect(writes()).toEqual([`PUT /visores/${USER}/folders`]);
    expect(notices).toHaveLength(1);
  });

  it('drops the waiting changes of a visor whose first change is refused with 410 (a rename, then sections)', async () => {
    const { sync, server, notices, goOffline, goOnline, writes } = setup();
    await sync.refresh();
    goOffline();
    await sync.updateVisor('v1', { title: 'Uno bis' });
    await sync.saveSecciones('v1', { base: visor('v1', 'Uno').secciones, sections: [section('b', 'B')], version: 1 });
    await sync.toggleVisorFavourite('v1');
    server.deleteVisor('v1');
    await goOnline();
    expect(writes()).toEqual(['PUT /visores/v1']);
    expect(notices).toEqual([OUTBOX_MESSAGES.editsOfDeletedVisor('Uno bis')]);
    expect(await sync.pending(USER)).toBe(0);
  });

  it('takes a move of a visor gone from the server’s tree as its deletion when the server says so (410), with one notice for it and its edits', async () => {
    const { sync, server, notices, goOffline, goOnline, writes } = setup();
    await sync.refresh();
    goOffline();
    await sync.changeTree({ kind: 'move', node: { kind: 'visor', id: 'v1' }, parentId: 'F1', index: 0 });
    await sync.updateVisor('v1', { title: 'Uno bis' });
    server.deleteVisor('v1');
    await goOnline();
    expect(writes()).toEqual([]);
    expect(notices).toEqual([OUTBOX_MESSAGES.editsOfDeletedVisor('Uno bis')]);
    expect(await sync.pending(USER)).toBe(0);
  });

  it('says nothing of a change refused with 410 when this device deleted that visor too', async () => {
    const { sync, server, notices, goOffline, goOnline, writes } = setup();
    await sync.refresh();
    goOffline();
    await sync.updateVisor('v1', { title: 'Uno bis' });
    await sync.deleteVisor('v1');
    server.deleteVisor('v1');
    await goOnline();
    expect(writes()).toEqual(['PUT /visores/v1']);
    expect(notices).toEqual([]);
    expect(await sync.pending(USER)).toBe(0);
  });

  it('takes a delete answered 410 (another device deleted the visor first) as done, without a notice', async () => {
    const { sync, database, server, notices, goOffline, goOnline, writes } = setup();
    await sync.refresh();
    goOffline();
    await sync.deleteVisor('v1');
    server.deleteVisor('v1');
    await goOnline();
    expect(writes()).toEqual(['DELETE /visores/v1']);
    expect(notices).toEqual([]);
    expect(await sync.pending(USER)).toBe(0);
    expect(await database.visores.get([USER, 'v1'])).toBeUndefined();
  });

  it('drops a write the server refuses (4xx) with a notice, and replays the ones after it', async () => {
    const { sync, server, notices, goOffline, goOnline } = setup();
    await sync.refresh();
    goOffline();
    await sync.updateVisor('v1', { title: 'Inválido' });
    await sync.toggleVisorFavourite('v1');
    server.state.refuse.set('update', 400);
    await goOnline();
    expect(notices).toEqual([OUTBOX_MESSAGES.refused('cambiar el visor «Inválido»', 'Rechazado (400)')]);
    expect(server.state.visores.get('v1')).toMatchObject({ title: 'Uno', fav: true });
    expect(await sync.pending(USER)).toBe(0);
  });

  it('keeps a write that gets no answer for the replay when the server answers again', async () => {
    const { sync, server, goOffline, goOnline } = setup();
    await sync.refresh();
    goOffline();
    await sync.toggleVisorFavourite('v1');
    // The network drops again during the replay: the write stays, and goes when it is back.
    server.state.loseAnswer.add('getFav');
    await goOnline();
    expect(await sync.pending(USER)).toBe(1);
    await sync.flush();
    expect(await sync.pending(USER)).toBe(0);
    expect(server.state.visores.get('v1')?.fav).toBe(true);
  });

  it('survives its worker: a new one over the same database replays what the old one kept', async () => {
    const server = fakeServer();
    const database = new VisoresDb(`outbox-unit-${++count}`);
    const first = setup(database, server);
    await first.sync.refresh();
    first.goOffline();
    await first.sync.changeTree({ kind: 'move', node: { kind: 'visor', id: 'v1' }, parentId: 'F1', index: 0 });
    // Every tab closed; the network back; a tab opens and starts a new worker.
    server.state.up = true;
    const second = setup(database, server);
    await second.sync.refresh();
    await second.sync.flush();
    expect(server.state.tree.nodes).toEqual([{ folder_id: 'F1', name: 'Dólar', emoji: '', sub: [leafOfVisor(visor('v1', 'Uno'))] }]);
    expect(await second.sync.pending(USER)).toBe(0);
  });

  it('is wiped with the rest of the user’s data at logout', async () => {
    const { sync, goOffline } = setup();
    await sync.refresh();
    goOffline();
    await sync.toggleVisorFavourite('v1');
    await sync.wipe(USER);
    expect(await sync.pending(USER)).toBe(0);
  });
});

describe('the replay when the server fails (5xx)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  // Only the timers: fake-indexeddb keeps its own scheduling.
  const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

  /** The time to the next try, and the try: asked sooner (flush), nothing is sent. */
  async function nextTry(sync: ReturnType<typeof setup>['sync'], tries: () => number, waitMs: number): Promise<void> {
    const before = tries();
    await vi.advanceTimersByTimeAsync(waitMs - 1);
    await sync.flush();
    expect(tries()).toBe(before);
    await vi.advanceTimersByTimeAsync(1);
    await sync.flush();
    expect(tries()).toBe(before + 1);
  }

  it('tries a write again 1 s, 2 s, 4 s… apart up to 60 s, never drops it, and starts from 1 s again after a success', async () => {
    fakeTimers();
    const { sync, server, http, goOffline, goOnline } = setup();
    const tries = (path: string) => () => http.calls.filter((call) => call.path === path && call.method !== 'GET').length;
    await sync.refresh();
    goOffline();
    await sync.updateVisor('v1', { title: 'Uno bis' });
    server.state.refuse.set('update', 500);
    await goOnline();
    const updates = tries('/visores/v1');
    expect(updates()).toBe(1);
    expect([OUTBOX_BACKOFF_FIRST_MS, OUTBOX_BACKOFF_MAX_MS]).toEqual([1000, 60_000]);
    for (const wait of [1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]) await nextTry(sync, updates, wait);
    expect(await sync.pending(USER)).toBe(1);

    server.state.refuse.clear();
    await vi.advanceTimersByTimeAsync(60_000);
    await sync.flush();
    expect(await sync.pending(USER)).toBe(0);
    expect(server.state.visores.get('v1')).toMatchObject({ title: 'Uno bis' });

    // A later failure waits 1 s again, not 60.
    goOffline();
    await sync.updateVisor('v1', { title: 'Uno ter' });
    server.state.refuse.set('update', 502);
    await goOnline();
    const before = updates();
    await nextTry(sync, updates, 1000);
    expect(updates()).toBe(before + 1);
    server.state.refuse.clear();
    await vi.advanceTimersByTimeAsync(2000);
    await sync.flush();
    expect(server.state.visores.get('v1')).toMatchObject({ title: 'Uno ter' });
  });

  it('tells the user once, logs each distinct failure once, and says when it is over', async () => {
    fakeTimers();
    const { sync, server, http, notices, failing, log, goOffline, goOnline } = setup();
    const favReads = () => http.calls.filter((call) => call.method === 'GET' && call.path.endsWith('/v1/fav')).length;
    const replayLines = () => log.texts().filter((text) => text.startsWith('No se pudieron enviar'));
    await sync.refresh();
    goOffline();
    await sync.toggleVisorFavourite('v1');
    server.state.refuse.set('getFav', 500);
    await goOnline();
    await nextTry(sync, favReads, 1000);
    await nextTry(sync, favReads, 2000);
    expect(favReads()).toBe(3);
    expect(notices).toEqual([REPLAY_FAILING_NOTICE('Rechazado (500)')]);
    expect(replayLines()).toEqual([SYNC_LOG.replayFailed('Rechazado (500)')]);
    expect(failing).toEqual(['Rechazado (500)']);

    // Another failure (a proxy's 503 in front of a server whose health answers): logged once more, not told again.
    server.state.refuse.set('getFav', 503);
    await nextTry(sync, favReads, 4000);
    await nextTry(sync, favReads, 8000);
    expect(replayLines()).toEqual([SYNC_LOG.replayFailed('Rechazado (500)'), SYNC_LOG.replayFailed('Rechazado (503)')]);
    expect(notices).toHaveLength(1);
    expect(failing).toEqual(['Rechazado (500)', 'Rechazado (503)']);

    server.state.refuse.clear();
    await vi.advanceTimersByTimeAsync(16_000);
    await sync.flush();
    expect(await sync.pending(USER)).toBe(0);
    expect(failing).toEqual(['Rechazado (500)', 'Rechazado (503)', null]);
    expect(server.state.visores.get('v1')?.fav).toBe(true);
  });

  it('sends a write a proxy failed (502) again at once when its server is reached, and only at the network’s return when it is not', async () => {
    fakeTimers();
    const favWrites = (calls: FetchCall[]) => calls.filter((call) => call.method === 'PUT' && call.path.endsWith('/v1/fav')).length;
    // Reached (its health answered, online.ts): no return of the network would send it, so it is sent again now.
    const reached = setup();
    await reached.sync.refresh();
    reached.server.state.refuse.set('fav', 502);
    await reached.sync.toggleVisorFavourite('v1');
    await vi.waitFor(() => expect(favWrites(reached.http.calls)).toBe(2));
    await vi.waitFor(() => expect(reached.notices).toEqual([REPLAY_FAILING_NOTICE('Rechazado (502)')]));
    reached.server.state.refuse.clear();
    await vi.advanceTimersByTimeAsync(OUTBOX_BACKOFF_FIRST_MS);
    await vi.waitFor(async () => expect(await reached.sync.pending(USER)).toBe(0));
    expect(reached.server.state.visores.get('v1')?.fav).toBe(true);

    // Not reached (down behind the proxy: its health failed too): kept, nothing sent nor told until it is back.
    let reachable = true;
    const down = setup(undefined, undefined, { isOnline: () => reachable, settled: async () => (reachable = false) });
    await down.sync.refresh();
    down.server.state.refuse.set('fav', 502);
    await down.sync.toggleVisorFavourite('v1');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(favWrites(down.http.calls)).toBe(1);
    expect(down.notices).toEqual([]);
    expect(await down.sync.pending(USER)).toBe(1);
    down.server.state.refuse.clear();
    reachable = true;
    await down.sync.flush();
    expect(await down.sync.pending(USER)).toBe(0);
    expect(down.server.state.visores.get('v1')?.fav).toBe(true);
  });

  it('stops waiting at logout', async () => {
    fakeTimers();
    const { sync, server, failing, goOffline, goOnline } = setup();
    await sync.refresh();
    goOffline();
    await sync.toggleVisorFavourite('v1');
    server.state.refuse.set('getFav', 500);
    await goOnline();
    expect(vi.getTimerCount()).toBe(1);
    await sync.wipe(USER);
    expect(vi.getTimerCount()).toBe(0);
    expect(failing).toEqual(['Rechazado (500)', null]);
  });
});
