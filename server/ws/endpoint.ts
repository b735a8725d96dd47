// The shape both websockets share: Origin check at the upgrade, authentication by a first
// {action:'auth', token} message (never the URL), ping/pong, and JSON error messages that
// keep the socket open once it is authenticated.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { toPublicUser } from '../db/users.js';
import type { UserRow } from '../db/schema.js';
import { hashToken } from '../auth/tokens.js';
import { AuthMessage, PingMessage, SOCKET_LIMITS, SocketCloseCode, type ControlEvent, type SocketErrorEvent } from '../../src/protocol/socket.js';
import { isSafeText } from '../../src/protocol/zod.js';
import { JSON_TOO_DEEP, jsonTooDeep } from '../../src/protocol/jsonDepth.js';
import { AUTH_MESSAGES } from '../auth/messages.js';
import type { AppContext } from '../context.js';
import { DomainError, ForbiddenError, INTERNAL_ERROR_MESSAGE, InvalidError, errorBody } from '../errors.js';
import { normalizeOrigin, socketOrigins } from '../origins.js';

export interface SocketSession {
  socket: WebSocket;
  user: UserRow;
  /** The session the socket authenticated with (its token's hash). */
  tokenHash: string;
  send(message: unknown): void;
  /** Sends a message already serialized (one serialization for many sockets). */
  sendText(text: string): void;
  /** Sends the error of a broken limit and counts it: repeated abuse closes the socket (1008). */
  strike(error: SocketErrorEvent): void;
}

/** What an endpoint does with the messages of an authenticated socket. */
export interface SocketHandler {
  /** Handles one parsed message (not auth or ping). Returns false when it does not know it. */
  onMessage(session: SocketSession, message: Record<string, unknown>): Promise<boolean> | boolean;
  /** The socket has just authenticated (before any other message of it is handled). */
  onAuthenticated?(session: SocketSession): void;
  /** Right after the `authenticated` event was sent: what the socket is told before anything else. */
  afterAuthenticated?(session: SocketSession): void;
  onClose?(session: SocketSession): void;
}

const NOT_AN_UPGRADE = 'Esta ruta es un websocket: ábrala con Upgrade: websocket';
const BAD_HANDSHAKE = 'El pedido de websocket es inválido: Upgrade: websocket, Sec-WebSocket-Key y Sec-WebSocket-Version (13) son obligatorios';

/** The handshake headers the ws library checks (RFC 6455 §4.2.1): Upgrade: websocket, a 16-byte key in base64, version 8 or 13. */
function isValidHandshake(request: FastifyRequest): boolean {
  const key = request.headers['sec-websocket-key'];
  const version = request.headers['sec-websocket-version'];
  return (
    request.headers.upgrade?.toLowerCase() === 'websocket' &&
    typeof key === 'string' &&
    /^[+/0-9A-Za-z]{22}==$/.test(key.trim()) &&
    (version === '8' || version === '13')
  );
}

/** Whether a page of `origin` may open the socket; `allowed` is socketOrigins() (normalised). */
export function isAllowedOrigin(origin: string | undefined, allowed: readonly string[]): boolean {
  // Browsers always send Origin on websockets; other clients (tools, servers) may not, and
  // could forge it anyway. The check protects signed-in browsers from other sites.
  if (origin == null) return true;
  return allowed.includes(normalizeOrigin(origin));
}

/** Why a socket that does not read was closed (a close reason is at most 123 bytes). */
const UNREAD_REASON = `Cliente demasiado lento: más de ${SOCKET_LIMITS.maxUnsentBytes / (1024 * 1024)} MB sin leer`;

/** Why a socket over SOCKETS_PER_USER is refused (error event and close reason, 4429). */
export function tooManySocketsMessage(max: number): string {
  return `Demasiadas conexiones abiertas de este usuario (máximo ${max}): cierre otras pestañas o dispositivos`;
}

/** `text` cut to what a close frame carries: 123 bytes of UTF-8, whole characters. */
export function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 123) reason = [...reason].slice(0, -1).join('');
  return reason;
}

/** Longest action an unknown-action error repeats. */
const MAX_ECHOED_ACTION = 40;

/**
 * The action of a message, as an error may repeat it: only short safe text. Anything else (a
 * list, an object, a long or unsafe string) is not echoed: turning a client's value into text
 * may recurse into it or copy megabytes.
 */
export function describeAction(action: unknown): string {
  if (action === undefined) return '(sin action)';
  if (typeof action === 'string' && action.length <= MAX_ECHOED_ACTION && isSafeText(action)) return action;
  return '(action inválida: se esperaba un texto corto)';
}

function rawText(raw: RawData): string {
  return Array.isArray(raw) ? Buffer.concat(raw).toString('utf8') : Buffer.from(raw as ArrayBuffer).toString('utf8');
}

export function registerSocketEndpoint(app: FastifyInstance, ctx: AppContext, path: string, handler: SocketHandler): void {
  // Refused before the upgrade, as an HTTP answer by the app's error handler: 403 for another
  // site's page, 400 for a broken handshake.
  const checkUpgrade = async (request: FastifyRequest) => {
    // Compared with the configured origins, never with the Host header (the caller writes it).
    if (!isAllowedOrigin(request.headers.origin, socketOrigins(ctx.config, app.server.address()))) {
      throw new ForbiddenError(`Origen no permitido: ${request.headers.origin}`);
    }
    // What the ws library would refuse with an HTML page, refused here in the error contract.
    if (request.ws && !isValidHandshake(request)) throw new InvalidError(BAD_HANDSHAKE);
  };

  app.route({
    method: 'GET',
    url: path,
    preValidation: checkUpgrade,
    // A plain GET (no Upgrade: websocket) of a socket's path.
    handler: async (_request, reply) => reply.code(426).header('upgrade', 'websocket').send(errorBody(NOT_AN_UPGRADE)),
    wsHandler: (socket, request) => {
      let session: SocketSession | null = null;
      let tokenHash: string | null = null;
      let closed = false;
      /** Refused past the cap, its answer held (refuse() sends nothing once it closed meanwhile). */
      let refusing = false;
      const sendText = (text: string) => {
        if (socket.readyState !== socket.OPEN) return;
        if (socket.bufferedAmount > SOCKET_LIMITS.maxUnsentBytes) {
          request.log.warn({ unsent: socket.bufferedAmount }, `socket ${path} closed: the client does not read`);
          socket.close(1008, closeReason(UNREAD_REASON));
          return;
        }
        socket.send(text);
      };
      const send = (message: unknown) => sendText(JSON.stringify(message));
      const sendEvent = (event: ControlEvent) => send(event);
      /** Sends the error (with what it names) and closes the socket with `code`. */
      const refuse = (message: string, code: number, names: Omit<SocketErrorEvent, 'event' | 'message'> = {}) => {
        sendEvent({ event: 'error', message, ...names });
        socket.close(code, closeReason(message));
      };

      const authTimer = setTimeout(() => refuse('No se recibió la autenticación a tiempo', SocketCloseCode.authTimeout), ctx.config.socketAuthTimeoutMs);

      /** Handles one message, whose size, rate and depth were checked (socket.on('message') below). */
      const handle = async (text: string) => {
        // Closing (its session ended, a limit): what the client still sends is not handled.
        if (closed || refusing || socket.readyState !== socket.OPEN) return;
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          if (!session) return refuse('Mensaje inválido: se esperaba JSON', SocketCloseCode.unauthorized);
          return sendEvent({ event: 'error', message: 'Mensaje inválido: se esperaba JSON' });
        }
        if (typeof message !== 'object' || message == null || Array.isArray(message)) {
          if (!session) return refuse('Mensaje inválido: se esperaba un objeto JSON', SocketCloseCode.unauthorized);
          return sendEvent({ event: 'error', message: 'Mensaje inválido: se esperaba un objeto JSON' });
        }
        const body = message as Record<string, unknown>;
        // Echoed only when it is text the protocol accepts (safeText).
        const requestId = typeof body.requestId === 'string' && isSafeText(body.requestId) ? body.requestId : undefined;

        if (!session) {
          const auth = AuthMessage.safeParse(body);
          if (!auth.success) return refuse("Primero envíe {action:'auth', token}", SocketCloseCode.unauthorized);
          const user = await ctx.auth.userOfToken(auth.data.token);
          if (closed || socket.readyState !== socket.OPEN) return;
          if (!user) return refuse(AUTH_MESSAGES.badToken, SocketCloseCode.unauthorized);
          clearTimeout(authTimer);
          // Counted and added with no await in between: sockets authenticating at once cannot pass the cap together.
          if (ctx.sockets.countOfUser(user.id) >= ctx.config.socketsPerUser) {
            // Held like every refusal: a client opening sockets in a loop gets one refusal a
            // pause per socket, not hundreds a second for the server to take, check and answer.
            // What it sends meanwhile is not handled.
            refusing = true;
            await ctx.refusals.hold();
            return refuse(tooManySocketsMessage(ctx.config.socketsPerUser), SocketCloseCode.tooManySockets);
          }
          tokenHash = hashToken(auth.data.token);
          session = { socket, user, tokenHash, send, sendText, strike };
          ctx.sockets.add(tokenHash, user.id, socket);
          handler.onAuthenticated?.(session);
          const { _id, username, role } = toPublicUser(user);
          sendEvent({ event: 'authenticated', user: { _id, username, role } });
          handler.afterAuthenticated?.(session);
          return;
        }

        if (body.action === 'auth') return sendEvent({ event: 'error', message: 'El socket ya está autenticado', requestId });
        const ping = PingMessage.safeParse(body);
        if (ping.success) return sendEvent({ event: 'pong', time: ctx.now(), requestId });
        const known = await handler.onMessage(session, body);
        if (!known) sendEvent({ event: 'error', message: `Acción desconocida: ${describeAction(body.action)}`, requestId });
      };

      // Limits: a message over the size or beyond the rate gets an error; repeated abuse closes.
      let tokens: number = SOCKET_LIMITS.burst;
      let refilledAt = ctx.now();
      const strikes: number[] = [];
      const overLimit = (raw: RawData): string | null => {
        const bytes = Array.isArray(raw) ? raw.reduce((n, part) => n + part.length, 0) : (raw as Buffer | ArrayBuffer).byteLength;
        if (bytes > SOCKET_LIMITS.maxMessageBytes) return `El mensaje supera el máximo de ${SOCKET_LIMITS.maxMessageBytes / 1024} KB`;
        const at = ctx.now();
        tokens = Math.min(SOCKET_LIMITS.burst, tokens + ((at - refilledAt) / 1000) * SOCKET_LIMITS.messagesPerSecond);
        refilledAt = at;
        if (tokens < 1) return `Demasiados mensajes: el máximo es ${SOCKET_LIMITS.messagesPerSecond} por segundo`;
        tokens -= 1;
        return null;
      };
      const strike = (error: SocketErrorEvent) => {
        const at = ctx.now();
        strikes.push(at);
        while (strikes.length > 0 && strikes[0]! < at - 60_000) strikes.shift();
        if (strikes.length >= SOCKET_LIMITS.strikesToClose) {
          const { event: _error, message, ...names } = error;
          return refuse(`${message}. Conexión cerrada por abuso`, 1008, names);
        }
        sendEvent(error);
      };

      // Messages are handled one at a time, in order, even while auth waits on the database.
      let queue: Promise<void> = Promise.resolve();
      socket.on('message', (raw) => {
        const limit = overLimit(raw);
        if (limit) return strike({ event: 'error', message: limit });
        // Nesting is judged on the text, in one pass, before JSON.parse (or anything else) recurses into it.
        const text = rawText(raw);
        if (jsonTooDeep(text)) return strike({ event: 'error', message: JSON_TOO_DEEP });
        queue = queue
          .then(() => handle(text))
          .catch((error: unknown) => {
            // A domain's refusal is told as it is; the socket stays open. Anything else is a fault.
            if (error instanceof DomainError) return sendEvent({ event: 'error', message: error.message });
            request.log.error({ err: error }, `socket ${path} message failed`);
            sendEvent({ event: 'error', message: INTERNAL_ERROR_MESSAGE });
          });
      });
      socket.on('close', () => {
        closed = true;
        clearTimeout(authTimer);
        if (tokenHash) ctx.sockets.remove(tokenHash, socket);
        if (session) handler.onClose?.(session);
      });
      // Its errors are logged by the websocket plugin's errorHandler (app.ts), once per socket.
    },
  });
}

/** Terminates sockets that stop answering protocol pings (dead peers, lost networks). */
export function startHeartbeat(app: FastifyInstance, intervalMs = 30_000): void {
  const alive = new WeakSet<WebSocket>();
  const timer = setInterval(() => {
    for (const socket of app.websocketServer.clients) {
      if (!alive.has(socket)) {
        socket.terminate();
        continue;
      }
      alive.delete(socket);
      socket.ping();
    }
  }, intervalMs);
  timer.unref();
  app.websocketServer.on('connection', (socket: WebSocket) => {
    alive.add(socket);
    socket.on('pong', () => alive.add(socket));
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
