// Which brokers a signed-in user may make the server connect to (issue 17, item 2): sim://
// and the origins of BROKER_URLS only, refused with 400 before any connection; a host that
// resolves to a private, loopback or link-local address only when the setting names that
// address; and the answers say what happened without echoing what the broker said.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConnectResponse } from '../../src/protocol/broker.js';
import { startFakePrimary, type FakePrimaryServer } from '../fakes/primaryServer.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { expectBody, expectErrorResponse, session, type Session } from './helpers.js';

// The broker keeps its sessions in memory; the database only serves sign-in: SQLite only.
const [sqlite] = databaseTargets();

const NOT_ALLOWED = 'La dirección del broker no está permitida: use sim:// o una de las direcciones de broker que habilitó el administrador';
const PRIVATE = 'La dirección del broker no está permitida: apunta a una red privada o local';
const REFUSED = 'El broker no aceptó el usuario o la contraseña';
const UNREACHABLE = 'No se pudo conectar con el broker';

/** A TCP server on loopback that counts connections and answers each with `reply` (raw bytes), or nothing. */
interface Listener {
  url: string;
  origin: string;
  connections: number;
  close(): Promise<void>;
}

async function listen(reply: ((port: number) => string) | null = null): Promise<Listener> {
  const sockets = new Set<net.Socket>();
  let port = 0;
  const listener = {
    url: '',
    origin: '',
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((socket) => {
    listener.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (reply) socket.once('data', () => socket.end(reply(port)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  listener.origin = `http://127.0.0.1:${port}`;
  listener.url = `${listener.origin}/`;
  return listener;
}

const http = (status: string, headers: string[] = [], body = '') =>
  [`HTTP/1.1 ${status}`, ...headers, `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close', '', body].join('\r\n');

describe('broker addresses a user may connect to', () => {
  const listeners: Listener[] = [];
  const servers: TestServer[] = [];
  const open = async (reply: ((port: number) => string) | null = null) => {
    const listener = await listen(reply);
    listeners.push(listener);
    return listener;
  };
  /** A server whose BROKER_URLS is `brokerUrls`, and a signed-in user of it. */
  const serverWith = async (brokerUrls?: string[]): Promise<{ server: TestServer; user: Session }> => {
    const server = await startServer(sqlite!, brokerUrls ? { brokerUrls } : {});
    servers.push(server);
    return { server, user: await session(server) };
  };
  const connect = (user: Session, url: string, username = 'someone', password = 'secret-pw') =>
    user.api.post('/api/primary/sessions/connect', { url, username, password });

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    await Promise.all(listeners.splice(0).map((listener) => listener.close()));
  });

  describe('with the default setting', () => {
    let server: TestServer;
    let user: Session;
    beforeAll(async () => {
      server = await startServer(sqlite!);
      user = await session(server);
    });
    afterAll(async () => {
      await server.close();
    });

    it('allows the public Primary API hosts by default', () => {
      expect(server.config.brokerUrls).toEqual(['https://api.remarkets.primary.com.ar', 'https://api.primary.com.ar']);
    });

    it('refuses loopback, private, link-local and its own address with 400, before any connection', async () => {
      const target = await open(() => http('200 OK', ['X-Auth-Token: t'], '{"accounts":[{"name":"STOLEN"}]}'));
      const port = new URL(target.url).port;
      const urls = [
        target.url,
        `http://localhost:${port}/`,
        `http://[::1]:${port}/`,
        `http://[::ffff:127.0.0.1]:${port}/`,
        `http://2130706433:${port}/`,
        `${server.baseUrl}/`,
        'http://169.254.169.254/latest/meta-data/',
        'http://10.0.0.1/',
        'http://192.168.1.1:8080/',
        'http://100.64.0.1/',
        'http://[fd00::1]/',
        'http://0.0.0.0/',
      ];
      for (const url of urls) {
        const response = await connect(user, url);
        expect(expectErrorResponse(response, 400), url).toBe(NOT_ALLOWED);
        expect(response.text).not.toContain('STOLEN');
      }
      expect(target.connections).toBe(0);
    });

    it('refuses look-alikes of the allowed hosts', async () => {
      for (const url of [
        'http://api.remarkets.primary.com.ar/',
        'https://api.remarkets.primary.com.ar:8443/',
        'https://api.remarkets.primary.com.ar.evil.example/',
        'https://evil.example/api.remarkets.primary.com.ar/',
        'https://someone:pw@api.remarkets.primary.com.ar/',
        'https://xapi.primary.com.ar/',
      ]) {
        expect(expectErrorResponse(await connect(user, url), 400), url).toBe(NOT_ALLOWED);
      }
    });

    it('still connects the paper broker', async () => {
      expect(expectBody(await connect(user, 'sim://', '', ''), ConnectResponse).accounts).toEqual(['DEMO-DEMO']);
    });
  });

  describe('with BROKER_URLS naming a loopback Primary API', () => {
    let exchange: FakePrimaryServer;
    beforeAll(async () => {
      exchange = await startFakePrimary();
    });
    afterAll(async () => {
      await exchange.close();
    });

    it('connects to it, and only to the origins named', async () => {
      const origin = new URL(exchange.baseUrl).origin;
      const { user } = await serverWith([origin]);
      const body = expectBody(await connect(user, exchange.baseUrl, exchange.credentials.username, exchange.credentials.password), ConnectResponse);
      expect(body.accounts).toEqual(['REM2747']);
      // The public hosts are no longer allowed: the setting replaces the default.
      expect(expectErrorResponse(await connect(user, 'https://api.remarkets.primary.com.ar/'), 400)).toBe(NOT_ALLOWED);
      // Another port of the same address is another origin.
      const other = await open();
      expect(expectErrorResponse(await connect(user, other.url), 400)).toBe(NOT_ALLOWED);
      expect(other.connections).toBe(0);
    });

    it('says the broker did not accept the credentials, without its answer', async () => {
      const { user } = await serverWith([new URL(exchange.baseUrl).origin]);
      const response = await connect(user, exchange.baseUrl, exchange.credentials.username, 'wrong-password');
      expect(expectErrorResponse(response, 401)).toBe(REFUSED);
      expect(response.text).not.toContain('wrong-password');
    });

    it('refuses a host name that resolves to loopback, even when named, before any connection', async () => {
      const target = await open(() => http('200 OK', ['X-Auth-Token: t'], '{"accounts":[]}'));
      const { user } = await serverWith([`http://localhost:${new URL(target.url).port}`]);
      expect(expectErrorResponse(await connect(user, `http://localhost:${new URL(target.url).port}/`), 400)).toBe(PRIVATE);
      expect(target.connections).toBe(0);
    });
  });

  describe('answers of an allowed broker that misbehaves', () => {
    it('says only that the broker could not be reached, whatever answered', async () => {
      const notHttp = await open(() => 'SSH-2.0-OpenSSH_9.6\r\nbad port\r\n');
      const serverError = await open(() => http('500 Internal Server Error', ['Content-Type: text/plain'], 'secret internal detail'));
      const noToken = await open(() => http('200 OK', [], 'hello from an internal service'));
      const silentClose = await open(() => '');
      const closedPort = 'http://127.0.0.1:1';
      const { user } = await serverWith([notHttp.origin, serverError.origin, noToken.origin, silentClose.origin, closedPort]);
      for (const url of [notHttp.url, serverError.url, noToken.url, silentClose.url, `${closedPort}/`]) {
        const response = await connect(user, url);
        expect(expectErrorResponse(response, 502), url).toBe(UNREACHABLE);
        for (const echoed of ['SSH', 'bad port', 'HTTP/1.1', 'secret internal detail', 'internal service', 'ECONNREFUSED', '(HTTP', 'secret-pw']) {
          expect(response.text, url).not.toContain(echoed);
        }
      }
    });

    it('does not follow a redirect with the credentials', async () => {
      const elsewhere = await open(() => http('200 OK', ['X-Auth-Token: t'], '{"accounts":[{"name":"ELSEWHERE"}]}'));
      const redirecting = await open(() => http('307 Temporary Redirect', [`Location: ${elsewhere.url}auth/getToken`]));
      const { user } = await serverWith([redirecting.origin, elsewhere.origin]);
      const response = await connect(user, redirecting.url);
      expect(expectErrorResponse(response, 502)).toBe(UNREACHABLE);
      expect(elsewhere.connections).toBe(0);
    });
  });
});
