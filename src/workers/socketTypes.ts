// The parts of WebSocket and of the timer functions the worker's sockets use, so tests can
// pass fakes (and Node's `ws` client fits too).

/**
 * A handler type checked bivariantly (the method-signature trick), so the browser's
 * `(this: WebSocket, ev: CloseEvent) => any` fits a handler of a narrower event shape.
 */
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: Handler<unknown> | null;
  onclose: Handler<{ code: number; reason: string }> | null;
  onerror: Handler<unknown> | null;
  onmessage: Handler<{ data: unknown }> | null;
}

export type SocketConstructor = new (url: string) => SocketLike;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

type TimerHandle = Parameters<typeof globalThis.clearTimeout>[0];

/** The global timers, looked up on each call so test fake timers apply. */
export const defaultTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as TimerHandle),
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as TimerHandle),
};
