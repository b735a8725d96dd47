// The accounts the positions socket carries (spec sections 4 and 7): subscribers counted
// per account across tabs, the last snapshot of each kept in memory, seeded from REST when
// an account is watched (read again while the broker warms up) and refreshed from REST when
// a push says it changed without carrying the data.
import { backoffDelay } from '../lib/backoff';
import { isRecord } from '../lib/isRecord';
import { createRefCounts } from '../lib/refCounts';
import type { PositionsSnapshot } from '../protocol/broker';
import { attempt, type Result } from '../shared/errors';
import type { EventLogger } from './eventLog';
import type { PositionsConnection } from './positionsConnection';
import { POSITIONS_LOG } from './positionsLog';
import { isSnapshot, type PositionsRest } from './positionsRest';
import type { Timers } from './socketTypes';

/** Seed reads retried while the broker warms up (500 ms, 1 s, 2 s, 4 s, 8 s); pushes carry on after. */
export const SEED_RETRIES = 5;

/** A snapshot as the worker keeps it: 'refresh' when a push brought it, 'seed' from the first REST read. */
export interface CachedPositions extends PositionsSnapshot {
  source: 'seed' | 'refresh';
}

export interface PositionsAccountsDeps {
  rest: PositionsRest;
  connection: Pick<PositionsConnection, 'isAuthenticated' | 'wake' | 'subscribe' | 'unsubscribe'>;
  log: EventLogger;
  timers: Timers;
}

export function createPositionsAccounts(deps: PositionsAccountsDeps) {
  const { rest, connection, log, timers } = deps;
  /** Subscribers per account, across tabs. */
  const counts = createRefCounts<string>();
  const snapshots = new Map<string, CachedPositions>();
  const seedTimers = new Map<string, unknown>();
  const snapshotListeners = new Set<(account: string, snapshot: CachedPositions | null) => void>();

  const setSnapshot = (account: string, snapshot: CachedPositions | null) => {
    if (snapshot) snapshots.set(account, snapshot);
    else if (!snapshots.delete(account)) return;
    for (const listener of snapshotListeners) listener(account, snapshot);
  };

  async function refreshFromRest(account: string) {
    const fetched = await rest.positions(account);
    if (!counts.has(account)) return;
    if (fetched == null) {
      log.warn(POSITIONS_LOG.emptyRest(account));
      return;
    }
    // A push with data may have landed while the request was out: never go back in time.
    const current = snapshots.get(account);
    if (current && Date.parse(fetched.as_of) < Date.parse(current.as_of)) return;
    setSnapshot(account, { ...fetched, source: 'refresh' });
  }

  /** While the broker warms up, reads again with the backoff delays until a snapshot exists. */
  function retrySeed(account: string, round: number) {
    if (round >= SEED_RETRIES || snapshots.has(account) || !counts.has(account)) return;
    seedTimers.set(
      account,
      timers.setTimeout(async () => {
        seedTimers.delete(account);
        const fetched = await rest.positions(account);
        if (!counts.has(account) || snapshots.has(account)) return;
        if (fetched) setSnapshot(account, { ...fetched, source: 'seed' });
        else retrySeed(account, round + 1);
      }, backoffDelay(round)),
    );
  }

  /**
   * One more subscriber of `account` (a tab, or a section of one). The first subscribes
   * once the socket is authenticated, connecting it if nobody has.
   */
  function subscribe(account: string) {
    if (!counts.add(account)) return;
    if (connection.isAuthenticated()) connection.subscribe(account);
    else connection.wake();
  }

  /** One subscriber fewer; the last unsubscribes and drops the cached snapshot. */
  function unsubscribe(account: string) {
    if (!counts.release(account)) return;
    const seed = seedTimers.get(account);
    if (seed != null) timers.clearTimeout(seed);
    seedTimers.delete(account);
    connection.unsubscribe(account);
    setSnapshot(account, null);
  }

  return {
    subscribe,
    unsubscribe,

    /** The socket authenticated (again): every account held is subscribed. */
    resubscribe() {
      for (const account of counts.keys()) connection.subscribe(account);
    },

    /** A push on an account's channel: its snapshot, or word that it changed (then read from REST). */
    receive(account: string, push: unknown) {
      // A push that crossed an unsubscribe must not bring the dropped snapshot back.
      if (!counts.has(account)) return;
      if (!isRecord(push) || push.type !== 'positions') {
        log.warn(POSITIONS_LOG.unknownPush(account), push);
        return;
      }
      if (isSnapshot(push.data)) setSnapshot(account, { ...push.data, source: 'refresh' });
      else void refreshFromRest(account);
    },

    /**
     * Spec section 4: watch the account, seed its snapshot from REST, then subscribe (one
     * more subscriber). While the broker warms up the first snapshot comes from a later
     * read or the first push. Answers the snapshot known at the end, if any.
     */
    watchAccount(account: string, sessionId: string): Promise<Result<CachedPositions | null>> {
      return attempt(async () => {
        await rest.watch(account, sessionId);
        const seeded = snapshots.has(account) ? null : await rest.positions(account);
        subscribe(account);
        if (seeded && !snapshots.has(account)) setSnapshot(account, { ...seeded, source: 'seed' });
        if (!snapshots.has(account) && !seedTimers.has(account)) retrySeed(account, 0);
        return snapshots.get(account) ?? null;
      });
    },

    snapshot: (account: string): CachedPositions | null => snapshots.get(account) ?? null,
    subscriberCount: (account: string): number => counts.count(account),

    /** Calls `listener` with each new snapshot of an account, and null when it is dropped. */
    onSnapshot(listener: (account: string, snapshot: CachedPositions | null) => void): () => void {
      snapshotListeners.add(listener);
      return () => snapshotListeners.delete(listener);
    },
  };
}

export type PositionsAccounts = ReturnType<typeof createPositionsAccounts>;
