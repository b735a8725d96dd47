import type { Db } from './index.js';
import type { SessionRow, UserRow } from './schema.js';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/** Only write last_used_at when it is this stale: a read per request, not a write. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Keys one query names at most: far under SQLite's 32,766 and PostgreSQL's 65,535 parameters,
 * and a statement small enough to plan quickly.
 */
const BATCH = 500;

function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += BATCH) yield items.slice(start, start + BATCH);
}

export function sessionsRepo(db: Db, now: () => number, policy: SessionPolicy) {
  // Well within the idle limit, so a session in use never lapses between two touches (SESSION_IDLE_MINUTES may be 1).
  const touchEvery = Math.min(TOUCH_EVERY_MS, policy.idleMs / 4);
  /** The sessions live at `at`, with their users: not revoked, past neither end, and of a user not disabled (the one rule of a live session). */
  const liveSessions = (at: number) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', at)
      .where('sessions.last_used_at', '>', at - policy.idleMs)
      .where('users.disabled', '=', 0);
  return {
    async create(input: { tokenHash: string; userId: string; ip: string | null; userAgent: string | null }): Promise<SessionRow> {
      const at = now();
      const row: SessionRow = {
        token_hash: input.tokenHash,
        user_id: input.userId,
        created_at: at,
        last_used_at: at,
        expires_at: at + policy.absoluteMs,
        revoked_at: null,
        ip: input.ip,
        user_agent: input.userAgent?.slice(0, 300) ?? null,
      };
      await db.insertInto('sessions').values(row).execute();
      return row;
    },

    /**
     * The user of a live session, or null when the token hash is unknown, revoked, past its
     * absolute end, idle too long, or its user is disabled. Using it refreshes its idle clock.
     */
    async findActiveUser(tokenHash: string): Promise<UserRow | null> {
      const at = now();
      const row = await liveSessions(at).selectAll('users').select('sessions.last_used_at').where('sessions.token_hash', '=', tokenHash).executeTakeFirst();
      if (!row) return null;
      const { last_used_at, ...user } = row;
      if (at - Number(last_used_at) >= touchEvery) {
        await db.updateTable('sessions').set({ last_used_at: at }).where('token_hash', '=', tokenHash).execute();
      }
      return user;
    },

    /**
     * Of these sessions (token hashes), those live now, as findActiveUser judges one, in one
     * query per BATCH of them (each a primary-key lookup). With `touch`, the live ones count as
     * used now (their sockets are open): those last touched over a minute ago (a quarter of the
     * idle limit when that is less) are, in one update per batch.
     */
    async liveOf(tokenHashes: readonly string[], options: { touch: boolean }): Promise<Set<string>> {
      const at = now();
      const live = new Set<string>();
      for (const batch of batches(tokenHashes)) {
        const rows = await liveSessions(at)
          .select(['sessions.token_hash as tokenHash', 'sessions.last_used_at as lastUsedAt'])
          .where('sessions.token_hash', 'in', batch)
          .execute();
        for (const row of rows) live.add(row.tokenHash);
        const stale = rows.filter((row) => at - Number(row.lastUsedAt) >= touchEvery).map((row) => row.tokenHash);
        if (options.touch && stale.length > 0) {
          await db.updateTable('sessions').set({ last_used_at: at }).where('token_hash', 'in', stale).where('revoked_at', 'is', null).execute();
        }
      }
      return live;
    },

    /** Of these users, those with a live session: an enabled account signed in somewhere (index sessions_user_id). */
    async signedInOf(userIds: readonly string[]): Promise<Set<string>> {
      const at = now();
      const signedIn = new Set<string>();
      for (const batch of batches(userIds)) {
        const rows = await liveSessions(at).select('sessions.user_id as userId').distinct().where('sessions.user_id', 'in', batch).execute();
        for (const row of rows) signedIn.add(row.userId);
      }
      return signedIn;
    },

    async revoke(tokenHash: string): Promise<boolean> {
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: now() })
        .where('token_hash', '=', tokenHash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Token hashes of a user's sessions that were not revoked (to close their sockets). */
    async liveTokenHashes(userId: string): Promise<string[]> {
      const rows = await db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
      return rows.map((r) => r.token_hash);
    },

    /** Ends every session of a user (password change, disable), but `keep`. */
    async revokeAllOfUser(userId: string, keep?: string): Promise<string[]> {
      let query = db.updateTable('sessions').set({ revoked_at: now() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
      if (keep != null) query = query.where('token_hash', '!=', keep);
      const rows = await query.returning('token_hash').execute();
      return rows.map((r) => r.token_hash);
    },

    /** Users with a live session (signed in): how many sessions each, and when one was last used, latest first. */
    async signedIn(): Promise<{ id: string; username: string; role: UserRow['role']; sessions: number; lastUsedAt: number; signedInAt: number }[]> {
      const at = now();
      const rows = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(({ fn }) => [
          'users.id as id',
          'users.username as username',
          'users.role as role',
          fn.countAll<number | string | bigint>().as('sessions'),
          fn.max('sessions.last_used_at').as('lastUsedAt'),
          fn.min('sessions.created_at').as('signedInAt'),
        ])
        .where('sessions.revoked_at', 'is', null)
        .where('sessions.expires_at', '>', at)
        .where('sessions.last_used_at', '>', at - policy.idleMs)
        .where('users.disabled', '=', 0)
        .groupBy(['users.id', 'users.username', 'users.role'])
        .execute();
      return rows
        .map((row) => ({ ...row, sessions: Number(row.sessions), lastUsedAt: Number(row.lastUsedAt), signedInAt: Number(row.signedInAt) }))
        .sort((a, b) => b.lastUsedAt - a.lastUsedAt || a.username.localeCompare(b.username));
    },

    /** Drops sessions that ended more than a day ago, so the table does not grow forever. */
    async prune(): Promise<number> {
      const cutoff = now() - 24 * 60 * 60 * 1000;
      const result = await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff), eb('last_used_at', '<', cutoff - policy.idleMs)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type SessionsRepo = ReturnType<typeof sessionsRepo>;
