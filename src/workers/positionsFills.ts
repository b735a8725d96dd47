// The fills of the accounts the tabs watch (issue 19; spec section 7: watch-fills, /fills).
// The server pushes no fills on the positions socket, but a fill always changes a position's
// bought or sold quantity: when a snapshot of an account (seed or push) holds other
// quantities than the last one, its fills are read again. Watchers are counted per account
// across tabs like positions; the last to leave drops the account's fills.
import { backoffDelay } from '../lib/backoff';
import { createRefCounts } from '../lib/refCounts';
import type { Fill, PositionsSnapshot } from '../protocol/broker';
import { attempt, type Result } from '../shared/errors';
import type { EventLogger } from './eventLog';
import { POSITIONS_LOG } from './positionsLog';
import type { PositionsRest } from './positionsRest';
import type { Timers } from './socketTypes';

/**
 * Reads again (500 ms, 1 s, 2 s, 4 s) while the broker warms up (202), or while the list has
 * not grown yet after the quantities moved (with Redis the fills may be stored a moment after
 * the snapshot is pushed).
 */
export const FILL_RETRIES = 4;

export interface PositionsFillsDeps {
  rest: Pick<PositionsRest, 'watchFills' | 'fills'>;
  log: EventLogger;
  timers: Timers;
}

/** The bought and sold quantities of every position: what a fill changes. */
export function quantitiesKey(snapshot: Pick<PositionsSnapshot, 'positions'>): string {
  return snapshot.positions
    .map((position) => `${position.symbol}\u0000${position.buySize}\u0000${position.sellSize}`)
    .sort()
    .join('\u0001');
}

export function createPositionsFills({ rest, log, timers }: PositionsFillsDeps) {
  const counts = createRefCounts<string>();
  const fills = new Map<string, Fill[]>();
  /** The quantities of the last snapshot seen of each account. */
  const quantities = new Map<string, string>();
  const retryTimers = new Map<string, unknown>();
  const listeners = new Set<(account: string, fills: Fill[] | null) => void>();

  const announce = (account: string, list: Fill[] | null) => {
    for (const listener of listeners) listener(account, list);
  };

  const clearRetry = (account: string) => {
    const timer = retryTimers.get(account);
    if (timer != null) timers.clearTimeout(timer);
    retryTimers.delete(account);
  };

  /**
   * Reads the account's fills; with `grownFrom`, a list no longer than that many is read
   * again later (the fill that moved the quantities is not stored yet).
   */
  async function read(account: string, round = 0, grownFrom: number | null = null): Promise<void> {
    clearRetry(account);
    let list: Fill[] | null;
    try {
      list = await rest.fills(account);
    } catch (error) {
      log.warn(POSITIONS_LOG.fillsFailed(account, error instanceof Error ? error.message : String(error)));
      return;
    }
    if (!counts.has(account)) return;
    if (list != null) {
      const known = fills.get(account);
      const changed = !known || known.length !== list.length || known.at(-1)?.execId !== list.at(-1)?.execId;
      if (changed) {
        fills.set(account, list);
        announce(account, list);
      }
    }
    const waiting = list == null || (grownFrom != null && list.length <= grownFrom);
    if (waiting && round < FILL_RETRIES && !retryTimers.has(account)) {
      retryTimers.set(
        account,
        timers.setTimeout(() => {
          retryTimers.delete(account);
          if (counts.has(account)) void read(account, round + 1, grownFrom);
        }, backoffDelay(round)),
      );
    }
  }

  return {
    /**
     * One more watcher of the account's fills (a section of a tab): asks the server to watch
     * them and, for the first watcher, reads them. Answers the fills known at the end.
     */
    watch(account: string, sessionId: string): Promise<Result<Fill[] | null>> {
      return attempt(async () => {
        await rest.watchFills(account, sessionId);
        const first = counts.add(account);
        if (first || !fills.has(account)) await read(account);
        return fills.get(account) ?? null;
      });
    },

    /** One watcher fewer; the last drops the account's fills. */
    release(account: string) {
      if (!counts.release(account)) return;
      clearRetry(account);
      quantities.delete(account);
      if (fills.delete(account)) announce(account, null);
    },

    /** A new snapshot of an account (null: dropped): its fills are read again when its quantities moved. */
    snapshot(account: string, snapshot: PositionsSnapshot | null) {
      if (!snapshot) {
        quantities.delete(account);
        return;
      }
      const key = quantitiesKey(snapshot);
      const before = quantities.get(account);
      quantities.set(account, key);
      if (!counts.has(account) || before === undefined || before === key) return;
      void read(account, 0, fills.get(account)?.length ?? 0);
    },

    fills: (account: string): Fill[] | null => fills.get(account) ?? null,
    watcherCount: (account: string): number => counts.count(account),

    /** Calls `listener` with each new list of an account's fills, and null when they are dropped. */
    onFills(listener: (account: string, fills: Fill[] | null) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type PositionsFills = ReturnType<typeof createPositionsFills>;
