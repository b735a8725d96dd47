// The sockets compare the Origin of the upgrade with the server's public origins (the
// PUBLIC_ORIGINS setting, by default the listen address and localhost on the server's port)
// and ALLOWED_ORIGINS; never with the Host header, which the caller writes.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../server/config.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';

const [sqlite] = databaseTargets();

/** The HTTP status of the upgrade: 101 when the socket opened, the refusal's status otherwise. */
function upgradeStatus(url: string, headers: { origin?: string; host?: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { ...(headers.origin ? { origin: headers.origin } : {}), headers: headers.host ? { host: headers.host } : {} });
    socket.on('open', () => {
      socket.terminate();
      resolve(101);
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      socket.terminate();
    });
    socket.on('error', reject);
  });
}

describe('socket Origin check', () => {
  let server: TestServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('refuses another site even when the Host header names it', async () => {
    server = await startServer(sqlite!);
    for (const path of ['/ws/market', '/ws/positions']) {
      expect(await upgradeStatus(server.wsUrl(path), { origin: 'http://evil.example', host: 'evil.example' })).toBe(403);
      expect(await upgradeStatus(server.wsUrl(path), { origin: 'https://evil.example', host: 'evil.example' })).toBe(403);
    }
  });

  it('accepts by default the listen address and localhost on its port, whatever the Host', async () => {
    server = await startServer(sqlite!);
    const port = new URL(server.baseUrl).port;
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://LOCALHOST:${port}/`]) {
      expect(await upgradeStatus(server.wsUrl('/ws/market'), { origin, host: 'evil.example' }), origin).toBe(101);
    }
    expect(await upgradeStatus(server.wsUrl('/ws/market'), { origin: `http://localhost:${Number(port) + 1}` })).toBe(403);
    // No Origin (a tool, not a browser): the token still decides.
    expect(await upgradeStatus(server.wsUrl('/ws/market'), {})).toBe(101);
  });

  it('accepts only PUBLIC_ORIGINS (and ALLOWED_ORIGINS) when they are set', async () => {
    server = await startServer(sqlite!, { publicOrigins: ['https://visores.example'], allowedOrigins: ['https://partner.example'] });
    const port = new URL(server.baseUrl).port;
    expect(await upgradeStatus(server.wsUrl('/ws/market'), { origin: 'https://visores.example', host: 'visores.example' })).toBe(101);
    expect(await upgradeStatus(server.wsUrl('/ws/market'), { origin: 'https://partner.example' })).toBe(101);
    expect(await upgradeStatus(server.wsUrl('/ws/market'), { origin: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}` })).toBe(403);
    expect(await upgradeStatus(server.wsUrl('/ws/market'), { origin: 'http://visores.example', host: 'visores.example' })).toBe(403);
  });

  it('reads PUBLIC_ORIGINS as comma-separated origins and refuses what is not one', () => {
    expect(loadConfig({ PUBLIC_ORIGINS: ' https://a.example/ , http://b.example:8080' }).publicOrigins).toEqual(['https://a.example', 'http://b.example:8080']);
    expect(loadConfig({}).publicOrigins).toEqual([]);
    expect(() => loadConfig({ PUBLIC_ORIGINS: 'a.example' })).toThrow(/PUBLIC_ORIGINS/);
    expect(() => loadConfig({ PUBLIC_ORIGINS: 'https://a.example/app' })).toThrow(/PUBLIC_ORIGINS/);
  });
});
