// Sessions end everywhere they should. A session ends by logout, a password change (the
// user's, an admin's, or the CLI's, which is another process writing the database), idle or
// absolute expiry, or its account being disabled or deleted. Then, in every process, its
// sockets close with 4401, and a user left with no live session loses their broker sessions
// (connections closed, credentials dropped from memory).
//
// Two ways, one as backstop of the other:
// - A sweep, in each process about once a second, asks the database which of the sessions
//   that hold a socket here are still live (one query per 500 of them, primary-key lookups),
//   and which of the users with a broker session here still have a live session (one query,
//   on the user_id index). It needs nobody to tell it, so it covers the CLI, expiry, a change
//   made by another process and a process that missed a message; it is the only way without
//   Redis across processes. It also counts an open socket as use: a session with one stays
//   alive past SESSION_IDLE_MINUTES (a visor left open streaming is in use); the absolute
//   limit still ends it.
// - An event through the cluster (in-process, or Redis pub/sub): the process that ended
//   sessions names them, and every process closes their sockets at once and checks those users'
//   broker sessions, without waiting for its sweep.
import { z } from '../src/protocol/zod.js';
import type { Cluster } from './cluster.js';

/** How often each process re-checks the sessions of its sockets and broker sessions. */
export const SESSION_SWEEP_MS = 1000;

const TOPIC = 'sessions:ended';

/** What the cluster carries: token hashes (never tokens) and user ids. */
const EndedPayload = z.object({ tokenHashes: z.array(z.string()).max(100_000), userIds: z.array(z.string()).max(100_000) });
export type EndedSessions = z.infer<typeof EndedPayload>;

export interface SessionEndsDeps {
  sessions: {
    liveOf(tokenHashes: readonly string[], options: { touch: boolean }): Promise<Set<string>>;
    signedInOf(userIds: readonly string[]): Promise<Set<string>>;
  };
  sockets: { tokenHashes(): string[]; closeSession(tokenHash: string): number };
  broker: { usersHere(): string[]; endUserHere(userId: string): void };
  cluster: Cluster;
  onError: (error: unknown) => void;
  sweepEveryMs?: number;
}

export function createSessionEnds({ sessions, sockets, broker, cluster, onError, sweepEveryMs = SESSION_SWEEP_MS }: SessionEndsDeps) {
  /** Ends the broker sessions here of those users who have no live session left. */
  async function endBrokersOf(userIds: readonly string[]): Promise<void> {
    if (userIds.length === 0) return;
    const signedIn = await sessions.signedInOf(userIds);
    for (const userId of userIds) if (!signedIn.has(userId)) broker.endUserHere(userId);
  }

  function closeHere(tokenHashes: readonly string[]): void {
    for (const tokenHash of tokenHashes) sockets.closeSession(tokenHash);
  }

  cluster.answer(TOPIC, async (payload) => {
    const ended = EndedPayload.parse(payload);
    closeHere(ended.tokenHashes);
    const here = new Set(broker.usersHere());
    await endBrokersOf(ended.userIds.filter((userId) => here.has(userId)));
    return true;
  });

  async function sweep(): Promise<void> {
    const held = sockets.tokenHashes();
    if (held.length > 0) {
      const live = await sessions.liveOf(held, { touch: true });
      closeHere(held.filter((tokenHash) => !live.has(tokenHash)));
    }
    await endBrokersOf(broker.usersHere());
  }

  let running: Promise<void> | null = null;
  /** One sweep at a time: a slow database skips ticks rather than piling queries up. */
  const sweepOnce = (): Promise<void> =>
    (running ??= sweep()
      .catch(onError)
      .finally(() => {
        running = null;
      }));
  const timer = setInterval(() => void sweepOnce(), sweepEveryMs);
  timer.unref();

  return {
    /**
     * Sessions ended in this process: their sockets here close now, and every other process
     * is told (without waiting for its answer). `userIds`: users whose broker sessions end if
     * they have no live session left.
     */
    async ended(ended: EndedSessions): Promise<void> {
      closeHere(ended.tokenHashes);
      cluster.ask(TOPIC, ended).catch(onError);
      const here = new Set(broker.usersHere());
      await endBrokersOf(ended.userIds.filter((userId) => here.has(userId))).catch(onError);
    },
    /** Runs a sweep that starts after this call (a sweep under way is waited for first). */
    async sweep(): Promise<void> {
      while (running) await running;
      await sweepOnce();
    },
    async close(): Promise<void> {
      clearInterval(timer);
      await running;
    },
  };
}
export type SessionEnds = ReturnType<typeof createSessionEnds>;
