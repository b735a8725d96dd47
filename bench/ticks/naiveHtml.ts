// The naive page's HTML and its bundle (esbuild, at bench time), with the quote board's
// table rules, so both pages lay out the same table.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

export async function naiveFiles(root: string): Promise<Record<string, { type: string; body: string }>> {
  const bundle = await build({
    entryPoints: [path.join(root, 'bench/ticks/naivePage.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const css = readFileSync(path.join(root, 'src/features/quoteBoard/quoteBoard.css'), 'utf8');
  const html = `<!doctype html><html lang="es" data-theme="dark"><head><meta charset="utf-8"><title>Naive</title>
<style>body{font-family:system-ui,sans-serif;background:#0f1117;color:#e6e8ee;margin:0;padding:1rem}
:root{--border:#2a2f3d;--text-muted:#9aa1b2;--danger:#f87171}${css}</style></head>
<body><div id="root"></div><script type="module" src="/naive.js"></script></body></html>`;
  return {
    '/naive.html': { type: 'text/html; charset=utf-8', body: html },
    '/naive.js': { type: 'text/javascript; charset=utf-8', body: bundle.outputFiles[0]!.text },
  };
}
