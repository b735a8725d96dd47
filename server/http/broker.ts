// Broker sessions, positions and fills (spec section 7; issue 4).
import type { FastifyInstance } from 'fastify';
import { ConnectRequest, WatchRequest } from '../../src/protocol/broker.js';
import { ADMIN_MESSAGES } from './admin.js';
import type { AppContext } from './context.js';
import { HttpError, parseBody } from './errors.js';

interface AccountParams {
  Params: { account: string };
}

export function brokerRoutes(ctx: AppContext) {
  const broker = ctx.broker;
  return async (app: FastifyInstance) => {
    app.post('/primary/sessions/connect', async (request) => {
      const input = parseBody(ConnectRequest, request.body);
      return { status: 'success', ...(await broker.connect(request.user!, input)) };
    });

    app.post<AccountParams>('/accounts/:account/watch', async (request) => {
      const { sessionId } = parseBody(WatchRequest, request.body);
      await broker.watch(request.user!, request.params.account, sessionId);
      return { status: 'success', account: request.params.account };
    });

    app.get<AccountParams>('/accounts/:account/positions', async (request, reply) => {
      const snapshot = await broker.positions(request.user!, request.params.account);
      if (!snapshot) return reply.code(202).send({ status: 'warming_up' });
      reply.header('etag', `"${snapshot.etag}"`);
      return snapshot;
    });

    app.post<AccountParams>('/accounts/:account/watch-fills', async (request) => {
      const { sessionId } = parseBody(WatchRequest, request.body);
      await broker.watch(request.user!, request.params.account, sessionId, true);
      return { status: 'success', account: request.params.account };
    });

    app.get<AccountParams>('/accounts/:account/fills', async (request, reply) => {
      const fills = await broker.fills(request.user!, request.params.account);
      if (!fills) return reply.code(202).send({ status: 'warming_up' });
      return { account: request.params.account, fills };
    });

    app.get('/admin/positions', async (request) => {
      if (request.user?.role !== 'admin') throw new HttpError(403, ADMIN_MESSAGES.adminOnly);
      return { status: 'success', data: await broker.adminList() };
    });
  };
}
