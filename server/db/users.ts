import type { PublicUser, Role } from '../../src/protocol/auth.js';
import { newId } from '../auth/tokens.js';
import type { Db } from './index.js';
import type { UserRow } from './schema.js';

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

export function usersRepo(db: Db, now: () => number) {
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
      const { n } = await db.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
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

    async setPasswordHash(id: string, passwordHash: string): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: now() })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
export type UsersRepo = ReturnType<typeof usersRepo>;
