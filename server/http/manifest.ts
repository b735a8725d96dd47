// GET /app.webmanifest?v=<visor id>:<title>&…: the built web manifest (STATIC_DIR's
// manifest.webmanifest, written by vite-plugin-pwa) with a shortcut more per favourite visor the
// page names (src/lib/manifestShortcuts.ts). The page points its <link rel="manifest"> here while
// a user with favourites is signed in, so an installed app's shortcuts follow them. No sign-in
// and nothing stored: the answer holds only what the query holds. Revalidated, never cached
// as immutable (the favourites change).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  FAVOURITES_MANIFEST_PATH,
  parseShortcutQuery,
  SHORTCUT_PARAM,
  withFavouriteShortcuts,
  type ManifestShortcut,
} from '../../src/lib/manifestShortcuts.js';
import { errorBody } from '../errors.js';

interface BuiltManifest {
  shortcuts?: ManifestShortcut[];
  icons?: unknown[];
}

const asList = (value: unknown): string[] => (value == null ? [] : Array.isArray(value) ? value.map(String) : [String(value)]);

export function manifestRoutes(staticDir: string) {
  const builtManifest = path.join(staticDir, 'manifest.webmanifest');
  return async (app: FastifyInstance) => {
    app.get(FAVOURITES_MANIFEST_PATH, async (request, reply) => {
      const parsed = parseShortcutQuery(asList((request.query as Record<string, unknown>)[SHORTCUT_PARAM]));
      if (!parsed.ok) return reply.code(400).send(errorBody(parsed.error));
      let manifest: BuiltManifest;
      try {
        // Read per request: a rebuild of the client is served without a restart, like its files.
        manifest = JSON.parse(await fs.readFile(builtManifest, 'utf8')) as BuiltManifest;
      } catch {
        return reply.code(404).header('cache-control', 'no-cache').send(errorBody('Manifiesto no encontrado: el cliente no está construido (npm run build)'));
      }
      return reply
        .header('cache-control', 'no-cache')
        .type('application/manifest+json; charset=utf-8')
        .send(JSON.stringify(withFavouriteShortcuts(manifest, parsed.shortcuts)));
    });
  };
}
