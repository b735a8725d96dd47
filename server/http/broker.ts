// Broker sessions, positions and fills (spec section 7; issue 4).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ConnectRequest, WatchRequest } from '../../src/protocol/broker.js';
import { requireAdmin } from './admin.js';
import type { AppContext } from '../context.js';
import { parseBody } from './errors.js';

/**
 * If-None-Match against a strong etag (`"abc"`): a list of etags, each maybe weak (`W/"abc"`),
 * compared weakly as RFC 9110 asks for GET; `*` matches any current representation.
 */
export function matchesIfNoneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (header == null) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return value.split(',').some((candidate) => opaque(candidate) === opaque(etag));
}

interface AccountParams {
  Params: { account: string };
}

export function brokerRoutes(ctx: AppContext) {
  const broker = ctx.broker;
  /** Watches an account (and its fills, with `fills`) through a session of the user's. */
  const watch = (fills: boolean) => async (request: FastifyRequest<AccountParams>) => {
    const { sessionId } = parseBody(WatchRequest, request.body);
    await broker.watch(request.user!, request.params.account, sessionId, fills);
    return { status: 'success', account: request.params.account };
  };
  return async (app: FastifyInstance) => {
    app.post('/primary/sessions/connect', async (request) => {
      const input = parseBody(ConnectRequest, request.body);
      return { status: 'success', ...(await broker.connect(request.user!, input, ctx.config.brokerUrls)) };
    });

    app.post<AccountParams>('/accounts/:account/watch', watch(false));

    app.get<AccountParams>('/accounts/:account/positions', async (request, reply) => {
      const snapshot = await broker.positions(request.user!, request.params.account);
      if (!snapshot) return reply.code(202).send({ status: 'warming_up' });
      const etag = `"${snapshot.etag}"`;
      reply.header('etag', etag);
      // The client's copy is current: no body (RFC 9110 section 13.1.2).
      if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return snapshot;
    });

    app.post<AccountParams>('/accounts/:account/watch-fills', watch(true));

    app.get<AccountParams>('/accounts/:account/fills', async (request, reply) => {
      const fills = await broker.fills(request.user!, request.params.account);
      if (!fills) return reply.code(202).send({ status: 'warming_up' });
      return { account: request.params.account, fills };
    });

    app.get('/admin/positions', { onRequest: requireAdmin }, async () => ({ status: 'success', data: await broker.adminList() }));
  };
}
