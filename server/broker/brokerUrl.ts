// Which brokers a user may make this server connect to (issue 17): the paper broker
// (sim://) and the origins of the BROKER_URLS setting, nothing else. A user names the
// address, and the server sends the user's broker credentials there and reads the answer, so
// an address outside the setting would let any signed-in user reach hosts only this server
// can reach (its own ports, the private network, cloud metadata).
//
// A host name must resolve to public addresses only; a private, loopback, link-local…
// address is allowed only when the setting names that address itself (an IP literal such as
// http://127.0.0.1:9000, for a broker on this machine or a test). The check is made when
// the user connects (a 400 before any connection) and again in the `lookup` of every
// connection the session makes (guardedLookup), so a name that later resolves elsewhere
// (DNS rebinding) is refused at that connection, and the address checked is the address used.
import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { PAPER_BROKER_URL } from '../../src/protocol/broker.js';

/** The public Primary API hosts (shared reference/primary-api.md): reMarkets (demo) and the live one. */
export const DEFAULT_BROKER_URLS = ['https://api.remarkets.primary.com.ar', 'https://api.primary.com.ar'] as const;

/**
 * The BROKER_URLS setting: comma-separated http(s) origins (a trailing slash is fine), or
 * `none` for the paper broker only; unset, the public Primary API hosts. Throws on an entry
 * that is not an origin, so a typo stops the start instead of refusing every connection.
 */
export function parseBrokerUrls(raw: string | null): string[] {
  if (raw == null || raw.trim() === '') return [...DEFAULT_BROKER_URLS];
  if (raw.trim().toLowerCase() === 'none') return [];
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new Error(`Setting BROKER_URLS: "${entry}" is not a URL`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`Setting BROKER_URLS: "${entry}" is not an http(s) origin`);
      if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
        throw new Error(`Setting BROKER_URLS: "${entry}" must be an origin (scheme, host and port), without a path`);
      }
      return url.origin;
    });
}

/** Where a connect request may go, once its address passed the allow-list. */
export type BrokerTarget =
  | { kind: 'paper' }
  /** `url`: origin and path of the address (query and fragment dropped). `addressNamed`: the host is an IP literal the setting names. */
  | { kind: 'primary'; url: string; origin: string; hostname: string; addressNamed: boolean };

export type BrokerUrlRefusal = 'malformed' | 'not_allowed';

/** The target of `address` under the allow-list `origins`, or why it is refused. No DNS, no connection. */
export function brokerTarget(address: string, origins: readonly string[]): BrokerTarget | { refused: BrokerUrlRefusal } {
  if (address === PAPER_BROKER_URL) return { kind: 'paper' };
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { refused: 'malformed' };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !/^https?:\/\/[^\s/]+/i.test(address)) return { refused: 'malformed' };
  if (url.username || url.password || !origins.includes(url.origin)) return { refused: 'not_allowed' };
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { kind: 'primary', url: `${url.origin}${url.pathname}`, origin: url.origin, hostname, addressNamed: net.isIP(hostname) !== 0 };
}

// ---------------------------------------------------------------- addresses

type Range = readonly [bytes: readonly number[], prefixLength: number];

/** IPv4 ranges that are not the public internet (RFC 6890 and successors). */
const IPV4_NOT_PUBLIC: readonly Range[] = [
  [[0, 0, 0, 0], 8], // "this network", 0.0.0.0 (unspecified)
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // shared address space (CGNAT)
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local (cloud metadata at 169.254.169.254)
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // documentation
  [[192, 88, 99, 0], 24], // 6to4 relay anycast
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // documentation
  [[203, 0, 113, 0], 24], // documentation
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, and 255.255.255.255 (broadcast)
];

/** IPv6 ranges that are not the public internet; those embedding an IPv4 address are judged by it (below). */
const IPV6_NOT_PUBLIC: readonly Range[] = [
  [[], 96], // ::/96: unspecified (::), loopback (::1), IPv4-compatible (deprecated)
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48], // 64:ff9b:1::/48, local-use NAT64
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64], // 100::/64, discard-only
  [[0x20, 0x01, 0x00, 0x00], 32], // 2001::/32, Teredo
  [[0x20, 0x01, 0x00, 0x10], 28], // 2001:10::/28, ORCHID
  [[0x20, 0x01, 0x0d, 0xb8], 32], // 2001:db8::/32, documentation
  [[0xfc], 7], // fc00::/7, unique-local
  [[0xfe, 0x80], 10], // fe80::/10, link-local
  [[0xfe, 0xc0], 10], // fec0::/10, site-local (deprecated)
  [[0xff], 8], // ff00::/8, multicast
];

function inRange(bytes: readonly number[], [prefix, length]: Range): boolean {
  for (let bit = 0; bit < length; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((bytes[byte]! & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** The 16 bytes of a valid IPv6 address (a zone, `%eth0`, ignored). */
function ipv6Bytes(address: string): number[] {
  let text = address.split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = ipv4Bytes(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const before = groups(head);
  const after = groups(tail);
  const all = tail === undefined ? before : [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
  return all.flatMap((group) => [group >> 8, group & 0xff]);
}

/**
 * True when `address` (an IPv4 or IPv6 literal) is on the public internet: not private,
 * loopback, link-local, unique-local, CGNAT, multicast, unspecified, reserved or for
 * documentation. IPv6 addresses that carry an IPv4 one (IPv4-mapped ::ffff:a.b.c.d, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address. Not an IP: false.
 */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address.split('%')[0]!);
  if (family === 4) {
    const bytes = ipv4Bytes(address);
    return !IPV4_NOT_PUBLIC.some((range) => inRange(bytes, range));
  }
  if (family !== 6) return false;
  const bytes = ipv6Bytes(address);
  const embedded = (from: number) => bytes.slice(from, from + 4).join('.');
  if (inRange(bytes, [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96])) return isPublicAddress(embedded(12));
  if (inRange(bytes, [[0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96])) return isPublicAddress(embedded(12));
  if (inRange(bytes, [[0x20, 0x02], 16])) return isPublicAddress(embedded(2));
  return !IPV6_NOT_PUBLIC.some((range) => inRange(bytes, range));
}

// ---------------------------------------------------------------- resolution

/** Resolves a host name to every address (dns.lookup, as connections do). */
export type Resolver = (hostname: string, family?: number) => Promise<dns.LookupAddress[]>;

export const systemResolver: Resolver = (hostname, family) => dns.promises.lookup(hostname, { all: true, family: family ?? 0, verbatim: true });

/** A host name resolved to an address that is not public. */
export class PrivateAddressError extends Error {
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to ${address}, which is not a public address`);
    this.name = 'PrivateAddressError';
  }
}

/**
 * The addresses of `hostname`, all of them public; rejects with PrivateAddressError when any
 * is not (a name that resolves to one private address among public ones is refused too), or
 * with the resolver's error. An IP literal is returned as is: it is only ever reached when
 * the setting names it.
 */
export async function resolvePublic(hostname: string, resolve: Resolver = systemResolver, family?: number): Promise<dns.LookupAddress[]> {
  const literal = net.isIP(hostname);
  if (literal !== 0) return [{ address: hostname, family: literal }];
  const addresses = await resolve(hostname, family);
  if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
  const refused = addresses.find((entry) => !isPublicAddress(entry.address));
  if (refused) throw new PrivateAddressError(hostname, refused.address);
  return addresses;
}

/**
 * A `lookup` for net/tls/http connections that resolves with `resolve` and fails the
 * connection when the name has an address that is not public. The connection then goes to
 * one of the addresses checked: what was checked is what is used.
 */
export function guardedLookup(resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolvePublic(hostname, resolve, options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family || undefined).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
