// The build's hashed assets (dist/assets), answered from memory. Sent from disk, a file is read
// in 64 KB pieces through the thread pool, one round of the event loop each: a script of the
// app (118 KB as Brotli, 440 KB as it is) waited several rounds, and under load each round is as
// long as the work others' requests put in it, so a busy server (a user reading their list over
// and over) took a page's script from 25 to 150 ms. From memory it is one write. A hashed name's
// contents never change: a file is read once, with its compressed copies (scripts/precompress.ts),
// and a cheap synchronous stat before each answer tells a rebuild that removed or replaced it
// (then the disk answers, as before: 404 for a file gone). Ranges and anything but the types
// below are left to @fastify/static, as are files past the memory budget.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.wasm': 'application/wasm',
};

/** All files kept together: the build's assets with their copies are a few MB. */
export const ASSET_MEMORY_BYTES = 64 * 1024 * 1024;

interface Kept {
  size: number;
  mtimeMs: number;
  type: string;
  etag: string;
  bodies: { identity: Buffer; br: Buffer | null; gzip: Buffer | null };
}

const readIfThere = (file: string): Buffer | null => {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
};

/** The codings an Accept-Encoding header takes (q=0 refuses one). */
function acceptedCodings(header: string): Set<string> {
  const codings = new Set<string>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) codings.add(name);
  }
  return codings;
}

/** The body for the request's Accept-Encoding: Brotli, then gzip, then the file itself. */
function chooseBody(kept: Kept, acceptEncoding: string): { body: Buffer; encoding: 'br' | 'gzip' | null } {
  const accepted = acceptedCodings(acceptEncoding);
  if (kept.bodies.br && accepted.has('br')) return { body: kept.bodies.br, encoding: 'br' };
  if (kept.bodies.gzip && accepted.has('gzip')) return { body: kept.bodies.gzip, encoding: 'gzip' };
  return { body: kept.bodies.identity, encoding: null };
}

/**
 * An onRequest hook answering GET and HEAD of /assets/<name> from memory; any other request, or
 * a file it does not keep, goes on to the routes.
 */
export function assetsFromMemory(staticDir: string, maxBytes = ASSET_MEMORY_BYTES) {
  const dir = path.join(staticDir, 'assets');
  const kept = new Map<string, Kept>();
  let keptBytes = 0;

  const forget = (name: string) => {
    const entry = kept.get(name);
    if (!entry) return;
    kept.delete(name);
    keptBytes -= entry.bodies.identity.length + (entry.bodies.br?.length ?? 0) + (entry.bodies.gzip?.length ?? 0);
  };

  const lookup = (name: string): Kept | null => {
    const type = TYPES[path.extname(name).toLowerCase()];
    if (!type) return null;
    const file = path.join(dir, name);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    const entry = kept.get(name);
    if (!stat?.isFile()) {
      forget(name);
      return null;
    }
    if (entry && entry.size === stat.size && entry.mtimeMs === stat.mtimeMs) return entry;
    forget(name);
    const identity = readIfThere(file);
    if (!identity || identity.length !== stat.size) return null;
    const bodies = { identity, br: readIfThere(`${file}.br`), gzip: readIfThere(`${file}.gz`) };
    const bytes = identity.length + (bodies.br?.length ?? 0) + (bodies.gzip?.length ?? 0);
    if (keptBytes + bytes > maxBytes) return null;
    const fresh: Kept = { size: stat.size, mtimeMs: stat.mtimeMs, type, etag: `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`, bodies };
    kept.set(name, fresh);
    keptBytes += bytes;
    return fresh;
  };

  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    if (request.headers.range) return;
    const url = request.url.split('?')[0]!;
    const match = /^\/assets\/([A-Za-z0-9][\w.-]*)$/.exec(url);
    if (!match) return;
    const entry = lookup(match[1]!);
    if (!entry) return;
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    // One URL, a body per Accept-Encoding: a shared cache must keep them apart.
    reply.header('vary', 'Accept-Encoding');
    reply.header('etag', entry.etag);
    reply.header('last-modified', new Date(entry.mtimeMs).toUTCString());
    reply.header('accept-ranges', 'bytes');
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === entry.etag)) {
      return reply.code(304).send();
    }
    const { body, encoding } = chooseBody(entry, String(request.headers['accept-encoding'] ?? ''));
    if (encoding) reply.header('content-encoding', encoding);
    reply.type(entry.type);
    reply.header('content-length', body.length);
    return reply.send(request.method === 'HEAD' ? null : body);
  };
}
