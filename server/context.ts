// What the app hands to each area's routes and sockets (built in app.ts).
import type { AuthService } from './auth/service.js';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import type { SocketRegistry } from './ws/registry.js';
import type { WorkspaceService } from './workspace/service.js';
import type { WorkspaceEvents } from './workspace/events.js';
import type { MarketService } from './market/service.js';
import type { BrokerService } from './broker/service.js';
import type { SessionEnds } from './sessionEnds.js';
import type { UserTurns } from './http/userTurns.js';
import type { RefusalHold } from './http/refusalHold.js';

export interface AppContext {
  config: Config;
  db: Db;
  auth: AuthService;
  /** The authenticated sockets by session, so that ending a session closes its sockets too. */
  sockets: SocketRegistry;
  workspace: WorkspaceService;
  /** Tells a user's other devices, on every process, that their workspace changed. */
  workspaceEvents: WorkspaceEvents;
  market: MarketService;
  broker: BrokerService;
  /** Ended sessions: their sockets close and their users' broker sessions end, in every process. */
  sessionEnds: SessionEnds;
  /** Each signed-in user's requests in turns (http/userTurns.ts). */
  userTurns: UserTurns;
  /** Refusals answered after a pause (http/refusalHold.ts): the 429s, deep bodies, sockets past the cap. */
  refusals: RefusalHold;
  now: () => number;
}
