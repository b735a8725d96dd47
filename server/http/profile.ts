import type { FastifyInstance } from 'fastify';
import { ChangePasswordRequest, UpdateProfileRequest } from '../../src/protocol/admin.js';
import { toPublicUser } from '../db/users.js';
import type { AppContext } from '../context.js';
import { InvalidError, NotFoundError } from '../errors.js';
import { refusalError } from './auth.js';
import { clientAddress } from './clientAddress.js';
import { parseBody } from './errors.js';

export const PROFILE_MESSAGES = {
  wrongPassword: 'La contraseña actual no es correcta',
  samePassword: 'La nueva contraseña debe ser distinta de la actual',
} as const;

/** The signed-in user's own profile: names and password. */
export function profileRoutes(ctx: AppContext) {
  const { users, sessions, log } = ctx.auth;
  return async (app: FastifyInstance) => {
    app.get('/profile', async (request) => ({ status: 'success', data: toPublicUser(request.user!) }));

    app.put('/profile', async (request) => {
      const user = request.user!;
      const { firstName, lastName } = parseBody(UpdateProfileRequest, request.body);
      const result = await users.updateGuarded(user.id, { firstName, lastName });
      if (!result.ok) throw new NotFoundError('El usuario ya no existe');
      await log.add({ userId: user.id, username: user.username, action: 'profile_update', detail: { firstName, lastName }, ...clientAddress(request) });
      return { status: 'success', data: toPublicUser(result.user) };
    });

    app.put('/profile/password', async (request) => {
      const user = request.user!;
      const { current, next } = parseBody(ChangePasswordRequest, request.body);
      const client = clientAddress(request);
      // Out of the sign-in budgets: a stolen token is no oracle for the password (429 after
      // LOGIN_MAX_FAILURES wrong ones for the account, or the address's share).
      const checked = await ctx.auth.checkCurrentPassword(user, current, client);
      if (!checked.ok) {
        if (checked.reason === 'wrong') throw new InvalidError(PROFILE_MESSAGES.wrongPassword);
        throw refusalError(ctx, request, checked);
      }
      if (current === next) throw new InvalidError(PROFILE_MESSAGES.samePassword);
      const hash = await ctx.auth.hashInTurn(next);
      if (hash == null) throw refusalError(ctx, request, { ok: false, reason: 'busy', retryAfterMs: ctx.auth.budgets.checks.retryAfterMs() });
      await users.setPasswordHash(user.id, hash);
      // Every other session ends: a changed password locks out whoever else had it.
      const ended = await sessions.revokeAllOfUser(user.id, request.tokenHash!);
      await ctx.sessionEnds.ended({ tokenHashes: ended, userIds: [user.id] });
      await log.add({ userId: user.id, username: user.username, action: 'password_change', detail: { endedSessions: ended.length }, ...client });
      return { status: 'success' };
    });
  };
}
