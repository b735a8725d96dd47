import type { WebSocket } from 'ws';
import { SocketCloseCode } from '../../src/protocol/socket.js';

/** Why a socket of an ended session is closed (4401). */
export const SESSION_ENDED_REASON = 'Sesión finalizada';

/**
 * A client that does not answer the close frame is cut after this long, so a socket of an
 * ended session does not linger (ws would wait 30 s).
 */
const CLOSE_GRACE_MS = 2000;

/**
 * Authenticated sockets by session (token hash), so that ending a session closes its sockets
 * too, and by user, for the cap on one user's sockets in this process.
 */
export function createSocketRegistry() {
  const bySession = new Map<string, Set<WebSocket>>();
  const byUser = new Map<string, number>();
  const userOf = new WeakMap<WebSocket, string>();
  function remove(tokenHash: string, socket: WebSocket): void {
    const set = bySession.get(tokenHash);
    if (!set?.delete(socket)) return;
    if (set.size === 0) bySession.delete(tokenHash);
    const userId = userOf.get(socket);
    if (userId == null) return;
    const left = (byUser.get(userId) ?? 1) - 1;
    if (left > 0) byUser.set(userId, left);
    else byUser.delete(userId);
  }

  return {
    add(tokenHash: string, userId: string, socket: WebSocket): void {
      let set = bySession.get(tokenHash);
      if (!set) bySession.set(tokenHash, (set = new Set()));
      if (set.has(socket)) return;
      set.add(socket);
      userOf.set(socket, userId);
      byUser.set(userId, (byUser.get(userId) ?? 0) + 1);
    },
    remove,
    /** Closes the session's sockets with 4401; a client that does not answer is cut after a grace. */
    closeSession(tokenHash: string): number {
      const set = bySession.get(tokenHash);
      if (!set) return 0;
      const sockets = [...set];
      for (const socket of sockets) {
        remove(tokenHash, socket);
        socket.close(SocketCloseCode.unauthorized, SESSION_ENDED_REASON);
        const cut = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
        cut.unref();
        socket.once('close', () => clearTimeout(cut));
      }
      return sockets.length;
    },
    /** Sessions (token hashes) with a socket open here. */
    tokenHashes(): string[] {
      return [...bySession.keys()];
    },
    /** Authenticated sockets of a user open here. */
    countOfUser(userId: string): number {
      return byUser.get(userId) ?? 0;
    },
    count(): number {
      let n = 0;
      for (const set of bySession.values()) n += set.size;
      return n;
    },
  };
}
export type SocketRegistry = ReturnType<typeof createSocketRegistry>;
