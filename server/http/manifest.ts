// GET /app.webmanifest: the built web manifest (STATIC_DIR's manifest.webmanifest, written by
// vite-plugin-pwa) with a shortcut more per favourite visor the page put in its cookie
// (SHORTCUTS_COOKIE, src/lib/manifestShortcuts.ts; the page's manifest link asks with
// credentials). The page points its <link rel="manifest"> here while a user with favourites is
// signed in, so an installed app's shortcuts follow them. The titles travel in the cookie, not
// the URL, which access logs keep. No sign-in and nothing stored: the answer holds only what the
// cookie holds (the query, a revision that makes the browser read it again, is ignored).
// Revalidated, never cached as immutable (the favourites change).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  cookieOf,
  FAVOURITES_MANIFEST_PATH,
  parseShortcutsCookie,
  SHORTCUTS_COOKIE,
  withFavouriteShortcuts,
  type ManifestShortcut,
} from '../../src/lib/manifestShortcuts.js';
import { errorBody } from '../errors.js';

interface BuiltManifest {
  shortcuts?: ManifestShortcut[];
  icons?: unknown[];
}

export function manifestRoutes(staticDir: string) {
  const builtManifest = path.join(staticDir, 'manifest.webmanifest');
  return async (app: FastifyInstance) => {
    app.get(FAVOURITES_MANIFEST_PATH, async (request, reply) => {
      const parsed = parseShortcutsCookie(cookieOf(request.headers.cookie, SHORTCUTS_COOKIE));
      if (!parsed.ok) return reply.code(400).send(errorBody(parsed.error));
      let manifest: BuiltManifest;
      try {
        // Read per request: a rebuild of the client is served without a restart, like its files.
        manifest = JSON.parse(await fs.readFile(builtManifest, 'utf8')) as BuiltManifest;
      } catch {
        return reply.code(404).header('cache-control', 'no-cache').send(errorBody('Manifiesto no encontrado: el cliente no está construido (npm run build)'));
      }
      return (
        reply
          // Each browser's own favourites: no shared cache keeps it, and none answers it for another cookie.
          .header('cache-control', 'private, no-cache')
          .header('vary', 'Cookie')
          .type('application/manifest+json; charset=utf-8')
          .send(JSON.stringify(withFavouriteShortcuts(manifest, parsed.shortcuts)))
      );
    });
  };
}
