// A small TCP proxy that cuts the network for real. Playwright's context.setOffline does not
// reach the SharedWorker, which makes every REST call and holds both sockets; so the browser
// loads the app from this proxy, in front of a server of the spec's own, and "offline" is the
// proxy destroying every open connection and every new one (the browser sees a connection
// reset, as on a dropped network). tests/e2e/proxiedServer.ts puts a server behind it. In front
// of Redis it cuts the servers' connections the same way, or silently (`down('silent')`): a
// black hole where nothing is answered and nothing refused, as a partition looks.
import net from 'node:net';

export interface NetProxy {
  url: string;
  /** Forward to this port from now on. */
  target(port: number): void;
  /**
   * Every connection dropped, new ones refused (accepted and reset) until up(); or `silent`:
   * every connection and every new one held open with nothing passed either way, and reset at
   * up() (as a firewall that drops packets, then forgets the connections).
   */
  down(how?: 'reset' | 'silent'): void;
  up(): void;
  /**
   * From now on, a request whose request line (`PUT /api/… HTTP/1.1`) matches gets the proxy's
   * own 502 Bad Gateway, as a reverse proxy answers when its upstream fails that request; the
   * server behind it never sees it. null: every request forwarded again.
   */
  badGateway(match: RegExp | null): void;
  /** How many requests badGateway answered. */
  badGatewayCount(): number;
  close(): Promise<void>;
}

const BAD_GATEWAY = 'HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/html\r\ncontent-length: 24\r\nconnection: close\r\n\r\n<h1>502 Bad Gateway</h1>';

export async function startProxy(): Promise<NetProxy> {
  let targetPort = 0;
  let online = true;
  /** Connections held open with nothing passed (a silent cut), reset at up(). */
  const held = new Set<net.Socket>();
  let silent = false;
  let failing: RegExp | null = null;
  let failed = 0;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!online && silent) {
      held.add(client);
      client.on('error', () => held.delete(client)).on('close', () => held.delete(client));
      return;
    }
    if (!online || targetPort === 0) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    open.add(client);
    open.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    // Each chunk from the browser starts a request or goes on with one (or is a websocket frame):
    // one whose first line matches badGateway's is answered here, the connection then closed.
    let answered = false;
    client.on('data', (chunk: Buffer) => {
      if (answered || !online) return;
      const line = chunk.toString('latin1', 0, Math.min(chunk.length, 300)).split('\r\n', 1)[0] ?? '';
      if (failing && /^[A-Z]+ \S+ HTTP\/1\.[01]$/.test(line) && failing.test(line)) {
        failed += 1;
        answered = true;
        // The upstream goes with the client's close (end), once the answer is written.
        client.end(BAD_GATEWAY);
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (online && !answered) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('proxy: no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    target: (port) => (targetPort = port),
    down(how = 'reset') {
      online = false;
      silent = how === 'silent';
      if (silent) return;
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    up() {
      online = true;
      if (!silent) return;
      silent = false;
      // What was held through a silent cut is gone: the clients find out and connect again.
      for (const socket of [...open, ...held]) socket.resetAndDestroy();
      open.clear();
      held.clear();
    },
    badGateway: (match) => (failing = match),
    badGatewayCount: () => failed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of [...open, ...held]) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface Balancer {
  url: string;
  /** Connections each port was given. */
  given(): Map<number, number>;
  close(): Promise<void>;
}

/**
 * A TCP load balancer in front of several processes of one server, as a proxy in production
 * would be: each new connection goes to the next port in turn, and one a port refuses (its
 * process stopped or restarting) to the next that accepts, as nginx's `proxy_next_upstream
 * error` does; an open connection stays with its process until either side closes it.
 */
export async function startBalancer(ports: number[]): Promise<Balancer> {
  let next = 0;
  const given = new Map<number, number>();
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.pause();
    const attempt = (tried: number) => {
      if (tried === ports.length) {
        client.resetAndDestroy();
        open.delete(client);
        return;
      }
      const port = ports[next++ % ports.length]!;
      const upstream = net.connect(port, '127.0.0.1');
      upstream.once('error', () => {
        upstream.destroy();
        if (!client.destroyed) attempt(tried + 1);
      });
      upstream.once('connect', () => {
        given.set(port, (given.get(port) ?? 0) + 1);
        open.add(upstream);
        upstream.removeAllListeners('error');
        const end = () => {
          client.destroy();
          upstream.destroy();
          open.delete(client);
          open.delete(upstream);
        };
        client.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    client.once('error', () => {
      client.destroy();
      open.delete(client);
    });
    attempt(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('balancer: no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    given: () => new Map(given),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port free on 127.0.0.1 now, for a server that must come back on the same one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
