// Control messages shared by both websockets (/ws/market and /ws/positions).
// Data messages (keyed by symbol) are defined with the feeds that produce them.
import { safeText, z } from './zod';
import { PublicUser } from './auth';
import { MarketsEvent } from './market';
import { WorkspaceEvent } from './workspace';

/** Largest message a client may send, in bytes (reference/browser-notes.md). */
export const MAX_SOCKET_MESSAGE_BYTES = 64 * 1024;

/** Close codes in the application range (4000–4999). */
export const SocketCloseCode = {
  /** Not authenticated, bad or revoked token, or the session ended. */
  unauthorized: 4401,
  /** No auth message within the allowed time. */
  authTimeout: 4408,
  /** The server is restarting (RFC 6455's Service Restart): reconnect shortly, as after any close. */
  serviceRestart: 1012,
  /** The user already has SOCKETS_PER_USER sockets open on that server process. */
  tooManySockets: 4429,
} as const;

export const AuthMessage = z.object({ action: z.literal('auth'), token: safeText().min(1).max(512) });
export const PingMessage = z.object({ action: z.literal('ping'), requestId: safeText().max(100).optional() });

/** The user as the `authenticated` event names it (no names, unlike PublicUser). */
export const SocketUser = PublicUser.pick({ _id: true, username: true, role: true });
export type SocketUser = z.infer<typeof SocketUser>;

const requestId = z.string().optional();

/** The answer to the auth message. */
export const AuthenticatedEvent = z.strictObject({ event: z.literal('authenticated'), user: SocketUser });
export type AuthenticatedEvent = z.infer<typeof AuthenticatedEvent>;

/** The answer to a ping: `time` is the server's clock, epoch ms. */
export const PongEvent = z.strictObject({ event: z.literal('pong'), time: z.number(), requestId });
export type PongEvent = z.infer<typeof PongEvent>;

/** A refused message, a broken limit, or (before auth) the reason the socket closes. */
export const SocketErrorEvent = z.strictObject({
  event: z.literal('error'),
  message: z.string(),
  requestId,
  /** The symbol or channel the error is about. */
  symbol: z.string().optional(),
  /** The symbols of a batch the error is about. */
  symbols: z.array(z.string()).optional(),
});
/** The error a socket gets when it breaks a limit (each one a strike). */
export type SocketErrorEvent = z.infer<typeof SocketErrorEvent>;

export const UnsubscribedEvent = z.union([
  z.strictObject({ event: z.literal('unsubscribed'), symbol: z.string(), requestId }),
  z.strictObject({ event: z.literal('unsubscribed'), symbols: z.array(z.string()), requestId }),
]);
export type UnsubscribedEvent = z.infer<typeof UnsubscribedEvent>;

/** /ws/positions: a channel's pushes flow. */
export const SubscribedEvent = z.strictObject({ event: z.literal('subscribed'), symbol: z.string() });
export type SubscribedEvent = z.infer<typeof SubscribedEvent>;

/** Server → client control events (`markets` and `workspace` on /ws/market only). Data messages never carry an `event` key. */
export const ControlEvent = z.union([AuthenticatedEvent, PongEvent, SocketErrorEvent, UnsubscribedEvent, SubscribedEvent, MarketsEvent, WorkspaceEvent]);
export type ControlEvent = z.infer<typeof ControlEvent>;

/** Limits per socket: message size, message rate, and how much abuse closes it. */
export const SOCKET_LIMITS = {
  maxMessageBytes: MAX_SOCKET_MESSAGE_BYTES,
  /** Sustained messages per second… */
  messagesPerSecond: 50,
  /** …with bursts up to this many. */
  burst: 200,
  /** Broken limits within a minute that close the socket with 1008 (policy violation). */
  strikesToClose: 5,
  /**
   * A socket whose unsent output is over this many bytes when a reply or a push is due is
   * closed with 1008: a client that keeps asking but does not read cannot grow the server's
   * memory without bound. (Market ticks for a slow reader wait merged per symbol instead.)
   */
  maxUnsentBytes: 4 * 1024 * 1024,
} as const;
