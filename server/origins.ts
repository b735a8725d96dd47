// The server's public origins: where its pages are served from, so the only origins whose
// pages may open its sockets (with ALLOWED_ORIGINS) and that its CSP lets the page connect
// to. Never derived from the Host header, which any caller writes.
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.js';

/** `origin` in the form browsers send it: lower-case scheme and host, no trailing slash. */
export function normalizeOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, '').toLowerCase();
}

function hostPart(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

/** The machine's network interfaces (os.networkInterfaces by default; a test passes its own). */
export type InterfaceSource = () => ReturnType<typeof os.networkInterfaces>;

/**
 * PUBLIC_ORIGINS, or by default http:// on the listen address and on localhost at the port
 * the server listens on (every interface's address when it listens on all of them).
 */
export function publicOrigins(
  config: Pick<Config, 'publicOrigins' | 'host'>,
  address: AddressInfo | string | null,
  interfaces: InterfaceSource = os.networkInterfaces,
): string[] {
  if (config.publicOrigins.length > 0) return config.publicOrigins.map(normalizeOrigin);
  const port = address != null && typeof address === 'object' ? address.port : null;
  if (port == null) return [];
  const wildcard = config.host === '0.0.0.0' || config.host === '::' || config.host === '';
  const hosts = new Set(['localhost', '127.0.0.1', '[::1]']);
  if (wildcard) {
    for (const entries of Object.values(interfaces())) {
      for (const entry of entries ?? []) hosts.add(hostPart(entry.address.replace(/%.*$/, '')));
    }
  } else {
    hosts.add(hostPart(config.host));
  }
  return [...hosts].map((host) => normalizeOrigin(port === 80 ? `http://${host}` : `http://${host}:${port}`));
}

/** The origins whose pages may open the sockets: the public ones and ALLOWED_ORIGINS. */
export function socketOrigins(
  config: Pick<Config, 'publicOrigins' | 'host' | 'allowedOrigins'>,
  address: AddressInfo | string | null,
  interfaces?: InterfaceSource,
): string[] {
  return [...publicOrigins(config, address, interfaces), ...config.allowedOrigins.map(normalizeOrigin)];
}
