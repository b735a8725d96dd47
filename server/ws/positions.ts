import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { registerSocketEndpoint } from './endpoint.js';

/**
 * /ws/positions: brokerage positions keyed 'POS:primary:{account}'. This foundation
 * authenticates and answers pings; subscriptions arrive with the broker sessions.
 */
export function registerPositionsSocket(app: FastifyInstance, ctx: AppContext): void {
  registerSocketEndpoint(app, ctx, '/ws/positions', { onMessage: () => false });
}
