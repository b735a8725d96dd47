import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminLogsResponse, AdminUserResponse, AdminUsersResponse, type OperatorLogItem } from '../../src/protocol/admin.js';
import { marketDayStart, marketIsoDate } from '../../src/lib/marketTime.js';
import { SocketCloseCode } from '../../src/protocol/socket.js';
import { NewVisorResponse, VisorResponse } from '../../src/protocol/workspace.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import {
  ADMIN,
  DEMO,
  api,
  checkToken,
  createUser,
  expectErrorResponse,
  expectBody,
  expectPong,
  expectSuccess,
  login,
  openAuthenticatedSocket,
  session,
  signIn,
  waitForClose,
  type Api,
  type Session,
} from './helpers.js';
import { folder, leaf, newVisor, readTree, saveTree } from './workspace.js';

const SOCKET_PATH = '/ws/positions';
const DAY = 24 * 60 * 60 * 1000;

describe.each(databaseTargets())('admin API on $name', (target) => {
  describe('users', () => {
    let server: TestServer;
    let admin: Session;
    let demo: Session;
    beforeAll(async () => {
      server = await startServer(target);
      admin = await session(server, ADMIN);
      demo = await session(server, DEMO);
    });
    afterAll(async () => {
      await server?.close();
    });

    const listUsers = async () => expectBody(await admin.api.get('/api/admin/users'), AdminUsersResponse).data;
    const userRow = (id: string) => server.app.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

    it('refuses every admin call to a user with 403, and to nobody with 401; nothing changes', async () => {
      const users = await listUsers();
      const target = await createUser(server, admin.token);
      const before = await listUsers();
      const attempts = {
        list: (who: Api) => who.get('/api/admin/users'),
        create: (who: Api) => who.post('/api/admin/users', { username: 'colado', password: 'password123', role: 'admin' }),
        promote: (who: Api) => who.put(`/api/admin/users/${demo.user._id}`, { role: 'admin' }),
        disable: (who: Api) => who.put(`/api/admin/users/${target.user._id}`, { disabled: true }),
        remove: (who: Api) => who.del(`/api/admin/users/${target.user._id}`),
        logs: (who: Api) => who.get('/api/admin/logs'),
      };
      for (const [name, attempt] of Object.entries(attempts)) {
        expect(expectErrorResponse(await attempt(demo.api), 403), name).toBe('Solo los administradores pueden hacer esto');
        expectErrorResponse(await attempt(api(server, null)), 401);
      }
      expect(await listUsers()).toEqual(before);
      expect(before.length).toBe(users.length + 1);
      expect((await checkToken(server.baseUrl, target.token)).status).toBe(200);
    });

    it('lists the users by username, without password hashes', async () => {
      const response = await admin.api.get('/api/admin/users');
      const users = expectBody(response, AdminUsersResponse).data;
      const usernames = users.map((user) => user.username.toLowerCase());
      expect(usernames).toEqual([...usernames].sort());
      expect(users.find((user) => user.username === 'admin')).toMatchObject({ _id: admin.user._id, role: 'admin', disabled: false });
      expect(users.find((user) => user.username === 'demo')).toMatchObject({ _id: demo.user._id, role: 'user', firstName: 'Demo', lastName: 'Usuario' });
      expect(response.text).not.toContain('scrypt');
      expect(response.text).not.toContain('password');
    });

    it('creates a user (201) who can sign in', async () => {
      const response = await admin.api.post('/api/admin/users', {
        username: 'Nueva.Usuaria',
        password: 'clave-segura',
        firstName: 'Nueva',
        lastName: 'Usuaria',
      });
      const { data } = expectBody(response, AdminUserResponse, 201);
      expect(data).toMatchObject({ username: 'Nueva.Usuaria', firstName: 'Nueva', lastName: 'Usuaria', role: 'user', disabled: false });
      expect(await listUsers()).toContainEqual(data);
      const { user } = await signIn(server.baseUrl, { username: 'nueva.usuaria', password: 'clave-segura' });
      expect(user._id).toBe(data._id);
    });

    it("shows each user's latest sign-in: none before the first, a failed one does not count, every change answers it", async () => {
      const username = `ultimo_${Math.random().toString(36).slice(2, 8)}`;
      const created = expectBody(await admin.api.post('/api/admin/users', { username, password: 'clave-segura' }), AdminUserResponse, 201).data;
      expect(created.last_login_at).toBeNull();
      expect((await listUsers()).find((user) => user._id === created._id)?.last_login_at).toBeNull();

      const signedInAt = server.clock.now();
      await signIn(server.baseUrl, { username, password: 'clave-segura' });
      const first = (await listUsers()).find((user) => user._id === created._id)?.last_login_at;
      expect(first).toBe(new Date(signedInAt).toISOString());

      server.clock.advance(60_000);
      expect((await login(server.baseUrl, username, 'clave-errada')).status).toBe(401);
      expect((await listUsers()).find((user) => user._id === created._id)?.last_login_at).toBe(first);

      server.clock.advance(60_000);
      await signIn(server.baseUrl, { username, password: 'clave-segura' });
      const second = (await listUsers()).find((user) => user._id === created._id)!.last_login_at!;
      expect(second).toBe(new Date(signedInAt + 120_000).toISOString());
      // Another user's sign-in is not theirs; the answer of a change carries it.
      await signIn(server.baseUrl, DEMO);
      const updated = expectBody(await admin.api.put(`/api/admin/users/${created._id}`, { lastName: 'Cambiado' }), AdminUserResponse).data;
      expect(updated.last_login_at).toBe(second);
    });

    it('refuses a username that exists, whatever its case, with 409', async () => {
      const before = await listUsers();
      for (const username of ['demo', 'DEMO', ' Admin ']) {
        const message = expectErrorResponse(await admin.api.post('/api/admin/users', { username, password: 'otra-clave-123' }), 409);
        expect(message).toContain(username.trim());
      }
      expect(await listUsers()).toEqual(before);
      expect((await login(server.baseUrl, 'demo', DEMO.password)).status).toBe(200);
    });

    it.each([
      ['a password under 8 characters', { username: 'corto', password: 'short' }, '8'],
      ['a username with spaces', { username: 'con espacio', password: 'password123' }, 'usuario'],
      ['a missing username', { password: 'password123' }, 'username'],
      ['an unknown role', { username: 'rol', password: 'password123', role: 'root' }, 'role'],
      ['an unknown field', { username: 'extra', password: 'password123', disabled: true }, 'disabled'],
    ])('refuses %s on create with 400, and creates nobody', async (_case, body, naming) => {
      const before = await listUsers();
      expect(expectErrorResponse(await admin.api.post('/api/admin/users', body), 400)).toContain(naming);
      expect(await listUsers()).toEqual(before);
    });

    it('changes names and role; a promoted user gets the admin calls, a demoted one loses them', async () => {
      const user = await createUser(server, admin.token);
      const response = await admin.api.put(`/api/admin/users/${user.user._id}`, { firstName: 'Jefa', lastName: 'Nueva', role: 'admin' });
      expect(expectBody(response, AdminUserResponse).data).toMatchObject({ _id: user.user._id, firstName: 'Jefa', lastName: 'Nueva', role: 'admin' });
      // A change of names or role keeps the sessions, and takes effect at once.
      expectSuccess(await user.api.get('/api/admin/users'));
      expectSuccess(await admin.api.put(`/api/admin/users/${user.user._id}`, { role: 'user' }));
      expectErrorResponse(await user.api.get('/api/admin/users'), 403);
      expect((await listUsers()).find((item) => item._id === user.user._id)).toMatchObject({ firstName: 'Jefa', role: 'user' });
    });

    it("resets a password: the user's sessions and sockets end, the new password signs in, the old does not", async () => {
      const user = await createUser(server, admin.token);
      const second = await session(server, { username: user.user.username, password: user.password });
      const socket = await openAuthenticatedSocket(server.wsUrl(SOCKET_PATH), user.token);
      const demoSocket = await openAuthenticatedSocket(server.wsUrl(SOCKET_PATH), demo.token);

      expectSuccess(await admin.api.put(`/api/admin/users/${user.user._id}`, { password: 'reseteada-123' }));
      expect((await waitForClose(socket)).code).toBe(SocketCloseCode.unauthorized);
      for (const ended of [user, second]) expectErrorResponse(await ended.api.get('/api/profile'), 401);
      expectErrorResponse(await login(server.baseUrl, user.user.username, user.password), 401);
      expect((await signIn(server.baseUrl, { username: user.user.username, password: 'reseteada-123' })).user._id).toBe(user.user._id);
      // Nobody else is affected.
      await expectPong(demoSocket, 'demo-still-here');
      expectSuccess(await admin.api.get('/api/admin/users'));
      demoSocket.close();
    });

    it('disables a user: sessions and sockets end and sign-in is refused, until enabled again', async () => {
      const user = await createUser(server, admin.token);
      const socket = await openAuthenticatedSocket(server.wsUrl(SOCKET_PATH), user.token);

      const { data } = expectBody(await admin.api.put(`/api/admin/users/${user.user._id}`, { disabled: true }), AdminUserResponse);
      expect(data.disabled).toBe(true);
      expect((await waitForClose(socket)).code).toBe(SocketCloseCode.unauthorized);
      expectErrorResponse(await user.api.get('/api/profile'), 401);
      const refused = expectErrorResponse(await login(server.baseUrl, user.user.username, user.password), 401);
      expect(refused).toBe('Usuario o contraseña incorrectos');

      expectSuccess(await admin.api.put(`/api/admin/users/${user.user._id}`, { disabled: false }));
      expect((await signIn(server.baseUrl, { username: user.user.username, password: user.password })).user._id).toBe(user.user._id);
    });

    it('answers 404 for a user that does not exist, and 400 for an empty or unknown change', async () => {
      expectErrorResponse(await admin.api.put('/api/admin/users/nobody-here', { firstName: 'x' }), 404);
      expectErrorResponse(await admin.api.del('/api/admin/users/nobody-here'), 404);
      const user = await createUser(server, admin.token);
      expect(expectErrorResponse(await admin.api.put(`/api/admin/users/${user.user._id}`, {}), 400)).toContain('cambio');
      expect(expectErrorResponse(await admin.api.put(`/api/admin/users/${user.user._id}`, { username: 'otro' }), 400)).toContain('username');
      expect(expectErrorResponse(await admin.api.put(`/api/admin/users/${user.user._id}`, { password: 'corta' }), 400)).toContain('8');
      expect((await checkToken(server.baseUrl, user.token)).status).toBe(200);
    });

    it('deletes a user with their visores, tree and sessions, and closes their sockets', async () => {
      const user = await createUser(server, admin.token);
      const visorA = await newVisor(user, { title: 'A' });
      const visorB = await newVisor(user, { title: 'B' });
      expectSuccess(await saveTree(user, [folder('F', [leaf(visorA), leaf(visorB)])]));
      const demoVisor = await newVisor(demo, { title: 'De demo' });
      const socket = await openAuthenticatedSocket(server.wsUrl(SOCKET_PATH), user.token);
      const db = server.app.ctx.db;

      const response = await admin.api.del(`/api/admin/users/${user.user._id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'ok' });

      expect(await db.selectFrom('visores').select('id').where('owner', '=', user.user._id).execute()).toEqual([]);
      expect(await db.selectFrom('visores').select('id').where('id', 'in', [visorA, visorB]).execute()).toEqual([]);
      expect(await db.selectFrom('folder_trees').select('user_id').where('user_id', '=', user.user._id).execute()).toEqual([]);
      expect(await userRow(user.user._id)).toBeUndefined();
      expect((await waitForClose(socket)).code).toBe(SocketCloseCode.unauthorized);
      expectErrorResponse(await checkToken(server.baseUrl, user.token), 401);
      expectErrorResponse(await login(server.baseUrl, user.user.username, user.password), 401);
      expect((await listUsers()).map((item) => item._id)).not.toContain(user.user._id);
      // Other users' visores stay.
      expect(expectBody(await demo.api.get(`/api/visores/${demoVisor}/get`), VisorResponse).data.title).toBe('De demo');
      expectErrorResponse(await admin.api.del(`/api/admin/users/${user.user._id}`), 404);
    });
  });

  describe('the last active admin', () => {
    let server: TestServer;
    let admin: Session;
    beforeAll(async () => {
      server = await startServer(target);
      admin = await session(server, ADMIN);
    });
    afterAll(async () => {
      await server?.close();
    });

    const listUsers = async () => expectBody(await admin.api.get('/api/admin/users'), AdminUsersResponse).data;
    const refusals = (id: string) => ({
      demote: () => admin.api.put(`/api/admin/users/${id}`, { role: 'user' }),
      disable: () => admin.api.put(`/api/admin/users/${id}`, { disabled: true }),
      demoteAndRename: () => admin.api.put(`/api/admin/users/${id}`, { role: 'user', firstName: 'Cambiado' }),
      remove: () => admin.api.del(`/api/admin/users/${id}`),
    });

    it('cannot be demoted, disabled or deleted (409), and nothing changes; once there is a second admin, it can', async () => {
      const before = await listUsers();
      for (const [name, attempt] of Object.entries(refusals(admin.user._id))) {
        expect(expectErrorResponse(await attempt(), 409), name).toBe('No se puede quitar ni deshabilitar al último administrador');
      }
      expect(await listUsers()).toEqual(before);
      expect((await checkToken(server.baseUrl, admin.token)).status).toBe(200);
      expect((await login(server.baseUrl, ADMIN.username, ADMIN.password)).status).toBe(200);

      // A disabled admin does not count as a second one.
      const dormant = await createUser(server, admin.token, { role: 'admin' });
      expectSuccess(await admin.api.put(`/api/admin/users/${dormant.user._id}`, { disabled: true }));
      expectErrorResponse(await refusals(admin.user._id).demote(), 409);

      const second = await createUser(server, admin.token, { role: 'admin' });
      const demoted = expectBody(await admin.api.put(`/api/admin/users/${admin.user._id}`, { role: 'user' }), AdminUserResponse);
      expect(demoted.data.role).toBe('user');
      expectErrorResponse(await admin.api.get('/api/admin/users'), 403);

      // Now the second admin is the last active one.
      const secondRefusals = {
        demote: () => second.api.put(`/api/admin/users/${second.user._id}`, { role: 'user' }),
        disable: () => second.api.put(`/api/admin/users/${second.user._id}`, { disabled: true }),
        remove: () => second.api.del(`/api/admin/users/${second.user._id}`),
      };
      for (const [name, attempt] of Object.entries(secondRefusals)) expect((await attempt()).status, name).toBe(409);
      const users = expectBody(await second.api.get('/api/admin/users'), AdminUsersResponse).data;
      expect(users.find((user) => user._id === second.user._id)).toMatchObject({ role: 'admin', disabled: false });

      // And the first admin, promoted again, can be deleted by the second.
      expectSuccess(await second.api.put(`/api/admin/users/${admin.user._id}`, { role: 'admin' }));
      expect(expectSuccess(await second.api.del(`/api/admin/users/${admin.user._id}`))).toEqual({ status: 'ok' });
      expectErrorResponse(await login(server.baseUrl, ADMIN.username, ADMIN.password), 401);
    });
  });

  describe('operator log', () => {
    let server: TestServer;
    let admin: Session;
    beforeAll(async () => {
      server = await startServer(target);
      admin = await session(server, ADMIN);
    });
    afterAll(async () => {
      await server?.close();
    });

    const logs = async (query = '') => expectBody(await admin.api.get(`/api/admin/logs${query}`), AdminLogsResponse);
    const everything = async () => {
      const page = await logs('?limit=200');
      expect(page.next_cursor).toBeNull();
      return page.data;
    };
    const tick = () => server.clock.advance(1000);

    it('shows each workspace, profile and admin action with the user who did it, newest first', async () => {
      const demo = await session(server, DEMO);
      const other = await createUser(server, admin.token);
      tick();
      const visorId = await newVisor(demo, { title: 'Registrado' });
      tick();
      expectSuccess(await demo.api.put(`/api/visores/${visorId}`, { title: 'Renombrado' }));
      tick();
      expectSuccess(await demo.api.put(`/api/visores/${visorId}/check_option`, { option: 'public', value: true }));
      tick();
      const copyId = expectBody(await other.api.post(`/api/visores/${other.user._id}/${visorId}/clonar`), NewVisorResponse).data.id_visor;
      tick();
      // demo's tree holds its sample visores (issue 18): they stay, the visor moves into F.
      const tree = await readTree(demo);
      const kept = tree.nodes.filter((node) => !('visor_id' in node && node.visor_id === visorId));
      expectSuccess(await saveTree(demo, [...kept, folder('F', [leaf(visorId)])], tree.version));
      tick();
      expectSuccess(await demo.api.del(`/api/visores/${visorId}`));
      tick();
      expectSuccess(await other.api.put('/api/profile', { firstName: 'Otra', lastName: 'Persona' }));
      tick();
      expectSuccess(await other.api.put('/api/profile/password', { current: other.password, next: 'otra-clave-nueva' }));
      tick();
      const extra = await createUser(server, admin.token);
      tick();
      expectSuccess(await admin.api.put(`/api/admin/users/${extra.user._id}`, { lastName: 'Cambiado', password: 'reset-secreto-1' }));
      tick();
      expectSuccess(await admin.api.del(`/api/admin/users/${extra.user._id}`));

      // Sign-ins, the creation of the users this test works with and what the server did at
      // start (demo's sample visores, with no request and so no ip) are not what it checks.
      const isSetUp = (row: OperatorLogItem) =>
        row.action === 'login' || (row.action === 'admin_user_create' && row.detail?.username !== extra.user.username) || row.ip === null;
      const rows = (await everything()).filter((row) => !isSetUp(row));
      const who = (username: string, userId: string) => ({ username, user_id: userId });
      expect(rows.slice(0, 11).map((row) => ({ action: row.action, username: row.username, user_id: row.user_id }))).toEqual([
        { action: 'admin_user_delete', ...who('admin', admin.user._id) },
        { action: 'admin_user_update', ...who('admin', admin.user._id) },
        { action: 'admin_user_create', ...who('admin', admin.user._id) },
        { action: 'password_change', ...who(other.user.username, other.user._id) },
        { action: 'profile_update', ...who(other.user.username, other.user._id) },
        { action: 'visor_delete', ...who('demo', demo.user._id) },
        { action: 'tree_save', ...who('demo', demo.user._id) },
        { action: 'visor_clone', ...who(other.user.username, other.user._id) },
        { action: 'visor_share', ...who('demo', demo.user._id) },
        { action: 'visor_update', ...who('demo', demo.user._id) },
        { action: 'visor_create', ...who('demo', demo.user._id) },
      ]);
      const detail = (action: string) => rows.find((row) => row.action === action)?.detail;
      expect(detail('visor_create')).toMatchObject({ visor_id: visorId, title: 'Registrado' });
      expect(detail('visor_update')).toMatchObject({ visor_id: visorId, title: 'Renombrado' });
      expect(detail('visor_share')).toMatchObject({ visor_id: visorId, public: true });
      expect(detail('visor_clone')).toMatchObject({ visor_id: copyId, source: visorId });
      expect(detail('tree_save')).toMatchObject({ deletedVisores: [] });
      expect(detail('visor_delete')).toMatchObject({ visor_id: visorId });
      expect(detail('admin_user_update')).toMatchObject({ user_id: extra.user._id, lastName: 'Cambiado', passwordReset: true });
      expect(detail('admin_user_delete')).toMatchObject({ user_id: extra.user._id, username: extra.user.username });
      for (const row of rows) {
        expect(row).toEqual({
          id: expect.any(String),
          at: expect.any(String),
          user_id: expect.any(String),
          username: expect.any(String),
          action: row.action,
          detail: row.detail,
          ip: '127.0.0.1',
        });
      }
    });

    it('lists newest first', async () => {
      const rows = await everything();
      expect(rows.length).toBeGreaterThan(10);
      const times = rows.map((row) => Date.parse(row.at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });

    it('pages with next_cursor without skipping or repeating rows, even while new rows arrive', async () => {
      // Rows written within the same millisecond, so that page ends fall between equal times.
      for (let i = 0; i < 12; i++) await login(server.baseUrl, `fantasma${i}`, 'wrong-password');
      const all = await everything();

      const seen: OperatorLogItem[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: AdminLogsResponse = await logs(`?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(page.data.length).toBeLessThanOrEqual(5);
        seen.push(...page.data);
        cursor = page.next_cursor;
        pages += 1;
        // Newer rows arriving between pages must not shift the pages still to come.
        tick();
        await login(server.baseUrl, 'llega-tarde', 'wrong-password');
      } while (cursor != null && pages < 100);

      expect(seen.map((row) => row.id)).toEqual(all.map((row) => row.id));
      expect(new Set(seen.map((row) => row.id)).size).toBe(seen.length);
      expect(pages).toBe(Math.ceil(all.length / 5));
    });

    it('filters by user (id or username), action and dates; empty parameters filter nothing', async () => {
      const watched = await createUser(server, admin.token);
      const credentials = { username: watched.user.username, password: watched.password };
      // Two days apart, each time with a new sign-in (the idle window is shorter than that).
      server.clock.advance(2 * DAY);
      const early = server.clock.now();
      const atEarly = await session(server, credentials);
      server.clock.advance(1);
      await newVisor(atEarly, { title: 'temprano' });
      server.clock.advance(2 * DAY);
      const late = server.clock.now();
      const atLate = await session(server, credentials);
      server.clock.advance(1);
      await newVisor(atLate, { title: 'tarde' });
      admin = await session(server, ADMIN);
      const all = await everything();
      const ids = (rows: OperatorLogItem[]) => rows.map((row) => row.id);
      const within = (from: number, to: number) => ids(all.filter((row) => Date.parse(row.at) >= from && Date.parse(row.at) <= to));

      const byId = (await logs(`?user=${watched.user._id}`)).data;
      const byName = (await logs(`?user=${watched.user.username}`)).data;
      expect(ids(byId)).toEqual(ids(all.filter((row) => row.user_id === watched.user._id || row.username === watched.user.username)));
      expect(ids(byName)).toEqual(ids(byId));
      expect(byId.map((row) => row.action)).toEqual(['visor_create', 'login', 'visor_create', 'login', 'login']);

      const creates = (await logs(`?action=visor_create&user=${watched.user.username}`)).data;
      expect(creates.map((row) => row.detail?.title)).toEqual(['tarde', 'temprano']);
      expect((await logs('?action=admin_user_create')).data.every((row) => row.action === 'admin_user_create')).toBe(true);
      expect((await logs('?action=no_such_action')).data).toEqual([]);

      const iso = (ms: number) => new Date(ms).toISOString();
      const day = (ms: number) => marketIsoDate(ms);
      const startOfDay = (ms: number) => marketDayStart(day(ms))!;
      expect(ids((await logs(`?limit=200&from=${iso(late)}`)).data)).toEqual(within(late, Infinity));
      expect(ids((await logs(`?limit=200&to=${iso(early)}`)).data)).toEqual(within(-Infinity, early));
      expect(ids((await logs(`?limit=200&from=${iso(early)}&to=${iso(late - 1)}`)).data)).toEqual(within(early, late - 1));
      // A bare `to` date covers that whole day; a bare `from` date starts at its midnight (Buenos Aires).
      expect(ids((await logs(`?limit=200&to=${day(early)}`)).data)).toEqual(within(-Infinity, startOfDay(early) + DAY - 1));
      expect(ids((await logs(`?limit=200&from=${day(late)}`)).data)).toEqual(within(startOfDay(late), Infinity));
      const sameDay = (await logs(`?from=${day(early)}&to=${day(early)}&user=${watched.user._id}`)).data;
      expect(sameDay.map((row) => [row.action, row.detail?.title])).toEqual([
        ['visor_create', 'temprano'],
        ['login', undefined],
      ]);

      expect(ids((await logs('?limit=200&user=&action=&from=&to=&cursor=')).data)).toEqual(ids(all));
    });

    it.each([
      ['from', 'ayer'],
      ['to', 'hello 5'],
      ['from', '2024-13-01'],
      ['to', '2024-02-30'],
      ['from', '12/31/2024'],
    ])('refuses a bad date (%s=%s) with 400 naming the field', async (field, value) => {
      const message = expectErrorResponse(await admin.api.get(`/api/admin/logs?${field}=${encodeURIComponent(value)}`), 400);
      expect(message).toContain(field);
    });

    it('accepts a date-time with an offset', async () => {
      const all = await everything();
      const newest = Date.parse(all[0]!.at);
      // The instant of the newest row, written as a local time with a +03:00 offset.
      const withOffset = new Date(newest + 3 * 60 * 60 * 1000).toISOString().slice(0, 23) + '+03:00';
      const expected = all.filter((row) => Date.parse(row.at) >= newest).map((row) => row.id);
      expect(expected.length).toBeLessThan(all.length);
      expect((await logs(`?limit=200&from=${encodeURIComponent(withOffset)}`)).data.map((row) => row.id)).toEqual(expected);
    });

    it.each([
      ['not base64 JSON', 'garbage'],
      ['an object', Buffer.from('{"at":1,"id":"x"}').toString('base64url')],
      ['a time that is text', Buffer.from('["1","x"]').toString('base64url')],
      ['a time that is not whole', Buffer.from('[1.5,"x"]').toString('base64url')],
      ['a time out of range', Buffer.from('[1e400,"x"]').toString('base64url')],
    ])('refuses a bad cursor (%s) with 400', async (_case, cursor) => {
      expect(expectErrorResponse(await admin.api.get(`/api/admin/logs?cursor=${cursor}`), 400)).toContain('cursor');
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=muchos', 'limit'],
      ['sort=asc', 'sort'],
    ])('refuses %s with 400', async (query, naming) => {
      expect(expectErrorResponse(await admin.api.get(`/api/admin/logs?${query}`), 400)).toContain(naming);
    });

    it('never stores passwords or tokens', async () => {
      const user = await createUser(server, admin.token, { password: 'alta-secreta-1' });
      expectSuccess(await admin.api.put(`/api/admin/users/${user.user._id}`, { password: 'reseteo-secreto-2' }));
      const again = await session(server, { username: user.user.username, password: 'reseteo-secreto-2' });
      expectSuccess(await again.api.put('/api/profile/password', { current: 'reseteo-secreto-2', next: 'cambio-secreto-3' }));
      await login(server.baseUrl, user.user.username, 'intento-secreto-4');
      expectSuccess(await again.api.post('/api/logout', { log: 'Cierre desde el menú' }));

      const rows = await server.app.ctx.db.selectFrom('operator_log').selectAll().execute();
      const actions = new Set(rows.map((row) => row.action));
      for (const action of ['admin_user_create', 'admin_user_update', 'password_change', 'login', 'login_failed', 'logout']) expect(actions).toContain(action);
      const text = JSON.stringify(rows);
      for (const secret of [
        'alta-secreta-1',
        'reseteo-secreto-2',
        'cambio-secreto-3',
        'intento-secreto-4',
        ADMIN.password,
        DEMO.password,
        admin.token,
        user.token,
        again.token,
        'scrypt$',
      ]) {
        expect(text).not.toContain(secret);
      }
    });
  });
});
