import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8199);
// One fresh database per run; set once so the workers see the same folder.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'visores-e2e-'));
// Where the specs' own servers (ownServer.ts) note their process groups, for the global teardown.
process.env.E2E_SERVERS_DIR ??= mkdtempSync(path.join(tmpdir(), 'visores-e2e-servers-'));

// The server as `npm start` runs it, compiled once for the run (esbuild: a fraction of a second)
// into the checkout, where its packages resolve; every server the specs start runs it with
// node, which starts in about half the time of tsx compiling the sources each time.
if (!process.env.E2E_SERVER_JS) {
  execFileSync(process.execPath, ['scripts/build-server.mjs', 'build/e2e-server'], { stdio: 'ignore' });
  process.env.E2E_SERVER_JS = path.resolve('build/e2e-server/main.js');
}

export default defineConfig({
  testDir: 'tests/e2e',
  // Stops every server a spec started and did not stop (a spec that failed or timed out).
  globalTeardown: './tests/e2e/globalTeardown.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  // The CI machine's 2 cores run two browsers, the server and the tests, and some days at half
  // the speed of others (the same suite: 8.7 min one day, 21.8 the next): a test gets 60 s, so
  // a slow day is not a red one. A hang still fails, a minute later.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The service worker (issue 21) would answer requests page.route never sees and keep pages
    // of an earlier build: blocked for every spec but the PWA ones, which allow it
    // (test.use({ serviceWorkers: 'allow' })).
    serviceWorkers: 'block',
    launchOptions: {
      // Debian's Chromium, never a downloaded browser.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: `"${process.execPath}" --enable-source-maps "${process.env.E2E_SERVER_JS}"`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      STATIC_DIR: 'dist',
      LOG_LEVEL: 'warn',
      // Specs watch live charts and sessions: whatever the hour CI runs at, the simulated market
      // plays the last trading day's session from 11:30 (both markets open for hours).
      SIM_MARKET_TIME: '11:30',
      // The specs of both workers sign in as demo at once, each at a brisk person's pace.
      USER_REQUESTS: '1000',
    },
  },
});
