// What the API accepts as text (issue 17, item 6): a visor's colour is a colour (stored as the
// colour picker prints it), no text field takes control characters or lone UTF-16 surrogates,
// and the tree's links are the server's, never a client's text — also for data stored before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSAFE_TEXT_MESSAGE } from '../../src/protocol/zod.js';
import { DEFAULT_VISOR_COLOR, INVALID_COLOR, UpdateVisorResponse, visorLink, type Section } from '../../src/protocol/workspace.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import {
  ADMIN,
  api,
  createUser,
  expectBody,
  expectErrorResponse,
  expectSuccess,
  nextMessageWhere,
  openAuthenticatedSocket,
  sendJson,
  session,
  type ApiResponse,
  type Session,
} from './helpers.js';
import { SECTIONS, folder, leaf, leafOfVisor, listVisores, newVisor, readPublicVisor, readTree, readVisor, saveTree } from './workspace.js';

/** Control characters (NUL, ESC, a C1 one, DEL) and lone surrogates, each inside otherwise valid text. */
const UNSAFE = ['a\u0000b', 'a\u001bb', 'a\u0085b', 'a\u007fb', 'a\ud800b', 'a\udc00b', 'a\udc00\ud800b'];

describe.each(databaseTargets())('text input on $name', (target) => {
  let server: TestServer;
  let admin: Session;
  let user: Session;

  beforeAll(async () => {
    server = await startServer(target);
    admin = await session(server, ADMIN);
    user = await createUser(server, admin.token);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('colours', () => {
    it.each([
      ['a url (a tracking beacon as the sidebar background)', 'url(http://example.com/pixel.png)'],
      ['a colour with a second declaration', 'red;background:url(http://example.com/pixel.png)'],
      ['an expression', 'expression(alert(1))'],
      ['a variable', 'var(--accent)'],
      ['a keyword', 'inherit'],
      ['a colour followed by more', 'rgb(1 2 3) url(x)'],
    ])('refuses %s with 400 on create and change, and stores nothing', async (_case, color) => {
      const before = await listVisores(user);
      expect(expectErrorResponse(await user.api.post(`/api/visores/${user.user._id}/new`, { title: 'Color', color }), 400)).toBe(INVALID_COLOR);
      expect(await listVisores(user)).toEqual(before);

      const id = await newVisor(user, { title: 'Con color', color: '#123456' });
      const visor = await readVisor(user, id);
      expect(expectErrorResponse(await user.api.put(`/api/visores/${id}`, { title: 'Otro', color }), 400)).toBe(INVALID_COLOR);
      expect(await readVisor(user, id)).toEqual(visor);
    });

    it.each([
      ['hex, in lower case and six digits', '#ABC', '#aabbcc'],
      ['hex with alpha', '#FF000080', '#ff000080'],
      ['rgba, as rgb with alpha', 'rgba(255, 0, 0, 0.5)', 'rgb(255 0 0 / 0.5)'],
      ['hsla, as hsl with alpha', 'hsla(10, 20%, 30%, .5)', 'hsl(10 20% 30% / 0.5)'],
      ["the picker's hsl, unchanged", 'hsl(270 100% 50% / 0.8)', 'hsl(270 100% 50% / 0.8)'],
      ["the picker's hwb, unchanged", 'hwb(120 10% 20%)', 'hwb(120 10% 20%)'],
      ['a colour name, as hex', 'Teal', '#008080'],
    ])('stores %s as the colour picker prints it, in the visor and its leaf', async (_case, color, stored) => {
      const id = await newVisor(user, { title: 'Normal', color, folder_id: null });
      expect((await readVisor(user, id)).color).toBe(stored);
      const changed = expectBody(await user.api.put(`/api/visores/${id}`, { title: 'Normal', color }), UpdateVisorResponse);
      expect(changed.data.color).toBe(stored);
      expect(changed.workspace.tree).toContainEqual(leafOfVisor(changed.data));
    });
  });

  describe('control characters and lone surrogates', () => {
    /** Each text field of the API: a request that is valid but for `text` in that field. */
    const fields: Record<string, (text: string) => Promise<ApiResponse> | null> = {};
    let visorId: string;

    beforeAll(async () => {
      visorId = await newVisor(user, { title: 'Campos' });
      const me = user.user._id;
      const sections = (change: (section: Section[]) => void) => {
        const secciones = structuredClone(SECTIONS);
        change(secciones);
        return user.api.put(`/api/visores/${visorId}/update_secciones`, { secciones });
      };
      /** The config of the i-th sample section (see SECTIONS), for editing in place. */
      const config = (secciones: Section[], i: number) => secciones[i]!.config as Record<string, unknown>;
      Object.assign(fields, {
        'new visor: title': (text: string) => user.api.post(`/api/visores/${me}/new`, { title: text }),
        'new visor: emoji': (text: string) => user.api.post(`/api/visores/${me}/new`, { title: 'ok', emoji: text }),
        'visor change: title': (text: string) => user.api.put(`/api/visores/${visorId}`, { title: text }),
        'visor change: emoji': (text: string) => user.api.put(`/api/visores/${visorId}`, { title: 'ok', emoji: text }),
        'visor change: color': (text: string) => user.api.put(`/api/visores/${visorId}`, { title: 'ok', color: `#fff${text}` }),
        'tree: folder name': (text: string) => saveTree(user, [folder('F', [], { name: text })]),
        'tree: folder emoji': (text: string) => saveTree(user, [folder('F', [], { emoji: text })]),
        'tree: leaf name': (text: string) => saveTree(user, [leaf(visorId, { name: text })]),
        'section: title': (text: string) => sections((list) => (list[0]!.title = text)),
        'quotes: symbol': (text: string) => sections((list) => (config(list, 0).rows = [{ kind: 'symbol', symbol: text }])),
        'quotes: formula name': (text: string) => sections((list) => (config(list, 0).rows = [{ kind: 'formula', name: text, expression: 'A + B' }])),
        'quotes: formula expression': (text: string) => sections((list) => (config(list, 0).rows = [{ kind: 'formula', name: 'F', expression: text }])),
        'chart: series': (text: string) => sections((list) => (config(list, 1).series = [text])),
        'curve: product': (text: string) => sections((list) => (config(list, 2).product = text)),
        'curve: spot': (text: string) => sections((list) => (config(list, 2).spot = text)),
        'formula: name': (text: string) => sections((list) => (config(list, 3).formulas = [{ name: text, expression: 'A + B' }])),
        'formula: expression': (text: string) => sections((list) => (config(list, 3).formulas = [{ name: 'F', expression: text }])),
        'positions: account': (text: string) => sections((list) => (config(list, 4).account = text)),
        'positions: broker url': (text: string) => sections((list) => (config(list, 4).brokerUrl = text)),
        'positions: broker username': (text: string) => sections((list) => (config(list, 4).username = text)),
        'profile: first name': (text: string) => user.api.put('/api/profile', { firstName: text, lastName: 'Apellido' }),
        'profile: last name': (text: string) => user.api.put('/api/profile', { firstName: 'Nombre', lastName: text }),
        'admin new user: username': (text: string) => admin.api.post('/api/admin/users', { username: text, password: 'clave-larga-1' }),
        'admin new user: first name': (text: string) => admin.api.post('/api/admin/users', { username: 'nuevo.x', password: 'clave-larga-1', firstName: text }),
        'admin new user: last name': (text: string) => admin.api.post('/api/admin/users', { username: 'nuevo.y', password: 'clave-larga-1', lastName: text }),
        'admin user change: first name': (text: string) => admin.api.put(`/api/admin/users/${user.user._id}`, { firstName: text }),
        // A URL cannot carry a lone surrogate (its UTF-8 decodes to U+FFFD): control characters only.
        'admin logs: user': (text: string) => (/[\ud800-\udfff]/.test(text) ? null : admin.api.get(`/api/admin/logs?user=${encodeURIComponent(text)}`)),
        'login: username': (text: string) => api(server, null).post('/api/login', { username: text, password: 'x' }),
        'token check: token': (text: string) => api(server, null).post('/api/checkToken', { token: text }),
        'sign-out: log': (text: string) => user.api.post('/api/logout', { log: text }),
        'search: symbol': (text: string) => user.api.post('/api/visores/search', { symbol: text }),
        'formula symbols: formula': (text: string) => user.api.post('/api/search_symbols_formula', { formula: text }),
        'expiration: contract': (text: string) => user.api.post('/api/get_expiration_contract', { contract_name: text }),
        'intraday: symbol': (text: string) => user.api.post('/api/get_intradia', { symbol: text, date: '2026-01-02' }),
        'intraday: date': (text: string) => user.api.post('/api/get_intradia', { symbol: 'DLR/DIC26', date: text }),
        'history: symbol': (text: string) => user.api.post('/api/visores/search/symbol/history', { symbol: text, limit: 10 }),
        'broker connect: url': (text: string) => user.api.post('/api/primary/sessions/connect', { url: text }),
        'broker connect: username': (text: string) => user.api.post('/api/primary/sessions/connect', { url: 'sim://', username: text }),
        'account watch: session': (text: string) => user.api.post('/api/accounts/12345/watch', { sessionId: text }),
      });
    });

    it('refuses each in every text field with 400 and a message that says so', async () => {
      const accepted: string[] = [];
      for (const [field, send] of Object.entries(fields)) {
        for (const text of UNSAFE) {
          const sent = send(text);
          if (sent === null) continue;
          const response = await sent;
          if (response.status !== 400) {
            accepted.push(`${field} ${JSON.stringify(text)}: ${response.status} ${response.text.slice(0, 120)}`);
            continue;
          }
          const message = expectErrorResponse(response, 400);
          if (!message.includes(UNSAFE_TEXT_MESSAGE)) accepted.push(`${field} ${JSON.stringify(text)}: ${message}`);
        }
      }
      expect(accepted).toEqual([]);
      // Nothing of it was stored, and the session that tried to sign out with it is still open.
      expect((await readVisor(user, visorId)).title).toBe('Campos');
      expectSuccess(await user.api.get('/api/profile'));
    });

    it('accepts emoji with their surrogate pairs and joiners, and accents', async () => {
      const id = await newVisor(user, { title: 'Señales 📈 👨‍👩‍👧', emoji: '🇦🇷' });
      expect(await readVisor(user, id)).toMatchObject({ title: 'Señales 📈 👨‍👩‍👧', emoji: '🇦🇷' });
      expectSuccess(await user.api.put('/api/profile', { firstName: 'Ñandú', lastName: 'Müller' }));
    });

    it('refuses them in a market socket subscribe with an error event', async () => {
      const socket = await openAuthenticatedSocket(server.wsUrl('/ws/market'), user.token);
      try {
        for (const text of UNSAFE) {
          sendJson(socket, { action: 'subscribe', symbol: `DLR/DIC26${text}`, requestId: 'r1' });
          const { message } = await nextMessageWhere(socket, (item) => typeof item === 'object' && item !== null && 'event' in item);
          expect(message).toMatchObject({ event: 'error', requestId: 'r1' });
          expect((message as { message: string }).message).toContain(UNSAFE_TEXT_MESSAGE);
        }
      } finally {
        socket.close();
      }
    });
  });

  describe('what was stored before', () => {
    it('reads colours that do not parse as the default, and folders and leaves without a client’s links', async () => {
      const owner = await createUser(server, admin.token);
      const visitor = await createUser(server, admin.token);
      const id = await newVisor(owner, { title: 'Viejo', folder_id: null });
      expectSuccess(await owner.api.put(`/api/visores/${id}/check_option`, { option: 'public', value: true }));
      const beacon = 'url(http://example.com/pixel.png)';
      const db = server.app.ctx.db;
      await db.updateTable('visores').set({ color: beacon }).where('id', '=', id).execute();
      const legacy = [
        {
          ...folder('F', [{ ...leaf(id), color: beacon, to: 'javascript:alert(1)' }]),
          to: 'javascript:alert(1)',
          icon: 'x',
          subActivePaths: ['javascript:alert(2)'],
        },
      ];
      await db
        .updateTable('folder_trees')
        .set({ nodes: JSON.stringify(legacy) })
        .where('user_id', '=', owner.user._id)
        .execute();

      const visor = await readVisor(owner, id);
      expect(visor.color).toBe(DEFAULT_VISOR_COLOR);
      expect((await listVisores(owner)).find((item) => item.visor_id === id)?.color).toBe(DEFAULT_VISOR_COLOR);
      expect((await readPublicVisor(visitor, id)).color).toBe(DEFAULT_VISOR_COLOR);
      const tree = await readTree(owner);
      expect(tree.nodes).toEqual([folder('F', [{ ...leaf(id), color: DEFAULT_VISOR_COLOR, to: visorLink(id) }])]);
      expect(JSON.stringify(tree)).not.toContain('javascript');

      // The owner's next save through the app sends back what it read, and that is accepted.
      expectSuccess(await saveTree(owner, tree.nodes, tree.version));
      expect((await readTree(owner)).nodes).toEqual([folder('F', [leafOfVisor(visor)])]);
    });
  });
});
