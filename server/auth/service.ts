// Sign-in, token checks and sign-out: the rules, apart from HTTP.
import type { PublicUser } from '../../src/protocol/auth.js';
import type { Db, Dialect } from '../db/index.js';
import { loginFailuresRepo } from '../db/loginFailures.js';
import { operatorLogRepo, type OperatorLogEntry } from '../db/operatorLog.js';
import type { UserRow } from '../db/schema.js';
import { sessionsRepo } from '../db/sessions.js';
import { toPublicUser, usernameKey, usersRepo } from '../db/users.js';
import { addressKey, BUSY, type Budgets } from './budgets.js';
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

export interface AuthHooks {
  /**
   * Awaited in a check's slot, right before its scrypt (sign-in, unknown username, current
   * password). Tests count checks with it, and hold them to fill the slots.
   */
  beforePasswordCheck?: () => Promise<void>;
}

export interface ClientAddress {
  /** A valid IP address (http/clientAddress.ts). */
  ip: string;
  /** The address came from X-Forwarded-For through a trusted proxy, not from the connection. */
  ipForwarded?: boolean;
}

export interface ClientInfo extends ClientAddress {
  userAgent: string | null;
}

/** Whose budget refused: one username from one address, one address, one account. */
export type BlockedScope = 'username' | 'address' | 'account';

/** Refusals before any hashing: a spent budget (429), or every check slot and place taken. */
export type Refusal = { ok: false; reason: 'blocked'; scope: BlockedScope; retryAfterMs: number } | { ok: false; reason: 'busy'; retryAfterMs: number };

export type LoginResult =
  | { ok: true; token: string; user: PublicUser }
  /** 'disabled' (the password was right) is for the logs: the user is answered as for 'invalid'. */
  | { ok: false; reason: 'invalid' | 'disabled' }
  | Refusal;

export type PasswordCheckResult = { ok: true } | { ok: false; reason: 'wrong' } | Refusal;

export const DEMO_USERS = [
  { username: 'demo', password: 'demo1234', firstName: 'Demo', lastName: 'Usuario', role: 'user' },
  { username: 'admin', password: 'admin1234', firstName: 'Admin', lastName: 'Visores', role: 'admin' },
] as const;

/** How often, at most, the server log says checks were refused for want of a slot. */
const BUSY_REPORT_MS = 10_000;

export function createAuthService(db: Db, dialect: Dialect, now: () => number, policy: AuthPolicy, budgets: Budgets, hooks: AuthHooks = {}) {
  const users = usersRepo(db, now, dialect);
  const sessions = sessionsRepo(db, now, { idleMs: policy.sessionIdleMs, absoluteMs: policy.sessionAbsoluteMs });
  const failures = loginFailuresRepo(db, now, policy.loginWindowMs);
  const log = operatorLogRepo(db, now);
  let busySince = { at: 0, count: 0 };

  const busy = (retryAfterMs: number): Refusal => {
    busySince.count++;
    return { ok: false, reason: 'busy', retryAfterMs };
  };
  const blocked = (scope: BlockedScope, retryAfterMs: number): Refusal => ({ ok: false, reason: 'blocked', scope, retryAfterMs });

  /** A password check in a slot of the queue, in the turn of its address; or BUSY. */
  const check = (client: ClientAddress, work: () => Promise<boolean>) =>
    budgets.checks.run(async () => {
      await hooks.beforePasswordCheck?.();
      return work();
    }, addressKey(client.ip));
  /**
   * Room for a check of this address before any budget is taken: none when every place is taken
   * or this address already holds its share of them (its own checks go first).
   */
  const noRoom = (client: ClientAddress): Refusal | null => (budgets.checks.full(addressKey(client.ip)) ? busy(budgets.checks.retryAfterMs()) : null);

  /** The first refusal of a kind and key in a window goes to the operator log; the rest do not. */
  async function logRefusal(kind: string, key: string, entry: Omit<OperatorLogEntry, 'ip' | 'ipForwarded'>, client: ClientAddress) {
    if (await budgets.firstRefusal(kind, key)) await log.add({ ...entry, ip: client.ip, ipForwarded: client.ipForwarded });
  }

  return {
    users,
    sessions,
    log,
    budgets,
    /** A new password's hash, at the configured cost. */
    hashPassword: (password: string) => hashPassword(password, policy.passwordCost),

    /**
     * A new password's hash in a slot of the check queue (its scrypt costs as a check does);
     * null when every slot and place is taken.
     */
    async hashInTurn(password: string): Promise<string | null> {
      const hash = await budgets.checks.run(() => hashPassword(password, policy.passwordCost));
      return hash === BUSY ? null : hash;
    },

    /**
     * The number of checks refused for want of a slot since the last time this said so, at
     * most once every BUSY_REPORT_MS (for the server log; such refusals are not the operator's).
     */
    busyReport(): number | null {
      // The real clock: this paces the server log, not a rule the tests move the clock for.
      if (busySince.count === 0 || Date.now() - busySince.at < BUSY_REPORT_MS) return null;
      const count = busySince.count;
      busySince = { at: Date.now(), count: 0 };
      return count;
    },

    /**
     * Every budget is taken before the password is checked, cheapest and most specific first:
     * room in the check queue, the address's failures (whatever the username), the
     * username-and-address attempt reserved in the database (only while the limit allows one:
     * failures and checks in flight both count, so parallel attempts cannot outrun the count),
     * then a slot. A refusal gives back what was taken, and hashes
     * nothing. A disabled account answers as a wrong password does and counts as a failure, so
     * neither the answer nor the limit tells it apart; the real reason goes to the operator log
     * (and `reason` to the server log).
     */
    async login(username: string, password: string, client: ClientInfo): Promise<LoginResult> {
      const refused = noRoom(client);
      if (refused) return refused;
      const key = usernameKey(username);
      const address = await budgets.takeAddress(client.ip);
      if (!address.ok) {
        await logRefusal(
          'login-address',
          addressKey(client.ip),
          { userId: null, username: username.trim(), action: 'login_blocked', detail: { limit: 'address' } },
          client,
        );
        return blocked('address', address.retryAfterMs);
      }
      const reservation = await failures.reserve(key, client.ip, policy.loginMaxFailures);
      if (!reservation.ok) {
        await address.refund();
        const retryAfterMs = Math.max(1000, reservation.oldestAt + policy.loginWindowMs - now());
        await logRefusal(
          'login-username',
          `${key}\n${client.ip}`,
          { userId: null, username: username.trim(), action: 'login_blocked', detail: { limit: 'username' } },
          client,
        );
        return blocked('username', retryAfterMs);
      }
      // Should anything below fail, the reservation stays pending and counts until it leaves the window.
      const user = await users.findByUsername(username);
      // An unknown username is checked against a dummy hash, in a slot like any other, so
      // neither the time nor the budgets tell it from a known one.
      const passwordOk = await check(client, () => (user ? verifyPassword(password, user.password_hash) : verifyAgainstDummy(password, policy.passwordCost)));
      if (passwordOk === BUSY) {
        await Promise.all([address.refund(), failures.release(reservation.id)]);
        return busy(budgets.checks.retryAfterMs());
      }
      if (!user || !passwordOk || user.disabled) {
        await failures.failed(reservation.id);
        if (user && passwordOk) {
          await log.add({
            userId: user.id,
            username: user.username,
            action: 'login_failed',
            detail: { disabled: true },
            ip: client.ip,
            ipForwarded: client.ipForwarded,
          });
          return { ok: false, reason: 'disabled' };
        }
        await log.add({ userId: user?.id ?? null, username: username.trim(), action: 'login_failed', ip: client.ip, ipForwarded: client.ipForwarded });
        return { ok: false, reason: 'invalid' };
      }
      await Promise.all([failures.succeeded(reservation), address.refund()]);
      const token = newToken();
      await sessions.create({ tokenHash: hashToken(token), userId: user.id, ip: client.ip, userAgent: client.userAgent });
      await log.add({ userId: user.id, username: user.username, action: 'login', ip: client.ip, ipForwarded: client.ipForwarded });
      return { ok: true, token, user: toPublicUser(user) };
    },

    /**
     * A signed-in user's current password (before a change), out of the same budgets as a
     * sign-in: the address's failures and the account's (a stolen token must not make it a
     * guessing oracle) and a slot in the queue.
     */
    async checkCurrentPassword(user: UserRow, password: string, client: ClientAddress): Promise<PasswordCheckResult> {
      const refused = noRoom(client);
      if (refused) return refused;
      const entry = { userId: user.id, username: user.username, action: 'password_change_blocked' } as const;
      const address = await budgets.takeAddress(client.ip);
      if (!address.ok) {
        await logRefusal('password-address', addressKey(client.ip), { ...entry, detail: { limit: 'address' } }, client);
        return blocked('address', address.retryAfterMs);
      }
      const account = await budgets.takeAccount(user.id);
      if (!account.ok) {
        await address.refund();
        await logRefusal('password-account', user.id, { ...entry, detail: { limit: 'account' } }, client);
        return blocked('account', account.retryAfterMs);
      }
      const passwordOk = await check(client, () => verifyPassword(password, user.password_hash));
      if (passwordOk === BUSY) {
        await Promise.all([address.refund(), account.refund()]);
        return busy(budgets.checks.retryAfterMs());
      }
      if (!passwordOk) return { ok: false, reason: 'wrong' };
      await Promise.all([address.refund(), account.refund()]);
      return { ok: true };
    },

    /** The user behind a token, or null when the token is unknown, expired or revoked. */
    async userOfToken(token: string): Promise<UserRow | null> {
      return sessions.findActiveUser(hashToken(token));
    },

    async logout(user: UserRow, tokenHash: string, logText: string | undefined, client: ClientAddress): Promise<void> {
      await sessions.revoke(tokenHash);
      await log.add({ userId: user.id, username: user.username, action: 'logout', detail: logText ? { log: logText } : undefined, ...client });
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
