// Emoji images for the picker (spec section 2: 64 px, Apple style): served by our own server
// from the npm package that ships them (emoji-datasource-apple), so the app needs no
// third-party CDN at run time. The files never change for a given name, so the browser keeps
// them (immutable) after the first use and the picker shows them offline.
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../errors.js';

const require = createRequire(import.meta.url);

/** The folder of the 64 px Apple images, or null when the package is missing. */
export function appleEmojiDir(): string | null {
  try {
    return path.join(path.dirname(require.resolve('emoji-datasource-apple/package.json')), 'img', 'apple', '64');
  } catch {
    return null;
  }
}

// Unified code points joined by '-', e.g. 1f600.png or 1f468-200d-1f4bb.png.
const FILE_NAME = /^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*\.png$/;

export async function emojiRoutes(app: FastifyInstance): Promise<void> {
  const dir = appleEmojiDir();
  // The names are read once: a request is answered from this set, never by probing the disk
  // with a name taken from the URL.
  const files = new Set(dir ? await readdir(dir).catch(() => [] as string[]) : []);
  app.get<{ Params: { file: string } }>('/emoji/apple/64/:file', (request, reply) => {
    const { file } = request.params;
    if (!dir || !FILE_NAME.test(file) || !files.has(file)) {
      return reply.code(404).send(errorBody(`Emoji no encontrado: ${file}`));
    }
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .type('image/png')
      .send(createReadStream(path.join(dir, file)));
  });
}
