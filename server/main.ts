// Boots the server: settings, database, HTTP and websockets on one port. Exits non-zero
// when a setting is wrong or a migration fails; closes gracefully on SIGINT/SIGTERM.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { DEMO_USERS } from './auth/service.js';

let app: FastifyInstance | null = null;
let graceMs = 10_000;
let closing = false;

/**
 * Stops accepting connections, tells every socket the server restarts (1012), answers the
 * requests in flight, then releases the feed locks and closes the database and Redis (the
 * app's onClose hooks). What is not done within the grace period is cut.
 */
function shutdown(signal: string): void {
  if (closing) return;
  closing = true;
  if (!app) process.exit(0); // still starting: nothing to close yet
  app.log.info(`${signal}: closing`);
  const force = setTimeout(() => {
    app?.log.warn(`${signal}: not closed within ${graceMs / 1000} s, exiting anyway`);
    process.exit(1);
  }, graceMs);
  force.unref();
  app.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
// Installed before anything else: until a listener exists, a signal kills the process
// without a graceful close.
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));

async function main(): Promise<void> {
  const config = loadConfig();
  graceMs = config.shutdownGraceMs;
  const built = await buildApp(config);
  app = built.app;
  await app.listen({ port: config.port, host: config.host });

  const { port } = app.server.address() as AddressInfo;
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const lines = ['', `  Visores is running at http://${shown}:${port}/`, `  Database: ${built.dialect} (${built.databaseLocation})`];
  if (built.seeded.length > 0) {
    lines.push('  Demo accounts created:');
    for (const demo of DEMO_USERS) lines.push(`    ${demo.username} / ${demo.password}  (${demo.role})`);
  } else if (config.seedDemoUsers) {
    lines.push(`  Demo accounts (unless changed): ${DEMO_USERS.map((d) => `${d.username} / ${d.password}`).join(', ')}`);
  }
  lines.push('');
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error(`Visores failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
