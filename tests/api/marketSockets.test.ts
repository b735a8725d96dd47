// GET /api/admin/market/sockets: the open market sockets, with the process that holds each,
// who opened it and what it watches (end-to-end tests use it to see one socket per browser).
// Across processes on Redis: redis.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MarketSocketsResponse } from '../../src/protocol/market.js';
import { startServer, type TestServer } from './harness.js';
import {
  ADMIN,
  api,
  expectBody,
  expectErrorResponse,
  nextMessageWhere,
  openAuthenticatedSocket,
  pollUntil,
  sendJson,
  session,
  type Session,
} from './helpers.js';

describe('admin: open market sockets', () => {
  let server: TestServer;
  let admin: Session;
  let demo: Session;
  beforeEach(async () => {
    server = await startServer({ name: 'sqlite' });
    admin = await session(server, ADMIN);
    demo = await session(server);
  });
  afterEach(async () => {
    await server?.close();
  });

  const sockets = async () => expectBody(await admin.api.get('/api/admin/market/sockets'), MarketSocketsResponse).data;

  it('lists each authenticated socket with its user and subscribed symbols, and forgets it once closed', async () => {
    expect(await sockets()).toEqual([]);
    const socket = await openAuthenticatedSocket(server.wsUrl('/ws/market'), demo.token);
    // Listed from authentication on, before it subscribes to anything.
    expect(await pollUntil('the socket listed', async () => ((await sockets()).length === 1 ? sockets() : null))).toEqual([
      { process: server.app.ctx.market.processId, user: { id: demo.user._id, username: 'demo' }, openedAt: expect.any(Number), symbols: [] },
    ]);

    sendJson(socket, { action: 'subscribe', symbols: ['DLR/DIC26', 'BYMA:AL30'], requestId: 's1' });
    await nextMessageWhere(socket, (message) => (message as { requestId?: string }).requestId === 's1');
    expect((await sockets())[0]!.symbols).toEqual(['BYMA:AL30', 'DLR/DIC26']);

    sendJson(socket, { action: 'unsubscribe', symbols: ['DLR/DIC26'], requestId: 'u1' });
    await nextMessageWhere(socket, (message) => (message as { requestId?: string }).requestId === 'u1');
    expect((await sockets())[0]!.symbols).toEqual(['BYMA:AL30']);

    socket.close();
    await pollUntil('the socket gone', async () => ((await sockets()).length === 0 ? true : null));
  });

  it('is for admins only', async () => {
    expectErrorResponse(await demo.api.get('/api/admin/market/sockets'), 403);
    expectErrorResponse(await api(server, null).get('/api/admin/market/sockets'), 401);
  });
});
