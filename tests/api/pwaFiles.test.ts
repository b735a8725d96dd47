// The PWA's files as the server answers them (issue 21): the service worker, the web manifest
// and the icons are revalidated on every load (a new deploy is found), with the right types; the
// manifest with the favourites' shortcuts (/app.webmanifest) holds what the page's cookie names
// (never the URL, which access logs keep), after the built manifest's own shortcuts, and refuses
// a bad cookie with a clear error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { SHORTCUTS_COOKIE, shortcutsCookieValue } from '../../src/lib/manifestShortcuts.js';
import { request } from './helpers.js';

const [sqlite] = databaseTargets();

const BUILT_MANIFEST = {
  id: '/',
  name: 'Visores',
  start_url: '/',
  icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
  shortcuts: [{ name: 'Inicio', url: '/', icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }] }],
};

describe('PWA files', () => {
  let server: TestServer;
  let staticDir: string;
  beforeAll(async () => {
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'visores-static-'));
    fs.mkdirSync(path.join(staticDir, 'icons'));
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Visores</title>');
    fs.writeFileSync(path.join(staticDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    fs.writeFileSync(path.join(staticDir, 'manifest.webmanifest'), JSON.stringify(BUILT_MANIFEST));
    fs.writeFileSync(path.join(staticDir, 'icons', 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    server = await startServer(sqlite!, { staticDir });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  it('serves the service worker, the manifest and the icons revalidated, with their types', async () => {
    const expected: [string, RegExp][] = [
      ['/sw.js', /javascript/],
      ['/manifest.webmanifest', /^application\/manifest\+json/],
      ['/icons/icon-192.png', /^image\/png/],
    ];
    for (const [url, type] of expected) {
      const response = await request(server.baseUrl, 'GET', url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toMatch(type);
      expect(response.headers.get('cache-control'), url).toBe('no-cache');
    }
  });

  const withCookie = (value: string) => ({ headers: { cookie: `other=1; ${SHORTCUTS_COOKIE}=${value}` } });

  it('adds a shortcut per favourite named in the cookie, after Inicio, kept by no shared cache', async () => {
    const value = shortcutsCookieValue([
      { visorId: 'abc_1', title: 'Dólar: futuros' },
      { visorId: 'xyz-2', title: 'MEP' },
    ])!;
    const response = await request(server.baseUrl, 'GET', '/app.webmanifest?r=1', withCookie(value));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    expect(response.headers.get('vary')).toMatch(/cookie/i);
    expect(response.headers.get('content-security-policy')).toContain("manifest-src 'self'");
    const manifest = response.body as typeof BUILT_MANIFEST;
    expect(manifest.name).toBe('Visores');
    expect(manifest.id).toBe('/');
    expect(manifest.shortcuts.map((shortcut) => [shortcut.name, shortcut.url])).toEqual([
      ['Inicio', '/'],
      ['Dólar: futuros', '/visor/abc_1/public'],
      ['MEP', '/visor/xyz-2/public'],
    ]);
  });

  it('takes no favourites from the URL: the query is only a revision', async () => {
    const query = new URLSearchParams([['v', 'abc_1:Dólar: futuros']]);
    const response = await request(server.baseUrl, 'GET', `/app.webmanifest?${query.toString()}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(BUILT_MANIFEST);
  });

  it('answers the built manifest without favourites', async () => {
    const response = await request(server.baseUrl, 'GET', '/app.webmanifest');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(BUILT_MANIFEST);
  });

  it('refuses a cookie that is not a list of shortcuts, or one without a visor id or a title, saying which', async () => {
    const encode = (values: unknown) => Buffer.from(JSON.stringify(values)).toString('base64url');
    const notList = await request(server.baseUrl, 'GET', '/app.webmanifest', withCookie('%%%'));
    expect(notList.status).toBe(400);
    expect(notList.body).toEqual({ status: 'error', message: 'La cookie visores_atajos no es una lista de accesos directos' });
    const noId = await request(server.baseUrl, 'GET', '/app.webmanifest', withCookie(encode(['<b>:x'])));
    expect(noId.status).toBe(400);
    expect(noId.body).toMatchObject({ status: 'error', message: expect.stringContaining('visor_id') });
    const noTitle = await request(server.baseUrl, 'GET', '/app.webmanifest', withCookie(encode(['abc:'])));
    expect(noTitle.status).toBe(400);
    expect(noTitle.body).toEqual({ status: 'error', message: 'Acceso directo sin título: abc' });
  });
});
