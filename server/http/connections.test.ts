// The graceful stop's handling of connections, on a real HTTP server and real sockets.
import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trackConnections } from './connections.js';

let server: http.Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

/** A server answering `ok`, with its connections tracked, and the server side of each connection. */
async function start() {
  const accepted: Socket[] = [];
  server = http.createServer((_request, response) => response.end('ok'));
  server.on('connection', (socket: Socket) => accepted.push(socket));
  const tracker = trackConnections(server);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { tracker, accepted, port };
}

async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Waited 10 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function connect(port: number): { socket: Socket; received: () => string; closed: Promise<void> } {
  const socket = net.connect({ host: '127.0.0.1', port });
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => text, closed };
}

describe('trackConnections', () => {
  it('ends a connection that has sent nothing at once', async () => {
    const { tracker, accepted, port } = await start();
    const client = connect(port);
    await until('the connection', () => accepted.length === 1);
    tracker.closeUnused();
    await client.closed;
    expect(client.received()).toBe('');
  });

  it('answers a request whose head was arriving when the stop began, with Connection: close, then ends it', async () => {
    const { tracker, accepted, port } = await start();
    const client = connect(port);
    client.socket.write('GET /one HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await until('the first bytes read', () => (accepted[0]?.bytesRead ?? 0) > 0);
    tracker.closeUnused();
    client.socket.write('\r\n');
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(client.received()).toMatch(/\r\nConnection: close\r\n/i);
    expect(client.received()).toMatch(/\r\n\r\nok$/);
  });

  it('ends a kept-alive connection that has read nothing since its last answer', async () => {
    const { tracker, accepted, port } = await start();
    const client = connect(port);
    client.socket.write('GET /one HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await until('the answer', () => client.received().endsWith('ok'));
    expect(accepted).toHaveLength(1);
    tracker.closeUnused();
    await client.closed;
    expect(client.received().match(/HTTP\/1\.1 200/g)).toHaveLength(1);
  });
});
