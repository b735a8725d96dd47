import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';
import { precompress } from './scripts/precompress.js';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
const serverPort = process.env.PORT ?? '8080';
// Unique per build: the SharedWorker is named with it, so tabs of a new deploy never talk to
// a worker of the old one (the version alone does not change between deploys).
const buildId = `${pkg.version}-${Date.now().toString(36)}`;

/** The default appearance (public/theme.js): dark mode (styles.css --bg) and the 'default' accent (themes.css). */
const DEFAULT_BACKGROUND = '#0f1117';
const DEFAULT_ACCENT = '#3b82f6';

/**
 * The web manifest. Its shortcuts are Inicio only: the user's favourite visores are added by the
 * server's /app.webmanifest (server/http/manifest.ts), which the page points its manifest link at
 * (src/data/manifestLink.ts). `id` keeps the installed app the same whichever of the two it reads.
 */
const pwaManifest = {
  id: '/',
  name: 'Visores',
  short_name: 'Visores',
  description: 'Visores: cotizaciones, curvas y posiciones del mercado argentino en vivo.',
  lang: 'es',
  dir: 'ltr',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  orientation: 'any',
  theme_color: DEFAULT_ACCENT,
  background_color: DEFAULT_BACKGROUND,
  categories: ['finance', 'business'],
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
  // Made from the running app by `npm run screenshots:pwa` (scripts/screenshots.mjs --pwa).
  screenshots: [
    { src: '/screenshots/wide.png', sizes: '1280x720', type: 'image/png', form_factor: 'wide', label: 'Un visor con cotizaciones, gráfico y curva' },
    { src: '/screenshots/narrow.png', sizes: '390x844', type: 'image/png', form_factor: 'narrow', label: 'Inicio en el teléfono' },
  ],
  shortcuts: [{ name: 'Inicio', short_name: 'Inicio', url: '/', icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }] }],
} satisfies Partial<ManifestOptions>;

export default defineConfig({
  plugins: [
    react(),
    // The service worker (Workbox, generateSW) and the web manifest (issue 21). The page
    // registers the worker itself (src/data/serviceWorker.ts, workbox-window) and offers a new
    // build with a toast: 'prompt', never 'autoUpdate', which reloads tabs under the user's typing.
    VitePWA({
      strategies: 'generateSW',
      registerType: 'prompt',
      injectRegister: false,
      manifest: pwaManifest,
      // public/'s files are precached by globPatterns below, the manifest's icons among them.
      includeManifestIcons: false,
      workbox: {
        // The shell and every file of the build: scripts (the data worker's chunk included),
        // styles, the HTML, images and fonts (the plugin adds the manifest). Screenshots are for
        // the install dialog only.
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        globIgnores: ['screenshots/**'],
        // Offline, a navigation is answered with the shell; the server's own paths never are.
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api(?:\/|$)/i, /^\/ws(?:\/|$)/i, /^\/emoji(?:\/|$)/i],
        cleanupOutdatedCaches: true,
        // The server never serves *.map; no map, no sourceMappingURL comment pointing at a 404.
        sourcemap: false,
        // A new worker waits until the user accepts it (the toast's Actualizar).
        skipWaiting: false,
        clientsClaim: false,
        runtimeCaching: [
          {
            // Emoji images never change for a name: kept on first use. Nothing of /api is cached
            // here (user data lives in Dexie, which the logout wipes).
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/emoji/'),
            handler: 'CacheFirst',
            options: {
              cacheName: 'visores-emoji',
              expiration: { maxEntries: 2000 },
              cacheableResponse: { statuses: [200] },
            },
          },
        ],
      },
    }),
    precompress(),
  ],
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
