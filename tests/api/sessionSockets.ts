// A session's two sockets (market and positions), as the session-end tests open and watch them.
import { expect } from 'vitest';
import type WebSocket from 'ws';
import { SocketCloseCode } from '../../src/protocol/socket.js';
import { openAuthenticatedSocket, waitForClose } from './helpers.js';

// The promise is 2 s (a sweep about once a second, an event at once); the tests wait for the
// state with room for a loaded machine rather than time it (docs/security.md gives the figure).
export const ENDED_WITHIN_MS = 10_000;
const SOCKET_PATHS = ['/ws/market', '/ws/positions'] as const;

/** Both sockets of a server, authenticated with `token`; each also goes into `opened` (to terminate after the test). */
export async function openSessionSockets(server: { wsUrl(socketPath: string): string }, token: string, opened: WebSocket[]): Promise<WebSocket[]> {
  const sockets = await Promise.all(SOCKET_PATHS.map((socketPath) => openAuthenticatedSocket(server.wsUrl(socketPath), token)));
  opened.push(...sockets);
  return sockets;
}

/** Each socket closes with 4401 «Sesión finalizada». */
export async function expectEnded(sockets: WebSocket[]): Promise<void> {
  for (const socket of sockets) {
    expect(await waitForClose(socket, ENDED_WITHIN_MS)).toEqual({ code: SocketCloseCode.unauthorized, reason: 'Sesión finalizada' });
  }
}
