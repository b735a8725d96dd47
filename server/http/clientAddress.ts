// The client's address, as the limits count it and the logs record it. Without TRUST_PROXY it
// is the connection's peer. Behind proxies (TRUST_PROXY: a hop count or their addresses),
// Fastify walks X-Forwarded-For from the right past the trusted hops only, so whatever a
// client writes on the left of the header is never taken. What the walk ends on is used only
// when it is an IP address: anything else (a proxy that passes the header on unchecked, a
// hop count higher than the proxies there are) falls back to the peer.
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { TrustProxy } from '../config.js';

export interface ClientAddress {
  ip: string;
  /** The address came from X-Forwarded-For, written by a trusted proxy. */
  ipForwarded: boolean;
}

/** ::ffff:203.0.113.7 (an IPv4 client of a dual-stack socket) as 203.0.113.7. */
function plain(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1]! : ip;
}

const warned = new WeakSet<object>();

export function clientAddress(request: FastifyRequest): ClientAddress {
  const peer = plain(request.socket.remoteAddress ?? '');
  const ips = request.ips;
  if (!ips || ips.length < 2) return { ip: peer, ipForwarded: false };
  const forwarded = plain(request.ip);
  if (isIP(forwarded) !== 0) return { ip: forwarded, ipForwarded: true };
  // Once per server: a proxy that should have written an address did not (or TRUST_PROXY counts
  // more proxies than there are).
  if (!warned.has(request.server)) {
    warned.add(request.server);
    request.log.warn('X-Forwarded-For held something other than an IP address where TRUST_PROXY said a proxy had written one; the peer address is used');
  }
  return { ip: peer, ipForwarded: false };
}

/**
 * Fastify's trustProxy for the setting. A hop count is a function: Fastify's own number trusts
 * nothing at all (it cannot tell a proxy from a direct client). With a count, the server must
 * be reachable only through the proxies; a list of their addresses needs no such promise.
 */
export function fastifyTrustProxy(setting: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting;
  return setting;
}
