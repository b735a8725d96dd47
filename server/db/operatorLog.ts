import { newId } from '../auth/tokens.js';
import type { Db } from './index.js';

export type OperatorAction = 'login' | 'login_failed' | 'login_blocked' | 'logout';

export interface OperatorLogEntry {
  userId: string | null;
  username: string | null;
  action: OperatorAction;
  /** Never passwords or tokens. */
  detail?: Record<string, unknown>;
  ip: string | null;
}

/** Who did what and when, for the admins' operator log. */
export function operatorLogRepo(db: Db, now: () => number) {
  return {
    async add(entry: OperatorLogEntry): Promise<void> {
      await db
        .insertInto('operator_log')
        .values({
          id: newId(),
          at: now(),
          user_id: entry.userId,
          username: entry.username,
          action: entry.action,
          detail: entry.detail ? JSON.stringify(entry.detail) : null,
          ip: entry.ip,
        })
        .execute();
    },

    async latest(limit: number) {
      return db.selectFrom('operator_log').selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },
  };
}
export type OperatorLogRepo = ReturnType<typeof operatorLogRepo>;
