// A Vite plugin that writes a Brotli (.br) and a gzip (.gz) copy beside every text file of the
// build, once, at build time. The server sends the copy the browser accepts (@fastify/static's
// preCompressed): the app's script goes out at about a third of its size, in fewer writes, and
// the server does no compression work per request (a phone on a slow line, and a server under
// load, both gain). Node's own zlib does the work.
import { readdirSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

const TEXT = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/i;
/** Below this a compressed copy saves less than its own headers cost. */
const MIN_BYTES = 1024;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'visores-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After every other plugin's last step: the service worker is written by then too.
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        // On the thread pool, several files at once: quality 11 takes seconds for the app's script.
        const files = filesUnder(outDir).filter((file) => TEXT.test(file) && statSync(file).size >= MIN_BYTES);
        await Promise.all(
          files.map(async (file) => {
            const bytes = await readFile(file);
            const params = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length };
            await writeFile(`${file}.br`, await brotli(bytes, { params }));
            await writeFile(`${file}.gz`, await gzipped(bytes, { level: 9 }));
          }),
        );
      },
    },
  };
}
