// A server behind the TCP proxy of netProxy.ts (issue 21): what offline.spec.ts,
// offlineReload.spec.ts and bench/load.ts cut the network of. The proxy starts first, so the
// server can be told the proxy's origin (the browser loads the pages from it, and the
// websockets accept only origins they know); then the proxy forwards to the server's port.
import { expect } from '@playwright/test';
import { startProxy, type NetProxy } from '../fakes/netProxy';
import { startOwnServer, type OwnServer } from './ownServer';

export interface ProxiedServer<S> {
  proxy: NetProxy;
  server: S;
  /** Closes the proxy, then stops the server. */
  stop(): Promise<void>;
}

/** Starts the proxy, then the server `start` makes with the proxy's origin, and points the proxy at it. */
export async function behindProxy<S extends { url: string; stop(): Promise<void> }>(start: (proxyOrigin: string) => Promise<S>): Promise<ProxiedServer<S>> {
  const proxy = await startProxy();
  let server: S;
  try {
    server = await start(proxy.url);
  } catch (error) {
    await proxy.close();
    throw error;
  }
  proxy.target(Number(new URL(server.url).port));
  return {
    proxy,
    server,
    stop: async () => {
      await proxy.close();
      await server.stop();
    },
  };
}

/** A server of the spec's own (ownServer.ts) behind the proxy, serving pages of the proxy's origin; `env` adds to its variables. */
export function startProxiedServer(env: Record<string, string> = {}): Promise<ProxiedServer<OwnServer>> {
  return behindProxy((origin) => startOwnServer({ PUBLIC_ORIGINS: origin, ...env }));
}

/**
 * A request to the server at `serverUrl` itself (never through the proxy), as the user of `token`
 * (none: null): the test fails unless it is answered 2xx; answers the JSON body.
 */
export async function serverRequest(serverUrl: string, method: string, path: string, body: unknown, token: string | null): Promise<Record<string, unknown>> {
  const response = await fetch(`${serverUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.ok, `${method} ${path}: ${text}`).toBe(true);
  return JSON.parse(text) as Record<string, unknown>;
}
