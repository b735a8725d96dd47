import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { DEMO, expectErrorResponse, request, signIn } from './helpers.js';

const ONE_MB = 1024 * 1024;

// One server per database for the whole file: it must keep working after every bad request.
describe.each(databaseTargets())('API errors on $name', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    // Right after each bad request, a normal sign-in still works.
    const { user } = await signIn(server.baseUrl);
    expect(user.username).toBe(DEMO.username);
  });

  const post = (path: string, options: Parameters<typeof request>[3]) => request(server.baseUrl, 'POST', path, options);

  describe('malformed JSON', () => {
    it.each([
      ['/api/login', '{"username": "demo", "password": '],
      ['/api/login', "{username: 'demo', password: 'demo1234'}"],
      ['/api/checkToken', '{"token": "abc"'],
      ['/api/login', ''],
    ])('POST %s with body %j answers 400', async (path, raw) => {
      expectErrorResponse(await post(path, { raw }), 400);
    });

    it('on a signed-in route answers 400 too', async () => {
      const { token } = await signIn(server.baseUrl);
      expectErrorResponse(await post('/api/logout', { raw: '{"log": ', token }), 400);
    });
  });

  describe('body size', () => {
    const oversized = JSON.stringify({ username: 'demo', password: 'x'.repeat(ONE_MB + 1) });

    it('refuses a body over 1 MB with 413', async () => {
      expectErrorResponse(await post('/api/login', { raw: oversized }), 413);
    });

    it('refuses a streamed body over 1 MB (no Content-Length) with 413', async () => {
      const bytes = new TextEncoder().encode(oversized);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.subarray(at, at + 64 * 1024));
          controller.close();
        },
      });
      expectErrorResponse(await post('/api/login', { stream: body }), 413);
    });

    it('accepts a body just under 1 MB (and then judges its content)', async () => {
      const password = 'x'.repeat(ONE_MB - 100);
      const message = expectErrorResponse(await post('/api/login', { json: { username: 'demo', password } }), 400);
      expect(message).toBe('La contraseña no puede superar 1024 caracteres');
    });
  });

  describe('unknown paths', () => {
    it.each([
      ['GET', '/api/nope'],
      ['POST', '/api/nope'],
      ['DELETE', '/api/nope/123'],
      ['GET', '/api/login'],
      ['GET', '/api'],
      ['GET', '/ws/nope'],
    ])('%s %s answers 404 {status:"error", message}', async (method, path) => {
      const response = await request(server.baseUrl, method, path);
      const message = expectErrorResponse(response, 404);
      expect(message).toContain(path);
    });
  });

  describe('invalid fields', () => {
    it.each([
      ['/api/login', {}, 'username'],
      ['/api/login', { password: 'demo1234' }, 'username'],
      ['/api/login', { username: 'demo' }, 'password'],
      // Empty values get the schema's own sentence, which names the field in the user's words.
      ['/api/login', { username: '', password: 'demo1234' }, 'El usuario no puede estar vacío'],
      ['/api/login', { username: 'demo', password: '' }, 'La contraseña no puede estar vacía'],
      ['/api/checkToken', {}, 'token'],
    ])('POST %s with %j answers 400 naming %s', async (path, json, field) => {
      const message = expectErrorResponse(await post(path, { json }), 400);
      expect(message).toContain(field);
    });

    it.each([
      ['/api/login', { username: 42, password: 'demo1234' }, 'username', { password: 'demo1234' }],
      ['/api/login', { username: 'demo', password: true }, 'password', { username: 'demo' }],
      ['/api/login', { username: ['demo'], password: 'demo1234' }, 'username', { password: 'demo1234' }],
      ['/api/checkToken', { token: 12345 }, 'token', {}],
      ['/api/checkToken', { token: null }, 'token', {}],
    ])('POST %s with %j answers 400 naming %s as of the wrong type, not as missing', async (path, json, field, missing) => {
      const wrongType = expectErrorResponse(await post(path, { json }), 400);
      const absent = expectErrorResponse(await post(path, { json: missing }), 400);
      expect(wrongType).toContain(field);
      expect(wrongType).not.toBe(absent);
    });

    it('names the field of a signed-in route', async () => {
      const { token } = await signIn(server.baseUrl);
      const message = expectErrorResponse(await post('/api/logout', { json: { log: 12 }, token }), 400);
      expect(message).toContain('log');
      // The failed call did not end the session.
      expect((await post('/api/checkToken', { json: { token } })).status).toBe(200);
    });

    it.each([['[]'], ['"demo"'], ['42']])('a body that is not an object (%s) answers 400 without an empty field name', async (raw) => {
      const message = expectErrorResponse(await post('/api/login', { raw }), 400);
      expect(message).not.toMatch(/campo\s*$/);
    });
  });

  it('refuses a content type other than JSON with 415', async () => {
    const response = await post('/api/login', { raw: '<login/>', headers: { 'content-type': 'application/xml' } });
    expectErrorResponse(response, 415);
  });
});
