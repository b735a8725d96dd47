// Every answer under /api, /ws and /emoji is {status:'error', message} in Spanish, including
// the ones the framework (bad URL encoding, long path parameters, short bodies) and Node's
// HTTP layer (malformed request lines, oversized headers) give; /api-like paths in any case
// answer a JSON 404, never the app's HTML.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../src/protocol/auth.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { expectErrorResponse, expectNoStackTrace, expectShape, request, signIn } from './helpers.js';
import { rawRequest, type RawResponse } from './rawHttp.js';

/** Words of the framework's and Node's own (English) error texts. */
const ENGLISH = /\b(?:Bad Request|Client Error|Not Found|aborted|exceeding|is not a valid|Exceeded|Header|Request|Payload|Content-Length)\b/;

function expectRawError(response: RawResponse, status: number): string {
  expect(response.status, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const { message } = expectShape(ErrorResponse, JSON.parse(response.body), `the ${status} body`);
  expect(message).not.toMatch(ENGLISH);
  expectNoStackTrace(response.body);
  return message;
}

const [sqlite] = databaseTargets();

describe('the error contract on framework and Node errors', () => {
  let server: TestServer;
  let token: string;
  let staticDir: string;
  beforeAll(async () => {
    // A built client, so an unknown path could fall back to its HTML.
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'visores-static-'));
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Visores</title>');
    server = await startServer(sqlite!, { staticDir });
    ({ token } = await signIn(server.baseUrl));
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  it('answers a bad percent-encoding in the path with 400', async () => {
    for (const url of ['/api/visores/%ff/get', '/api/visores/%E0%A4%A/get', '/emoji/apple/64/%ff.png']) {
      const message = expectErrorResponse(await request(server.baseUrl, 'GET', url, { token }), 400);
      expect(message).not.toMatch(ENGLISH);
    }
  });

  it('serves emoji requests with long names (over 100 characters) as any other: 404 when there is no such image', async () => {
    const long = `${Array.from({ length: 30 }, () => '1f468').join('-')}.png`;
    expect(long.length).toBeGreaterThan(100);
    const message = expectErrorResponse(await request(server.baseUrl, 'GET', `/emoji/apple/64/${long}`), 404);
    expect(message).toContain('Emoji no encontrado');
    expectErrorResponse(await request(server.baseUrl, 'GET', `/api/visores/${'a'.repeat(150)}/get`, { token }), 404);
  });

  it('answers a path parameter over the limit with 414', async () => {
    const message = expectErrorResponse(await request(server.baseUrl, 'GET', `/api/visores/${'a'.repeat(5000)}/get`, { token }), 414);
    expect(message).not.toMatch(ENGLISH);
  });

  it('answers a body shorter than its Content-Length with 400', async () => {
    const body = '{"username":"demo"}';
    const response = await rawRequest(
      server.baseUrl,
      `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 50}\r\n\r\n${body}`,
    );
    expectRawError(response, 400);
  });

  it.each([
    ['text/plain', '{"username":"demo","password":"demo1234"}', 415],
    ['application/x-www-form-urlencoded', 'username=demo&password=demo1234', 415],
    ['multipart/form-data; boundary=x', '--x\r\n\r\n--x--', 415],
    ['application/json', '{"username":"demo",', 400],
    ['application/json', '{"__proto__":{"admin":true},"username":"demo","password":"x"}', 400],
    ['application/json', '{"constructor":{"prototype":{"admin":true}},"username":"demo","password":"x"}', 400],
  ])('answers a %s body %j with %i in the contract', async (contentType, raw, status) => {
    const response = await request(server.baseUrl, 'POST', '/api/login', { raw, headers: { 'content-type': contentType } });
    const message = expectErrorResponse(response, status);
    expect(message).not.toMatch(ENGLISH);
  });

  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n'],
    ['a request line with a bad version', 'GET /api/health HTTP/9\r\n\r\n'],
    ['a header without a colon', 'GET /api/health HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n'],
    ['a bad chunked body', 'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n'],
  ])('answers %s with 400', async (_what, bytes) => {
    expectRawError(await rawRequest(server.baseUrl, bytes), 400);
  });

  it('answers headers over the limit with 431', async () => {
    const bytes = `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    expectRawError(await rawRequest(server.baseUrl, bytes), 431);
  });

  it.each([['/API/PROFILE'], ['/Api/visores/list'], ['/API'], ['/WS/market'], ['/Emoji/apple/64/1f600.png'], ['//api/profile']])(
    'answers %s (an /api-like path in another case) with a JSON 404, not the HTML',
    async (url) => {
      const response = await request(server.baseUrl, 'GET', url, { token });
      expectErrorResponse(response, 404);
    },
  );

  it('still serves the HTML for client routes', async () => {
    const response = await request(server.baseUrl, 'GET', '/visores/abc');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  // Found by the fuzz test: answers Node (Host, Expect) and the ws library (handshake) wrote with
  // an empty or HTML body, and the socket paths' answer to a plain GET.
  const openConnections = () => new Promise<number>((resolve) => server.app.app.server.getConnections((_error, count) => resolve(count)));

  it('answers an HTTP/1.1 request without Host with 400 in the contract', async () => {
    const message = expectRawError(await rawRequest(server.baseUrl, 'GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n'), 400);
    expect(message).toBe('Falta el encabezado Host');
  });

  it('answers an Expect other than 100-continue with 417 in the contract', async () => {
    const bytes = 'GET /api/profile HTTP/1.1\r\nHost: x\r\nExpect: nonsense\r\nConnection: close\r\n\r\n';
    expect(expectRawError(await rawRequest(server.baseUrl, bytes), 417)).toContain('100-continue');
  });

  it('answers a plain GET of a socket path with 426, and a broken websocket handshake with 400, in the contract', async () => {
    for (const socketPath of ['/ws/market', '/ws/positions']) {
      const plain = await request(server.baseUrl, 'GET', socketPath, { token });
      expect(expectErrorResponse(plain, 426)).toContain('websocket');
      const key = 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==';
      for (const handshake of [
        'Upgrade: websocket\r\nSec-WebSocket-Key: nope\r\nSec-WebSocket-Version: 13',
        `Upgrade: websocket\r\n${key}\r\nSec-WebSocket-Version: 99`,
        'Upgrade: websocket\r\nSec-WebSocket-Version: 13',
        `Upgrade: foo\r\n${key}\r\nSec-WebSocket-Version: 13`,
      ]) {
        const bytes = `GET ${socketPath} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\n${handshake}\r\n\r\n`;
        expect(expectRawError(await rawRequest(server.baseUrl, bytes), 400)).toContain('Sec-WebSocket');
      }
      // An upgrade refused by a hook that runs before the websocket plugin's own (here: no Host)
      // still has its connection closed, or the server could never close.
      const noHost = `GET ${socketPath} HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`;
      const before = await openConnections();
      const answer = await rawRequest(server.baseUrl, noHost);
      expect(expectRawError(answer, 400)).toBe('Falta el encabezado Host');
      await expect.poll(openConnections).toBeLessThanOrEqual(before);
    }
  });
});
