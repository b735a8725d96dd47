// A graceful stop of the server as `npm start` runs it (compiled, under node): on SIGTERM it
// stops accepting, tells every socket it restarts (1012), answers the request in flight, and
// exits 0.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SocketCloseCode } from '../../src/protocol/socket.js';
import { authenticate, DEMO, openSocket, signIn, waitForClose } from './helpers.js';
import { startServerProcess, type ServerProcess } from './serverProcess.js';

const root = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'visores-shutdown-'));
// Inside the project, where the bundle finds node_modules (packages are not bundled).
mkdirSync(path.join(root, 'build'), { recursive: true });
const buildDir = mkdtempSync(path.join(root, 'build', 'test-'));

/** Resolves with what `socket` receives until `pattern` is in it. */
function receiveUntil(socket: net.Socket, pattern: RegExp, what: string, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`Waited ${timeoutMs} ms for ${what}; got ${JSON.stringify(text)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (pattern.test(text)) {
        clearTimeout(timer);
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
  });
}

function exitOf(server: ServerProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const { child } = server;
  if (child.exitCode != null || child.signalCode != null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

describe('graceful shutdown of the compiled server', () => {
  let compiled: string;
  let server: ServerProcess | null = null;

  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-server.mjs', buildDir], { cwd: root, stdio: 'pipe' });
    compiled = path.join(buildDir, 'main.js');
  });
  afterAll(() => {
    if (server && server.child.exitCode == null && server.child.signalCode == null) server.child.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
    rmSync(buildDir, { recursive: true, force: true });
  });

  it('on SIGTERM closes sockets with 1012, answers the request in flight and exits 0', async () => {
    server = await startServerProcess({ DATA_DIR: path.join(work, 'data'), STATIC_DIR: path.join(work, 'no-client') }, compiled);
    const { token } = await signIn(server.baseUrl);
    const market = await openSocket(server.wsUrl('/ws/market'));
    await authenticate(market, token);

    // A sign-in whose body is not sent yet: with Expect: 100-continue the server says when it
    // has read the headers, so the request is surely in flight before the signal.
    const body = JSON.stringify(DEMO);
    const { port } = new URL(server.baseUrl);
    const http = net.connect({ host: '127.0.0.1', port: Number(port) });
    const continued = receiveUntil(http, /^HTTP\/1\.1 100 Continue\r\n\r\n/, 'the 100 Continue');
    http.write(
      `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await continued;

    // A connection opened ahead of use that never sends a request (a browser's preconnect):
    // it must not hold the stop to its grace period (which would end with exit code 1).
    const unused = net.connect({ host: '127.0.0.1', port: Number(port) });
    await new Promise<void>((resolve, reject) => unused.once('connect', resolve).once('error', reject));
    const unusedClosed = new Promise<void>((resolve) => unused.once('close', () => resolve()));
    unused.on('error', () => {});

    const exited = exitOf(server);
    server.child.kill('SIGTERM');
    const closed = await waitForClose(market);
    expect(closed.code).toBe(SocketCloseCode.serviceRestart);

    // The process is still answering what it had accepted.
    const answered = receiveUntil(http, /\r\n\r\n\{.*\}$/s, 'the answer to the sign-in in flight');
    http.write(body);
    const answer = await answered;
    expect(answer).toMatch(/HTTP\/1\.1 200 OK/);
    expect(answer).toContain('"status":"success"');

    // Neither the kept-alive connection of the answered request nor the unused one is left for
    // the client to close: the server ends both and exits 0, before the grace period.
    const httpClosed = new Promise<void>((resolve) => http.once('close', () => resolve()));
    expect(await exited).toEqual({ code: 0, signal: null });
    await Promise.all([unusedClosed, httpClosed]);
  });
});
