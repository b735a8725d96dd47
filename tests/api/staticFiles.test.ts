// The built client under a running server: rebuilding dist/ never makes an asset path answer
// the HTML shell (a missing asset is a 404), files of the new build are served without a
// restart, and source maps are not served. The build's compressed copies are sent to a browser
// that accepts them.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { expectErrorResponse, request } from './helpers.js';

const [sqlite] = databaseTargets();

function writeBuild(dir: string, hash: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><title>Visores</title><script type="module" src="/assets/index-${hash}.js"></script>`);
  fs.writeFileSync(path.join(dir, 'assets', `index-${hash}.js`), `console.log('${hash}')`);
  fs.writeFileSync(path.join(dir, 'assets', `index-${hash}.js.map`), '{"version":3,"sources":["src/secret.ts"]}');
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
}

describe('the built client', () => {
  let server: TestServer;
  let staticDir: string;
  beforeAll(async () => {
    staticDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'visores-static-')), 'dist');
    writeBuild(staticDir, 'old111');
    server = await startServer(sqlite!, { staticDir });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(path.dirname(staticDir), { recursive: true, force: true });
  });

  const get = (url: string) => request(server.baseUrl, 'GET', url);

  it('answers a missing asset or file with a 404, never the HTML shell', async () => {
    for (const url of ['/assets/index-nope.js', '/assets/nope', '/assets/', '/missing.png', '/deep/path/app.css', '/ASSETS/index-old111.js']) {
      const response = await get(url);
      expectErrorResponse(response, 404);
      expect(response.text, url).not.toContain('<!doctype html>');
    }
  });

  it('does not serve source maps', async () => {
    expect((await get('/assets/index-old111.js')).status).toBe(200);
    const map = await get('/assets/index-old111.js.map');
    expect(map.status).toBe(404);
    expect(map.text).not.toContain('secret');
  });

  it('serves a rebuild without restart: new assets, the new HTML, and 404 for the old ones', async () => {
    expect((await get('/assets/index-old111.js')).text).toContain('old111');
    writeBuild(staticDir, 'new222');

    const fresh = await get('/assets/index-new222.js');
    expect(fresh.status).toBe(200);
    expect(fresh.text).toContain('new222');
    expect(fresh.headers.get('content-type')).toMatch(/javascript/);
    expect(fresh.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    const old = await get('/assets/index-old111.js');
    expectErrorResponse(old, 404);

    for (const url of ['/', '/index.html', '/visores/abc']) {
      const html = await get(url);
      expect(html.status, url).toBe(200);
      expect(html.text, url).toContain('index-new222.js');
      expect(html.headers.get('cache-control'), url).toBe('no-cache');
    }
    const icon = await get('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('never serves a file outside the build or a dotfile', async () => {
    fs.writeFileSync(path.join(path.dirname(staticDir), 'outside.txt'), 'secret-outside');
    fs.writeFileSync(path.join(staticDir, '.env'), 'secret-dotfile');
    for (const url of ['/..%2foutside.txt', '/%2e%2e/outside.txt', '/assets/..%2f..%2foutside.txt', '/.env', '/%2eenv']) {
      const response = await get(url);
      expect(response.text, url).not.toContain('secret');
    }
  });

  it('keeps the API and its 404s apart from the files', async () => {
    expect((await get('/api/health')).status).toBe(204);
    expectErrorResponse(await get('/api/nope'), 404);
    expectErrorResponse(await request(server.baseUrl, 'POST', '/visores/abc'), 404);
  });

  /** A GET with only the Accept-Encoding given (fetch always sends its own and decodes). */
  function rawGet(
    url: string,
    acceptEncoding: string | null,
    more: { method?: string; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const headers = { ...(acceptEncoding == null ? {} : { 'accept-encoding': acceptEncoding }), ...more.headers };
      http
        .request(server.baseUrl + url, { method: more.method ?? 'GET', headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
          response.on('error', reject);
        })
        .on('error', reject)
        .end();
    });
  }

  it('sends the compressed copy the browser accepts, and the file itself to one that accepts none', async () => {
    writeBuild(staticDir, 'zip333');
    const script = path.join(staticDir, 'assets', 'index-zip333.js');
    const text = `console.log('${'zip333 '.repeat(400)}')`;
    fs.writeFileSync(script, text);
    // As the build writes them (scripts/precompress.ts).
    fs.writeFileSync(`${script}.br`, brotliCompressSync(text));
    fs.writeFileSync(`${script}.gz`, gzipSync(text));

    const brotli = await rawGet('/assets/index-zip333.js', 'gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.body).toString()).toBe(text);
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const gzip = await rawGet('/assets/index-zip333.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(text);

    const plain = await rawGet('/assets/index-zip333.js', null);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(text);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);

    // Kept in memory after the first answer: the same bytes, validated by its ETag, HEAD without
    // a body, a range from the file on disk, and a file replaced under the same name read anew.
    const again = await rawGet('/assets/index-zip333.js', 'br');
    expect(again.body.equals(brotli.body)).toBe(true);
    expect(again.headers.etag).toBe(brotli.headers.etag);
    expect((await rawGet('/assets/index-zip333.js', 'br', { headers: { 'if-none-match': brotli.headers.etag! } })).status).toBe(304);
    const head = await rawGet('/assets/index-zip333.js', null, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(text)));
    expect(head.body.length).toBe(0);
    const range = await rawGet('/assets/index-zip333.js', null, { headers: { range: 'bytes=0-10' } });
    expect(range.status).toBe(206);
    expect(range.body.toString()).toBe(text.slice(0, 11));
    const replaced = `console.log('${'replaced '.repeat(300)}')`;
    fs.writeFileSync(script, replaced);
    fs.rmSync(`${script}.br`);
    fs.rmSync(`${script}.gz`);
    const fresh = await rawGet('/assets/index-zip333.js', 'br');
    expect(fresh.headers['content-encoding']).toBeUndefined();
    expect(fresh.body.toString()).toBe(replaced);

    // A copy is never a file of its own.
    for (const url of ['/assets/index-zip333.js.br', '/assets/index-zip333.js.gz']) expect((await rawGet(url, 'br')).status, url).toBe(404);
  });
});
