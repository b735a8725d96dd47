import { newId } from '../auth/tokens.js';
import type { Db } from './index.js';

export type Reservation =
  /** `earlier`: the failures that had ended when this attempt was reserved (a success clears them). */
  | { ok: true; id: string; earlier: string[] }
  /** The limit is reached; it lifts when the oldest attempt leaves the window. */
  | { ok: false; oldestAt: number };

/**
 * Sign-in attempts per username and address within a sliding window. Each attempt is
 * reserved before its password is checked, and only while fewer than the limit are in the
 * window (failed or still being checked): a burst of parallel attempts, to one process or
 * several sharing the database, gets exactly the limit's worth of checks.
 */
export function loginFailuresRepo(db: Db, now: () => number, windowMs: number) {
  return {
    /**
     * Reserves an attempt when fewer than `max` are in the window. In one transaction: the
     * upsert of the (username, address) row of login_limits locks it (PostgreSQL: a row lock
     * held to the commit; SQLite: the database's write lock), so concurrent reservations
     * count and insert one after the other; read committed makes each count see the
     * attempts the reservations before it committed.
     */
    async reserve(usernameKey: string, ip: string, max: number): Promise<Reservation> {
      return db
        .transaction()
        .setIsolationLevel('read committed')
        .execute(async (trx) => {
          const at = now();
          await trx
            .insertInto('login_limits')
            .values({ username_key: usernameKey, ip, touched_at: at })
            .onConflict((oc) => oc.columns(['username_key', 'ip']).doUpdateSet({ touched_at: at }))
            .execute();
          const rows = await trx
            .selectFrom('login_failures')
            .select(['id', 'at', 'pending'])
            .where('username_key', '=', usernameKey)
            .where('ip', '=', ip)
            .where('at', '>', at - windowMs)
            .execute();
          if (rows.length >= max) return { ok: false, oldestAt: Math.min(...rows.map((row) => Number(row.at))) };
          const id = newId();
          await trx.insertInto('login_failures').values({ id, username_key: usernameKey, ip, at, pending: 1 }).execute();
          return { ok: true, id, earlier: rows.filter((row) => Number(row.pending) === 0).map((row) => row.id) };
        });
    },

    /** The reserved attempt was never checked (no slot was free): it does not count. */
    async release(id: string): Promise<void> {
      await db.deleteFrom('login_failures').where('id', '=', id).execute();
    },

    /** The reserved attempt failed: it keeps counting until it leaves the window. */
    async failed(id: string): Promise<void> {
      await db.updateTable('login_failures').set({ pending: 0 }).where('id', '=', id).execute();
    },

    /**
     * The reserved attempt succeeded: it stops counting, and so do the failures that had
     * ended before it was reserved. Attempts made meanwhile (a parallel burst) still count.
     */
    async succeeded(reservation: { id: string; earlier: string[] }): Promise<void> {
      await db
        .deleteFrom('login_failures')
        .where('id', 'in', [reservation.id, ...reservation.earlier])
        .execute();
    },

    async prune(): Promise<void> {
      const before = now() - windowMs;
      await db.deleteFrom('login_failures').where('at', '<=', before).execute();
      await db.deleteFrom('login_limits').where('touched_at', '<=', before).execute();
    },
  };
}
export type LoginFailuresRepo = ReturnType<typeof loginFailuresRepo>;
