// Compiles the server for production: `npm start` runs `node build/server/main.js`, so signals
// reach the server itself (tsx forwarded SIGTERM, then killed a busy server ~30 ms later). One
// ESM bundle per entry (the server and the user CLI) of our code, src/protocol and src/lib
// included; packages stay in node_modules. Usage: node scripts/build-server.mjs [outdir].
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const outdir = path.resolve(process.argv[2] ?? path.join(root, 'build', 'server'));

await build({
  absWorkingDir: root,
  entryPoints: { main: 'server/main.ts', 'cli/user': 'server/cli/user.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  packages: 'external',
  sourcemap: true,
  // Stack traces and the log name functions as the source does.
  keepNames: true,
  logLevel: 'warning',
});
console.log(`server built to ${path.relative(root, outdir) || '.'}`);
