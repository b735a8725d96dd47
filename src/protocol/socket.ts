// Control messages shared by both websockets (/ws/market and /ws/positions).
// Data messages (keyed by symbol) are defined with the feeds that produce them.
import { z } from './zod';

/** Largest message a client may send, in bytes (reference/browser-notes.md). */
export const MAX_SOCKET_MESSAGE_BYTES = 64 * 1024;

/** Close codes in the application range (4000–4999). */
export const SocketCloseCode = {
  /** Not authenticated, bad or revoked token, or the session ended. */
  unauthorized: 4401,
  /** No auth message within the allowed time. */
  authTimeout: 4408,
} as const;

export const AuthMessage = z.object({ action: z.literal('auth'), token: z.string().min(1).max(512) });
export const PingMessage = z.object({ action: z.literal('ping'), requestId: z.string().max(100).optional() });

/** Server → client control events. Data messages never carry an `event` key. */
export type ControlEvent =
  | { event: 'authenticated'; user: { _id: string; username: string; role: string } }
  | { event: 'pong'; time: number; requestId?: string }
  | { event: 'error'; message: string; requestId?: string; symbol?: string; symbols?: string[] }
  | { event: 'unsubscribed'; symbol: string; requestId?: string }
  | { event: 'unsubscribed'; symbols: string[]; requestId?: string };

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

/** The error a socket gets when it breaks a limit (each one a strike). */
export type SocketErrorEvent = Extract<ControlEvent, { event: 'error' }>;
