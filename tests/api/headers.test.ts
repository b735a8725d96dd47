// Security headers on every kind of answer: the HTML, a built asset, a private API answer and
// errors. A strict CSP (no inline scripts), nosniff, referrer and permissions policies,
// COOP/CORP, no framing; no-store on /api; HSTS only when the request came over HTTPS.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { request, signIn, type ApiResponse } from './helpers.js';
import { rawRequest } from './rawHttp.js';

const [sqlite] = databaseTargets();

/** The CSP as directive → sources. */
function csp(response: ApiResponse): Map<string, string[]> {
  const header = response.headers.get('content-security-policy');
  expect(header, 'content-security-policy').toBeTruthy();
  const directives = new Map<string, string[]>();
  for (const part of header!.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

function expectSecurityHeaders(response: ApiResponse): void {
  const policy = csp(response);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('script-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'self'"]);
  expect(policy.get('form-action')).toEqual(["'self'"]);
  expect(policy.get('img-src')).toEqual(["'self'", 'data:']);
  expect(policy.get('worker-src')).toEqual(["'self'"]);
  expect(policy.get('connect-src')?.[0]).toBe("'self'");
  expect(policy.get('style-src')).toBeDefined();
  for (const [name, sources] of policy) {
    if (name.startsWith('script')) expect(sources, name).not.toContain("'unsafe-inline'");
    expect(sources, name).not.toContain("'unsafe-eval'");
    expect(sources, name).not.toContain('*');
  }
  // Served over plain HTTP pages must still load their assets from the same http:// origin.
  expect(policy.has('upgrade-insecure-requests')).toBe(false);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('permissions-policy')).toMatch(/camera=\(\)/);
  expect(response.headers.get('permissions-policy')).toMatch(/geolocation=\(\)/);
  expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('strict-transport-security')).toBeNull();
  expect(response.headers.get('x-powered-by')).toBeNull();
}

describe('security headers', () => {
  let server: TestServer;
  let staticDir: string;
  let token: string;
  let userId: string;
  beforeAll(async () => {
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'visores-static-'));
    fs.mkdirSync(path.join(staticDir, 'assets'));
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Visores</title><script src="/theme.js"></script>');
    fs.writeFileSync(path.join(staticDir, 'theme.js'), '/* theme */');
    fs.writeFileSync(path.join(staticDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    server = await startServer(sqlite!, {
      staticDir,
      publicOrigins: ['https://visores.example'],
      allowedOrigins: ['https://partner.example'],
      // One proxy in front (TRUST_PROXY=1): its X-Forwarded-Proto is believed.
      trustProxy: 1,
    });
    const signedIn = await signIn(server.baseUrl);
    token = signedIn.token;
    userId = String(signedIn.user._id);
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  it('on the HTML shell (revalidated, never stored as immutable)', async () => {
    for (const url of ['/', '/visores/abc', '/index.html']) {
      const response = await request(server.baseUrl, 'GET', url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expectSecurityHeaders(response);
      expect(response.headers.get('cache-control'), url).toBe('no-cache');
    }
  });

  it('lets the page connect to its own origin and the configured ones (http and ws)', async () => {
    const connect = csp(await request(server.baseUrl, 'GET', '/')).get('connect-src')!;
    expect(connect).toEqual(
      expect.arrayContaining(["'self'", 'https://visores.example', 'wss://visores.example', 'https://partner.example', 'wss://partner.example']),
    );
  });

  it('on a built asset (immutable) and on a public file', async () => {
    const asset = await request(server.baseUrl, 'GET', '/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expectSecurityHeaders(asset);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const theme = await request(server.baseUrl, 'GET', '/theme.js');
    expect(theme.status).toBe(200);
    expectSecurityHeaders(theme);
    expect(theme.headers.get('cache-control')).toBe('no-cache');
  });

  it('on private API answers: no-store', async () => {
    const login = await request(server.baseUrl, 'POST', '/api/login', { json: { username: 'demo', password: 'demo1234' } });
    const answers = [
      login,
      await request(server.baseUrl, 'POST', '/api/checkToken', { json: { token } }),
      await request(server.baseUrl, 'GET', '/api/profile', { token }),
      await request(server.baseUrl, 'GET', `/api/visores/${userId}/folders`, { token }),
    ];
    for (const response of answers) {
      expect(response.status, response.text).toBeLessThan(400);
      expectSecurityHeaders(response);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('on errors: a 404, a 400, a 401 and the framework and Node ones', async () => {
    const answers = [
      await request(server.baseUrl, 'GET', '/api/nope'),
      await request(server.baseUrl, 'POST', '/api/login', { raw: '{"username":' }),
      await request(server.baseUrl, 'GET', '/api/profile'),
    ];
    for (const response of answers) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expectSecurityHeaders(response);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
    const badUrl = await request(server.baseUrl, 'GET', '/api/visores/%ff/get');
    expect(badUrl.status).toBe(400);
    expect(badUrl.headers.get('x-content-type-options')).toBe('nosniff');
    expect(badUrl.headers.get('cache-control')).toBe('no-store');
    const malformed = await rawRequest(server.baseUrl, 'GARBAGE\r\n\r\n');
    expect(malformed.headers['x-content-type-options']).toBe('nosniff');
    expect(malformed.headers['cache-control']).toBe('no-store');
  });

  it('on /api paths written percent-encoded (/%61pi/…), routed to the API: no-store, and a JSON 404 for an unknown one', async () => {
    for (const url of ['/%61pi/profile', '/%61%70%69/profile', '/api/%70rofile', '/%61pi/health']) {
      const response = await request(server.baseUrl, 'GET', url, { token });
      expect(response.status, url).toBeLessThan(300);
      expectSecurityHeaders(response);
      expect(response.headers.get('cache-control'), url).toBe('no-store');
    }
    const unknown = await request(server.baseUrl, 'GET', '/%61pi/nope', { token });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/json/);
    expect(unknown.headers.get('cache-control')).toBe('no-store');
  });

  it("on the framework's and Node's own answers (400, 414, 417, 431): the same security headers as any answer", async () => {
    const reference = await request(server.baseUrl, 'GET', '/api/nope');
    const transport = new Set(['date', 'content-length', 'connection', 'keep-alive', 'content-type', 'transfer-encoding']);
    const expected = Object.fromEntries([...reference.headers.entries()].filter(([name]) => !transport.has(name)));
    expect(expected['content-security-policy']).toBeTruthy();
    expect(expected['cache-control']).toBe('no-store');
    const answers: Array<[string, number, Record<string, string>]> = [];
    const viaFetch = async (what: string, status: number, url: string) => {
      const response = await request(server.baseUrl, 'GET', url, { token });
      answers.push([what, status, Object.fromEntries(response.headers.entries())]);
      expect(response.status, what).toBe(status);
    };
    const viaSocket = async (what: string, status: number, bytes: string) => {
      const response = await rawRequest(server.baseUrl, bytes);
      answers.push([what, status, response.headers]);
      expect(response.status, what).toBe(status);
    };
    await viaFetch('a bad percent-encoding', 400, '/api/visores/%ff/get');
    await viaFetch('a parameter over the limit', 414, `/api/visores/${'a'.repeat(5000)}/get`);
    await viaSocket('a malformed request line', 400, 'GARBAGE\r\n\r\n');
    await viaSocket('headers over the limit', 431, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    await viaSocket('an unknown Expect', 417, 'GET /api/profile HTTP/1.1\r\nHost: x\r\nExpect: nonsense\r\nConnection: close\r\n\r\n');
    await viaSocket('no Host', 400, 'GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n');
    for (const [what, , headers] of answers) {
      const security = Object.fromEntries(Object.entries(headers).filter(([name]) => !transport.has(name)));
      expect(security, what).toEqual(expected);
    }
  });

  it('sends HSTS only when the request came over HTTPS (through a trusted proxy)', async () => {
    const overHttps = await request(server.baseUrl, 'GET', '/', { headers: { 'x-forwarded-proto': 'https' } });
    expect(overHttps.headers.get('strict-transport-security')).toMatch(/^max-age=\d{7,}/);
    const apiOverHttps = await request(server.baseUrl, 'GET', '/api/profile', { token, headers: { 'x-forwarded-proto': 'https' } });
    expect(apiOverHttps.headers.get('strict-transport-security')).toMatch(/^max-age=/);
    expect((await request(server.baseUrl, 'GET', '/')).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('HSTS without TRUST_PROXY', () => {
  it('is not sent even when X-Forwarded-Proto says https (anyone can write it)', async () => {
    const server = await startServer(sqlite!);
    try {
      const response = await request(server.baseUrl, 'GET', '/api/nope', { headers: { 'x-forwarded-proto': 'https' } });
      expect(response.headers.get('strict-transport-security')).toBeNull();
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await server.close();
    }
  });
});
