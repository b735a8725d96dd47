import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
const serverPort = process.env.PORT ?? '8080';
// Unique per build: the SharedWorker is named with it, so tabs of a new deploy never talk to
// a worker of the old one (the version alone does not change between deploys).
const buildId = `${pkg.version}-${Date.now().toString(36)}`;

export default defineConfig({
  plugins: [react()],
  define: {
    __APP_VERSION__: JSON.stringify(pkg.version),
    __BUILD_ID__: JSON.stringify(buildId),
  },
  server: {
    port: 5173,
    // `npm run dev`: the Vite dev server forwards API and sockets to the Node server.
    proxy: {
      '/api': `http://127.0.0.1:${serverPort}`,
      '/emoji': `http://127.0.0.1:${serverPort}`,
      '/ws': { target: `ws://127.0.0.1:${serverPort}`, ws: true },
    },
  },
  // The data worker is a module worker (SharedWorker or Worker, type 'module').
  worker: {
    format: 'es',
  },
  build: {
    outDir: 'dist',
    // Maps are written for debugging on the build machine, without the sourceMappingURL comment;
    // the server never serves *.map (they hold the whole source).
    sourcemap: 'hidden',
  },
});
