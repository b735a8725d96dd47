import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CheckTokenRequest, LoginRequest, LogoutRequest } from '../../src/protocol/auth.js';
import { toPublicUser } from '../db/users.js';
import { hashToken } from '../auth/tokens.js';
import { AUTH_MESSAGES } from '../auth/messages.js';
import type { Refusal } from '../auth/service.js';
import type { AppContext } from '../context.js';
import type { UserRow } from '../db/schema.js';
import { RateLimitedError, UnauthorizedError } from '../errors.js';
import { clientAddress } from './clientAddress.js';
import { parseBody } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by the bearer-token hook on protected routes. */
    user: UserRow | null;
    /** Hash of the bearer token of this request, when it carried a valid one. */
    tokenHash: string | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** A wait in whole seconds, at least one: what Retry-After and the messages say. */
const wholeSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Requires a valid bearer token on every route of the scope it is added to, and a request out
 * of its user's budget: refused (429), the request's body is never parsed.
 */
export function requireBearer(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // Whether the client has gone, watched from the start: a turn handed to a request already
    // gone (during the token check or while it waited) would never end, and the user would wait
    // for it forever. A pipelined request's response may never close, its request does.
    let gone = false;
    let endTurn: (() => void) | null = null;
    const leave = () => {
      gone = true;
      endTurn?.();
    };
    reply.raw.once('close', leave);
    // The request's stream also closes once its body is read: only a dead socket means gone.
    request.raw.once('close', () => {
      if (request.raw.socket?.destroyed) leave();
    });
    const token = bearerToken(request);
    if (!token) throw new UnauthorizedError(AUTH_MESSAGES.noToken);
    const user = await ctx.auth.userOfToken(token);
    if (!user) throw new UnauthorizedError(AUTH_MESSAGES.badToken);
    const budget = await ctx.auth.budgets.takeRequest(user.id);
    if (!budget.ok) {
      const seconds = wholeSeconds(budget.retryAfterMs);
      throw new RateLimitedError(AUTH_MESSAGES.userRequests(seconds), seconds);
    }
    endTurn = await ctx.userTurns.enter(user.id);
    if (!endTurn) throw new RateLimitedError(AUTH_MESSAGES.userRequests(1), 1);
    if (gone || request.raw.destroyed || reply.raw.destroyed) endTurn();
    request.user = user;
    request.tokenHash = hashToken(token);
  };
}

function client(request: FastifyRequest) {
  return { ...clientAddress(request), userAgent: request.headers['user-agent'] ?? null };
}

/**
 * A check refused before any hashing, as the error the client is answered with: 429 with
 * Retry-After either way (a 503 would read, to the client, as a server it cannot reach).
 */
export function refusalError(ctx: AppContext, request: FastifyRequest, refusal: Refusal): RateLimitedError {
  const seconds = wholeSeconds(refusal.retryAfterMs);
  if (refusal.reason === 'busy') {
    const count = ctx.auth.busyReport();
    if (count != null)
      request.log.warn({ refused: count }, "password checks refused: every check slot and waiting place, or an address's share of them, was taken");
    return new RateLimitedError(AUTH_MESSAGES.busy(seconds), seconds);
  }
  const minutes = Math.ceil(seconds / 60);
  const message =
    refusal.scope === 'address'
      ? AUTH_MESSAGES.addressBlocked(minutes)
      : refusal.scope === 'account'
        ? AUTH_MESSAGES.accountBlocked(minutes)
        : AUTH_MESSAGES.blocked(minutes);
  return new RateLimitedError(message, seconds);
}

/** Routes that need no bearer token: sign-in and the token check. */
export function publicAuthRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post('/login', async (request) => {
      const { username, password } = parseBody(LoginRequest, request.body);
      const result = await ctx.auth.login(username, password, client(request));
      if (result.ok) return { status: 'success', token: result.token, user: result.user };
      if (result.reason === 'blocked' || result.reason === 'busy') throw refusalError(ctx, request, result);
      // A disabled account is answered as a wrong password (whether its password was right is
      // not told); the reason goes to the server log here and to the operator log.
      if (result.reason === 'disabled')
        request.log.info({ username: username.trim(), ip: clientAddress(request).ip }, 'sign-in refused: the account is disabled');
      throw new UnauthorizedError(AUTH_MESSAGES.invalidCredentials);
    });

    app.post('/checkToken', async (request) => {
      const { token } = parseBody(CheckTokenRequest, request.body);
      const user = await ctx.auth.userOfToken(token);
      if (!user) throw new UnauthorizedError(AUTH_MESSAGES.badToken);
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
      await ctx.auth.logout(user, tokenHash, log, clientAddress(request));
      await ctx.sessionEnds.ended({ tokenHashes: [tokenHash], userIds: [user.id] });
      return { status: 'success' };
    });
  };
}
