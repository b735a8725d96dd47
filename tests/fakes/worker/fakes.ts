// Fakes for the worker's unit tests: a websocket whose server side the test drives, a
// fetch answering from a table of routes, and an event log that keeps what it was told.
// Only tests import this module.
import { createEventLog, type EventLog, type LogEntry } from '../../../src/workers/eventLog.js';
import type { FetchInit, FetchLike, FetchResponse } from '../../../src/shared/http.js';
import type { SocketLike } from '../../../src/workers/socketTypes.js';

const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

export class FakeSocket implements SocketLike {
  readyState = CONNECTING;
  /** What the client sent, parsed. */
  readonly sent: unknown[] = [];
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  onmessage: SocketLike['onmessage'] = null;
  closedByClient: { code?: number | undefined } | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== OPEN) throw new Error('InvalidStateError: the socket is not open');
    this.sent.push(JSON.parse(data));
  }

  close(code?: number): void {
    if (this.readyState >= CLOSING) return;
    this.closedByClient = { code };
    this.readyState = CLOSING;
    // Browsers fire close later, never inside close().
    queueMicrotask(() => this.finishClose(code ?? 1005));
  }

  // ----------------------------------------------------------------- server side
  accept(): void {
    this.readyState = OPEN;
    this.onopen?.({});
  }

  receive(message: unknown): void {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }

  /** A network failure: error, then close 1006. */
  fail(): void {
    this.onerror?.({ type: 'error' });
    this.finishClose(1006);
  }

  /** The server closes the connection. */
  drop(code = 1001): void {
    this.finishClose(code);
  }

  private finishClose(code: number): void {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    this.onclose?.({ code, reason: '' });
  }
}

/** A WebSocket constructor that records every socket it makes. */
export function fakeSocketFactory() {
  const sockets: FakeSocket[] = [];
  class TrackedSocket extends FakeSocket {
    constructor(url: string) {
      super(url);
      sockets.push(this);
    }
  }
  return { WebSocket: TrackedSocket, sockets, last: () => sockets.at(-1) };
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface FetchCall {
  method: string;
  /** The path after the base, with its query. */
  path: string;
  body: unknown;
  headers: Record<string, string>;
  credentials: FetchInit['credentials'];
}

/** A route answers a call (or throws, like fetch offline); unmatched calls answer 404. */
export type FakeRoute = (call: FetchCall) => FakeAnswer | Promise<FakeAnswer>;

export function fakeFetch(base: string, routes: Record<string, FakeRoute> = {}) {
  const calls: FetchCall[] = [];
  const fetch: FetchLike = async (url, init) => {
    if (!url.startsWith(base)) throw new Error(`fake fetch: unexpected base in ${url}`);
    const call: FetchCall = {
      method: init.method,
      path: url.slice(base.length),
      body: init.body === undefined ? undefined : JSON.parse(init.body),
      headers: init.headers,
      credentials: init.credentials,
    };
    calls.push(call);
    const route = routes[`${call.method} ${call.path}`];
    const answer = route ? await route(call) : { status: 404, body: { status: 'error', message: `No route ${call.method} ${call.path}` } };
    const headers = new Map(Object.entries(answer.headers ?? {}).map(([key, value]) => [key.toLowerCase(), value]));
    const response: FetchResponse = {
      status: answer.status,
      headers: { get: (name) => headers.get(name.toLowerCase()) ?? null },
      json: async () => {
        if (answer.body === undefined) throw new SyntaxError('Unexpected end of JSON input');
        return structuredClone(answer.body);
      },
    };
    return response;
  };
  return { fetch, calls, routes };
}

/** An event log that keeps quiet on the console and lets a test await an entry. */
export function recordingLog(): EventLog & { texts(): string[]; next(match: (entry: LogEntry) => boolean): Promise<LogEntry> } {
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const log = createEventLog({ console: quiet });
  return {
    ...log,
    texts: () => log.entries().map((entry) => entry.text),
    next: (match) =>
      new Promise((resolve) => {
        const stop = log.onEntry((entry) => {
          if (!match(entry)) return;
          stop();
          resolve(entry);
        });
      }),
  };
}
