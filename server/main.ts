// Boots the server: settings, database, HTTP and websockets on one port. Exits non-zero
// when a setting is wrong or a migration fails; closes gracefully on SIGINT/SIGTERM.
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { DEMO_USERS } from './auth/service.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const { app, dialect, databaseLocation, seeded } = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });

  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const lines = [
    '',
    `  Visores is running at http://${shown}:${config.port}/`,
    `  Database: ${dialect} (${databaseLocation})`,
  ];
  if (seeded.length > 0) {
    lines.push('  Demo accounts created:');
    for (const demo of DEMO_USERS) lines.push(`    ${demo.username} / ${demo.password}  (${demo.role})`);
  } else if (config.seedDemoUsers) {
    lines.push(`  Demo accounts (when not changed): ${DEMO_USERS.map((d) => `${d.username} / ${d.password}`).join(', ')}`);
  }
  lines.push('');
  console.log(lines.join('\n'));

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`Visores failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
