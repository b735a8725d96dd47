// buildApp(config) returns a ready Fastify instance: database migrated, routes, sockets
// and the built client. main.ts boots it; tests build it on an ephemeral port.
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import { createAuthService } from './auth/service.js';
import type { Config } from './config.js';
import { migrateToLatest, openDatabase, type Dialect } from './db/index.js';
import { publicAuthRoutes, requireBearer, sessionRoutes } from './http/auth.js';
import { workspaceRoutes } from './http/workspace.js';
import { profileRoutes } from './http/profile.js';
import { adminRoutes } from './http/admin.js';
import { createWorkspaceService } from './workspace/service.js';
import { createMarketService } from './market/service.js';
import { createLocalCluster, createRedisCluster, newProcessId } from './cluster.js';
import { marketRoutes } from './http/market.js';
import { brokerRoutes } from './http/broker.js';
import { emojiRoutes } from './http/emoji.js';
import { healthRoutes } from './http/health.js';
import { createBrokerService } from './broker/service.js';
import { createMemoryBrokerStore } from './broker/store.js';
import { createRedisBrokerStore } from './broker/redisStore.js';
import type { AppContext } from './context.js';
import { errorBody, installErrorHandler } from './http/errors.js';
import { drainUnparsedBody } from './http/requestBody.js';
import { startHeartbeat } from './ws/endpoint.js';
import { registerMarketSocket } from './ws/market.js';
import { registerPositionsSocket } from './ws/positions.js';
import { createSocketRegistry } from './ws/registry.js';

export interface AppOptions {
  /** Clock in epoch ms; tests move it to expire sessions and login windows. */
  now?: () => number;
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  dialect: Dialect;
  databaseLocation: string;
  /** Demo accounts created at this start (empty when the database already had users). */
  seeded: string[];
}

const BODY_LIMIT_BYTES = 1024 * 1024;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export async function buildApp(config: Config, options: AppOptions = {}): Promise<BuiltApp> {
  const now = options.now ?? Date.now;
  const { db, dialect, location } = openDatabase(config);
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }

  const auth = createAuthService(db, dialect, now, config);
  const seeded = config.seedDemoUsers ? await auth.seedDemoUsers() : [];
  const workspace = createWorkspaceService(db, dialect, now, auth.log);
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    // One line per request only when debugging; errors are logged either way.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
  });
  app.decorateRequest('user', null);
  app.decorateRequest('tokenHash', null);
  installErrorHandler(app);
  app.addHook('onRequest', drainUnparsedBody(BODY_LIMIT_BYTES));

  // One name for this process in feed locks, broker records and admin answers.
  const processId = newProcessId();
  const cluster = config.redisUrl
    ? createRedisCluster(config.redisUrl, config.redisPrefix, processId, (error) => app.log.warn({ err: error }, 'cluster'))
    : createLocalCluster(processId);
  const market = createMarketService(config, now, app.log, { processId, cluster });
  const onBrokerError = (error: unknown) => app.log.warn({ err: error }, 'broker');
  const brokerStore = config.redisUrl ? createRedisBrokerStore(config.redisUrl, config.redisPrefix, processId, onBrokerError) : createMemoryBrokerStore();
  const broker = createBrokerService(market, now, { store: brokerStore, onError: onBrokerError });
  const ctx: AppContext = { config, db, auth, workspace, market, broker, sockets: createSocketRegistry(), now };

  await app.register(fastifyWebsocket, {
    // A hard cap: messages over the 64 KB limit but under this get an error message
    // (ws/endpoint.ts); larger ones close the socket (1009).
    options: { maxPayload: 1024 * 1024, perMessageDeflate: false },
  });
  startHeartbeat(app);
  registerMarketSocket(app, ctx);
  registerPositionsSocket(app, ctx);

  await app.register(
    async (api) => {
      await api.register(healthRoutes());
      await api.register(publicAuthRoutes(ctx));
      await api.register(async (signedIn) => {
        signedIn.addHook('onRequest', requireBearer(ctx));
        await signedIn.register(sessionRoutes(ctx));
        await signedIn.register(workspaceRoutes(ctx));
        await signedIn.register(profileRoutes(ctx));
        await signedIn.register(adminRoutes(ctx));
        await signedIn.register(marketRoutes(ctx));
        await signedIn.register(brokerRoutes(ctx));
      });
    },
    { prefix: '/api' },
  );

  await app.register(emojiRoutes);

  const indexHtml = path.join(config.staticDir, 'index.html');
  const hasClient = fs.existsSync(indexHtml);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: config.staticDir,
      // Routes for the files the build made (found at start); any other path falls through
      // to the not-found handler, which serves index.html for client routes.
      wildcard: false,
      index: 'index.html',
      cacheControl: false,
      setHeaders(res, filePath) {
        // Hashed build assets never change; everything else is revalidated.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = url === '/api' || url.startsWith('/api/') || url.startsWith('/ws/') || url.startsWith('/emoji/');
    if (!isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      if (!hasClient) {
        return reply.code(503).type('text/plain; charset=utf-8').send('The client is not built: run `npm run build` (npm start does it).');
      }
      // Client routes: the app's router shows the screen, or its own not-found page.
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send(errorBody(`Ruta no encontrada: ${request.method} ${url}`));
  });

  const pruneTimer = setInterval(() => {
    auth.prune().catch((error: unknown) => app.log.warn({ err: error }, 'session prune failed'));
  }, PRUNE_EVERY_MS);
  pruneTimer.unref();
  market.start();
  // Commands for this process's broker sessions can arrive before the first request.
  await brokerStore.ready().catch(onBrokerError);
  // Admin questions from other processes, likewise.
  await cluster.ready().catch((error: unknown) => app.log.warn({ err: error }, 'cluster'));
  app.addHook('onClose', async () => {
    await market.close();
    await broker.close();
    await cluster.close();
    clearInterval(pruneTimer);
    await db.destroy();
  });

  return { app, ctx, dialect, databaseLocation: location, seeded };
}
