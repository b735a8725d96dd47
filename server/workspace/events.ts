// A user's workspace on every device. After each write, the user's other sessions get what the
// write answered its writer (a `workspace` event on /ws/market, src/protocol/workspace.ts) on
// every process: in one process that is a loop over its sockets; with Redis, this process tells
// its own sockets at once and publishes the event through the cluster for the others. The
// session that wrote is left out: its browser has the answer already. An event is serialized
// once here (and once more by each process it reaches), not once per socket.
//
// Delivery is best effort, without retries: a device that misses events (asleep, offline, its
// socket reconnecting, Redis cut) reads the whole workspace once when its socket is back.
import { z } from '../../src/protocol/zod.js';
import { WorkspaceEvent } from '../../src/protocol/workspace.js';
import type { Cluster } from '../cluster.js';

const TOPIC = 'workspace:changed';

/** What the cluster carries: the user, the session that wrote (a token hash, never a token), the process that published, the event. */
const Published = z.object({ userId: z.string(), from: z.string().nullable(), processId: z.string(), event: WorkspaceEvent });

/** A socket that hears its user's workspace events. */
export interface WorkspaceListener {
  tokenHash: string;
  /** Sends a message already serialized. */
  sendText(text: string): void;
}

export function createWorkspaceEvents(cluster: Cluster, onError: (error: unknown) => void) {
  const byUser = new Map<string, Set<WorkspaceListener>>();

  function deliver(userId: string, from: string | null, event: WorkspaceEvent): void {
    const listeners = byUser.get(userId);
    if (!listeners) return;
    let text: string | null = null;
    for (const listener of listeners) if (listener.tokenHash !== from) listener.sendText((text ??= JSON.stringify(event)));
  }

  cluster.answer(TOPIC, (payload) => {
    const published = Published.parse(payload);
    // This process told its own sockets when it published.
    if (published.processId !== cluster.processId) deliver(published.userId, published.from, published.event);
    return true;
  });

  return {
    /** `listener` (an authenticated market socket of `userId`) hears the user's events until removed. */
    add(userId: string, listener: WorkspaceListener): void {
      let listeners = byUser.get(userId);
      if (!listeners) byUser.set(userId, (listeners = new Set()));
      listeners.add(listener);
    },
    remove(userId: string, listener: WorkspaceListener): void {
      const listeners = byUser.get(userId);
      if (!listeners?.delete(listener)) return;
      if (listeners.size === 0) byUser.delete(userId);
    },
    /**
     * `userId`'s workspace changed by a write of session `from` (null: not by a session of theirs):
     * every other socket of theirs hears `event`, here at once, elsewhere through the cluster.
     */
    changed(userId: string, from: string | null, event: Omit<WorkspaceEvent, 'event'>): void {
      const full: WorkspaceEvent = { event: 'workspace', ...event };
      deliver(userId, from, full);
      cluster.ask(TOPIC, { userId, from, processId: cluster.processId, event: full }).catch(onError);
    },
  };
}
export type WorkspaceEvents = ReturnType<typeof createWorkspaceEvents>;
