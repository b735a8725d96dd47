// HTTP and websocket helpers shared by the API tests. Sockets get an inbox from the moment
// they are created, so no message or close event is missed between two awaits.
import type { IncomingMessage } from 'node:http';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { ErrorResponse, LoginResponse, type PublicUser } from '../../src/protocol/auth.js';
import { PositionsResponse, WarmingUpResponse, type PositionsSnapshot } from '../../src/protocol/broker.js';
import { AuthenticatedEvent, PongEvent } from '../../src/protocol/socket.js';
import { z } from '../../src/protocol/zod.js';

export const DEMO = { username: 'demo', password: 'demo1234' } as const;
export const ADMIN = { username: 'admin', password: 'admin1234' } as const;

/** How long a helper waits for an event before failing with a clear message. */
const WAIT_MS = 5_000;

// ---------------------------------------------------------------- shapes

/**
 * Fails the test, listing zod's issues with their paths, when `body` does not parse with the
 * protocol's (strict) schema: a field missing, of another type, or one the schema does not
 * name. The schema must describe the body as it is: parsing may not change it (no default
 * filled in, no string trimmed). Returns the body, typed by the schema.
 */
export function expectShape<S extends z.ZodType>(schema: S, body: unknown, what = 'the body'): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => `  - ${issue.path.map(String).join('.') || '(root)'}: ${issue.message} [${issue.code}]`);
    expect.fail(`${what} does not match its schema:\n${issues.join('\n')}\n${JSON.stringify(body).slice(0, 2000)}`);
  }
  expect(result.data, `parsing ${what} changed it: the schema does not describe it as sent`).toEqual(body);
  return body as z.output<S>;
}

// ---------------------------------------------------------------- HTTP

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The raw body, for checks on what leaves the server (no stack traces). */
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
}

export interface RequestOptions {
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is, with content-type application/json unless headers say otherwise. */
  raw?: string;
  /** Sent chunk by chunk, without a Content-Length. */
  stream?: ReadableStream<Uint8Array>;
  token?: string;
  headers?: Record<string, string>;
}

export async function request(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  let body: string | ReadableStream<Uint8Array> | undefined;
  if (options.json !== undefined) body = JSON.stringify(options.json);
  if (options.raw !== undefined) body = options.raw;
  if (options.stream !== undefined) body = options.stream;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  Object.assign(headers, options.headers);

  // Node's fetch sends a stream body only in half-duplex mode.
  const init: RequestInit = { method, headers, body, ...(options.stream ? { duplex: 'half' } : {}) };
  const response = await fetch(baseUrl + path, init);
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

export function postJson(baseUrl: string, path: string, json: unknown, options: Omit<RequestOptions, 'json'> = {}) {
  return request(baseUrl, 'POST', path, { ...options, json });
}

export function login(baseUrl: string, username: string, password: string): Promise<ApiResponse> {
  return postJson(baseUrl, '/api/login', { username, password });
}

/** Signs in and returns the token and user; fails the test when sign-in does not succeed. */
export async function signIn(baseUrl: string, credentials: { username: string; password: string } = DEMO): Promise<{ token: string; user: PublicUser }> {
  const response = await login(baseUrl, credentials.username, credentials.password);
  expect(response.status, response.text).toBe(200);
  const { token, user } = expectShape(LoginResponse, response.body);
  return { token, user };
}

export function checkToken(baseUrl: string, token: string): Promise<ApiResponse> {
  return postJson(baseUrl, '/api/checkToken', { token });
}

export function logout(baseUrl: string, token: string | null, log?: string): Promise<ApiResponse> {
  return postJson(baseUrl, '/api/logout', log === undefined ? {} : { log }, token ? { token } : {});
}

/** Lines of a stack trace or paths of source files: none may reach a client. */
export function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(/\bat\s+[\w.<>]+\s+\(/); // "at fn (file:1:2)"
  expect(text).not.toMatch(/\n\s+at\s/);
  expect(text).not.toMatch(/:\d+:\d+/); // file:line:column
  expect(text).not.toMatch(/[\w-]+\.(?:[cm]?js|ts)\b/); // source file names
  expect(text).not.toContain('node_modules');
  expect(text).not.toContain(process.cwd());
  expect(text).not.toMatch(/"stack"/);
}

/** A JSON `{status:'error', message}` with the given status and a message the UI can show. */
export function expectErrorResponse(response: ApiResponse, status: number): string {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const { message } = expectShape(ErrorResponse, response.body, `the ${status} body`);
  expect(message.trim()).not.toBe('');
  expectNoStackTrace(response.text);
  return message;
}

// ---------------------------------------------------------------- signed-in calls

export type CallOptions = Omit<RequestOptions, 'json' | 'token'>;

/** Calls the API as one signed-in user (or as nobody with a null token). */
export interface Api {
  get(path: string, options?: CallOptions): Promise<ApiResponse>;
  post(path: string, json?: unknown, options?: CallOptions): Promise<ApiResponse>;
  put(path: string, json?: unknown, options?: CallOptions): Promise<ApiResponse>;
  del(path: string, options?: CallOptions): Promise<ApiResponse>;
}

export function api(server: { baseUrl: string }, token: string | null): Api {
  const call = (method: string, path: string, json: unknown, options: CallOptions = {}) =>
    request(server.baseUrl, method, path, {
      ...options,
      ...(json === undefined ? {} : { json }),
      ...(token ? { token } : {}),
    });
  return {
    get: (path, options) => call('GET', path, undefined, options),
    post: (path, json, options) => call('POST', path, json, options),
    put: (path, json, options) => call('PUT', path, json, options),
    del: (path, options) => call('DELETE', path, undefined, options),
  };
}

/** Expects the status (200 unless told) and a `{status:'success'|'ok'}` body; returns the body. */
export function expectSuccess<T = Record<string, unknown>>(response: ApiResponse, status = 200): T {
  expect(response.status, response.text).toBe(status);
  expect(response.body, response.text).toMatchObject({ status: expect.stringMatching(/^(?:success|ok)$/) });
  return response.body as T;
}

/** Expects the status (200 unless told), a JSON body and that the body has the schema's shape; returns it typed. */
export function expectBody<S extends z.ZodType>(response: ApiResponse, schema: S, status = 200): z.output<S> {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return expectShape(schema, response.body, `the ${status} body`);
}

/** A signed-in user with their token and a ready `api`. */
export interface Session {
  token: string;
  user: PublicUser;
  api: Api;
  /** The password it signed in with. */
  password: string;
}

export async function session(server: { baseUrl: string }, credentials: { username: string; password: string } = DEMO): Promise<Session> {
  const { token, user } = await signIn(server.baseUrl, credentials);
  return { token, user, api: api(server, token), password: credentials.password };
}

let createdUsers = 0;

/** Creates a user through POST /api/admin/users (as the admin token given) and signs it in. */
export async function createUser(
  server: { baseUrl: string },
  adminToken: string,
  fields: { username?: string; password?: string; firstName?: string; lastName?: string; role?: 'user' | 'admin' } = {},
): Promise<Session> {
  createdUsers += 1;
  const username = fields.username ?? `user${createdUsers}_${Math.random().toString(36).slice(2, 8)}`;
  const password = fields.password ?? `pass-${username}`;
  const response = await api(server, adminToken).post('/api/admin/users', { firstName: 'Otro', lastName: 'Usuario', ...fields, username, password });
  expectSuccess(response, 201);
  return session(server, { username, password });
}

// ---------------------------------------------------------------- WebSocket

export interface CloseInfo {
  code: number;
  reason: string;
}

interface Inbox {
  messages: unknown[];
  /**
   * /ws/market's `markets` events (each market's state), kept apart from the other messages:
   * they come after auth and whenever a feed changes, so a test that reads messages in order
   * reads the answers it waits for, and a test about the markets reads these (marketsEvents).
   */
  markets: unknown[];
  /** /ws/market's `workspace` events (the user's workspace changed elsewhere), apart for the same reason. */
  workspace: unknown[];
  closed: CloseInfo | null;
  /** Called on every message or close; each waiter decides whether it is satisfied. */
  listeners: Set<() => void>;
}

const inboxes = new WeakMap<WebSocket, Inbox>();

function inboxOf(socket: WebSocket): Inbox {
  const inbox = inboxes.get(socket);
  if (!inbox) throw new Error('This socket was not opened with openSocket()');
  return inbox;
}

/** The server refused the upgrade with an HTTP response. */
export class SocketRefused extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: string,
  ) {
    super(`Socket upgrade refused with HTTP ${statusCode}: ${body}`);
    this.name = 'SocketRefused';
  }
}

function readBody(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

export interface OpenSocketOptions {
  /** Origin header of the upgrade request; none is sent when absent (as from a non-browser client). */
  origin?: string;
}

/** Opens a socket and resolves once it is open; rejects with SocketRefused when the upgrade is refused. */
export function openSocket(url: string, options: OpenSocketOptions = {}): Promise<WebSocket> {
  const socket = new WebSocket(url, options.origin ? { origin: options.origin } : {});
  const inbox: Inbox = { messages: [], markets: [], workspace: [], closed: null, listeners: new Set() };
  inboxes.set(socket, inbox);
  const notify = () => {
    for (const listener of [...inbox.listeners]) listener();
  };
  socket.on('message', (data, isBinary) => {
    const text = isBinary ? '' : data.toString();
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      message = { unparseable: text };
    }
    const event = typeof message === 'object' && message != null ? (message as { event?: unknown }).event : undefined;
    if (event === 'markets') inbox.markets.push(message);
    else if (event === 'workspace') inbox.workspace.push(message);
    else inbox.messages.push(message);
    notify();
  });
  socket.on('close', (code, reason) => {
    inbox.closed = { code, reason: reason.toString('utf8') };
    notify();
  });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`Socket ${url} did not open within ${WAIT_MS} ms`));
    }, WAIT_MS);
    socket.once('open', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('unexpected-response', (_request, response) => {
      clearTimeout(timer);
      const statusCode = response.statusCode ?? 0;
      void readBody(response).then((body) => {
        socket.terminate();
        reject(new SocketRefused(statusCode, body));
      });
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function waitFor<T>(socket: WebSocket, what: string, check: (inbox: Inbox) => T | undefined, timeoutMs = WAIT_MS): Promise<T> {
  const inbox = inboxOf(socket);
  return new Promise((resolve, reject) => {
    const listener = () => {
      let result: T | undefined;
      try {
        result = check(inbox);
      } catch (error) {
        done();
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (result !== undefined) {
        done();
        resolve(result);
      }
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      inbox.listeners.delete(listener);
    };
    inbox.listeners.add(listener);
    listener();
  });
}

/** The next message the server sent (in order); fails if the socket closes first. */
export function nextMessage(socket: WebSocket, timeoutMs = WAIT_MS): Promise<unknown> {
  return waitFor(
    socket,
    'a socket message',
    (inbox) => {
      if (inbox.messages.length > 0) return { message: inbox.messages.shift() };
      if (inbox.closed) {
        throw new Error(`Socket closed (${inbox.closed.code} ${inbox.closed.reason}) before a message arrived`);
      }
      return undefined;
    },
    timeoutMs,
  ).then(({ message }) => message);
}

/**
 * The next event of one of a market socket's own queues (`markets`, `workspace`) that satisfies
 * `matches` (the first one that does, of those received and not yet taken); those before it are taken too.
 */
function nextQueued(
  socket: WebSocket,
  queue: 'markets' | 'workspace',
  what: string,
  matches: (event: unknown) => boolean,
  timeoutMs: number,
): Promise<unknown> {
  return waitFor(
    socket,
    what,
    (inbox) => {
      const events = inbox[queue];
      while (events.length > 0) {
        const event = events.shift();
        if (matches(event)) return { event };
      }
      if (inbox.closed) throw new Error(`Socket closed (${inbox.closed.code} ${inbox.closed.reason}) before ${what}`);
      return undefined;
    },
    timeoutMs,
  ).then(({ event }) => event);
}

/**
 * The next `markets` event of a market socket that satisfies `matches` (the first one that does,
 * of those received and not yet taken); those before it are taken too.
 */
export function nextMarketsEvent(socket: WebSocket, what: string, matches: (event: unknown) => boolean = () => true, timeoutMs = WAIT_MS): Promise<unknown> {
  return nextQueued(socket, 'markets', `a markets event: ${what}`, matches, timeoutMs);
}

/** The next `workspace` event of a market socket (the oldest received and not yet taken). */
export function nextWorkspaceEvent(socket: WebSocket, timeoutMs = WAIT_MS): Promise<unknown> {
  return nextQueued(socket, 'workspace', 'a workspace event', () => true, timeoutMs);
}

/** The `workspace` events a market socket received and no test took yet (taken now). */
export function takeWorkspaceEvents(socket: WebSocket): unknown[] {
  return inboxOf(socket).workspace.splice(0);
}

/** Resolves with the close code and reason, whenever the close happened (failing after `timeoutMs`). */
export function waitForClose(socket: WebSocket, timeoutMs = WAIT_MS): Promise<CloseInfo> {
  return waitFor(socket, 'the socket to close', (inbox) => inbox.closed ?? undefined, timeoutMs);
}

export function sendJson(socket: WebSocket, message: unknown): void {
  socket.send(JSON.stringify(message));
}

/** Sends the auth message and expects the 'authenticated' answer; returns it. */
export async function authenticate(socket: WebSocket, token: string): Promise<AuthenticatedEvent> {
  sendJson(socket, { action: 'auth', token });
  return expectShape(AuthenticatedEvent, await nextMessage(socket), 'the answer to auth');
}

/** Sends a ping and expects the pong carrying the same requestId: proof the socket still works. */
export async function expectPong(socket: WebSocket, requestId: string): Promise<void> {
  sendJson(socket, { action: 'ping', requestId });
  const message = expectShape(PongEvent, await nextMessage(socket), 'the answer to ping');
  expect(message.requestId).toBe(requestId);
  expect(socket.readyState).toBe(WebSocket.OPEN);
}

/** Opens and authenticates a socket. */
export async function openAuthenticatedSocket(url: string, token: string, options: OpenSocketOptions = {}): Promise<WebSocket> {
  const socket = await openSocket(url, options);
  await authenticate(socket, token);
  return socket;
}

/** The next `count` messages the server sent, in order. */
export async function nextMessages(socket: WebSocket, count: number): Promise<unknown[]> {
  const messages: unknown[] = [];
  while (messages.length < count) messages.push(await nextMessage(socket));
  return messages;
}

// ---------------------------------------------------------------- waiting

/**
 * Calls `probe` until it returns something other than null or undefined, pausing briefly
 * between calls; fails with `what` after `timeoutMs`. For state that settles on the
 * server's own timers, without fixed sleeps.
 */
export async function pollUntil<T>(what: string, probe: () => Promise<T | null | undefined> | T | null | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value != null) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A watched account's positions once its watch has warmed up (202 {status:'warming_up'} until then). */
export async function positionsOf(user: Session, account: string, timeoutMs?: number): Promise<PositionsSnapshot> {
  return pollUntil(
    `positions of ${account}`,
    async () => {
      const response = await user.api.get(`/api/accounts/${account}/positions`);
      if (response.status === 202) {
        expectBody(response, WarmingUpResponse, 202);
        return null;
      }
      return expectBody(response, PositionsResponse);
    },
    timeoutMs,
  );
}

/** Reads messages in order until one matches; returns it and the ones read before it. */
export async function nextMessageWhere(
  socket: WebSocket,
  matches: (message: unknown) => boolean,
  timeoutMs = WAIT_MS,
): Promise<{ message: unknown; skipped: unknown[] }> {
  const skipped: unknown[] = [];
  for (;;) {
    const message = await nextMessage(socket, timeoutMs);
    if (matches(message)) return { message, skipped };
    skipped.push(message);
  }
}
