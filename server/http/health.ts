// GET|HEAD /api/health: 204, no body, no sign-in, never cached. The data worker asks it
// before reopening a socket (spec section 4's connectivity check): an answer from this
// process, not from a proxy in front of it or from a public site, is what says a reconnect
// can succeed.
import type { FastifyInstance } from 'fastify';

export function healthRoutes() {
  return async (app: FastifyInstance) => {
    // Fastify answers HEAD for every GET route with the same headers and no body.
    app.get('/health', async (_request, reply) => reply.code(204).header('cache-control', 'no-store').send());
  };
}
