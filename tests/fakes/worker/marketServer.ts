// A scripted market server for unit tests: each openSocket() call is a connection the test
// drives from the server's side (accept, push messages, drop).
import type { OpenSocket, SocketHandle, SocketHandlers } from '../../../src/workers/socketTransport.js';

export type Sent = Record<string, unknown>;

export class FakeSocket implements SocketHandle {
  readonly sent: Sent[] = [];
  closedByClient: { code?: number; reason?: string } | null = null;

  constructor(
    readonly url: string,
    private readonly handlers: SocketHandlers,
  ) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data) as Sent);
  }

  close(code?: number, reason?: string): void {
    this.closedByClient = { code, reason };
  }

  /** Opens, checks the auth message and authenticates. */
  accept(user = { _id: 'u1', username: 'demo', role: 'user' }): void {
    this.handlers.open();
    const auth = this.sent.at(-1);
    if (auth?.action !== 'auth') throw new Error(`expected auth first, got ${JSON.stringify(auth)}`);
    this.push({ event: 'authenticated', user });
  }

  push(message: unknown): void {
    this.handlers.message(JSON.stringify(message));
  }

  drop(code = 1006, reason = ''): void {
    this.handlers.close(code, reason);
  }

  /** Sent messages with this action. */
  actions(action: string): Sent[] {
    return this.sent.filter((message) => message.action === action);
  }
}

export function createFakeServer() {
  const sockets: FakeSocket[] = [];
  const openSocket: OpenSocket = (url, handlers) => {
    const socket = new FakeSocket(url, handlers);
    sockets.push(socket);
    return socket;
  };
  return {
    openSocket,
    sockets,
    get current(): FakeSocket {
      const socket = sockets.at(-1);
      if (!socket) throw new Error('no socket opened');
      return socket;
    },
  };
}

/** A logger that remembers what it was told. */
export function createTestLog() {
  const lines: string[] = [];
  const record = (...args: unknown[]) => lines.push(args.map(String).join(' '));
  return { lines, info: record, warn: record, error: record };
}
