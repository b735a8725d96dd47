// The data worker's workspace sync (src/workers/sync.ts) against the real server and a
// Dexie database over fake-indexeddb: what it caches, every write it performs, If-Match and
// the 412 path (another device saved in between), per-user records and the logout wipe.
// The "other device" is a direct API call between the cache read and the worker's save.
//
// SQLite only: the HTTP contract is the same on both databases (folders.test.ts covers them).
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VisoresDb } from '../../src/shared/db.js';
import { createHttpClient } from '../../src/shared/http.js';
import { workspaceQueries } from '../../src/data/workspace.js';
import { TREE_CHANGE_MESSAGES } from '../../src/lib/treeChanges.js';
import { WorkspaceEvent, type Section, type TreeNode } from '../../src/protocol/workspace.js';
import { createEventLog } from '../../src/workers/eventLog.js';
import type { WorkerSession } from '../../src/workers/api.js';
import { createWorkspaceSync } from '../../src/workers/sync.js';
import { CHECK_AFTER_MS } from '../../src/workers/syncRefresh.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { ADMIN, createUser, expectShape, expectSuccess, nextWorkspaceEvent, openAuthenticatedSocket, session, type Session } from './helpers.js';
import { SECTIONS, folder, getFavs, leaf, leafOfVisor, newVisor, readTree, readVisor, saveTree } from './workspace.js';

const [sqlite] = databaseTargets();
let dbCount = 0;

/** A formula section of about 10 KB. */
function bulkySection(id: string): Section {
  return {
    id,
    type: 'formula',
    title: id,
    layout: { x: 0, y: 0, w: 6, h: 4 },
    config: { formulas: Array.from({ length: 24 }, (_, f) => ({ name: `F${f}`, expression: `BYMA:AL30 / BYMA:AL30D + ${'1'.repeat(400)}`, unit: 'price' })) },
  };
}

describe('workspace sync against the server', () => {
  let server: TestServer;
  let admin: Session;
  const databases: VisoresDb[] = [];

  beforeAll(async () => {
    server = await startServer(sqlite!);
    admin = await session(server, ADMIN);
  });
  afterEach(async () => {
    for (const database of databases.splice(0)) await database.delete();
  });
  afterAll(async () => {
    await server?.close();
  });

  function syncFor(user: Session, database = new VisoresDb(`sync-test-${++dbCount}`)) {
    databases.push(database);
    const current: { session: WorkerSession | null; now: number } = { session: { token: user.token, userId: user.user._id }, now: Date.now() };
    const log = createEventLog({ console: { info: () => undefined, warn: () => undefined, error: () => undefined } });
    /** Every request the sync made, as `METHOD path`. */
    const requests: string[] = [];
    const http = createHttpClient({
      fetch: (url, init) => {
        requests.push(`${init.method} ${url.slice(server.baseUrl.length)}`);
        return fetch(url, init);
      },
      baseUrl: `${server.baseUrl}/api`,
      getToken: () => current.session?.token ?? null,
    });
    const sync = createWorkspaceSync({ db: database, http, getSession: () => current.session, log, now: () => current.now });
    return { sync, database, log, current, requests, userId: user.user._id };
  }

  /** The cached tree equals the server's, version included. */
  async function expectTreeInStep(user: Session, database: VisoresDb) {
    const cached = await workspaceQueries.tree(database, user.user._id);
    expect(cached).not.toBeNull();
    expect({ nodes: cached!.nodes, version: cached!.version }).toEqual(await readTree(user));
  }

  it('caches the tree with its version, the visores and the favourites', async () => {
    const user = await createUser(server, admin.token);
    const placed = await newVisor(user, { title: 'Dólar', emoji: '💵' });
    const loose = await newVisor(user, { title: 'Bonos' });
    expectSuccess(await saveTree(user, [folder('F', [leaf(placed, { fav: true })])]));
    const { sync, database, userId } = syncFor(user);

    expect(await sync.refresh()).toEqual({ ok: true, value: undefined });
    await expectTreeInStep(user, database);
    expect((await workspaceQueries.visores(database, userId)).map((visor) => [visor.visor_id, visor.title, visor.fav, visor.userId])).toEqual([
      [loose, 'Bonos', false, userId],
      [placed, 'Dólar', true, userId],
    ]);
    const favourites = await workspaceQueries.favourites(database, userId);
    expect(favourites).toEqual({ userId, ...(await getFavs(user)) });
    expect(favourites!.visores).toEqual([{ visor_id: placed, emoji: '💵', title: 'Dólar' }]);
  });

  it('caches every own visor whole from a list without sections, reading again only the sections that changed', async () => {
    const user = await createUser(server, admin.token);
    const ids = [await newVisor(user, { title: 'Uno' }), await newVisor(user, { title: 'Dos' }), await newVisor(user, { title: 'Tres' })];
    for (const [index, id] of ids.entries()) expectSuccess(await user.api.put(`/api/visores/${id}/update_secciones`, { secciones: SECTIONS.slice(index) }));
    const { sync, database, userId, requests, current } = syncFor(user);
    expect(await sync.refresh()).toEqual({ ok: true, value: undefined });
    // What a visor opened offline shows: every own visor, sections included, as the server has it.
    for (const id of ids) expect(await workspaceQueries.visor(database, userId, id)).toEqual({ ...(await readVisor(user, id)), userId });
    expect(requests.filter((line) => line.endsWith('/get')).sort()).toEqual(ids.map((id) => `GET /api/visores/${id}/get`).sort());

    // Another device changes one visor's sections and renames another: the next read fetches the
    // changed sections only; the rename comes with the list.
    expectSuccess(await user.api.put(`/api/visores/${ids[0]}/update_secciones`, { secciones: SECTIONS.slice(3) }));
    expectSuccess(await user.api.put(`/api/visores/${ids[1]}`, { title: 'Dos, renombrado' }));
    expectSuccess(await saveTree(user, [], (await readTree(user)).version));
    requests.length = 0;
    current.now += CHECK_AFTER_MS;
    expect(await sync.visible()).toMatchObject({ ok: true });
    expect(requests.filter((line) => line.endsWith('/get'))).toEqual([`GET /api/visores/${ids[0]}/get`]);
    for (const id of ids) expect(await workspaceQueries.visor(database, userId, id)).toEqual({ ...(await readVisor(user, id)), userId });
  });

  it('creates visores in a folder or at the root, edits, favourites and deletes them, keeping the cache in step', async () => {
    const user = await createUser(server, admin.token);
    expectSuccess(await saveTree(user, [folder('F')]));
    const { sync, database, userId } = syncFor(user);
    await sync.refresh();

    const inFolder = await sync.createVisor({ title: 'Futuros', emoji: '📈', color: 'blue' }, 'F');
    expect(inFolder.ok).toBe(true);
    const inRoot = await sync.createVisor({ title: 'Raíz' }, null);
    if (!inFolder.ok || !inRoot.ok) return;
    const futuros = await readVisor(user, inFolder.value.visorId);
    const raiz = await readVisor(user, inRoot.value.visorId);
    expect((await readTree(user)).nodes).toEqual([folder('F', [leafOfVisor(futuros)]), leafOfVisor(raiz)]);
    await expectTreeInStep(user, database);
    expect(await workspaceQueries.visor(database, userId, futuros.visor_id)).toEqual({ ...futuros, userId });

    const updated = await sync.updateVisor(futuros.visor_id, { title: 'Futuros DLR', emoji: '💹' });
    expect(updated).toMatchObject({ ok: true, value: { visor_id: futuros.visor_id, title: 'Futuros DLR', emoji: '💹', color: '#0000ff' } }); // the colour name, stored as hex
    expect((await workspaceQueries.visor(database, userId, futuros.visor_id))!.title).toBe('Futuros DLR');
    await expectTreeInStep(user, database);

    expect(await sync.toggleVisorFavourite(futuros.visor_id)).toEqual({ ok: true, value: { fav: true } });
    expect(await workspaceQueries.visor(database, userId, futuros.visor_id)).toMatchObject({ fav: true });
    expect((await workspaceQueries.favourites(database, userId))!.visores).toEqual([{ visor_id: futuros.visor_id, emoji: '💹', title: 'Futuros DLR' }]);
    await expectTreeInStep(user, database);

    expect(await sync.deleteVisor(futuros.visor_id)).toEqual({ ok: true, value: undefined });
    expect(await workspaceQueries.visor(database, userId, futuros.visor_id)).toBeNull();
    expect((await workspaceQueries.favourites(database, userId))!.visores).toEqual([]);
    await expectTreeInStep(user, database);
    expect((await readTree(user)).nodes).toEqual([folder('F'), leafOfVisor(raiz)]);
  });

  it("answers the server's message when a visor write is refused, and leaves the cache alone", async () => {
    const user = await createUser(server, admin.token);
    const { sync, database, userId } = syncFor(user);
    await sync.refresh();
    const before = await workspaceQueries.tree(database, userId);

    expect(await sync.updateVisor('0123456789abcdef0123456789abcdef', { title: 'x' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'El visor no existe', status: 404 },
    });
    const invalid = await sync.createVisor({ title: '   ' }, null);
    expect(invalid).toEqual({ ok: false, error: { code: 'invalid', message: 'El título no puede estar vacío', status: 400 } });
    const missingFolder = await sync.createVisor({ title: 'Sin carpeta' }, 'NOPE');
    expect(missingFolder.ok).toBe(false);
    if (!missingFolder.ok) expect(missingFolder.error.message).toContain('NOPE');
    expect(await workspaceQueries.tree(database, userId)).toEqual(before);
  });

  it('adds, edits, favourites and deletes folders with If-Match; deleting a folder drops the visores inside', async () => {
    const user = await createUser(server, admin.token);
    const inside = await newVisor(user, { title: 'Adentro' });
    expectSuccess(await saveTree(user, [folder('F', [leaf(inside)])]));
    const { sync, database, userId } = syncFor(user, new VisoresDb(`sync-test-${++dbCount}`));
    await sync.refresh();

    const added = await sync.changeTree({ kind: 'addFolder', parentId: 'F', name: 'Sub', emoji: '📂' });
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    const subId = added.value.folderId!;
    expect(subId).toMatch(/^[A-Za-z0-9]{1,64}$/);
    expect(await sync.changeTree({ kind: 'editFolder', folderId: subId, name: 'Subcarpeta', emoji: '🗂️' })).toMatchObject({ ok: true });
    expect(await sync.changeTree({ kind: 'setFolderFavourite', folderId: 'F', fav: true })).toMatchObject({ ok: true });
    await expectTreeInStep(user, database);
    const tree = await readTree(user);
    expect(tree.nodes).toEqual([
      folder('F', [leafOfVisor(await readVisor(user, inside)), folder(subId, [], { name: 'Subcarpeta', emoji: '🗂️', fav: true })], { fav: true }),
    ]);
    expect((await readVisor(user, inside)).fav).toBe(true);
    const favourites = await workspaceQueries.favourites(database, userId);
    expect(favourites!.folders.map((node) => node.folder_id)).toEqual(['F']);
    expect(favourites!.visores.map((item) => item.visor_id)).toEqual([inside]);

    expect(await sync.changeTree({ kind: 'deleteFolder', folderId: 'F' })).toEqual({ ok: true, value: { version: tree.version + 1 } });
    expect(await readTree(user)).toEqual({ nodes: [], version: tree.version + 1 });
    await expectTreeInStep(user, database);
    expect(await workspaceQueries.visor(database, userId, inside)).toBeNull();
    expect(await workspaceQueries.favourites(database, userId)).toEqual({ userId, visores: [], folders: [] });
  });

  it('makes one round trip per write: create, rename, favourite, delete, add folder, drag', async () => {
    const user = await createUser(server, admin.token);
    expectSuccess(await saveTree(user, [folder('A'), folder('B')]));
    const { sync, database, requests } = syncFor(user);
    await sync.refresh();

    /** The requests `write` made. */
    const counted = async (write: () => Promise<{ ok: boolean }>) => {
      const before = requests.length;
      expect(await write()).toMatchObject({ ok: true });
      return requests.slice(before);
    };
    let visorId = '';
    const trips = {
      create: await counted(async () => {
        const created = await sync.createVisor({ title: 'Uno' }, 'A');
        if (created.ok) visorId = created.value.visorId;
        return created;
      }),
      rename: await counted(() => sync.updateVisor(visorId, { title: 'Uno bis' })),
      favourite: await counted(() => sync.toggleVisorFavourite(visorId)),
      addFolder: await counted(() => sync.changeTree({ kind: 'addFolder', parentId: null, name: 'C', emoji: '' })),
      drag: await counted(() => sync.changeTree({ kind: 'move', node: { kind: 'visor', id: visorId }, parentId: 'B', index: 0 })),
      delete: await counted(() => sync.deleteVisor(visorId)),
    };
    expect(Object.fromEntries(Object.entries(trips).map(([name, made]) => [name, made.length]))).toEqual({
      create: 1,
      rename: 1,
      favourite: 1,
      addFolder: 1,
      drag: 1,
      delete: 1,
    });
    await expectTreeInStep(user, database);
  });

  it("checks the tree's version when a tab comes back after a while: 304 while unchanged, the whole workspace after another device's change", async () => {
    const user = await createUser(server, admin.token);
    const { sync, database, requests, current, userId } = syncFor(user);
    expect(await sync.refresh()).toMatchObject({ ok: true });
    const path = `/api/visores/${userId}`;
    expect(requests.splice(0)).toEqual([`GET ${path}/folders`, `GET ${path}`, `GET ${path}/getFavs`]);

    // Back within the minute: nothing asked.
    current.now += CHECK_AFTER_MS / 2;
    await sync.visible();
    expect(requests).toEqual([]);

    // Back later, nothing changed: one GET, answered 304.
    current.now += CHECK_AFTER_MS;
    expect(await sync.visible()).toMatchObject({ ok: true });
    expect(requests.splice(0)).toEqual([`GET ${path}/folders`]);

    // Another device creates a visor: the check reads tree, visores and favourites again, and
    // the new visor whole (the list carries no sections), so it opens offline too.
    const elsewhere = await newVisor(user, { title: 'De otro dispositivo', folder_id: null });
    current.now += CHECK_AFTER_MS;
    expect(await sync.visible()).toMatchObject({ ok: true });
    expect(requests.splice(0)).toEqual([`GET ${path}/folders`, `GET ${path}`, `GET ${path}/getFavs`, `GET /api/visores/${elsewhere}/get`]);
    await expectTreeInStep(user, database);
    expect(await workspaceQueries.visor(database, userId, elsewhere)).toEqual({ ...(await readVisor(user, elsewhere)), userId });
  });

  it("stores another device's writes from the socket's workspace events as the writer stored them, with no request; reads only a visor too big to push", async () => {
    const user = await createUser(server, admin.token);
    // This browser: a session of its own, whose market socket hears the other device's writes.
    const here = await session(server, { username: user.user.username, password: user.password });
    const { sync, database, requests, userId } = syncFor(here);
    const socket = await openAuthenticatedSocket(server.wsUrl('/ws/market'), here.token);
    try {
      expect(await sync.refresh()).toMatchObject({ ok: true });
      requests.length = 0;
      const heard = async () => expectShape(WorkspaceEvent, await nextWorkspaceEvent(socket), 'the workspace event');
      const follow = async () => expect(await sync.changedElsewhere(await heard(), userId)).toMatchObject({ ok: true });
      const expectInStep = async (visorId: string) => {
        expect(await workspaceQueries.visor(database, userId, visorId)).toEqual({ ...(await readVisor(user, visorId)), userId });
        await expectTreeInStep(user, database);
        expect(await workspaceQueries.favourites(database, userId)).toEqual({ userId, ...(await getFavs(user)) });
      };

      // The other device (the user's first session) creates a visor, saves its sections, renames
      // it and makes it a favourite: each is stored from its event alone.
      const visorId = await newVisor(user, { title: 'Del teléfono', folder_id: null });
      await follow();
      expectSuccess(await user.api.put(`/api/visores/${visorId}/update_secciones`, { secciones: SECTIONS }));
      await follow();
      expectSuccess(await user.api.put(`/api/visores/${visorId}`, { title: 'Renombrado en el teléfono' }));
      await follow();
      expectSuccess(await user.api.put(`/api/visores/${userId}/${visorId}/fav`, {}));
      await follow();
      expectSuccess(await saveTree(user, [folder('F', [leaf(visorId)])], (await readTree(user)).version));
      await follow();
      expect(requests).toEqual([]);
      await expectInStep(visorId);

      // Sections too big to push: the event names the visor and its version, and only it is read.
      const bulky = Array.from({ length: 8 }, (_, index) => bulkySection(`bulky-${index}`));
      expectSuccess(await user.api.put(`/api/visores/${visorId}/update_secciones`, { secciones: bulky }));
      await follow();
      expect(requests.splice(0)).toEqual([`GET /api/visores/${visorId}/get`]);
      await expectInStep(visorId);
      // Renamed and made public while that big: the sections' version stays, and it is read all the same.
      expectSuccess(await user.api.put(`/api/visores/${visorId}`, { title: 'Grande, renombrado' }));
      await follow();
      expectSuccess(await user.api.put(`/api/visores/${visorId}/check_option`, { option: 'public', value: true }));
      await follow();
      expect(requests.splice(0)).toEqual([`GET /api/visores/${visorId}/get`, `GET /api/visores/${visorId}/get`]);
      expect(await workspaceQueries.visor(database, userId, visorId)).toMatchObject({ title: 'Grande, renombrado', public: true });
      await expectInStep(visorId);

      // A late sections event of a visor deleted since does not bring it back: it is read, and gone.
      const doomed = await newVisor(user, { title: 'Se borra', folder_id: null });
      await follow();
      expectSuccess(await user.api.put(`/api/visores/${doomed}/update_secciones`, { secciones: SECTIONS }));
      const late = await heard();
      expectSuccess(await user.api.del(`/api/visores/${doomed}`));
      await follow();
      expect(await workspaceQueries.visor(database, userId, doomed)).toBeNull();
      requests.length = 0;
      expect(await sync.changedElsewhere(late, userId)).toMatchObject({ ok: true });
      expect(await workspaceQueries.visor(database, userId, doomed)).toBeNull();
      expect(requests.splice(0)).toEqual([`GET /api/visores/${doomed}/get`]);

      // An event heard for this user is not stored once another is signed in.
      const renamedLate = await (async () => {
        expectSuccess(await user.api.put(`/api/visores/${visorId}`, { title: 'Para otro' }));
        return heard();
      })();
      expect(await sync.changedElsewhere(renamedLate, 'otro-usuario')).toMatchObject({ ok: true });
      expect(await workspaceQueries.visor(database, userId, visorId)).toMatchObject({ title: 'Grande, renombrado' });

      // Away (the socket closed) while the other device deleted it: back, one read catches up.
      socket.close();
      expectSuccess(await user.api.del(`/api/visores/${visorId}`));
      expect(await sync.reconnected()).toMatchObject({ ok: true });
      const path = `/api/visores/${userId}`;
      expect(requests.splice(0)).toEqual([`GET ${path}/folders`, `GET ${path}`, `GET ${path}/getFavs`]);
      expect(await workspaceQueries.visor(database, userId, visorId)).toBeNull();
      await expectTreeInStep(user, database);
    } finally {
      socket.terminate();
    }
  });

  it('does not store a pushed tree older than the one it has (events of two processes may cross)', async () => {
    const user = await createUser(server, admin.token);
    const here = await session(server, { username: user.user.username, password: user.password });
    const { sync, database, userId } = syncFor(here);
    const socket = await openAuthenticatedSocket(server.wsUrl('/ws/market'), here.token);
    try {
      expect(await sync.refresh()).toMatchObject({ ok: true });
      expectSuccess(await saveTree(user, [folder('A')], (await readTree(user)).version));
      const first = expectShape(WorkspaceEvent, await nextWorkspaceEvent(socket), 'the first event');
      expectSuccess(await saveTree(user, [folder('B')], (await readTree(user)).version));
      const second = expectShape(WorkspaceEvent, await nextWorkspaceEvent(socket), 'the second event');
      expect(await sync.changedElsewhere(second, userId)).toMatchObject({ ok: true });
      expect(await sync.changedElsewhere(first, userId)).toMatchObject({ ok: true });
      await expectTreeInStep(user, database);
      expect((await workspaceQueries.tree(database, userId))!.nodes.map((node) => ('folder_id' in node ? node.folder_id : node.visor_id))).toEqual(['B']);
    } finally {
      socket.terminate();
    }
  });

  it('on 412 reads the tree again and applies the change to it when it still makes sense', async () => {
    const user = await createUser(server, admin.token);
    const moving = await newVisor(user, { title: 'Se mueve' });
    expectSuccess(await saveTree(user, [folder('A', [leaf(moving)]), folder('B')]));
    const { sync, database, log } = syncFor(user);
    await sync.refresh();
    const cachedVersion = (await readTree(user)).version;

    // Another device adds a folder: the cached version is stale now.
    const other = await readTree(user);
    expectSuccess(await saveTree(user, [...other.nodes, folder('C')], other.version));

    const moved = await sync.changeTree({ kind: 'move', node: { kind: 'visor', id: moving }, parentId: 'B', index: 0 });
    expect(moved).toEqual({ ok: true, value: { version: cachedVersion + 2 } });
    const visor = await readVisor(user, moving);
    expect((await readTree(user)).nodes).toEqual([folder('A'), folder('B', [leafOfVisor(visor)]), folder('C')]);
    await expectTreeInStep(user, database);
    expect(log.entries().some((entry) => entry.level === 'warn' && entry.text.includes('cambió en otra pestaña'))).toBe(true);
  });

  it('on 412 reports a clear error when the change no longer makes sense, with the tree read again', async () => {
    const user = await createUser(server, admin.token);
    const moving = await newVisor(user, { title: 'Se mueve' });
    expectSuccess(await saveTree(user, [leaf(moving), folder('Destino')]));
    const { sync, database } = syncFor(user);
    await sync.refresh();

    // Another device deletes the target folder.
    const other = await readTree(user);
    expectSuccess(await saveTree(user, [other.nodes[0]! as TreeNode], other.version));

    const moved = await sync.changeTree({ kind: 'move', node: { kind: 'visor', id: moving }, parentId: 'Destino', index: 0 });
    expect(moved).toEqual({ ok: false, error: { code: 'conflict', message: TREE_CHANGE_MESSAGES.targetGone, status: 0 } });
    await expectTreeInStep(user, database);
  });

  it('runs writes asked at once one after another, so they do not conflict with each other', async () => {
    const user = await createUser(server, admin.token);
    const { sync, database, log } = syncFor(user);
    await sync.refresh();
    const answers = await Promise.all([
      sync.changeTree({ kind: 'addFolder', parentId: null, name: 'Uno', emoji: '' }),
      sync.changeTree({ kind: 'addFolder', parentId: null, name: 'Dos', emoji: '' }),
      sync.createVisor({ title: 'Tres' }, null),
      sync.changeTree({ kind: 'addFolder', parentId: null, name: 'Cuatro', emoji: '' }),
    ]);
    expect(answers.map((answer) => answer.ok)).toEqual([true, true, true, true]);
    expect((await readTree(user)).nodes.map((node) => node.name)).toEqual(['Uno', 'Dos', 'Tres', 'Cuatro']);
    await expectTreeInStep(user, database);
    expect(log.entries().filter((entry) => entry.level !== 'info')).toEqual([]);
  });

  it('keeps users of one browser apart, and a logout wipes only its user', async () => {
    const ana = await createUser(server, admin.token);
    const beto = await createUser(server, admin.token);
    await newVisor(ana, { title: 'De Ana', folder_id: null });
    await newVisor(beto, { title: 'De Beto', folder_id: null });
    const shared = new VisoresDb(`sync-test-${++dbCount}`);
    const forAna = syncFor(ana, shared);
    const forBeto = syncFor(beto, shared);
    await forAna.sync.refresh();
    await forBeto.sync.refresh();

    expect((await workspaceQueries.visores(shared, ana.user._id)).map((visor) => visor.title)).toEqual(['De Ana']);
    expect((await workspaceQueries.visores(shared, beto.user._id)).map((visor) => visor.title)).toEqual(['De Beto']);
    expect(leafTitles((await workspaceQueries.tree(shared, ana.user._id))!.nodes)).toEqual(['De Ana']);

    forAna.current.session = null;
    await forAna.sync.wipe(ana.user._id);
    expect(await workspaceQueries.tree(shared, ana.user._id)).toBeNull();
    expect(await workspaceQueries.visores(shared, ana.user._id)).toEqual([]);
    expect(await workspaceQueries.favourites(shared, ana.user._id)).toBeNull();
    expect((await workspaceQueries.visores(shared, beto.user._id)).map((visor) => visor.title)).toEqual(['De Beto']);
    expect(await workspaceQueries.tree(shared, beto.user._id)).not.toBeNull();
    expect(await workspaceQueries.favourites(shared, beto.user._id)).not.toBeNull();

    // Signed out, the worker refuses writes instead of caching anything.
    expect(await forAna.sync.refresh()).toEqual({ ok: false, error: { code: 'not_signed_in', message: 'No hay una sesión iniciada', status: 0 } });
    expect(await workspaceQueries.tree(shared, ana.user._id)).toBeNull();
  });
});

function leafTitles(nodes: readonly TreeNode[]): string[] {
  return nodes.flatMap((node) => ('folder_id' in node ? leafTitles(node.sub) : [node.name]));
}
