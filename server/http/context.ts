// What the app hands to each area's routes and sockets.
import type { AuthService } from '../auth/service.js';
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import type { UserRow } from '../db/schema.js';
import type { SocketRegistry } from '../ws/registry.js';
import type { WorkspaceService } from '../workspace/service.js';
import type { MarketService } from '../market/service.js';
import type { BrokerService } from '../broker/service.js';

export interface AppContext {
  config: Config;
  db: Db;
  auth: AuthService;
  sockets: SocketRegistry;
  workspace: WorkspaceService;
  market: MarketService;
  broker: BrokerService;
  now: () => number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by the bearer-token hook on protected routes. */
    user: UserRow | null;
    /** Hash of the bearer token of this request, when it carried a valid one. */
    tokenHash: string | null;
  }
}
