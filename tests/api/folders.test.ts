import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SaveTreeResponse, TREE_LIMITS, type TreeNode } from '../../src/protocol/workspace.js';
import { JSON_TOO_DEEP } from '../../src/protocol/jsonDepth.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { ADMIN, createUser, expectBody, expectErrorResponse, expectSuccess, session, type Session } from './helpers.js';
import { folder, getFavs, leaf, leafOfVisor, leavesOf, listVisores, newVisor, readTree, readVisor, saveTree, workspaceOf } from './workspace.js';

const ONE_MB = 1024 * 1024;

/** A chain of `depth` nested folders, the innermost holding `inner`. */
function nested(depth: number, inner: TreeNode[] = []): TreeNode[] {
  let nodes = inner;
  for (let level = depth; level >= 1; level--) nodes = [folder(`D${level}`, nodes)];
  return nodes;
}

// One server per database; each test works on a user of its own, so trees never mix.
describe.each(databaseTargets())('folder tree API on $name', (target) => {
  let server: TestServer;
  let admin: Session;
  let user: Session;

  beforeAll(async () => {
    server = await startServer(target);
    admin = await session(server, ADMIN);
  });
  afterAll(async () => {
    await server?.close();
  });
  const freshUser = () => createUser(server, admin.token);

  describe('read and save', () => {
    beforeAll(async () => {
      user = await freshUser();
    });

    it('starts empty at version 0, with the version as ETag', async () => {
      const fresh = await freshUser();
      const response = await fresh.api.get(`/api/visores/${fresh.user._id}/folders`);
      expect(expectSuccess(response)).toEqual({ status: 'success', data: [], version: 0 });
      expect(response.headers.get('etag')).toBe('"0"');
    });

    it("answers 304 without a body when If-None-Match names the current version (the client's version check)", async () => {
      const fresh = await freshUser();
      const path = `/api/visores/${fresh.user._id}/folders`;
      const saved = expectBody(await saveTree(fresh, [folder('V')]), SaveTreeResponse);
      const current = `"${saved.version}"`;
      for (const header of [current, `W/${current}`, `"99", ${current}`, '*']) {
        const unchanged = await fresh.api.get(path, { headers: { 'if-none-match': header } });
        expect(unchanged.status, header).toBe(304);
        expect(unchanged.text).toBe('');
        expect(unchanged.headers.get('etag')).toBe(current);
      }
      // Another device saved since: the whole tree, with the new version.
      const older = `"${saved.version - 1}"`;
      const changed = await fresh.api.get(path, { headers: { 'if-none-match': older } });
      expect(expectSuccess(changed)).toEqual({ status: 'success', data: [folder('V')], version: saved.version });
      expect(changed.headers.get('etag')).toBe(current);
      // Someone else's tree stays forbidden, whatever the header says.
      expectErrorResponse(await admin.api.get(path, { headers: { 'if-none-match': '*' } }), 403);
    });

    it('saves folders and leaves and answers the next version; the leaves take their fields from the visores', async () => {
      const a = await newVisor(user, { title: 'Alfa', emoji: '🅰️', color: 'red' });
      const b = await newVisor(user, { title: 'Beta' });
      const before = await readTree(user);
      const nodes = [
        folder('F1', [leaf(a), folder('F2', [leaf(b, { name: 'ignorado', to: 'javascript:alert(1)' })], { over: true })], { heading: true }),
        folder('F3'),
      ];
      const response = await saveTree(user, nodes);
      const answer = expectBody(response, SaveTreeResponse);
      expect(answer).toEqual({ status: 'success', version: before.version + 1, deleted: [], workspace: await workspaceOf(user) });
      expect(response.headers.get('etag')).toBe(`"${answer.version}"`);

      const alfa = await readVisor(user, a);
      const beta = await readVisor(user, b);
      expect(await readTree(user)).toEqual({
        version: answer.version,
        nodes: [folder('F1', [leafOfVisor(alfa), folder('F2', [leafOfVisor(beta)], { over: true })], { heading: true }), folder('F3')],
      });
      // A leaf cannot rename its visor: the row stays the truth.
      expect(beta.title).toBe('Beta');
    });

    it('bumps the version on every save', async () => {
      const { version } = await readTree(user);
      // With the version read: this user's tree may hold visores that these saves drop.
      const first = expectBody(await saveTree(user, [folder('X')], version), SaveTreeResponse);
      const second = expectBody(await saveTree(user, [folder('X'), folder('Y')], first.version), SaveTreeResponse);
      expect([first.version, second.version]).toEqual([version + 1, version + 2]);
      expect(await readTree(user)).toEqual({ nodes: [folder('X'), folder('Y')], version: version + 2 });
    });

    it('applies leaf favourites to the visores: a folder toggle saved once updates getFavs', async () => {
      const fresh = await freshUser();
      const a = await newVisor(fresh, { title: 'Alfa', emoji: '1️⃣' });
      const b = await newVisor(fresh, { title: 'Beta', emoji: '2️⃣' });
      const c = await newVisor(fresh, { title: 'Gamma' });
      expectSuccess(await saveTree(fresh, [folder('F1', [leaf(a), leaf(b)]), leaf(c)]));
      expect(await getFavs(fresh)).toEqual({ visores: [], folders: [] });

      // What the client sends when the folder's star is clicked: the folder and all it holds.
      expectSuccess(await saveTree(fresh, [folder('F1', [leaf(a, { fav: true }), leaf(b, { fav: true })], { fav: true }), leaf(c)]));
      const favs = await getFavs(fresh);
      expect(favs.visores).toEqual([
        { visor_id: a, emoji: '1️⃣', title: 'Alfa' },
        { visor_id: b, emoji: '2️⃣', title: 'Beta' },
      ]);
      const [alfa, beta] = [await readVisor(fresh, a), await readVisor(fresh, b)];
      expect(favs.folders).toEqual([folder('F1', [leafOfVisor(alfa), leafOfVisor(beta)], { fav: true })]);
      expect((await readVisor(fresh, c)).fav).toBe(false);

      expectSuccess(await saveTree(fresh, [folder('F1', [leaf(a), leaf(b)]), leaf(c)]));
      expect(await getFavs(fresh)).toEqual({ visores: [], folders: [] });
      expect((await readVisor(fresh, a)).fav).toBe(false);
    });

    it('lists favourite folders with their subtree, not repeating the favourites inside them', async () => {
      const fresh = await freshUser();
      const inner = folder('In', [], { fav: true });
      const outer = folder('Out', [inner], { fav: true });
      const deep = folder('Deep', [], { fav: true });
      expectSuccess(await saveTree(fresh, [outer, folder('Plain', [deep])]));
      expect((await getFavs(fresh)).folders).toEqual([outer, deep]);
    });

    it('keeps a visor that was never in the tree when the tree is saved', async () => {
      const fresh = await freshUser();
      const loose = await newVisor(fresh, { title: 'Suelto' });
      expectSuccess(await saveTree(fresh, [folder('A')]));
      expectSuccess(await saveTree(fresh, []));
      expect((await readVisor(fresh, loose)).title).toBe('Suelto');
    });
  });

  describe('the visor row is the truth for its leaf', () => {
    it('rewrites the leaf and bumps the version on a change, a favourite toggle and a delete', async () => {
      const fresh = await freshUser();
      const id = await newVisor(fresh, { title: 'Uno' });
      const other = await newVisor(fresh, { title: 'Otro' });
      const saved = expectBody(await saveTree(fresh, [folder('F', [leaf(id)]), leaf(other)]), SaveTreeResponse);

      expectSuccess(await fresh.api.put(`/api/visores/${id}`, { title: 'Dos', emoji: '✌️', color: 'green' }));
      const afterChange = await readTree(fresh);
      expect(afterChange.version).toBe(saved.version + 1);
      expect(afterChange.nodes).toEqual([folder('F', [leafOfVisor(await readVisor(fresh, id))]), leafOfVisor(await readVisor(fresh, other))]);
      expect(leavesOf(afterChange.nodes)[0]).toMatchObject({ name: 'Dos', emoji: '✌️', color: '#008000' });

      expectSuccess(await fresh.api.put(`/api/visores/${fresh.user._id}/${id}/fav`));
      const afterFav = await readTree(fresh);
      expect(afterFav.version).toBe(afterChange.version + 1);
      expect(leavesOf(afterFav.nodes)[0]).toMatchObject({ visor_id: id, fav: true });

      expectSuccess(await fresh.api.del(`/api/visores/${id}`));
      const afterDelete = await readTree(fresh);
      expect(afterDelete.version).toBe(afterFav.version + 1);
      expect(afterDelete.nodes).toEqual([folder('F'), leafOfVisor(await readVisor(fresh, other))]);

      // A tree saved against the version before these changes is stale now.
      expectErrorResponse(await saveTree(fresh, [folder('F', [leaf(other)])], saved.version), 412);
    });

    it('does not move the version on changes that leave the tree alone', async () => {
      const fresh = await freshUser();
      const id = await newVisor(fresh, { folder_id: null });
      const { version } = await readTree(fresh);
      expectSuccess(await fresh.api.put(`/api/visores/${id}/update_secciones`, { secciones: [] }));
      expectSuccess(await fresh.api.put(`/api/visores/${id}/check_option`, { option: 'public', value: true }));
      await newVisor(fresh, { title: 'sin lugar' });
      expect((await readTree(fresh)).version).toBe(version);
    });

    it('keeps the tree and the visores in step when visor changes and tree saves arrive at once', async () => {
      const fresh = await freshUser();
      const id = await newVisor(fresh, { title: 'Inicio', folder_id: null });
      for (let round = 0; round < 15; round++) {
        const answers = await Promise.all([
          fresh.api.put(`/api/visores/${id}`, { title: `A${round}` }),
          saveTree(fresh, [folder('F', [leaf(id, { fav: round % 2 === 0 })])]),
          fresh.api.put(`/api/visores/${fresh.user._id}/${id}/fav`),
          saveTree(fresh, [leaf(id, { fav: round % 2 === 1 })]),
          fresh.api.put(`/api/visores/${id}`, { title: `B${round}` }),
        ]);
        for (const response of answers) expect(response.status, `round ${round}: ${response.text}`).toBe(200);
        const visor = await readVisor(fresh, id);
        expect(leavesOf((await readTree(fresh)).nodes), `round ${round}`).toEqual([leafOfVisor(visor)]);
      }
    });
  });

  describe('If-Match', () => {
    it('saves with the current version, bare or quoted; refuses a stale one with 412 and changes nothing', async () => {
      const fresh = await freshUser();
      const v0 = (await readTree(fresh)).version;
      const v1 = expectBody(await saveTree(fresh, [folder('A')], v0), SaveTreeResponse).version;
      const v2 = expectBody(await saveTree(fresh, [folder('B')], `"${v1}"`), SaveTreeResponse).version;
      const v3 = expectBody(await saveTree(fresh, [folder('C')], `W/"${v2}"`), SaveTreeResponse).version;
      expect([v1, v2, v3]).toEqual([v0 + 1, v0 + 2, v0 + 3]);

      for (const stale of [v2, `"${v1}"`, v3 + 1]) {
        const message = expectErrorResponse(await saveTree(fresh, [folder('Stale')], stale), 412);
        expect(message).toContain('cambió');
      }
      expect(await readTree(fresh)).toEqual({ nodes: [folder('C')], version: v3 });
    });

    it('answers 412 to the second of two saves with the same If-Match', async () => {
      const fresh = await freshUser();
      expectSuccess(await saveTree(fresh, [folder('Base')]));
      const { version } = await readTree(fresh);

      const first = expectBody(await saveTree(fresh, [folder('Tab1')], version), SaveTreeResponse);
      expectErrorResponse(await saveTree(fresh, [folder('Tab2')], version), 412);
      expect(await readTree(fresh)).toEqual({ nodes: [folder('Tab1')], version: first.version });
    });

    it('lets exactly one of two simultaneous saves with the same If-Match win; the other gets 412', async () => {
      const fresh = await freshUser();
      const a = await newVisor(fresh, { title: 'A' });
      const b = await newVisor(fresh, { title: 'B' });
      // Round 0 races on a user whose tree row does not exist yet.
      for (let round = 0; round < 8; round++) {
        const { version } = await readTree(fresh);
        const trees = [[folder(`One${round}`, [leaf(a), leaf(b)])], [folder(`Two${round}`, [leaf(b)]), leaf(a)]];
        const answers = await Promise.all(trees.map((nodes) => saveTree(fresh, nodes, version)));
        const statuses = answers.map((response) => response.status);
        expect(statuses.sort(), `round ${round}`).toEqual([200, 412]);
        const winner = answers.findIndex((response) => response.status === 200);
        expectErrorResponse(answers[1 - winner]!, 412);
        const saved = await readTree(fresh);
        expect(saved.version).toBe(version + 1);
        expect(saved.version).toBe(expectBody(answers[winner]!, SaveTreeResponse).version);
        const ids = (nodes: TreeNode[]) => nodes.map((node) => ('folder_id' in node ? node.folder_id : node.visor_id));
        expect(ids(saved.nodes), `round ${round}`).toEqual(ids(trees[winner]!));
      }
      expect((await listVisores(fresh)).length).toBe(2);
    });

    it('lets a save without If-Match win over a newer version', async () => {
      const fresh = await freshUser();
      expectSuccess(await saveTree(fresh, [folder('A')]));
      expectSuccess(await saveTree(fresh, [folder('B')]));
      const answer = expectBody(await saveTree(fresh, [folder('Unconditional')]), SaveTreeResponse);
      expect(await readTree(fresh)).toEqual({ nodes: [folder('Unconditional')], version: answer.version });
    });

    it.each([['abc'], ['1.5'], ['-1'], ['"x"'], ['3, 4']])('refuses a malformed If-Match (%s) with 400 and changes nothing', async (header) => {
      const fresh = await freshUser();
      const saved = expectBody(await saveTree(fresh, [folder('Keep')]), SaveTreeResponse);
      expect(expectErrorResponse(await saveTree(fresh, [], header), 400)).toContain('If-Match');
      expect(await readTree(fresh)).toEqual({ nodes: [folder('Keep')], version: saved.version });
    });
  });

  describe('deleting from the tree', () => {
    it('deletes the visores of a dropped folder, nested ones included, in the same save', async () => {
      const fresh = await freshUser();
      const [v1, v2, v3, keep] = [
        await newVisor(fresh, { title: 'v1' }),
        await newVisor(fresh, { title: 'v2' }),
        await newVisor(fresh, { title: 'v3' }),
        await newVisor(fresh, { title: 'keep' }),
      ];
      const placed = expectBody(await saveTree(fresh, [folder('Gone', [leaf(v1), folder('Inner', [leaf(v2), leaf(v3)])]), leaf(keep)]), SaveTreeResponse);

      const answer = expectBody(await saveTree(fresh, [leaf(keep)], placed.version), SaveTreeResponse);
      expect(answer.deleted.sort()).toEqual([v1, v2, v3].sort());
      for (const id of [v1, v2, v3]) expectErrorResponse(await fresh.api.get(`/api/visores/${id}/get`), 404);
      expect((await listVisores(fresh)).map((visor) => visor.visor_id)).toEqual([keep]);
      const rows = await server.app.ctx.db.selectFrom('visores').select('id').where('owner', '=', fresh.user._id).execute();
      expect(rows.map((row) => row.id)).toEqual([keep]);
      expect(await readTree(fresh)).toEqual({ nodes: [leafOfVisor(await readVisor(fresh, keep))], version: answer.version });
    });

    it('refuses a save that would delete visores without If-Match (428), and changes nothing', async () => {
      const fresh = await freshUser();
      const id = await newVisor(fresh, { title: 'Colocado en otra pestaña' });
      const placed = expectBody(await saveTree(fresh, [folder('A', [leaf(id)])]), SaveTreeResponse);
      const message = expectErrorResponse(await saveTree(fresh, [folder('A')]), 428);
      expect(message).toContain('If-Match');
      expect((await readVisor(fresh, id)).title).toBe('Colocado en otra pestaña');
      expect((await readTree(fresh)).version).toBe(placed.version);
    });

    it('keeps a visor that only moved to another folder', async () => {
      const fresh = await freshUser();
      const id = await newVisor(fresh);
      expectSuccess(await saveTree(fresh, [folder('From', [leaf(id)]), folder('To')]));
      const answer = expectBody(await saveTree(fresh, [folder('To', [leaf(id)])]), SaveTreeResponse);
      expect(answer.deleted).toEqual([]);
      expect((await readVisor(fresh, id)).visor_id).toBe(id);
    });

    it('deletes nothing and keeps the tree when the save fails: a stale If-Match', async () => {
      const fresh = await freshUser();
      const id = await newVisor(fresh);
      expectSuccess(await saveTree(fresh, [folder('Gone', [leaf(id)])]));
      const tree = await readTree(fresh);
      expectErrorResponse(await saveTree(fresh, [], tree.version - 1), 412);
      expect((await readVisor(fresh, id)).visor_id).toBe(id);
      expect(await readTree(fresh)).toEqual(tree);
    });

    it("deletes nothing and keeps the tree when the save fails: a visor that is not the user's", async () => {
      const fresh = await freshUser();
      const stranger = await freshUser();
      const id = await newVisor(fresh);
      const foreign = await newVisor(stranger);
      expectSuccess(await saveTree(fresh, [folder('Gone', [leaf(id)])]));
      const tree = await readTree(fresh);
      const message = expectErrorResponse(await saveTree(fresh, [leaf(foreign)]), 400);
      expect(message).toContain(foreign);
      expect((await readVisor(fresh, id)).visor_id).toBe(id);
      expect(await readTree(fresh)).toEqual(tree);
      expect((await readVisor(stranger, foreign)).visor_id).toBe(foreign);
    });
  });

  describe('another user', () => {
    it("can neither read nor save another user's tree (403), and the owner's tree and visores stay as they were", async () => {
      const owner = await freshUser();
      const intruder = await freshUser();
      const id = await newVisor(owner, { title: 'Mío' });
      expectSuccess(await saveTree(owner, [folder('Privada', [leaf(id)])]));
      const tree = await readTree(owner);
      const visores = await listVisores(owner);

      expectErrorResponse(await intruder.api.get(`/api/visores/${owner.user._id}/folders`), 403);
      expectErrorResponse(await intruder.api.put(`/api/visores/${owner.user._id}/folders`, []), 403);
      expectErrorResponse(await intruder.api.put(`/api/visores/${owner.user._id}/folders`, [], { headers: { 'if-match': String(tree.version) } }), 403);
      expectErrorResponse(await admin.api.put(`/api/visores/${owner.user._id}/folders`, []), 403);

      expect(await readTree(owner)).toEqual(tree);
      expect(await listVisores(owner)).toEqual(visores);
    });

    it("refuses a tree holding another user's visor, public or not, or one that does not exist, naming it; nothing is written", async () => {
      const owner = await freshUser();
      const intruder = await freshUser();
      const shared = await newVisor(owner, { title: 'Compartido' });
      expectSuccess(await owner.api.put(`/api/visores/${shared}/check_option`, { option: 'public', value: true }));
      const own = await newVisor(intruder);
      expectSuccess(await saveTree(intruder, [leaf(own)]));
      const tree = await readTree(intruder);

      for (const id of [shared, '0123456789abcdef0123456789abcdef']) {
        const message = expectErrorResponse(await saveTree(intruder, [leaf(own), folder('F', [leaf(id)])]), 400);
        expect(message).toContain(id);
      }
      expect(await readTree(intruder)).toEqual(tree);
      expect(await readVisor(owner, shared)).toMatchObject({ title: 'Compartido', owner: owner.user._id, fav: false });
    });
  });

  describe('bad trees', () => {
    let bad: Session;
    let tree: { nodes: TreeNode[]; version: number };
    let visorId: string;

    beforeAll(async () => {
      bad = await freshUser();
      visorId = await newVisor(bad, { title: 'Vivo' });
      expectSuccess(await saveTree(bad, [folder('Base', [leaf(visorId)])]));
      tree = await readTree(bad);
    });

    /** After a refused save: the same tree and version, and the visor still there. */
    async function expectUnchanged() {
      expect(await readTree(bad)).toEqual(tree);
      expect((await readVisor(bad, visorId)).title).toBe('Vivo');
    }

    const long = 'x'.repeat(201);
    it.each<[string, unknown, string]>([
      ['a body that is not a list', { nodes: [] }, 'tipo inválido'],
      ['a node of no known shape', [{ name: 'x' }], 'Nodo desconocido'],
      ['a folder with an unknown field', [{ ...folder('F'), color: 'red' }], 'color'],
      ['a leaf with an unknown field', [{ ...leaf('abc'), extra: true }], 'extra'],
      ['a folder without sub', [{ folder_id: 'F', name: 'F', emoji: '' }], 'sub'],
      ['a folder name over 200 characters', [folder('F', [], { name: long })], '200'],
      // Links and icons are the app's to draw, never a client's text (issue 17).
      ['a folder with a link', [{ ...folder('F'), to: 'javascript:alert(1)' }], 'to'],
      ['a folder with an icon', [{ ...folder('F'), icon: 'star' }], 'icon'],
      ['a folder with active paths', [{ ...folder('F'), subActivePaths: ['javascript:alert(1)'] }], 'subActivePaths'],
      ['a leaf name over 200 characters', [leaf('abc', { name: long })], 'name'],
      ['a malformed folder_id', [folder('no válido')], 'folder_id'],
      ['a duplicate folder_id', [folder('Dup'), folder('X', [folder('Dup')])], 'Dup'],
      ['a duplicate visor_id', [folder('A', [leaf('vvv')]), leaf('vvv')], 'vvv'],
      ['a tree 17 levels deep', nested(17), '16'],
      ['more than 5,000 nodes at the root', Array.from({ length: 5001 }, (_, i) => folder(`R${i}`)), '5000'],
      [
        'more than 5,000 nodes in all',
        [
          folder(
            'P',
            Array.from({ length: 2500 }, (_, i) => folder(`P${i}`)),
          ),
          folder(
            'Q',
            Array.from({ length: 2500 }, (_, i) => folder(`Q${i}`)),
          ),
        ],
        '5000',
      ],
    ])('refuses %s with 400 naming the problem, and writes nothing', async (_case, nodes, naming) => {
      const message = expectErrorResponse(await saveTree(bad, nodes), 400);
      expect(message).toContain(naming);
      await expectUnchanged();
    });

    // Built as text: JSON.stringify (here and on the server) recurses and would overflow first.
    const deepFolders = (depth: number) => '[' + '{"folder_id":"D","name":"D","emoji":"","sub":['.repeat(depth) + ']}'.repeat(depth) + ']';
    // A tree up to MAX_JSON_DEPTH levels of JSON (32 of folders) is parsed and told the tree's
    // limit; a deeper one is refused on its raw text before anything parses it (jsonDepth.ts).
    it.each([
      [30, `El árbol no puede superar ${TREE_LIMITS.maxDepth} niveles`],
      [600, JSON_TOO_DEEP],
      [20_000, JSON_TOO_DEEP],
    ])('refuses %i nested folders with 400 and the depth message (checked before parsing the nodes), and writes nothing', async (depth, expected) => {
      const raw = deepFolders(depth);
      expect(raw.length).toBeLessThan(ONE_MB);
      const message = expectErrorResponse(await bad.api.put(`/api/visores/${bad.user._id}/folders`, undefined, { raw }), 400);
      expect(message).toBe(expected);
      await expectUnchanged();
    });

    it('refuses deep JSON of any shape under 1 MB with 400, on the tree and on the other writes', async () => {
      const depth = 100_000;
      const bodies = {
        // Nodes of no known shape still nest through sub.
        'shapeless nodes': '[{"sub":'.repeat(depth) + '[]' + '}]'.repeat(depth),
        'nested lists': '['.repeat(depth * 5) + ']'.repeat(depth * 5),
        'nested objects': '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
        // Keys the JSON parser scans for prototype pollution (its scan is a loop too).
        'nested constructor keys': '{"constructor":'.repeat(depth / 2) + '1' + '}'.repeat(depth / 2),
      };
      for (const [name, raw] of Object.entries(bodies)) {
        expect(raw.length, name).toBeLessThan(ONE_MB);
        expectErrorResponse(await bad.api.put(`/api/visores/${bad.user._id}/folders`, undefined, { raw }), 400);
        expectErrorResponse(await bad.api.post(`/api/visores/${bad.user._id}/new`, undefined, { raw }), 400);
        expectErrorResponse(await bad.api.put(`/api/visores/${visorId}/update_secciones`, undefined, { raw }), 400);
        expectErrorResponse(await bad.api.put(`/api/visores/${visorId}`, undefined, { raw }), 400);
      }
      await expectUnchanged();
    });

    it('accepts a tree 16 levels deep', async () => {
      const fresh = await freshUser();
      const answer = expectBody(await saveTree(fresh, nested(16)), SaveTreeResponse);
      expect((await readTree(fresh)).nodes).toEqual(nested(16));
      expect(answer.version).toBe(1);
    });

    it('accepts exactly 5,000 nodes', async () => {
      const fresh = await freshUser();
      const nodes = [
        folder(
          'P',
          Array.from({ length: 2499 }, (_, i) => folder(`P${i}`)),
        ),
        folder(
          'Q',
          Array.from({ length: 2499 }, (_, i) => folder(`Q${i}`)),
        ),
      ];
      expectSuccess(await saveTree(fresh, nodes));
      expect((await readTree(fresh)).nodes).toEqual(nodes);
    });

    it('refuses a body over 1 MB with 413, and writes nothing', async () => {
      const raw = JSON.stringify([folder('Big', [], { name: 'x'.repeat(ONE_MB) })]);
      expectErrorResponse(await bad.api.put(`/api/visores/${bad.user._id}/folders`, undefined, { raw }), 413);
      await expectUnchanged();
    });

    it('refuses a body that is not JSON with 400, and writes nothing', async () => {
      expectErrorResponse(await bad.api.put(`/api/visores/${bad.user._id}/folders`, undefined, { raw: '[{"folder_id": ' }), 400);
      await expectUnchanged();
    });
  });
});
