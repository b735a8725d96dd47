import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { registerSocketEndpoint } from './endpoint.js';

/**
 * /ws/market: live quotes keyed by symbol. This foundation authenticates and answers pings;
 * subscriptions arrive with the market hub and simulator feed.
 */
export function registerMarketSocket(app: FastifyInstance, ctx: AppContext): void {
  registerSocketEndpoint(app, ctx, '/ws/market', { onMessage: () => false });
}
