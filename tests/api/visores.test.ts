import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeleteVisorResponse,
  NewVisorResponse,
  SaveTreeResponse,
  STALE_VISOR,
  TITLE_REQUIRED,
  ToggleFavResponse,
  UpdateVisorResponse,
  visorLink,
  type Visor,
} from '../../src/protocol/workspace.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { ADMIN, api, createUser, expectBody, expectErrorResponse, expectSuccess, session, type Session } from './helpers.js';
import {
  SECTIONS,
  SECTIONS_WITHOUT_BROKER,
  folder,
  getFavs,
  leaf,
  leafOfVisor,
  leavesOf,
  listVisores,
  newVisor,
  publicFieldsOf,
  readPublicVisor,
  readTree,
  readVisor,
  saveTree,
  workspaceOf,
} from './workspace.js';

const ONE_MB = 1024 * 1024;
const NOT_FOUND = 'El visor no existe';
const DELETED = 'El visor se borró y no se vuelve a crear con el mismo identificador';
const GONE = 'El visor ya se borró';

// One server per database: every test makes its own visores, so they do not interfere.
describe.each(databaseTargets())('visores API on $name', (target) => {
  let server: TestServer;
  let demo: Session;
  let admin: Session;
  let other: Session;

  beforeAll(async () => {
    server = await startServer(target);
    demo = await session(server);
    admin = await session(server, ADMIN);
    other = await createUser(server, admin.token);
  });
  afterAll(async () => {
    await server?.close();
  });

  const visorRow = (visorId: string) => server.app.ctx.db.selectFrom('visores').selectAll().where('id', '=', visorId).executeTakeFirst();

  describe('create and read', () => {
    it('creates a visor with the defaults and reads it back', async () => {
      const id = await newVisor(demo, { title: 'Futuros' });
      expect(id).toMatch(/^[A-Za-z0-9_-]{22,64}$/);

      const visor = await readVisor(demo, id);
      expect(visor).toEqual({
        visor_id: id,
        owner: demo.user._id,
        title: 'Futuros',
        emoji: '',
        color: 'hsl(270 100% 50% / 0.8)',
        fav: false,
        public: false,
        secciones: [],
        version: 0,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(visor.created_at).toBe(new Date(server.clock.now()).toISOString());
      expect(visor.updated_at).toBe(visor.created_at);
    });

    it('keeps the emoji and colour it is given, and trims the title', async () => {
      const id = await newVisor(demo, { title: '  Bonos  ', emoji: '💵', color: '#00ff00' });
      expect(await readVisor(demo, id)).toMatchObject({ title: 'Bonos', emoji: '💵', color: '#00ff00' });
    });

    it('hands out a different id to each visor', async () => {
      const ids = [await newVisor(demo), await newVisor(demo), await newVisor(demo)];
      expect(new Set(ids).size).toBe(3);
    });

    it("lists the user's visores, newest change first, and nobody else's", async () => {
      const older = await newVisor(demo, { title: 'Primero' });
      server.clock.advance(1000);
      const newer = await newVisor(demo, { title: 'Segundo' });
      const foreign = await newVisor(other, { title: 'Del otro' });

      const listed = await listVisores(demo);
      const ids = listed.map((visor) => visor.visor_id);
      expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
      expect(ids).not.toContain(foreign);
      expect(listed.every((visor) => visor.owner === demo.user._id)).toBe(true);
      // Without sections (each visor is read whole with …/get): the rest as the visor has it.
      const { secciones: _sections, ...rest } = await readVisor(demo, older);
      expect(listed.find((visor) => visor.visor_id === older)).toEqual(rest);
      expect(listed.some((visor) => 'secciones' in visor)).toBe(false);
    });

    it('answers 404 for a visor that does not exist or an id that cannot exist', async () => {
      expect(expectErrorResponse(await demo.api.get('/api/visores/0123456789abcdef0123456789abcdef/get'), 404)).toBe(NOT_FOUND);
      expect(expectErrorResponse(await demo.api.get('/api/visores/no%20es%20un%20id/get'), 404)).toBe(NOT_FOUND);
    });

    it('refuses every workspace call without a session with 401', async () => {
      const id = await newVisor(demo);
      const nobody = api(server, null);
      for (const response of [
        await nobody.get(`/api/visores/${demo.user._id}`),
        await nobody.get(`/api/visores/${id}/get`),
        await nobody.post(`/api/visores/${demo.user._id}/new`, { title: 'x' }),
        await nobody.put(`/api/visores/${id}`, { title: 'x' }),
        await nobody.del(`/api/visores/${id}`),
        await nobody.get(`/api/visores/${demo.user._id}/folders`),
      ]) {
        expectErrorResponse(response, 401);
      }
      expect((await readVisor(demo, id)).title).toBe('Visor de prueba');
    });
  });

  describe('placing a new visor in the tree', () => {
    it('puts it at the root with folder_id null, inside a folder with a folder_id, and nowhere without one', async () => {
      const user = await createUser(server, admin.token);
      expectSuccess(await saveTree(user, [folder('F1')]));
      const start = await readTree(user);

      const atRoot = await newVisor(user, { title: 'En la raíz', folder_id: null });
      const afterRoot = await readTree(user);
      expect(afterRoot.version).toBe(start.version + 1);
      expect(afterRoot.nodes).toEqual([folder('F1'), leafOfVisor(await readVisor(user, atRoot))]);

      const inFolder = await newVisor(user, { title: 'En F1', folder_id: 'F1' });
      const afterFolder = await readTree(user);
      expect(afterFolder.version).toBe(afterRoot.version + 1);
      expect(afterFolder.nodes).toEqual([folder('F1', [leafOfVisor(await readVisor(user, inFolder))]), leafOfVisor(await readVisor(user, atRoot))]);

      const unplaced = await newVisor(user, { title: 'Sin lugar' });
      expect(await readTree(user)).toEqual(afterFolder);
      expect((await readVisor(user, unplaced)).title).toBe('Sin lugar');
      expect(leavesOf(afterFolder.nodes).map((node) => node.to)).toEqual([visorLink(inFolder), visorLink(atRoot)]);
    });

    it('refuses an unknown folder_id with 400 naming it, and does not create the visor', async () => {
      const user = await createUser(server, admin.token);
      expectSuccess(await saveTree(user, [folder('F1')]));
      const tree = await readTree(user);

      const response = await user.api.post(`/api/visores/${user.user._id}/new`, { title: 'Perdido', folder_id: 'NoExiste' });
      expect(expectErrorResponse(response, 400)).toContain('NoExiste');
      expect(await listVisores(user)).toEqual([]);
      expect(await readTree(user)).toEqual(tree);
      expect(await server.app.ctx.db.selectFrom('visores').select('id').where('owner', '=', user.user._id).execute()).toEqual([]);
    });

    it('makes one visor for a create sent twice with the same visor_id (issue 21), and refuses an id another user has', async () => {
      const user = await createUser(server, admin.token);
      expectSuccess(await saveTree(user, [folder('F1')]));
      const visorId = 'ab'.repeat(16);
      const path = `/api/visores/${user.user._id}/new`;
      const first = expectBody(await user.api.post(path, { title: 'Sin red', folder_id: 'F1', visor_id: visorId }), NewVisorResponse);
      expect(first.data.id_visor).toBe(visorId);
      await user.api.put(`/api/visores/${visorId}`, { title: 'Renombrado' });
      const again = expectBody(await user.api.post(path, { title: 'Sin red', folder_id: 'F1', visor_id: visorId }), NewVisorResponse);
      // The visor as it is now, not a second one nor the create's fields again.
      expect(again.data.visor.title).toBe('Renombrado');
      expect((await listVisores(user)).map((visor) => visor.visor_id)).toEqual([visorId]);
      expect(leavesOf((await readTree(user)).nodes).map((node) => node.visor_id)).toEqual([visorId]);
      expect(again.workspace.version).toBe((await readTree(user)).version);

      const taken = expectErrorResponse(await other.api.post(`/api/visores/${other.user._id}/new`, { title: 'Otro', visor_id: visorId }), 409);
      expect(taken).toBe('Ese identificador de visor ya está en uso');
      expect(expectErrorResponse(await user.api.post(path, { title: 'x', visor_id: 'NO-HEX' }), 400)).toContain('visor_id');
    });

    it('makes one visor when the same create arrives twice at once', async () => {
      const user = await createUser(server, admin.token);
      const visorId = 'cd'.repeat(16);
      const path = `/api/visores/${user.user._id}/new`;
      const answers = await Promise.all([1, 2, 3].map(() => user.api.post(path, { title: 'A la vez', folder_id: null, visor_id: visorId })));
      for (const answer of answers) expect(expectBody(answer, NewVisorResponse).data.id_visor).toBe(visorId);
      expect((await listVisores(user)).map((visor) => visor.visor_id)).toEqual([visorId]);
      expect(leavesOf((await readTree(user)).nodes).map((node) => node.visor_id)).toEqual([visorId]);
    });

    it('keeps a deleted visor deleted: a create sent again naming its id answers 410 (issue 21)', async () => {
      const user = await createUser(server, admin.token);
      const path = `/api/visores/${user.user._id}/new`;
      // The first send landed (its answer lost), then another device deleted the visor.
      const visorId = 'ef'.repeat(16);
      expectBody(await user.api.post(path, { title: 'Sin red', folder_id: null, visor_id: visorId }), NewVisorResponse);
      expect(expectBody(await user.api.del(`/api/visores/${visorId}`), DeleteVisorResponse).status).toBe('ok');
      const tree = await readTree(user);

      const replay = await user.api.post(path, { title: 'Sin red', folder_id: null, visor_id: visorId });
      expect(expectErrorResponse(replay, 410)).toBe(DELETED);
      expect(await listVisores(user)).toEqual([]);
      expect(await readTree(user)).toEqual(tree);
      expect(await visorRow(visorId)).toBeUndefined();
      // The tombstone: id, owner and when.
      const tombstone = await server.app.ctx.db.selectFrom('visor_tombstones').selectAll().where('id', '=', visorId).executeTakeFirst();
      expect(tombstone).toEqual({ id: visorId, owner: user.user._id, deleted_at: server.clock.now() });
      // For another user the id is taken, as a live one is: that it was deleted is not revealed.
      expect(expectErrorResponse(await other.api.post(`/api/visores/${other.user._id}/new`, { title: 'Otro', visor_id: visorId }), 409)).toBe(
        'Ese identificador de visor ya está en uso',
      );

      // A tree save that drops a visor's leaf deletes it too, and it stays deleted.
      const dropped = '12'.repeat(16);
      expectBody(await user.api.post(path, { title: 'En el árbol', folder_id: null, visor_id: dropped }), NewVisorResponse);
      expect(expectBody(await saveTree(user, [], (await readTree(user)).version), SaveTreeResponse).deleted).toEqual([dropped]);
      expect(expectErrorResponse(await user.api.post(path, { title: 'En el árbol', folder_id: null, visor_id: dropped }), 410)).toBe(DELETED);
      expect(await listVisores(user)).toEqual([]);

      // The tombstones go with the account.
      expectSuccess(await admin.api.del(`/api/admin/users/${user.user._id}`));
      expect(await server.app.ctx.db.selectFrom('visor_tombstones').select('id').where('owner', '=', user.user._id).execute()).toEqual([]);
    });

    it('refuses a malformed folder_id with 400', async () => {
      const user = await createUser(server, admin.token);
      const message = expectErrorResponse(await user.api.post(`/api/visores/${user.user._id}/new`, { title: 'x', folder_id: 'a b' }), 400);
      expect(message).toContain('folder_id');
      expect(await listVisores(user)).toEqual([]);
    });
  });

  describe('change', () => {
    it('changes title, emoji and colour, and rewrites its leaf in the tree with a new version', async () => {
      const user = await createUser(server, admin.token);
      const id = await newVisor(user, { title: 'Antes', folder_id: null });
      const before = await readTree(user);
      server.clock.advance(1000);

      const response = await user.api.put(`/api/visores/${id}`, { title: 'Después', emoji: '📈', color: 'rgb(1 2 3)' });
      const { data } = expectSuccess<{ data: Visor }>(response);
      expect(data).toMatchObject({ visor_id: id, title: 'Después', emoji: '📈', color: 'rgb(1 2 3)' });

      const visor = await readVisor(user, id);
      expect(visor).toEqual(data);
      expect(Date.parse(visor.updated_at)).toBeGreaterThan(Date.parse(visor.created_at));
      const after = await readTree(user);
      expect(after.version).toBeGreaterThan(before.version);
      expect(after.nodes).toEqual([leafOfVisor(visor)]);
    });

    it('keeps emoji and colour when only the title is sent', async () => {
      const id = await newVisor(demo, { title: 'Uno', emoji: '🟢', color: 'blue' });
      expectSuccess(await demo.api.put(`/api/visores/${id}`, { title: 'Dos' }));
      expect(await readVisor(demo, id)).toMatchObject({ title: 'Dos', emoji: '🟢', color: '#0000ff' }); // a colour name is stored as hex
    });

    it('saves sections of every type, in order', async () => {
      const id = await newVisor(demo);
      const { data } = expectSuccess<{ data: Visor }>(await demo.api.put(`/api/visores/${id}/update_secciones`, { secciones: SECTIONS }));
      expect(data.secciones).toEqual(SECTIONS);
      expect((await readVisor(demo, id)).secciones).toEqual(SECTIONS);

      const reordered = [SECTIONS[4]!, SECTIONS[0]!];
      expectSuccess(await demo.api.put(`/api/visores/${id}/update_secciones`, { secciones: reordered }));
      expect((await readVisor(demo, id)).secciones).toEqual(reordered);
    });

    it('fills the curve day count with its default', async () => {
      const id = await newVisor(demo);
      const curve = { id: 'c', type: 'curve', title: 'Curva', layout: { x: 0, y: 0, w: 1, h: 1 }, config: { product: 'DLR', spot: 'USDARS' } };
      expectSuccess(await demo.api.put(`/api/visores/${id}/update_secciones`, { secciones: [curve] }));
      expect((await readVisor(demo, id)).secciones).toEqual([{ ...curve, config: { ...curve.config, dayCount: 'calendar' } }]);
    });

    it('shares and unshares with check_option', async () => {
      const id = await newVisor(demo);
      const shared = expectSuccess<{ data: Visor }>(await demo.api.put(`/api/visores/${id}/check_option`, { option: 'public', value: true }));
      expect(shared.data.public).toBe(true);
      expect((await readVisor(demo, id)).public).toBe(true);
      expectSuccess(await demo.api.put(`/api/visores/${id}/check_option`, { option: 'public', value: false }));
      expect((await readVisor(demo, id)).public).toBe(false);
    });

    it('deletes a visor: {status:"ok"}, gone from reads, the list and the tree', async () => {
      const user = await createUser(server, admin.token);
      const gone = await newVisor(user, { title: 'Se va', folder_id: null });
      const stays = await newVisor(user, { title: 'Se queda', folder_id: null });
      const before = await readTree(user);

      const response = await user.api.del(`/api/visores/${gone}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'ok', workspace: await workspaceOf(user) });

      expectErrorResponse(await user.api.get(`/api/visores/${gone}/get`), 404);
      expect((await listVisores(user)).map((visor) => visor.visor_id)).toEqual([stays]);
      const after = await readTree(user);
      expect(after.version).toBe(before.version + 1);
      expect(after.nodes).toEqual([leafOfVisor(await readVisor(user, stays))]);
      expect(await visorRow(gone)).toBeUndefined();
      expect(expectErrorResponse(await user.api.del(`/api/visores/${gone}`), 410)).toBe(GONE);
    });

    it('answers 410 to a change or delete of a visor its owner deleted, 404 to anyone else and to ids never seen (issue 21)', async () => {
      const user = await createUser(server, admin.token);
      const stranger = await createUser(server, admin.token);
      // One deleted by DELETE, one by a tree save that drops its leaf (each leaves a tombstone).
      const deleted = await newVisor(user, { title: 'Borrado', folder_id: null });
      const dropped = await newVisor(user, { title: 'Quitado del árbol', folder_id: null });
      const stays = await newVisor(user, { title: 'Se queda', folder_id: null });
      expectBody(await user.api.del(`/api/visores/${deleted}`), DeleteVisorResponse);
      const tree = await readTree(user);
      expectBody(
        await saveTree(
          user,
          tree.nodes.filter((node) => !('visor_id' in node) || node.visor_id !== dropped),
          tree.version,
        ),
        SaveTreeResponse,
      );
      // A live visor of the same user is changed as ever.
      expectSuccess(await user.api.put(`/api/visores/${stays}`, { title: 'Se queda aún' }));
      const before = { tree: await readTree(user), visores: await listVisores(user), favs: await getFavs(user) };
      const strangerBefore = { tree: await readTree(stranger), visores: await listVisores(stranger) };

      /** Every change of a visor (and the favourite read the outbox makes before setting one), as `who`. */
      const changes = (who: Session, id: string) => ({
        update: () => who.api.put(`/api/visores/${id}`, { title: 'Tarde' }),
        secciones: () => who.api.put(`/api/visores/${id}/update_secciones`, { secciones: SECTIONS }),
        seccionesIfMatch: () => who.api.put(`/api/visores/${id}/update_secciones`, { secciones: [] }, { headers: { 'if-match': '"0"' } }),
        share: () => who.api.put(`/api/visores/${id}/check_option`, { option: 'public', value: true }),
        toggleFav: () => who.api.put(`/api/visores/${who.user._id}/${id}/fav`),
        readFav: () => who.api.get(`/api/visores/${who.user._id}/${id}/fav`),
        del: () => who.api.del(`/api/visores/${id}`),
      });
      for (const id of [deleted, dropped]) {
        for (const [name, attempt] of Object.entries(changes(user, id))) expect(expectErrorResponse(await attempt(), 410), `${name} ${id}`).toBe(GONE);
        // Reading it stays a plain 404, as the visor screen expects of a visor that is not there.
        expect(expectErrorResponse(await user.api.get(`/api/visores/${id}/get`), 404)).toBe(NOT_FOUND);
        // Another user (the admin too) learns nothing: 404, as for an id never seen.
        for (const intruder of [stranger, admin]) {
          for (const [name, attempt] of Object.entries(changes(intruder, id))) {
            expect(expectErrorResponse(await attempt(), 404), `${intruder.user.username} ${name}`).toBe(NOT_FOUND);
          }
        }
      }
      // An id never seen: 404 for its would-be owner too.
      for (const [name, attempt] of Object.entries(changes(user, '9f'.repeat(16)))) expect(expectErrorResponse(await attempt(), 404), name).toBe(NOT_FOUND);
      // Nothing changed anywhere.
      expect({ tree: await readTree(user), visores: await listVisores(user), favs: await getFavs(user) }).toEqual(before);
      expect({ tree: await readTree(stranger), visores: await listVisores(stranger) }).toEqual(strangerBefore);
      expect(await visorRow(deleted)).toBeUndefined();
      expect(await visorRow(dropped)).toBeUndefined();
    });
  });

  describe('favourites', () => {
    it('toggles, reads and lists a favourite, keeping its leaf in step', async () => {
      const user = await createUser(server, admin.token);
      const id = await newVisor(user, { title: 'Favorito', emoji: '⭐', folder_id: null });
      const favPath = `/api/visores/${user.user._id}/${id}/fav`;
      const start = await readTree(user);

      expect(expectSuccess(await user.api.get(favPath))).toEqual({ status: 'success', data: { fav: false } });
      const toggled = expectSuccess(await user.api.put(favPath));
      expect(toggled).toEqual({ status: 'success', data: { fav: true }, workspace: await workspaceOf(user) });
      expect(expectSuccess(await user.api.get(favPath))).toEqual({ status: 'success', data: { fav: true } });
      expect((await readVisor(user, id)).fav).toBe(true);
      const faved = await readTree(user);
      expect(faved.version).toBe(start.version + 1);
      expect(leavesOf(faved.nodes)).toEqual([expect.objectContaining({ visor_id: id, fav: true })]);
      expect(await getFavs(user)).toEqual({ visores: [{ visor_id: id, emoji: '⭐', title: 'Favorito' }], folders: [] });

      const untoggled = expectSuccess(await user.api.put(favPath));
      expect(untoggled).toEqual({ status: 'success', data: { fav: false }, workspace: await workspaceOf(user) });
      expect((await readVisor(user, id)).fav).toBe(false);
      expect(leavesOf((await readTree(user)).nodes)).toEqual([expect.objectContaining({ visor_id: id, fav: false })]);
      expect(await getFavs(user)).toEqual({ visores: [], folders: [] });
    });

    it('lists favourite visores by title', async () => {
      const user = await createUser(server, admin.token);
      const b = await newVisor(user, { title: 'Beta' });
      const a = await newVisor(user, { title: 'Alfa' });
      await newVisor(user, { title: 'No favorito' });
      for (const id of [b, a]) expectSuccess(await user.api.put(`/api/visores/${user.user._id}/${id}/fav`));
      expect((await getFavs(user)).visores.map((item) => item.title)).toEqual(['Alfa', 'Beta']);
    });

    it('loses no toggle when several arrive at once', async () => {
      const user = await createUser(server, admin.token);
      const id = await newVisor(user, { folder_id: null });
      const favPath = `/api/visores/${user.user._id}/${id}/fav`;
      let expected = false;
      // Rounds of three toggles at once: each round must flip the favourite, and the three
      // answers must be the three successive values.
      for (let round = 0; round < 15; round++) {
        const answers = await Promise.all([1, 2, 3].map(() => user.api.put(favPath)));
        const values = answers.map((response) => expectSuccess<{ data: { fav: boolean } }>(response).data.fav);
        expect(values.filter(Boolean), `round ${round}`).toHaveLength(expected ? 1 : 2);
        expected = !expected;
        expect((await readVisor(user, id)).fav, `round ${round}`).toBe(expected);
      }
      expect(leavesOf((await readTree(user)).nodes)).toEqual([expect.objectContaining({ visor_id: id, fav: expected })]);
    });
  });

  describe('clone', () => {
    it('copies an own visor with " (copia)", its sections, not favourite nor public, at the root of the tree', async () => {
      const user = await createUser(server, admin.token);
      expectSuccess(await saveTree(user, [folder('F1')]));
      const source = await newVisor(user, { title: 'Original', emoji: '🧭', color: 'teal', folder_id: 'F1' });
      expectSuccess(await user.api.put(`/api/visores/${source}/update_secciones`, { secciones: SECTIONS }));
      expectSuccess(await user.api.put(`/api/visores/${user.user._id}/${source}/fav`));
      expectSuccess(await user.api.put(`/api/visores/${source}/check_option`, { option: 'public', value: true }));

      const response = await user.api.post(`/api/visores/${user.user._id}/${source}/clonar`);
      const copyId = expectSuccess<{ data: { id_visor: string } }>(response).data.id_visor;
      expect(copyId).not.toBe(source);

      const copy = await readVisor(user, copyId);
      expect(copy).toMatchObject({
        owner: user.user._id,
        title: 'Original (copia)',
        emoji: '🧭',
        color: '#008080',
        fav: false,
        public: false,
        secciones: SECTIONS,
      });
      const tree = await readTree(user);
      expect(tree.nodes[tree.nodes.length - 1]).toEqual(leafOfVisor(copy));
      // The source is untouched.
      expect(await readVisor(user, source)).toMatchObject({ title: 'Original', fav: true, public: true });
    });

    it('answers 404 for a visor that does not exist', async () => {
      const response = await demo.api.post(`/api/visores/${demo.user._id}/0123456789abcdef0123456789abcdef/clonar`);
      expect(expectErrorResponse(response, 404)).toBe(NOT_FOUND);
    });
  });

  describe('every write answers the workspace as it left it (one round trip per write)', () => {
    it('new, change, favourite, clone, tree save and delete: the stored tree, its version and the favourites; the visor where one was made or changed', async () => {
      const user = await createUser(server, admin.token);
      expectSuccess(await saveTree(user, [folder('F', [], { fav: true })]));

      // Created inside a favourite folder: the favourites answered hold the folder with its new leaf.
      const created = expectBody(await user.api.post(`/api/visores/${user.user._id}/new`, { title: 'Nuevo', folder_id: 'F' }), NewVisorResponse);
      const id = created.data.id_visor;
      expect(created.data.visor).toEqual(await readVisor(user, id));
      expect(created.workspace).toEqual(await workspaceOf(user));
      expect(created.workspace.tree).toEqual([folder('F', [leafOfVisor(created.data.visor)], { fav: true })]);
      expect(created.workspace.favourites.folders).toEqual(created.workspace.tree);

      const unplaced = expectBody(await user.api.post(`/api/visores/${user.user._id}/new`, { title: 'Suelto' }), NewVisorResponse);
      expect(unplaced.workspace).toEqual(created.workspace);

      const changed = expectBody(await user.api.put(`/api/visores/${id}`, { title: 'Cambiado' }), UpdateVisorResponse);
      expect(changed.data).toEqual(await readVisor(user, id));
      expect(changed.workspace).toEqual(await workspaceOf(user));
      expect(leavesOf(changed.workspace.tree)).toEqual([leafOfVisor(changed.data)]);

      const faved = expectBody(await user.api.put(`/api/visores/${user.user._id}/${id}/fav`), ToggleFavResponse);
      expect(faved.data).toEqual({ fav: true });
      expect(faved.workspace).toEqual(await workspaceOf(user));
      expect(faved.workspace.favourites.visores).toEqual([{ visor_id: id, emoji: '', title: 'Cambiado' }]);

      const cloned = expectBody(await user.api.post(`/api/visores/${user.user._id}/${id}/clonar`), NewVisorResponse);
      expect(cloned.data.visor).toEqual(await readVisor(user, cloned.data.id_visor));
      expect(cloned.workspace).toEqual(await workspaceOf(user));
      expect(cloned.workspace.tree.at(-1)).toEqual(leafOfVisor(cloned.data.visor));

      // A tree save that drops the clone's leaf, and takes the favourite off the folder and the visor.
      const before = await readTree(user);
      const nodes = [folder('F', [leaf(id, { fav: false })])];
      const saved = expectBody(await saveTree(user, nodes, before.version), SaveTreeResponse);
      expect(saved.deleted).toEqual([cloned.data.id_visor]);
      expect(saved.workspace).toEqual(await workspaceOf(user));
      expect(saved.workspace).toMatchObject({ version: saved.version, favourites: { visores: [], folders: [] } });
      expect(saved.workspace.tree).toEqual([folder('F', [leafOfVisor(await readVisor(user, id))])]);

      const deleted = expectBody(await user.api.del(`/api/visores/${id}`), DeleteVisorResponse);
      expect(deleted.workspace).toEqual(await workspaceOf(user));
      expect(deleted.workspace.tree).toEqual([folder('F')]);
    });
  });

  describe('the sections version and If-Match (issue 18)', () => {
    const save = (visorId: string, secciones: unknown, ifMatch?: string) =>
      demo.api.put(`/api/visores/${visorId}/update_secciones`, { secciones }, ifMatch === undefined ? {} : { headers: { 'if-match': ifMatch } });

    it('bumps the version on every save and answers it as the ETag', async () => {
      const id = await newVisor(demo);
      expect((await readVisor(demo, id)).version).toBe(0);
      const first = await save(id, SECTIONS, '"0"');
      expect(expectSuccess<{ data: Visor }>(first).data.version).toBe(1);
      expect(first.headers.get('etag')).toBe('"1"');
      const second = await save(id, [SECTIONS[0]!], '1');
      expect(expectSuccess<{ data: Visor }>(second).data.version).toBe(2);
      expect((await readVisor(demo, id)).version).toBe(2);
    });

    it('answers 412 to a save naming an old version, and changes nothing', async () => {
      const id = await newVisor(demo);
      expectSuccess(await save(id, SECTIONS, '"0"'));
      const message = expectErrorResponse(await save(id, [], '"0"'), 412);
      expect(message).toBe(STALE_VISOR);
      const visor = await readVisor(demo, id);
      expect(visor.version).toBe(1);
      expect(visor.secciones).toEqual(SECTIONS);
    });

    it('lets exactly one of two simultaneous saves with the same If-Match win; the other gets 412', async () => {
      const id = await newVisor(demo);
      const answers = await Promise.all([save(id, [SECTIONS[0]!], '"0"'), save(id, [SECTIONS[1]!], '"0"')]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
      const winner = answers.findIndex((answer) => answer.status === 200);
      const visor = await readVisor(demo, id);
      expect(visor.version).toBe(1);
      expect(visor.secciones).toEqual([SECTIONS[winner]!]);
    });

    it('lets a save without If-Match win (and still bump the version)', async () => {
      const id = await newVisor(demo);
      expectSuccess(await save(id, SECTIONS, '"0"'));
      expect(expectSuccess<{ data: Visor }>(await save(id, [])).data.version).toBe(2);
    });

    it('refuses a malformed If-Match with 400 and changes nothing', async () => {
      const id = await newVisor(demo);
      expect(expectErrorResponse(await save(id, SECTIONS, 'abc'), 400)).toContain('If-Match');
      expect((await readVisor(demo, id)).version).toBe(0);
    });

    it('shows the version to a visitor of a public visor', async () => {
      const id = await newVisor(demo);
      expectSuccess(await save(id, SECTIONS, '"0"'));
      expectSuccess(await demo.api.put(`/api/visores/${id}/check_option`, { option: 'public', value: true }));
      expect((await readPublicVisor(other, id)).version).toBe(1);
    });
  });

  describe('verify_owner_visor', () => {
    const verify = (who: Session, visorId: string) => who.api.post(`/api/visores/${who.user._id}/${visorId}/verify_owner_visor`);

    it("answers true for an own visor, and false for another user's, public or not, and for one that does not exist", async () => {
      const own = await newVisor(demo);
      const foreignPrivate = await newVisor(other);
      const foreignPublic = await newVisor(other);
      expectSuccess(await other.api.put(`/api/visores/${foreignPublic}/check_option`, { option: 'public', value: true }));

      expect(expectSuccess(await verify(demo, own))).toEqual({ status: 'success', data: { owner: true } });
      for (const id of [foreignPrivate, foreignPublic, '0123456789abcdef0123456789abcdef', 'no-es-valido!']) {
        expect(expectSuccess(await verify(demo, encodeURIComponent(id))), id).toEqual({ status: 'success', data: { owner: false } });
      }
    });

    it('answers 403 when the path names another user', async () => {
      const own = await newVisor(demo);
      expectErrorResponse(await other.api.post(`/api/visores/${demo.user._id}/${own}/verify_owner_visor`), 403);
    });
  });

  describe('another user', () => {
    /** A visor of demo's, with sections, in demo's tree; returns what demo sees of it. */
    async function demoVisor(shared: boolean) {
      const id = await newVisor(demo, { title: shared ? 'Compartido' : 'Privado', folder_id: null });
      expectSuccess(await demo.api.put(`/api/visores/${id}/update_secciones`, { secciones: SECTIONS }));
      if (shared) expectSuccess(await demo.api.put(`/api/visores/${id}/check_option`, { option: 'public', value: true }));
      return { id, visor: await readVisor(demo, id), tree: await readTree(demo) };
    }

    /** Every change another user could try on a visor. */
    const changes = (who: Session, id: string) => ({
      update: () => who.api.put(`/api/visores/${id}`, { title: 'Hackeado' }),
      secciones: () => who.api.put(`/api/visores/${id}/update_secciones`, { secciones: [] }),
      share: () => who.api.put(`/api/visores/${id}/check_option`, { option: 'public', value: false }),
      fav: () => who.api.put(`/api/visores/${who.user._id}/${id}/fav`),
      del: () => who.api.del(`/api/visores/${id}`),
    });

    it('cannot read, change, favourite, clone or delete a private visor: 404 like one that does not exist, and nothing changes', async () => {
      const { id, visor, tree } = await demoVisor(false);
      const otherVisoresBefore = await listVisores(other);

      expect(expectErrorResponse(await other.api.get(`/api/visores/${id}/get`), 404)).toBe(NOT_FOUND);
      expect(expectErrorResponse(await other.api.get(`/api/visores/${other.user._id}/${id}/fav`), 404)).toBe(NOT_FOUND);
      expect(expectErrorResponse(await other.api.post(`/api/visores/${other.user._id}/${id}/clonar`), 404)).toBe(NOT_FOUND);
      for (const [name, attempt] of Object.entries(changes(other, id))) {
        expect(expectErrorResponse(await attempt(), 404), name).toBe(NOT_FOUND);
      }
      // The admin is no owner either.
      expect(expectErrorResponse(await admin.api.get(`/api/visores/${id}/get`), 404)).toBe(NOT_FOUND);
      expect(expectErrorResponse(await changes(admin, id).del(), 404)).toBe(NOT_FOUND);

      expect(await readVisor(demo, id)).toEqual(visor);
      expect(await readTree(demo)).toEqual(tree);
      expect(await listVisores(other)).toEqual(otherVisoresBefore);
    });

    it('reads and clones a public visor, but may not change, share, favourite or delete it (403), and nothing changes', async () => {
      const { id, visor, tree } = await demoVisor(true);

      expect(await readPublicVisor(other, id)).toEqual(publicFieldsOf(visor));
      // Favourites are the owner's: another user reads false, never the owner's flag.
      expectSuccess(await demo.api.put(`/api/visores/${demo.user._id}/${id}/fav`));
      const ownerView = await readVisor(demo, id);
      expect(await readPublicVisor(other, id)).toEqual(publicFieldsOf(ownerView));
      const ownerTree = await readTree(demo);
      expect(expectSuccess(await other.api.get(`/api/visores/${other.user._id}/${id}/fav`))).toEqual({ status: 'success', data: { fav: false } });

      for (const [name, attempt] of Object.entries(changes(other, id))) {
        const message = expectErrorResponse(await attempt(), 403);
        expect(message, name).toBe('Solo el dueño puede modificar este visor');
      }
      expect(await readVisor(demo, id)).toEqual(ownerView);
      expect(await readTree(demo)).toEqual(ownerTree);
      expect(ownerTree.version).toBe(tree.version + 1); // only demo's own fav toggle moved it

      const otherTreeBefore = await readTree(other);
      const response = await other.api.post(`/api/visores/${other.user._id}/${id}/clonar`);
      const copyId = expectSuccess<{ data: { id_visor: string } }>(response).data.id_visor;
      const copy = await readVisor(other, copyId);
      expect(copy).toMatchObject({ owner: other.user._id, title: 'Compartido (copia)', secciones: SECTIONS_WITHOUT_BROKER, fav: false, public: false });
      const otherTree = await readTree(other);
      expect(otherTree.nodes).toEqual([...otherTreeBefore.nodes, leafOfVisor(copy)]);
      // The copy is other's alone: demo neither lists nor reads it.
      expect((await listVisores(demo)).map((item) => item.visor_id)).not.toContain(copyId);
      expectErrorResponse(await demo.api.get(`/api/visores/${copyId}/get`), 404);
      expect(await readTree(demo)).toEqual(ownerTree);
      // The other user may change the copy.
      expectSuccess(await other.api.put(`/api/visores/${copyId}`, { title: 'Mío' }));
    });

    it("reads a public visor's public fields only: not the owner's id, favourite or dates (issue 17), the admin neither", async () => {
      const { id } = await demoVisor(true);
      expectSuccess(await demo.api.put(`/api/visores/${demo.user._id}/${id}/fav`));
      const owner = await readVisor(demo, id);
      expect(owner).toMatchObject({ owner: demo.user._id, fav: true });
      for (const visitor of [other, admin]) {
        const response = await visitor.api.get(`/api/visores/${id}/get`);
        const data = expectSuccess<{ data: Record<string, unknown> }>(response).data;
        expect(Object.keys(data).sort()).toEqual(['color', 'emoji', 'public', 'secciones', 'title', 'version', 'visor_id']);
        expect(response.text).not.toContain(demo.user._id);
        expect(data).toEqual(publicFieldsOf(owner));
      }
      // The owner still reads the whole visor.
      expect(await readVisor(demo, id)).toEqual(owner);
    });

    it("carries none of the owner's broker (account, brokerUrl, username) to a visitor, the admin, or a clone", async () => {
      const { id, visor } = await demoVisor(true);
      const positions = visor.secciones.find((section) => section.type === 'positions')!;
      const broker = positions.config as Record<string, unknown>;
      expect(Object.keys(broker).sort()).toEqual(['account', 'brokerUrl', 'username']);
      const leaks = (text: string) =>
        [...Object.keys(broker).map((key) => `"${key}"`), ...Object.values(broker).map(String)].filter((needle) => text.includes(needle));

      for (const visitor of [other, admin]) {
        const response = await visitor.api.get(`/api/visores/${id}/get`);
        expect(response.status).toBe(200);
        expect(leaks(response.text), 'the public answer').toEqual([]);
        // The section is there, with its place and title, and a config of nothing chosen.
        expect((response.body as { data: Visor }).data.secciones).toEqual(SECTIONS_WITHOUT_BROKER);
      }

      const cloned = await other.api.post(`/api/visores/${other.user._id}/${id}/clonar`);
      expect(leaks(cloned.text), 'the clone answer').toEqual([]);
      const copyId = expectSuccess<{ data: { id_visor: string } }>(cloned).data.id_visor;
      const copy = await other.api.get(`/api/visores/${copyId}/get`);
      expect(leaks(copy.text), 'the clone').toEqual([]);
      expect(leaks((await other.api.get(`/api/visores/${other.user._id}`)).text), "the cloner's list").toEqual([]);
      expect(
        leaks(JSON.stringify(await server.app.ctx.db.selectFrom('visores').select('secciones').where('id', '=', copyId).execute())),
        'the stored clone',
      ).toEqual([]);

      // The owner still reads, and clones, their own broker.
      expect((await readVisor(demo, id)).secciones).toEqual(SECTIONS);
      const own = expectSuccess<{ data: { id_visor: string } }>(await demo.api.post(`/api/visores/${demo.user._id}/${id}/clonar`)).data.id_visor;
      expect((await readVisor(demo, own)).secciones).toEqual(SECTIONS);
    });

    it('loses access once the owner unshares it', async () => {
      const { id } = await demoVisor(true);
      expect((await readPublicVisor(other, id)).visor_id).toBe(id);
      expectSuccess(await demo.api.put(`/api/visores/${id}/check_option`, { option: 'public', value: false }));
      expectErrorResponse(await other.api.get(`/api/visores/${id}/get`), 404);
      expectErrorResponse(await other.api.post(`/api/visores/${other.user._id}/${id}/clonar`), 404);
    });

    it("gets 403 on every path that names demo's user id, admin included, and demo's data stays as it was", async () => {
      const { id, visor, tree } = await demoVisor(true);
      const listed = await listVisores(demo);
      const favs = await getFavs(demo);
      const userId = demo.user._id;
      for (const intruder of [other, admin]) {
        const attempts = {
          list: () => intruder.api.get(`/api/visores/${userId}`),
          readTree: () => intruder.api.get(`/api/visores/${userId}/folders`),
          saveTree: () => intruder.api.put(`/api/visores/${userId}/folders`, []),
          create: () => intruder.api.post(`/api/visores/${userId}/new`, { title: 'Intruso', folder_id: null }),
          toggleFav: () => intruder.api.put(`/api/visores/${userId}/${id}/fav`),
          readFav: () => intruder.api.get(`/api/visores/${userId}/${id}/fav`),
          favs: () => intruder.api.get(`/api/visores/${userId}/getFavs`),
          clone: () => intruder.api.post(`/api/visores/${userId}/${id}/clonar`),
          verify: () => intruder.api.post(`/api/visores/${userId}/${id}/verify_owner_visor`),
        };
        for (const [name, attempt] of Object.entries(attempts)) {
          const message = expectErrorResponse(await attempt(), 403);
          expect(message, `${intruder.user.username} ${name}`).toBe('No tiene permiso para acceder a los datos de otro usuario');
        }
      }
      expect(await readVisor(demo, id)).toEqual(visor);
      expect(await readTree(demo)).toEqual(tree);
      expect(await listVisores(demo)).toEqual(listed);
      expect(await getFavs(demo)).toEqual(favs);
    });
  });

  describe('bad input', () => {
    const newPath = () => `/api/visores/${demo.user._id}/new`;

    it.each([
      ['missing', {}],
      ['empty', { title: '' }],
      ['blank', { title: '   ' }],
      ['null', { title: null }],
    ])('refuses a %s title on create with exactly "El título no puede estar vacío"', async (_case, body) => {
      const before = await listVisores(demo);
      expect(expectErrorResponse(await demo.api.post(newPath(), body), 400)).toBe(TITLE_REQUIRED);
      expect(await listVisores(demo)).toEqual(before);
    });

    it.each([
      ['missing', { emoji: '🙂' }],
      ['empty', { title: '' }],
      ['blank', { title: ' \t ' }],
    ])('refuses a %s title on change with the same message, and keeps the visor', async (_case, body) => {
      const id = await newVisor(demo, { title: 'Intacto' });
      const before = await readVisor(demo, id);
      expect(expectErrorResponse(await demo.api.put(`/api/visores/${id}`, body), 400)).toBe(TITLE_REQUIRED);
      expect(await readVisor(demo, id)).toEqual(before);
    });

    it.each([
      ['a title over 200 characters', { title: 'x'.repeat(201) }, 'título'],
      ['an emoji of the wrong type', { title: 'ok', emoji: 5 }, 'emoji'],
      ['an empty colour', { title: 'ok', color: '' }, 'color'],
      ['a colour over 100 characters', { title: 'ok', color: 'r'.repeat(101) }, 'color'],
      ['an unknown field', { title: 'ok', owner: 'someone-else' }, 'owner'],
    ])('refuses %s on create with 400 naming it, and writes nothing', async (_case, body, field) => {
      const before = await listVisores(demo);
      expect(expectErrorResponse(await demo.api.post(newPath(), body), 400).toLowerCase()).toContain(field);
      expect(await listVisores(demo)).toEqual(before);
    });

    it('accepts a title of exactly 200 characters', async () => {
      const id = await newVisor(demo, { title: 't'.repeat(200) });
      expect((await readVisor(demo, id)).title).toHaveLength(200);
    });

    const section = (overrides: Record<string, unknown>) => ({ ...SECTIONS[0]!, ...overrides });
    it.each([
      ['an unknown section type', [section({ type: 'heatmap' })], 'Tipo de sección desconocido'],
      ['an unknown config field', [section({ config: { symbols: ['GGAL'], columns: ['bid'], colour: 'red' } })], 'colour'],
      ['an unknown section field', [section({ extra: 1 })], 'extra'],
      ['an unknown quote column', [section({ config: { symbols: ['GGAL'], columns: ['bid', 'spread'] } })], 'columns'],
      ['a layout of the wrong type', [section({ layout: { x: '0', y: 0, w: 1, h: 1 } })], 'layout.x'],
      ['a missing config', [{ ...SECTIONS[2]!, config: undefined }], 'config'],
      ['a config of another type', [{ ...SECTIONS[1]!, config: SECTIONS[4]!.config }], 'series'],
      ['an unknown field in a formula', [{ ...SECTIONS[3]!, config: { formulas: [{ name: 'a', expression: 'b', color: 'red' }] } }], 'color'],
      ['a section title over 200 characters', [section({ title: 'x'.repeat(201) })], '200'],
      ['more than 100 sections', Array.from({ length: 101 }, (_, i) => section({ id: `s${i}` })), '100'],
      ['secciones that is not a list', { a: 1 }, 'secciones'],
    ])('refuses %s in update_secciones with 400 naming it, and writes nothing', async (_case, secciones, field) => {
      const id = await newVisor(demo);
      expectSuccess(await demo.api.put(`/api/visores/${id}/update_secciones`, { secciones: SECTIONS }));
      const before = await readVisor(demo, id);
      const message = expectErrorResponse(await demo.api.put(`/api/visores/${id}/update_secciones`, { secciones }), 400);
      expect(message).toContain(field);
      expect(await readVisor(demo, id)).toEqual(before);
    });

    it.each([
      ['an option other than public', { option: 'fav', value: true }, 'option'],
      ['a value that is not a boolean', { option: 'public', value: 'yes' }, 'value'],
      ['a missing value', { option: 'public' }, 'value'],
    ])('refuses %s in check_option with 400', async (_case, body, field) => {
      const id = await newVisor(demo);
      expect(expectErrorResponse(await demo.api.put(`/api/visores/${id}/check_option`, body), 400)).toContain(field);
      expect((await readVisor(demo, id)).public).toBe(false);
    });

    it('loads a quote board stored before formula rows ({symbols, columns}) as symbol rows, and saves it back (issue 18)', async () => {
      const id = await newVisor(demo, { title: 'Viejo' });
      const old = { ...SECTIONS[0]!, config: { symbols: ['DLR/DIC26', 'MERV - XMEV - AL30 - 24hs'], columns: ['bid', 'last'] } };
      await server.app.ctx.db
        .updateTable('visores')
        .set({ secciones: JSON.stringify([old]) })
        .where('id', '=', id)
        .execute();
      const loaded = await readVisor(demo, id);
      const rows = [
        { kind: 'symbol', symbol: 'DLR/DIC26' },
        { kind: 'symbol', symbol: 'MERV - XMEV - AL30 - 24hs' },
      ];
      expect(loaded.secciones).toEqual([{ ...old, config: { rows, columns: ['bid', 'last'] } }]);

      // The screen saves what it read, in the new shape; a client that still sends the old one is read the same way.
      expectSuccess(await demo.api.put(`/api/visores/${id}/update_secciones`, { secciones: loaded.secciones }));
      expect((await readVisor(demo, id)).secciones).toEqual(loaded.secciones);
      expectSuccess(await demo.api.put(`/api/visores/${id}/update_secciones`, { secciones: [old] }));
      expect(JSON.parse((await visorRow(id))!.secciones)).toEqual(loaded.secciones);
    });

    it('loads formulas stored before units with the inferred unit, and a later save of another section keeps them so', async () => {
      const id = await newVisor(demo, { title: 'Sin unidades' });
      const layout = { x: 0, y: 0, w: 4, h: 4 };
      const old = [
        {
          id: 'f',
          type: 'formula',
          title: 'Dólares',
          layout,
          config: {
            formulas: [
              { name: 'Dólar MEP', expression: 'BYMA:AL30 / BYMA:AL30D' },
              { name: 'Canje', expression: '(BYMA:AL30 / BYMA:AL30C) / (BYMA:AL30 / BYMA:AL30D)' },
              { name: 'Devaluación implícita NOV26 (%)', expression: '(ROFEX:DLR/NOV26 / ROFEX:DLR/SPOT - 1) * 100' },
            ],
          },
        },
        {
          id: 'q',
          type: 'quotes',
          title: 'Tabla',
          layout,
          config: { rows: [{ kind: 'formula', name: 'Pase', expression: 'ROFEX:DLR/ENE27 - ROFEX:DLR/DIC26' }], columns: [] },
        },
      ];
      await server.app.ctx.db
        .updateTable('visores')
        .set({ secciones: JSON.stringify(old) })
        .where('id', '=', id)
        .execute();
      const loaded = await readVisor(demo, id);
      const formulas = loaded.secciones[0]!;
      const board = loaded.secciones[1]!;
      if (formulas.type !== 'formula' || board.type !== 'quotes') throw new Error('a formula section and a board');
      expect(formulas.config.formulas.map((formula) => formula.unit)).toEqual(['price', 'ratio', 'rate']);
      expect(board.config.rows).toEqual([{ kind: 'formula', name: 'Pase', expression: 'ROFEX:DLR/ENE27 - ROFEX:DLR/DIC26', unit: 'price' }]);

      // A client that still sends them without units saves; they are stored with the inferred ones.
      const renamed = [{ ...old[0]!, title: 'Dólares de hoy' }, old[1]!];
      expectSuccess(await demo.api.put(`/api/visores/${id}/update_secciones`, { secciones: renamed }));
      expect(JSON.parse((await visorRow(id))!.secciones)).toEqual([{ ...loaded.secciones[0]!, title: 'Dólares de hoy' }, loaded.secciones[1]]);
    });

    it('saves a visor whose formula names a symbol the catalogue lacks: the check is where the formula is written, and a change elsewhere must not fail', async () => {
      const id = await newVisor(demo, { title: 'Vencido' });
      const layout = { x: 0, y: 0, w: 4, h: 4 };
      const formulas = {
        id: 'f',
        type: 'formula',
        title: 'F',
        layout,
        config: { formulas: [{ name: 'Viejo', expression: 'ROFEX:DLR/ENE20 / 2', unit: 'price' }] },
      };
      expectSuccess(await demo.api.put(`/api/visores/${id}/update_secciones`, { secciones: [formulas] }));
      const unknown = expectSuccess(await demo.api.post('/api/search_symbols_formula', { formula: 'ROFEX:DLR/ENE20 / 2' }));
      expect(unknown).toMatchObject({ data: { unknown: ['ROFEX:DLR/ENE20'] } });
      expectSuccess(await demo.api.put(`/api/visores/${id}/update_secciones`, { secciones: [{ ...formulas, title: 'Renombrada' }] }));
      expect((await readVisor(demo, id)).secciones[0]!.title).toBe('Renombrada');
    });

    it('refuses a body over 1 MB with 413 and keeps the sections', async () => {
      const id = await newVisor(demo);
      expectSuccess(await demo.api.put(`/api/visores/${id}/update_secciones`, { secciones: SECTIONS }));
      const raw = JSON.stringify({ secciones: [section({ title: 'x'.repeat(ONE_MB) })] });
      expectErrorResponse(await demo.api.put(`/api/visores/${id}/update_secciones`, undefined, { raw }), 413);
      expect((await readVisor(demo, id)).secciones).toEqual(SECTIONS);
    });

    it('refuses a body that is not JSON with 400', async () => {
      const id = await newVisor(demo, { title: 'Igual' });
      expectErrorResponse(await demo.api.put(`/api/visores/${id}`, undefined, { raw: '{"title": ' }), 400);
      expect((await readVisor(demo, id)).title).toBe('Igual');
    });
  });
});
