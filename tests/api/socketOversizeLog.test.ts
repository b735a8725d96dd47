// A socket message over the hard cap (1 MB) closes the socket with 1009. That is the client's
// doing, not a server fault: the server logs it once, at warn level, never at error level.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuthenticatedSocket, openSocket, signIn, waitForClose } from './helpers.js';
import { startServerProcess, type ServerProcess } from './serverProcess.js';

interface LogLine {
  level: number;
  msg?: string;
}

const WARN = 40;
const ERROR = 50;

describe('an oversized socket message', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-wslog-'));
  let server: ServerProcess;
  let output = '';
  beforeAll(async () => {
    server = await startServerProcess({ DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'no-client'), SIM_TICKS_PER_SECOND: '0' });
    server.child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await new Promise((resolve) => server?.child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  const logLines = (): LogLine[] =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);

  it.each([['/ws/market'], ['/ws/positions']])('on %s closes with 1009 and logs one warning, no error', async (socketPath) => {
    const { token } = await signIn(server.baseUrl);
    const before = logLines().length;
    const authenticated = await openAuthenticatedSocket(server.wsUrl(socketPath), token);
    authenticated.send('x'.repeat(1.5 * 1024 * 1024));
    expect((await waitForClose(authenticated)).code).toBe(1009);
    // And before authentication.
    const anonymous = await openSocket(server.wsUrl(socketPath));
    anonymous.send('x'.repeat(1.5 * 1024 * 1024));
    expect((await waitForClose(anonymous)).code).toBe(1009);
    // Once the server has written both sockets' warnings, nothing else may be among its lines.
    await expect
      .poll(
        () =>
          logLines()
            .slice(before)
            .filter((line) => line.level === WARN).length,
        { timeout: 5_000 },
      )
      .toBeGreaterThanOrEqual(2);
    const lines = logLines().slice(before);
    expect(
      lines.filter((line) => line.level >= ERROR),
      output,
    ).toEqual([]);
    expect(lines.filter((line) => line.level === WARN).length, output).toBe(2);
  });

  it('closes every one of many oversized sockets at once with 1009, not a reset (1006)', async () => {
    // The server used to terminate the socket on the error, resetting the connection while the
    // rest of the message was still arriving: the client could lose the close frame (CI saw 1006).
    const { token } = await signIn(server.baseUrl);
    const sockets = await Promise.all(Array.from({ length: 12 }, () => openAuthenticatedSocket(server.wsUrl('/ws/positions'), token)));
    const closes = sockets.map((socket) => waitForClose(socket));
    for (const socket of sockets) socket.send('x'.repeat(1.5 * 1024 * 1024));
    expect((await Promise.all(closes)).map((close) => close.code)).toEqual(sockets.map(() => 1009));
  });
});
