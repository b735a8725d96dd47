import type { PublicUser, Role } from '../../src/protocol/auth.js';
import { newId } from '../auth/tokens.js';
import type { Db } from './index.js';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from './schema.js';
import type { Dialect } from './index.js';

export interface UserChanges {
  firstName?: string | undefined;
  lastName?: string | undefined;
  role?: Role | undefined;
  disabled?: boolean | undefined;
  passwordHash?: string | undefined;
}

/** What an admin change would do to the last active admin. */
export type GuardedResult = { ok: true; user: UserRow } | { ok: false; reason: 'not_found' | 'last_admin' };

export function toPublicUser(row: UserRow): PublicUser {
  return { _id: row.id, username: row.username, firstName: row.first_name, lastName: row.last_name, role: row.role };
}

export function usernameKey(username: string): string {
  return username.trim().toLowerCase();
}

export interface CreateUserInput {
  username: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  role: Role;
}

export function usersRepo(db: Db, now: () => number, dialect: Dialect = 'sqlite') {
  /** Ids of the active admins, their rows locked until the transaction ends (PostgreSQL). */
  async function lockActiveAdmins(trx: Kysely<Database>): Promise<string[]> {
    let admins = trx.selectFrom('users').select(['id']).where('role', '=', 'admin').where('disabled', '=', 0);
    if (dialect === 'postgres') admins = admins.forUpdate();
    return (await admins.execute()).map((row) => row.id);
  }

  return {
    async findByUsername(username: string): Promise<UserRow | null> {
      const row = await db.selectFrom('users').selectAll().where('username_key', '=', usernameKey(username)).executeTakeFirst();
      return row ?? null;
    },

    async findById(id: string): Promise<UserRow | null> {
      const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      return row ?? null;
    },

    async count(): Promise<number> {
      const { n } = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    async list(): Promise<UserRow[]> {
      return db.selectFrom('users').selectAll().orderBy('username_key').execute();
    },

    /** Returns null when the username is taken. */
    async create(input: CreateUserInput): Promise<UserRow | null> {
      const at = now();
      const row: UserRow = {
        id: newId(),
        username: input.username.trim(),
        username_key: usernameKey(input.username),
        password_hash: input.passwordHash,
        first_name: input.firstName,
        last_name: input.lastName,
        role: input.role,
        disabled: 0,
        created_at: at,
        updated_at: at,
      };
      const inserted = await db
        .insertInto('users')
        .values(row)
        .onConflict((oc) => oc.column('username_key').doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted ? row : null;
    },

    /**
     * Changes a user, refusing to leave the system without an active admin. Runs in one
     * transaction with the admins' rows locked (PostgreSQL), so two concurrent demotions
     * cannot both pass.
     */
    async updateGuarded(id: string, changes: UserChanges): Promise<GuardedResult> {
      return db.transaction().execute(async (trx) => {
        const activeAdmins = await lockActiveAdmins(trx);
        const current = await trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
        if (!current) return { ok: false, reason: 'not_found' };
        const next: UserRow = {
          ...current,
          first_name: changes.firstName ?? current.first_name,
          last_name: changes.lastName ?? current.last_name,
          role: changes.role ?? current.role,
          disabled: changes.disabled == null ? current.disabled : changes.disabled ? 1 : 0,
          password_hash: changes.passwordHash ?? current.password_hash,
          updated_at: now(),
        };
        const staysActiveAdmin = next.role === 'admin' && next.disabled === 0;
        if (activeAdmins.includes(id) && !staysActiveAdmin && activeAdmins.length <= 1) return { ok: false, reason: 'last_admin' };
        await trx
          .updateTable('users')
          .set({
            first_name: next.first_name,
            last_name: next.last_name,
            role: next.role,
            disabled: next.disabled,
            password_hash: next.password_hash,
            updated_at: next.updated_at,
          })
          .where('id', '=', id)
          .execute();
        return { ok: true, user: next };
      });
    },

    /** Deletes a user and, by cascade, their sessions, visores and tree; never the last active admin. */
    async deleteGuarded(id: string): Promise<GuardedResult> {
      return db.transaction().execute(async (trx) => {
        const activeAdmins = await lockActiveAdmins(trx);
        const current = await trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
        if (!current) return { ok: false, reason: 'not_found' };
        if (activeAdmins.includes(id) && activeAdmins.length <= 1) return { ok: false, reason: 'last_admin' };
        await trx.deleteFrom('users').where('id', '=', id).execute();
        return { ok: true, user: current };
      });
    },

    async setPasswordHash(id: string, passwordHash: string): Promise<boolean> {
      const result = await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now() }).where('id', '=', id).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
export type UsersRepo = ReturnType<typeof usersRepo>;
