import { newId } from '../auth/tokens.js';
import type { Db } from './index.js';

/** Failed sign-ins, counted per username and address within a sliding window. */
export function loginFailuresRepo(db: Db, now: () => number, windowMs: number) {
  return {
    async record(usernameKey: string, ip: string): Promise<void> {
      await db.insertInto('login_failures').values({ id: newId(), username_key: usernameKey, ip, at: now() }).execute();
    },

    /** Failures in the window, and when the oldest of them leaves it. */
    async recent(usernameKey: string, ip: string): Promise<{ count: number; oldestAt: number | null }> {
      const row = await db
        .selectFrom('login_failures')
        .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min('at').as('oldest')])
        .where('username_key', '=', usernameKey)
        .where('ip', '=', ip)
        .where('at', '>', now() - windowMs)
        .executeTakeFirstOrThrow();
      return { count: Number(row.n), oldestAt: row.oldest == null ? null : Number(row.oldest) };
    },

    async clear(usernameKey: string, ip: string): Promise<void> {
      await db.deleteFrom('login_failures').where('username_key', '=', usernameKey).where('ip', '=', ip).execute();
    },

    async prune(): Promise<void> {
      await db.deleteFrom('login_failures').where('at', '<=', now() - windowMs).execute();
    },
  };
}
export type LoginFailuresRepo = ReturnType<typeof loginFailuresRepo>;
