import type { WebSocket } from 'ws';
import { SocketCloseCode } from '../../src/protocol/socket.js';

/** Authenticated sockets by session, so that ending a session closes its sockets too. */
export function createSocketRegistry() {
  const bySession = new Map<string, Set<WebSocket>>();
  return {
    add(tokenHash: string, socket: WebSocket): void {
      let set = bySession.get(tokenHash);
      if (!set) bySession.set(tokenHash, (set = new Set()));
      set.add(socket);
    },
    remove(tokenHash: string, socket: WebSocket): void {
      const set = bySession.get(tokenHash);
      if (!set) return;
      set.delete(socket);
      if (set.size === 0) bySession.delete(tokenHash);
    },
    closeSession(tokenHash: string): number {
      const set = bySession.get(tokenHash);
      if (!set) return 0;
      bySession.delete(tokenHash);
      for (const socket of set) socket.close(SocketCloseCode.unauthorized, 'Sesión finalizada');
      return set.size;
    },
    count(): number {
      let n = 0;
      for (const set of bySession.values()) n += set.size;
      return n;
    },
  };
}
export type SocketRegistry = ReturnType<typeof createSocketRegistry>;
