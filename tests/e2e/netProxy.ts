// A small TCP proxy that cuts the network for real (issue 21). Playwright's context.setOffline
// does not reach the SharedWorker, which makes every REST call and holds both sockets; so the
// browser loads the app from this proxy, in front of a server of the spec's own, and "offline"
// is the proxy destroying every open connection and every new one (the browser sees a
// connection reset, as on a dropped network). proxiedServer.ts puts a server behind it.
import net from 'node:net';

export interface NetProxy {
  url: string;
  /** Forward to this port from now on. */
  target(port: number): void;
  /** Every connection dropped; new ones refused (accepted and reset) until up(). */
  down(): void;
  up(): void;
  close(): Promise<void>;
}

export async function startProxy(): Promise<NetProxy> {
  let targetPort = 0;
  let online = true;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
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
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('proxy: no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    target: (port) => (targetPort = port),
    down() {
      online = false;
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    up: () => (online = true),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
