import type { FastifyInstance } from 'fastify';
import { ChangePasswordRequest, UpdateProfileRequest } from '../../src/protocol/admin.js';
import { verifyPassword } from '../auth/password.js';
import { toPublicUser } from '../db/users.js';
import type { AppContext } from '../context.js';
import { InvalidError, NotFoundError } from '../errors.js';
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
      await log.add({ userId: user.id, username: user.username, action: 'profile_update', detail: { firstName, lastName }, ip: request.ip });
      return { status: 'success', data: toPublicUser(result.user) };
    });

    app.put('/profile/password', async (request) => {
      const user = request.user!;
      const { current, next } = parseBody(ChangePasswordRequest, request.body);
      if (!(await verifyPassword(current, user.password_hash))) throw new InvalidError(PROFILE_MESSAGES.wrongPassword);
      if (current === next) throw new InvalidError(PROFILE_MESSAGES.samePassword);
      await users.setPasswordHash(user.id, await ctx.auth.hashPassword(next));
      // Every other session ends: a changed password locks out whoever else had it.
      const ended = await sessions.revokeAllOfUser(user.id, request.tokenHash!);
      await ctx.sessionEnds.ended({ tokenHashes: ended, userIds: [user.id] });
      await log.add({ userId: user.id, username: user.username, action: 'password_change', detail: { endedSessions: ended.length }, ip: request.ip });
      return { status: 'success' };
    });
  };
}
