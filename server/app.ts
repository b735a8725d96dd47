// buildApp(config) returns a ready Fastify instance: database migrated, routes, sockets
// and the built client. main.ts boots it; tests build it on an ephemeral port.
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import { createBudgets } from './auth/budgets.js';
import { createAuthService, DEMO_USERS } from './auth/service.js';
import type { Config } from './config.js';
import { migrateToLatest, openDatabase, type Dialect } from './db/index.js';
import { publicAuthRoutes, requireBearer, sessionRoutes } from './http/auth.js';
import { workspaceRoutes } from './http/workspace.js';
import { profileRoutes } from './http/profile.js';
import { adminRoutes } from './http/admin.js';
import { createWorkspaceService } from './workspace/service.js';
import { seedDemoVisores } from './workspace/demoVisores.js';
import { createMarketService, type MarketService } from './market/service.js';
import { createLocalCluster, createRedisCluster, newProcessId } from './cluster.js';
import { marketRoutes } from './http/market.js';
import { brokerRoutes } from './http/broker.js';
import { emojiRoutes } from './http/emoji.js';
import { healthRoutes } from './http/health.js';
import { manifestRoutes } from './http/manifest.js';
import { createBrokerService } from './broker/service.js';
import { createMemoryBrokerStore } from './broker/store.js';
import { createRedisBrokerStore } from './broker/redisStore.js';
import type { AppContext } from './context.js';
import { errorBody } from './errors.js';
import { createRefusalHold } from './http/refusalHold.js';
import { trackConnections } from './http/connections.js';
import { createUserTurns, USER_WAITING_REQUESTS } from './http/userTurns.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandler, installNodeAnswers } from './http/errors.js';
import { drainUnparsedBody, installJsonParser } from './http/requestBody.js';
import { assetsFromMemory } from './http/assetMemory.js';
import { answerHeaders, decodedPath, registerSecurityHeaders } from './http/security.js';
import { fastifyTrustProxy } from './http/clientAddress.js';
import { startHeartbeat } from './ws/endpoint.js';
import { registerMarketSocket } from './ws/market.js';
import { registerPositionsSocket } from './ws/positions.js';
import { createSocketRegistry } from './ws/registry.js';
import { SocketCloseCode } from '../src/protocol/socket.js';
import { createSessionEnds } from './sessionEnds.js';
import { createWorkspaceEvents } from './workspace/events.js';
import { z } from '../src/protocol/zod.js';

// zod's compiled checks, which the client goes without (its CSP forbids `new Function`:
// src/protocol/zod.ts). A request's checks take about half the time: a megabyte of sections
// is checked in some 7 ms instead of 12 to 16, during which no one else's request is served.
z.config({ jitless: false });

const warnedSockets = new WeakSet<WebSocket>();

/**
 * Errors of an open socket. Those of the protocol (ws's WS_ERR_*: a message over maxPayload,
 * which ws closes with 1009, a bad frame) and of the network are the client's doing: one
 * warning per socket. Anything else was thrown by a handler: a fault, logged as an error.
 */
function socketErrorHandler(error: Error, socket: WebSocket, request: FastifyRequest): void {
  const code = (error as Error & { code?: unknown }).code;
  const fromClient = typeof code === 'string' && (code.startsWith('WS_ERR_') || ['ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code));
  if (!fromClient) {
    request.log.error({ err: error }, `socket ${request.url} failed`);
  } else if (!warnedSockets.has(socket)) {
    warnedSockets.add(socket);
    request.log.warn({ code, reason: error.message }, `socket ${request.url} closed: ${error.message}`);
  }
  // A protocol error of the client's (WS_ERR_*: a message over the cap, a bad frame): ws has sent
  // the close frame with its code (1009, 1002…), discards what still arrives, and closes when the
  // client answers (or after its close timeout). Terminating here reset the connection while the
  // rest of an oversized message was arriving, and the client could lose the close frame: it saw
  // 1006, not 1009 (socketOversizeLog.test.ts). Anything else ends the socket at once.
  if (!(typeof code === 'string' && code.startsWith('WS_ERR_'))) socket.terminate();
}

export interface AppOptions {
  /** Clock in epoch ms; tests move it to expire sessions and login windows. */
  now?: () => number;
  /** Awaited right before each password check's scrypt, in its slot (tests count and hold checks). */
  beforePasswordCheck?: () => Promise<void>;
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
/**
 * Longest path parameter (Fastify's default is 100): emoji image names of long sequences and
 * ids stay well under it; longer ones answer 414 in the error contract.
 */
const MAX_PARAM_LENGTH = 1000;

/** Paths of files (a name with an extension, or under /assets/): never answered with the HTML shell. */
export function isFilePath(url: string): boolean {
  const pathname = (url.split('?')[0] ?? '/').toLowerCase();
  return /^\/+assets(?:\/|$)/.test(pathname) || /\.[a-z0-9]{1,8}$/.test(pathname);
}

/**
 * The file of the built client at `url` (relative to `staticDir`), when it exists now: never
 * outside the folder, never a dotfile, a source map or a compressed copy (sent in place of its file).
 */
function builtFile(staticDir: string, url: string): string | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.split('?')[0] ?? '/');
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const file = path.resolve(staticDir, `.${pathname}`);
  if (!file.startsWith(staticDir + path.sep)) return null;
  const relative = path.relative(staticDir, file);
  if (relative.split(path.sep).some((part) => part.startsWith('.')) || /\.(?:map|br|gz)$/i.test(file)) return null;
  try {
    return fs.statSync(file).isFile() ? relative : null;
  } catch {
    return null;
  }
}

/** Paths that are the server's, never the client's: they answer JSON, in any letter case or percent-encoding. */
export function isServerPath(url: string): boolean {
  const pathname = decodedPath(url)
    .replace(/\/{2,}/g, '/')
    .toLowerCase();
  return /^\/(?:api|ws|emoji)(?:\/|$)/.test(pathname);
}
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** The demo account that gets the sample visores (the user, not the admin). */
const DEMO_USER = DEMO_USERS.find((user) => user.role === 'user')!.username;

/**
 * The demo account, created at this start, gets the sample visores (issue 18). A failure is
 * logged and the server starts anyway: the accounts work without them.
 */
async function seedDemoWorkspace(ctx: AppContext, log: FastifyInstance['log']): Promise<void> {
  try {
    const demo = await ctx.auth.users.findByUsername(DEMO_USER);
    if (demo) await seedDemoVisores(ctx.workspace, ctx.market.catalogue, demo, new Date(ctx.now()));
  } catch (error) {
    log.warn({ err: error }, 'the demo visores could not be created');
  }
}

export async function buildApp(config: Config, options: AppOptions = {}): Promise<BuiltApp> {
  const now = options.now ?? Date.now;
  // The app's logger exists only once Fastify does; a connection lost before that is printed.
  let logConnectionError = (error: Error) => console.warn(`database connection lost: ${error.message}`);
  const { db, dialect, location } = openDatabase({ ...config, onConnectionError: (error) => logConnectionError(error) });
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }

  // The security headers of the answers written without the routes' hooks (framework and Node errors).
  const securityHeaders = answerHeaders(config, () => app.server.address());
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrorHandler(securityHeaders),
    clientErrorHandler: clientErrorHandler(securityHeaders),
    // One line per request only when debugging; errors are logged either way.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
  });
  logConnectionError = (error) => app.log.warn({ err: error }, 'database connection lost; the pool opens another when asked');
  const budgets = createBudgets(config, (error) => app.log.warn({ err: error }, 'sign-in budgets: Redis'));
  const auth = createAuthService(db, dialect, now, config, budgets, { beforePasswordCheck: options.beforePasswordCheck });
  const seeded = config.seedDemoUsers ? await auth.seedDemoUsers() : [];
  const workspace = createWorkspaceService(db, dialect, now, auth.log, config.quotas);
  // Bodies are JSON only: a text/plain body (which a page of another site can send without a
  // preflight) is refused with 415 rather than parsed as a string.
  app.removeContentTypeParser('text/plain');
  const refusals = createRefusalHold(config.refusalPauseMs);
  installJsonParser(app, BODY_LIMIT_BYTES, refusals);
  app.decorateRequest('user', null);
  app.decorateRequest('tokenHash', null);
  installErrorHandler(app, refusals);
  await registerSecurityHeaders(app, config);
  app.addHook('onRequest', drainUnparsedBody(BODY_LIMIT_BYTES));

  // One name for this process in feed locks, broker records and admin answers.
  const processId = newProcessId();
  const cluster = config.redisUrl
    ? createRedisCluster(config.redisUrl, config.redisPrefix, processId, (error) => app.log.warn({ err: error }, 'cluster'))
    : createLocalCluster(processId);
  const sockets = createSocketRegistry();
  // Every authenticated socket is in the registry; those that are not market sockets are positions sockets.
  const market: MarketService = createMarketService(config, now, app.log, {
    processId,
    cluster,
    positionsSockets: () => Math.max(0, sockets.count() - market.clients.size),
  });
  const onBrokerError = (error: unknown) => app.log.warn({ err: error }, 'broker');
  const brokerStore = config.redisUrl ? createRedisBrokerStore(config.redisUrl, config.redisPrefix, processId, onBrokerError) : createMemoryBrokerStore();
  const broker = createBrokerService(market, now, { store: brokerStore, onError: onBrokerError, paperFillSeconds: config.paperFillSeconds });
  const sessionEnds = createSessionEnds({
    sessions: auth.sessions,
    sockets,
    broker,
    cluster,
    onError: (error) => app.log.warn({ err: error }, 'session sweep'),
  });
  const userTurns = createUserTurns(config.userConcurrentRequests, USER_WAITING_REQUESTS);
  const workspaceEvents = createWorkspaceEvents(cluster, (error) => app.log.warn({ err: error }, 'workspace events'));
  const ctx: AppContext = { config, db, auth, workspace, workspaceEvents, market, broker, sockets, sessionEnds, userTurns, refusals, now };
  if (seeded.includes(DEMO_USER)) await seedDemoWorkspace(ctx, app.log);

  // On close (a SIGTERM, a rolling restart) every socket is told the server restarts (1012)
  // before the websocket plugin's own hook would close them without a code (1005). Added
  // before the plugin, so it runs first.
  const connections = trackConnections(app.server);
  app.addHook('preClose', async () => {
    for (const socket of app.websocketServer?.clients ?? []) socket.close(SocketCloseCode.serviceRestart, 'El servidor se reinicia');
    connections.closeUnused();
  });
  await app.register(fastifyWebsocket, {
    // A hard cap: messages over the 64 KB limit but under this get an error message
    // (ws/endpoint.ts); larger ones close the socket (1009).
    options: { maxPayload: 1024 * 1024, perMessageDeflate: false },
    errorHandler: socketErrorHandler,
  });
  // After the websocket plugin: its hooks must see a refused upgrade to close its socket.
  installNodeAnswers(app, securityHeaders);
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
  await app.register(manifestRoutes(config.staticDir));

  const indexHtml = path.join(config.staticDir, 'index.html');
  const hasClient = fs.existsSync(indexHtml);
  if (hasClient) {
    app.addHook('onRequest', assetsFromMemory(config.staticDir));
    await app.register(fastifyStatic, {
      root: config.staticDir,
      // Routes for the files the build made (found at start); any other path, or a file gone
      // since (a rebuild of dist/), falls through to the not-found handler below, which looks
      // the path up on disk: the files of a new build are served without a restart.
      // (wildcard: true would also catch /api paths whose parameter is over maxParamLength.)
      wildcard: false,
      index: 'index.html',
      // The build writes .br and .gz copies of its text files (scripts/precompress.ts): the one
      // the browser accepts is sent, with Vary: Accept-Encoding; the others are sent as they are.
      preCompressed: true,
      cacheControl: false,
      // Source maps hold the whole source: they stay on the build machine (built 'hidden').
      // The compressed copies are sent in place of their file, never asked for by name.
      allowedPath: (pathName) => !/\.(?:map|br|gz)$/i.test(pathName),
      setHeaders(res, filePath) {
        // Hashed build assets never change; everything else is revalidated.
        const immutable = filePath.startsWith(path.join(config.staticDir, 'assets') + path.sep);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        // One URL, a body per Accept-Encoding (preCompressed): a shared cache must keep them apart.
        res.setHeader('vary', 'Accept-Encoding');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (hasClient && isRead && !isServerPath(url)) {
      const file = builtFile(config.staticDir, url);
      if (file) return reply.sendFile(file);
    }
    if (!isServerPath(url) && !isFilePath(url) && isRead) {
      if (!fs.existsSync(indexHtml)) {
        return reply.code(503).type('text/plain; charset=utf-8').send('The client is not built: run `npm run build` (npm start does it).');
      }
      // Client routes: the app's router shows the screen, or its own not-found page.
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    // An API path, or a file that is not there (an asset of an older build): never the HTML,
    // which a browser or a service worker would take for the script or style it asked for.
    if (isServerPath(url) || !isFilePath(url)) return reply.code(404).send(errorBody(`Ruta no encontrada: ${request.method} ${url}`));
    return reply.code(404).header('cache-control', 'no-cache').send(errorBody('Archivo no encontrado'));
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
  // The sign-in budgets shared through Redis (they count in memory until it answers).
  await budgets.ready().catch((error: unknown) => app.log.warn({ err: error }, 'sign-in budgets'));
  app.addHook('onClose', async () => {
    await sessionEnds.close();
    await market.close();
    await broker.close();
    await cluster.close();
    await budgets.close();
    clearInterval(pruneTimer);
    await db.destroy();
  });

  return { app, ctx, dialect, databaseLocation: location, seeded };
}
