import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CheckTokenRequest, LoginRequest, LogoutRequest } from '../../src/protocol/auth.js';
import { toPublicUser } from '../db/users.js';
import { hashToken } from '../auth/tokens.js';
import type { AppContext } from './context.js';
import { HttpError, parseBody } from './errors.js';

export const MESSAGES = {
  invalidCredentials: 'Usuario o contraseña incorrectos',
  disabled: 'La cuenta está deshabilitada. Consulte a un administrador.',
  blocked: (minutes: number) =>
    `Demasiados intentos fallidos. Vuelva a intentar en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`,
  noToken: 'Falta el token de sesión. Inicie sesión.',
  badToken: 'La sesión expiró o no es válida. Inicie sesión de nuevo.',
} as const;

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** Requires a valid bearer token on every route of the scope it is added to. */
export function requireBearer(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearerToken(request);
    if (!token) throw new HttpError(401, MESSAGES.noToken);
    const user = await ctx.auth.userOfToken(token);
    if (!user) throw new HttpError(401, MESSAGES.badToken);
    request.user = user;
    request.tokenHash = hashToken(token);
  };
}

function client(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

/** Routes that need no bearer token: sign-in and the token check. */
export function publicAuthRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post('/login', async (request, reply) => {
      const { username, password } = parseBody(LoginRequest, request.body);
      const result = await ctx.auth.login(username, password, client(request));
      if (result.ok) return { status: 'success', token: result.token, user: result.user };
      if (result.reason === 'blocked') {
        const seconds = Math.ceil(result.retryAfterMs / 1000);
        throw new HttpError(429, MESSAGES.blocked(Math.ceil(seconds / 60)), { 'retry-after': String(seconds) });
      }
      reply.code(401);
      return { status: 'error', message: result.reason === 'disabled' ? MESSAGES.disabled : MESSAGES.invalidCredentials };
    });

    app.post('/checkToken', async (request) => {
      const { token } = parseBody(CheckTokenRequest, request.body);
      const user = await ctx.auth.userOfToken(token);
      if (!user) throw new HttpError(401, MESSAGES.badToken);
      return { status: 'success', user: toPublicUser(user) };
    });
  };
}

/** Routes of the signed-in user's own session. */
export function sessionRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post('/logout', async (request) => {
      const { log } = parseBody(LogoutRequest, request.body);
      const user = request.user!;
      const tokenHash = request.tokenHash!;
      await ctx.auth.logout(user, tokenHash, log, request.ip);
      ctx.sockets.closeSession(tokenHash);
      return { status: 'success' };
    });
  };
}
