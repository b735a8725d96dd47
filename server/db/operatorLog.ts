import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { newId } from '../auth/tokens.js';
import type { Db } from './index.js';
import type { Database, OperatorLogRow } from './schema.js';

export const OPERATOR_ACTIONS = [
  'login',
  'login_failed',
  'login_blocked',
  'logout',
  'visor_create',
  'visor_update',
  'visor_delete',
  'visor_clone',
  'visor_share',
  'tree_save',
  'profile_update',
  'password_change',
  'password_change_blocked',
  'admin_user_create',
  'admin_user_update',
  'admin_user_delete',
  'feed_start',
  'feed_stop',
  'feed_rate',
] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

export interface OperatorLogEntry {
  userId: string | null;
  username: string | null;
  action: OperatorAction;
  /** Never passwords or tokens. */
  detail?: Record<string, unknown>;
  ip: string | null;
  /**
   * The address came from X-Forwarded-For (through a trusted proxy), not from the connection:
   * the row's detail says so (`ipFrom`).
   */
  ipForwarded?: boolean | undefined;
}

/** What a row's detail says when its address came from the proxy's header. */
export const FORWARDED_IP_DETAIL = { ipFrom: 'X-Forwarded-For' } as const;

export interface LogFilter {
  user?: string | undefined;
  action?: string | undefined;
  /** Epoch ms, inclusive. */
  from?: number | undefined;
  to?: number | undefined;
}

/** Who did what and when, for the admins' operator log. */
export function operatorLogRepo(db: Db, now: () => number) {
  /**
   * The query `list` runs (tests read its plan: an index in the page's order, no sort of the
   * matches). A user filter matches the user's id or username: one branch per column, each
   * reading its own index (user_id, at, id) or (username, at, id) in the page's order for at
   * most a page, merged. An OR of the two columns read neither in the page order: PostgreSQL
   * read every match and sorted it, or read the whole log by time and filtered it. The username
   * branch leaves out the id branch's rows, so none comes twice.
   */
  function listQuery(filter: LogFilter, limit: number, after: { at: number; id: string } | null) {
    const page = (user: ((eb: ExpressionBuilder<Database, 'operator_log'>) => Expression<SqlBool>) | null) => {
      let query = db.selectFrom('operator_log').selectAll();
      if (user) query = query.where(user);
      if (filter.action != null) query = query.where('action', '=', filter.action);
      if (filter.from != null) query = query.where('at', '>=', filter.from);
      if (filter.to != null) query = query.where('at', '<=', filter.to);
      if (after) {
        // `at <=` alone bounds the index range (the OR after it is only a filter of its rows):
        // a page far down reads from the cursor, not every newer row.
        query = query.where('at', '<=', after.at).where((eb) => eb.or([eb('at', '<', after.at), eb.and([eb('at', '=', after.at), eb('id', '<', after.id)])]));
      }
      return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit);
    };
    const user = filter.user;
    if (user == null) return page(null);
    // SQLite takes no ORDER BY or LIMIT on a member of a UNION: each branch is a subquery.
    const byId = db.selectFrom(page((eb) => eb('user_id', '=', user)).as('by_id')).selectAll();
    const byName = db.selectFrom(page((eb) => eb.and([eb('username', '=', user), eb('user_id', 'is distinct from', user)])).as('by_name')).selectAll();
    return db.selectFrom(byId.unionAll(byName).as('matched')).selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(limit);
  }

  return {
    listQuery,
    async add(entry: OperatorLogEntry): Promise<void> {
      const detail = entry.ipForwarded && entry.ip != null ? { ...entry.detail, ...FORWARDED_IP_DETAIL } : entry.detail;
      await db
        .insertInto('operator_log')
        .values({
          id: newId(),
          at: now(),
          user_id: entry.userId,
          username: entry.username,
          action: entry.action,
          detail: detail ? JSON.stringify(detail) : null,
          ip: entry.ip,
        })
        .execute();
    },

    /**
     * Each user's latest sign-in (epoch ms), from the log's `login` rows: the log is kept, so
     * this outlives the sessions (pruned a day after they end). `userIds` narrows it.
     */
    async lastSignIns(userIds?: readonly string[]): Promise<Map<string, number>> {
      if (userIds != null && userIds.length === 0) return new Map();
      let query = db
        .selectFrom('operator_log')
        .select((eb) => ['user_id', eb.fn.max('at').as('at')])
        .where('action', '=', 'login')
        .where('user_id', 'is not', null);
      if (userIds != null) query = query.where('user_id', 'in', userIds);
      const rows = await query.groupBy('user_id').execute();
      return new Map(rows.map((row) => [row.user_id!, Number(row.at)]));
    },

    async latest(limit: number) {
      return db.selectFrom('operator_log').selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    /**
     * Newest first, `limit` at a time. The cursor is the (at, id) of the last row of the
     * previous page, so pages neither skip nor repeat rows while new ones arrive.
     */
    async list(filter: LogFilter, limit: number, after: { at: number; id: string } | null): Promise<OperatorLogRow[]> {
      return listQuery(filter, limit, after).execute();
    },
  };
}
export type OperatorLogRepo = ReturnType<typeof operatorLogRepo>;
