// The limits that keep one user, or a stranger, from stalling the server for everyone (see
// docs/security.md): JSON nesting refused before it is parsed, on HTTP bodies (sign-in
// included) and socket messages; the body size; each user's storage quotas; lists without
// sections; the headers of encoded /api paths and of the framework's own answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { JSON_TOO_DEEP, MAX_JSON_DEPTH } from '../../src/protocol/jsonDepth.js';
import { SOCKET_LIMITS } from '../../src/protocol/socket.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import {
  expectErrorResponse,
  expectPong,
  expectSuccess,
  nextMessage,
  openAuthenticatedSocket,
  openSocket,
  request,
  session,
  waitForClose,
  type Session,
} from './helpers.js';

const ONE_MB = 1024 * 1024;
const lists = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** `{"key":[[[…]]]}`: the shape of the probe's sign-in and socket messages. */
const deepField = (key: string, depth: number, extra = '') => `{${extra}"${key}":${lists(depth - 1)}}`;

describe.each(databaseTargets())('limits on $name', (target) => {
  let server: TestServer;
  let demo: Session;
  beforeAll(async () => {
    server = await startServer(target);
    demo = await session(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('JSON nesting on HTTP bodies', () => {
    it('refuses sign-in (no account needed) with a body nested past the limit: 400 with the depth message, 1 MB of it included', async () => {
      for (const raw of [deepField('username', MAX_JSON_DEPTH + 1), deepField('username', 500_000)]) {
        expect(raw.length).toBeLessThanOrEqual(ONE_MB);
        const response = await request(server.baseUrl, 'POST', '/api/login', { raw });
        expect(expectErrorResponse(response, 400)).toBe(JSON_TOO_DEEP);
        expect(response.headers.get('cache-control')).toBe('no-store');
      }
    });

    it('answers a body exactly at the limit as any other (parsed, then judged by the route)', async () => {
      const raw = deepField('username', MAX_JSON_DEPTH, '"password":"x",');
      expect(expectErrorResponse(await request(server.baseUrl, 'POST', '/api/login', { raw }), 400)).not.toBe(JSON_TOO_DEEP);
      const saved = await demo.api.put(`/api/profile`, undefined, { raw: `{"firstName":"Demo","lastName":"Usuario","x":${lists(MAX_JSON_DEPTH - 1)}}` });
      expect(expectErrorResponse(saved, 400)).not.toBe(JSON_TOO_DEEP);
    });

    it('refuses deep bodies of signed-in writes, objects and brackets inside strings told apart', async () => {
      const deepObjects = '{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1);
      expect(expectErrorResponse(await demo.api.post(`/api/visores/${demo.user._id}/new`, undefined, { raw: deepObjects }), 400)).toBe(JSON_TOO_DEEP);
      // Brackets inside a string are text: this title is taken as it is.
      const title = '[[[[' + '{'.repeat(150) + '\\"';
      const created = await demo.api.post(`/api/visores/${demo.user._id}/new`, { title });
      expect(expectSuccess<{ data: { visor: { title: string } } }>(created).data.visor.title).toBe(title);
    });

    it('still refuses a body over 1 MB with 413, whatever its depth', async () => {
      const flat = JSON.stringify({ username: 'x'.repeat(ONE_MB), password: 'y' });
      expectErrorResponse(await request(server.baseUrl, 'POST', '/api/login', { raw: flat }), 413);
      expectErrorResponse(await request(server.baseUrl, 'POST', '/api/login', { raw: deepField('username', ONE_MB) }), 413);
    });
  });

  describe('JSON nesting on socket messages', () => {
    it.each(['/ws/market', '/ws/positions'])(
      '%s answers a deep message at once with the depth error, counts it as a strike and stays usable until five',
      async (path) => {
        const socket = await openAuthenticatedSocket(server.wsUrl(path), demo.token);
        // The probe's message: an action of 32,700 levels in 64 KB (String() of it overflowed the stack).
        const probe = deepField('action', 32_700);
        expect(Buffer.byteLength(probe)).toBeLessThanOrEqual(SOCKET_LIMITS.maxMessageBytes);
        for (let strike = 1; strike < SOCKET_LIMITS.strikesToClose; strike++) {
          socket.send(strike % 2 ? probe : deepField('action', MAX_JSON_DEPTH + 1));
          expect(await nextMessage(socket)).toEqual({ event: 'error', message: JSON_TOO_DEEP });
          await expectPong(socket, `after-${strike}`);
        }
        socket.send(probe);
        expect(await nextMessage(socket)).toMatchObject({ event: 'error', message: expect.stringContaining(JSON_TOO_DEEP) });
        expect((await waitForClose(socket)).code).toBe(1008);
      },
    );

    it('refuses a deep message before auth as a broken limit too, and the socket may still authenticate', async () => {
      const socket = await openSocket(server.wsUrl('/ws/market'));
      socket.send(deepField('action', 1000));
      expect(await nextMessage(socket)).toEqual({ event: 'error', message: JSON_TOO_DEEP });
      socket.send(JSON.stringify({ action: 'auth', token: demo.token }));
      expect(await nextMessage(socket)).toMatchObject({ event: 'authenticated' });
      socket.close();
    });

    it('names an unknown action only when it is short text', async () => {
      const socket = await openAuthenticatedSocket(server.wsUrl('/ws/positions'), demo.token);
      const unknown = async (action: unknown) => {
        socket.send(JSON.stringify({ action }));
        return ((await nextMessage(socket)) as { message: string }).message;
      };
      expect(await unknown('bailar')).toBe('Acción desconocida: bailar');
      for (const action of [lists(MAX_JSON_DEPTH - 2), { a: [1, 2] }, 'x'.repeat(60_000), 12]) {
        const message = await unknown(action);
        expect(message).toMatch(/^Acción desconocida: /);
        expect(message.length).toBeLessThan(100);
      }
      expect(socket.readyState).toBe(WebSocket.OPEN);
      socket.close();
    });
  });
});
