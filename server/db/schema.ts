// Table shapes as Kysely sees them. Timestamps are epoch milliseconds (bigint in
// PostgreSQL, parsed to number; integer in SQLite). Flags are 0/1 integers so both
// dialects read them the same way.
import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { Role } from '../../src/protocol/auth.js';

export interface UsersTable {
  id: string;
  username: string;
  /** Lower-cased username: sign-in and uniqueness ignore case. */
  username_key: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  role: Role;
  disabled: ColumnType<number, number | undefined, number>;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  /** SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: number;
  last_used_at: number;
  /** Absolute end of the session. */
  expires_at: number;
  revoked_at: number | null;
  ip: string | null;
  user_agent: string | null;
}

/**
 * Sign-in attempts that count towards the limit: failed ones, and pending ones (reserved
 * before the password check, which is still running). A successful attempt removes its row.
 */
export interface LoginFailuresTable {
  id: string;
  username_key: string;
  ip: string;
  at: number;
  /** 1 while the attempt's check runs, 0 once it failed. */
  pending: ColumnType<number, number | undefined, number>;
}

/** One row per username and address, locked by each reservation so that they count one at a time. */
export interface LoginLimitsTable {
  username_key: string;
  ip: string;
  touched_at: number;
}

export interface OperatorLogTable {
  id: string;
  at: number;
  user_id: string | null;
  username: string | null;
  action: string;
  /** JSON text with the details of the action; never passwords or tokens. */
  detail: string | null;
  ip: string | null;
}

export interface VisoresTable {
  id: string;
  owner: string;
  title: string;
  emoji: string;
  color: string;
  fav: number;
  public: number;
  /** JSON text of the section list. */
  secciones: string;
  /** Bumped by every save of the sections; update_secciones' If-Match names it (issue 18). */
  version: ColumnType<number, number | undefined, number>;
  created_at: number;
  updated_at: number;
  /** UTF-8 bytes of secciones, title, emoji and colour (visorBytes): the storage quota sums these. */
  stored_bytes: number;
}

/**
 * The ids of deleted visores (issue 21): a create naming one (an offline create replayed after
 * another device deleted the visor) is refused instead of making it again. Kept for good; they
 * go with their owner's account.
 */
export interface VisorTombstonesTable {
  id: string;
  owner: string;
  deleted_at: number;
}

export interface FolderTreesTable {
  user_id: string;
  /** JSON text of the node list. */
  nodes: string;
  version: number;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  login_limits: LoginLimitsTable;
  operator_log: OperatorLogTable;
  visores: VisoresTable;
  visor_tombstones: VisorTombstonesTable;
  folder_trees: FolderTreesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type VisorRow = Selectable<VisoresTable>;
export type OperatorLogRow = Selectable<OperatorLogTable>;
