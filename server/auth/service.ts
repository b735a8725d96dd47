// Sign-in, token checks and sign-out: the rules, apart from HTTP.
import type { PublicUser } from '../../src/protocol/auth.js';
import type { Db, Dialect } from '../db/index.js';
import { loginFailuresRepo } from '../db/loginFailures.js';
import { operatorLogRepo } from '../db/operatorLog.js';
import type { UserRow } from '../db/schema.js';
import { sessionsRepo } from '../db/sessions.js';
import { toPublicUser, usernameKey, usersRepo } from '../db/users.js';
import { hashPassword, verifyAgainstDummy, verifyPassword, type ScryptCost } from './password.js';
import { hashToken, newToken } from './tokens.js';

export interface AuthPolicy {
  /** The scrypt cost of new password hashes (each hash keeps its own). */
  passwordCost: ScryptCost;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  loginMaxFailures: number;
  loginWindowMs: number;
}

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

export type LoginResult =
  | { ok: true; token: string; user: PublicUser }
  /** 'disabled' (the password was right) is for the logs: the user is answered as for 'invalid'. */
  | { ok: false; reason: 'invalid' | 'disabled' }
  | { ok: false; reason: 'blocked'; retryAfterMs: number };

export const DEMO_USERS = [
  { username: 'demo', password: 'demo1234', firstName: 'Demo', lastName: 'Usuario', role: 'user' },
  { username: 'admin', password: 'admin1234', firstName: 'Admin', lastName: 'Visores', role: 'admin' },
] as const;

export function createAuthService(db: Db, dialect: Dialect, now: () => number, policy: AuthPolicy) {
  const users = usersRepo(db, now, dialect);
  const sessions = sessionsRepo(db, now, { idleMs: policy.sessionIdleMs, absoluteMs: policy.sessionAbsoluteMs });
  const failures = loginFailuresRepo(db, now, policy.loginWindowMs);
  const log = operatorLogRepo(db, now);

  return {
    users,
    sessions,
    log,
    /** A new password's hash, at the configured cost. */
    hashPassword: (password: string) => hashPassword(password, policy.passwordCost),

    /**
     * The attempt is reserved in the database before the password is checked, and only
     * while the limit allows one (failures and checks in flight both count), so parallel
     * attempts cannot outrun the count. A disabled account answers as a wrong password does
     * and counts as a failure, so neither the answer nor the limit tells it apart; the real
     * reason goes to the operator log (and `reason` to the server log).
     */
    async login(username: string, password: string, client: ClientInfo): Promise<LoginResult> {
      const key = usernameKey(username);
      const reservation = await failures.reserve(key, client.ip, policy.loginMaxFailures);
      if (!reservation.ok) {
        const retryAfterMs = Math.max(1000, reservation.oldestAt + policy.loginWindowMs - now());
        await log.add({ userId: null, username: username.trim(), action: 'login_blocked', ip: client.ip });
        return { ok: false, reason: 'blocked', retryAfterMs };
      }
      // Should anything below fail, the reservation stays pending and counts until it leaves the window.
      const user = await users.findByUsername(username);
      const passwordOk = user ? await verifyPassword(password, user.password_hash) : await verifyAgainstDummy(password, policy.passwordCost);
      if (!user || !passwordOk || user.disabled) {
        await failures.failed(reservation.id);
        if (user && passwordOk) {
          await log.add({ userId: user.id, username: user.username, action: 'login_failed', detail: { disabled: true }, ip: client.ip });
          return { ok: false, reason: 'disabled' };
        }
        await log.add({ userId: user?.id ?? null, username: username.trim(), action: 'login_failed', ip: client.ip });
        return { ok: false, reason: 'invalid' };
      }
      await failures.succeeded(reservation);
      const token = newToken();
      await sessions.create({ tokenHash: hashToken(token), userId: user.id, ip: client.ip, userAgent: client.userAgent });
      await log.add({ userId: user.id, username: user.username, action: 'login', ip: client.ip });
      return { ok: true, token, user: toPublicUser(user) };
    },

    /** The user behind a token, or null when the token is unknown, expired or revoked. */
    async userOfToken(token: string): Promise<UserRow | null> {
      return sessions.findActiveUser(hashToken(token));
    },

    async logout(user: UserRow, tokenHash: string, logText: string | undefined, ip: string): Promise<void> {
      await sessions.revoke(tokenHash);
      await log.add({ userId: user.id, username: user.username, action: 'logout', detail: logText ? { log: logText } : undefined, ip });
    },

    /** Creates the demo accounts when the database has no users. Safe to race. */
    async seedDemoUsers(): Promise<string[]> {
      if ((await users.count()) > 0) return [];
      const created: string[] = [];
      for (const demo of DEMO_USERS) {
        const row = await users.create({ ...demo, passwordHash: await hashPassword(demo.password, policy.passwordCost) });
        if (row) created.push(row.username);
      }
      return created;
    },

    /** Housekeeping: forget ended sessions and old failures. */
    async prune(): Promise<void> {
      await sessions.prune();
      await failures.prune();
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
