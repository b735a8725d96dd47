import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.js';

// The picker's images come from our own server, never a third-party CDN.
describe('emoji images', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ name: 'sqlite' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves a 64 px Apple image with an immutable cache header, without signing in', async () => {
    const response = await fetch(`${server.baseUrl}/emoji/apple/64/1f600.png`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bytes = new Uint8Array(await response.arrayBuffer());
    // The PNG signature, and a 64 × 64 header.
    expect([...bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([64, 64]);
  });

  it('serves sequences with skin tones and joiners', async () => {
    expect((await fetch(`${server.baseUrl}/emoji/apple/64/1f44d-1f3fd.png`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/emoji/apple/64/1f468-200d-1f4bb.png`)).status).toBe(200);
  });

  it.each([
    '/emoji/apple/64/ffffff.png',
    '/emoji/apple/64/1f600.svg',
    '/emoji/apple/64/..%2f..%2fpackage.json',
    '/emoji/apple/64/%2e%2e%2f64%2f1f600.png',
    '/emoji/apple/32/1f600.png',
    '/emoji/',
  ])('answers 404 JSON for %s', async (path) => {
    const response = await fetch(`${server.baseUrl}${path}`);
    expect(response.status).toBe(404);
    const body = (await response.json()) as { status: string; message: string };
    expect(body.status).toBe('error');
    expect(body.message).toMatch(/no encontrad/);
  });
});
