// Security headers on every answer (helmet): a strict CSP, nosniff, no referrer, no framing,
// COOP/CORP, a Permissions-Policy; no-store on /api; HSTS only over HTTPS.
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { normalizeOrigin, socketOrigins, type InterfaceSource } from '../origins.js';

const HSTS = 'max-age=31536000; includeSubDomains';
/** Powerful features the app never uses, off for it and anything it might embed. */
const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), midi=(), magnetometer=(), gyroscope=(), accelerometer=()';

/** An origin and its other-protocol twin: the API's https:// and its sockets' wss://. */
function withSocketTwin(origin: string): string[] {
  const twin = origin.replace(/^http(s?):/, 'ws$1:');
  const back = origin.replace(/^ws(s?):/, 'http$1:');
  return [...new Set([origin, twin, back])];
}

type ListenAddress = ReturnType<FastifyInstance['server']['address']>;

/** connect-src: the page's own origin, the public and allowed origins, the client's configured servers. */
export function connectSources(config: Config, address: ListenAddress, interfaces?: InterfaceSource): string[] {
  const origins = [...socketOrigins(config, address, interfaces), ...config.clientOrigins.map(normalizeOrigin)];
  // CSP has no syntax for IPv6 literals ([::1]); 'self' covers a page served from one.
  return ["'self'", ...new Set(origins.filter((origin) => !origin.includes('[')).flatMap(withSocketTwin))];
}

/** How long a computed connect-src is reused: an interface that comes up later is in it after at most this. */
export const CONNECT_SOURCES_TTL_MS = 30_000;

export interface ConnectSourcesCacheOptions {
  ttlMs?: number;
  now?: () => number;
  interfaces?: InterfaceSource;
}

/**
 * connectSources(config, address) as the CSP's directive, computed at most once per TTL for
 * a port: listening on every interface it reads os.networkInterfaces(), too slow for every
 * answer. Another port (the server listened again) computes it afresh.
 */
export function cachedConnectSources(config: Config, options: ConnectSourcesCacheOptions = {}): (address: ListenAddress) => string {
  const { ttlMs = CONNECT_SOURCES_TTL_MS, now = Date.now, interfaces } = options;
  let cached: { key: string; at: number; value: string } | null = null;
  return (address) => {
    const key = address != null && typeof address === 'object' ? String(address.port) : String(address);
    const at = now();
    if (cached && cached.key === key && at - cached.at < ttlMs) return cached.value;
    cached = { key, at, value: connectSources(config, address, interfaces).join(' ') };
    return cached.value;
  };
}

/**
 * The path of `url` as the router reads it: percent-decoded once (`/%61pi/profile` is
 * `/api/profile`, and is routed there), the query left off. Undecodable text stays as sent.
 */
export function decodedPath(url: string): string {
  const pathname = url.split('?')[0] ?? '/';
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/** Whether `url` (the request's path) is under /api, in any letter case and any percent-encoding. */
export function isApiPath(url: string): boolean {
  return /^\/+api(?:\/|$)/i.test(decodedPath(url));
}

/** Whether the request is the API's: routed to an /api route, or (not found) its path decodes to one. */
function isApiRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route != null) return route === '/api' || route.startsWith('/api/');
  return isApiPath(request.url);
}

type Directives = Record<string, Array<string | (() => string)>>;

/** The CSP, one definition for helmet and for the answers written without it (answerHeaders). */
function cspDirectives(connectSrc: () => string): Directives {
  return {
    defaultSrc: ["'self'"],
    // No inline scripts: the pre-paint theme script is public/theme.js.
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    // Inline styles are needed, and not only as attributes (React's style props): sonner,
    // react-colorful and emoji-picker-react insert <style> elements at run time (the
    // picker's CSS is generated from objects, so it has no fixed hash).
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    // Follows the port the server got and its interfaces (cached for CONNECT_SOURCES_TTL_MS).
    connectSrc: [connectSrc],
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // No upgrade-insecure-requests: a server reached over plain http (a LAN address)
    // must load its own assets over http.
  };
}

/** The CSP header as helmet writes it: kebab-case names, sources joined by spaces, directives by `;`. */
function cspHeader(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, sources]) => {
      const kebab = name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
      return `${kebab} ${sources.map((source) => (typeof source === 'function' ? source() : source)).join(' ')}`;
    })
    .join(';');
}

/** What helmet sends besides the CSP with the options below (and the Permissions-Policy the hook adds). */
const FIXED_HEADERS: Readonly<Record<string, string>> = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
  'permissions-policy': PERMISSIONS_POLICY,
};

/** The security headers of an answer, and whether it came over HTTPS (HSTS). */
export type AnswerHeaders = (overHttps?: boolean) => Record<string, string>;

/**
 * The headers every answer carries, for the answers written without the routes' hooks: the
 * framework's own (a bad URL, a parameter over the limit), those Node's parser refuses (400,
 * 431) and the 417 of an unknown Expect. The same CSP, framing and other headers as helmet's,
 * and no-store (they answer nothing worth keeping). The API tests compare them with helmet's.
 */
export function answerHeaders(config: Config, address: () => ListenAddress): AnswerHeaders {
  const connectSrc = cachedConnectSources(config);
  const directives = cspDirectives(() => connectSrc(address()));
  return (overHttps = false) => ({
    'content-security-policy': cspHeader(directives),
    ...FIXED_HEADERS,
    'cache-control': 'no-store',
    ...(overHttps ? { 'strict-transport-security': HSTS } : {}),
  });
}

export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const connectSrc = cachedConnectSources(config);
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(() => connectSrc(app.server.address())) },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    // Sent below, only when the request came over HTTPS.
    strictTransportSecurity: false,
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // request.protocol is the forwarded one only with TRUST_PROXY; a plain-http answer with
    // HSTS would be ignored by browsers anyway, and a forged header must not set it.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    // Private data (tokens, profiles, trees) is never kept by a browser or proxy cache: by the
    // route the request reached, so an encoded path (/%61pi/profile) is judged as the router read it.
    if (isApiRequest(request)) reply.header('cache-control', 'no-store');
  });
}
