import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SocketCloseCode } from '../../src/protocol/socket.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { tooManySocketsMessage } from '../../server/ws/endpoint.js';
import {
  ADMIN,
  SocketRefused,
  authenticate,
  expectPong,
  logout,
  nextMessage,
  openAuthenticatedSocket,
  openSocket,
  pollUntil,
  sendJson,
  signIn,
  waitForClose,
} from './helpers.js';

const SOCKET_PATHS = ['/ws/market', '/ws/positions'] as const;
const TRUSTED_ORIGIN = 'https://app.visores.example';

describe.each(databaseTargets())('websockets on $name', (target) => {
  describe.each(SOCKET_PATHS)('%s', (socketPath) => {
    let server: TestServer;
    let url: string;
    beforeEach(async () => {
      server = await startServer(target, { allowedOrigins: [TRUSTED_ORIGIN] });
      url = server.wsUrl(socketPath);
    });
    afterEach(async () => {
      await server.close();
    });

    describe('authentication', () => {
      it('authenticates with {action:"auth", token} and answers the user', async () => {
        const { token, user } = await signIn(server.baseUrl);
        const socket = await openSocket(url);
        sendJson(socket, { action: 'auth', token });
        expect(await nextMessage(socket)).toEqual({
          event: 'authenticated',
          user: { _id: user._id, username: 'demo', role: 'user' },
        });
        socket.close();
      });

      it('answers the admin role to the admin', async () => {
        const { token } = await signIn(server.baseUrl, ADMIN);
        const socket = await openSocket(url);
        expect(await authenticate(socket, token)).toMatchObject({ user: { username: 'admin', role: 'admin' } });
        socket.close();
      });

      it('refuses a first message that is not auth: error message, then close 4401', async () => {
        const socket = await openSocket(url);
        sendJson(socket, { action: 'ping', requestId: 'early' });
        expect(await nextMessage(socket)).toMatchObject({ event: 'error', message: expect.any(String) });
        expect((await waitForClose(socket)).code).toBe(SocketCloseCode.unauthorized);
      });

      it('refuses a first message that is not JSON with close 4401', async () => {
        const socket = await openSocket(url);
        socket.send('hello');
        expect(await nextMessage(socket)).toMatchObject({ event: 'error' });
        expect((await waitForClose(socket)).code).toBe(SocketCloseCode.unauthorized);
      });

      it('refuses a bad token with close 4401', async () => {
        const socket = await openSocket(url);
        sendJson(socket, { action: 'auth', token: 'not-a-real-token' });
        expect(await nextMessage(socket)).toMatchObject({ event: 'error' });
        expect((await waitForClose(socket)).code).toBe(SocketCloseCode.unauthorized);
      });

      it('refuses the token of a session that has ended', async () => {
        const { token } = await signIn(server.baseUrl);
        expect((await logout(server.baseUrl, token)).status).toBe(200);
        const socket = await openSocket(url);
        sendJson(socket, { action: 'auth', token });
        expect((await waitForClose(socket)).code).toBe(SocketCloseCode.unauthorized);
      });

      it('closes a socket that does not authenticate in time with 4408', async () => {
        const quick = await startServer(target, { socketAuthTimeoutMs: 300 });
        try {
          const socket = await openSocket(quick.wsUrl(socketPath));
          expect(await nextMessage(socket)).toMatchObject({ event: 'error' });
          expect((await waitForClose(socket)).code).toBe(SocketCloseCode.authTimeout);
        } finally {
          await quick.close();
        }
      });

      it('does not time out a socket that authenticated in time', async () => {
        // Long enough for the auth round trip on a busy machine.
        const quick = await startServer(target, { socketAuthTimeoutMs: 1000 });
        try {
          const { token } = await signIn(quick.baseUrl);
          const socket = await openAuthenticatedSocket(quick.wsUrl(socketPath), token);
          // A socket opened later and never authenticated times out after this one would have.
          const latecomer = await openSocket(quick.wsUrl(socketPath));
          expect((await waitForClose(latecomer)).code).toBe(SocketCloseCode.authTimeout);
          await expectPong(socket, 'after-timeout');
          socket.close();
        } finally {
          await quick.close();
        }
      });
    });

    describe('after authentication', () => {
      let socket: WebSocket;
      let token: string;
      beforeEach(async () => {
        ({ token } = await signIn(server.baseUrl));
        socket = await openAuthenticatedSocket(url, token);
      });
      afterEach(() => {
        socket.terminate();
      });

      it('answers a ping with a pong carrying the requestId and the server time', async () => {
        sendJson(socket, { action: 'ping', requestId: 'r1' });
        expect(await nextMessage(socket)).toEqual({ event: 'pong', requestId: 'r1', time: server.clock.now() });
      });

      it('answers malformed JSON with an error and stays open', async () => {
        socket.send('{"action": "ping"');
        expect(await nextMessage(socket)).toMatchObject({ event: 'error', message: expect.any(String) });
        await expectPong(socket, 'r2');
      });

      it('answers a message that is not an object with an error and stays open', async () => {
        socket.send('[1, 2, 3]');
        expect(await nextMessage(socket)).toMatchObject({ event: 'error' });
        await expectPong(socket, 'r3');
      });

      it('answers an unknown action with an error naming it and stays open', async () => {
        sendJson(socket, { action: 'dance', requestId: 'd1' });
        const message = await nextMessage(socket);
        expect(message).toMatchObject({ event: 'error', requestId: 'd1', message: expect.stringContaining('dance') });
        await expectPong(socket, 'r4');
      });

      it('answers a second auth with an error and stays open', async () => {
        sendJson(socket, { action: 'auth', token });
        expect(await nextMessage(socket)).toMatchObject({ event: 'error' });
        await expectPong(socket, 'r5');
      });

      it('is closed with 4401 when its session logs out, and other sessions stay open', async () => {
        const other = await signIn(server.baseUrl);
        const otherSocket = await openAuthenticatedSocket(url, other.token);
        try {
          expect((await logout(server.baseUrl, token)).status).toBe(200);
          expect((await waitForClose(socket)).code).toBe(SocketCloseCode.unauthorized);
          await expectPong(otherSocket, 'still-here');
        } finally {
          otherSocket.terminate();
        }
      });
    });

    describe('Origin check at the upgrade', () => {
      it('refuses another site with 403', async () => {
        const refusal = await openSocket(url, { origin: 'http://evil.example' }).then(
          () => null,
          (error: unknown) => error,
        );
        expect(refusal).toBeInstanceOf(SocketRefused);
        expect((refusal as SocketRefused).statusCode).toBe(403);
      });

      it('refuses a look-alike of the server origin on another port', async () => {
        const port = Number(new URL(server.baseUrl).port);
        await expect(openSocket(url, { origin: `http://127.0.0.1:${port + 1}` })).rejects.toMatchObject({ statusCode: 403 });
      });

      it("accepts the server's own origin", async () => {
        const { token } = await signIn(server.baseUrl);
        const socket = await openSocket(url, { origin: server.baseUrl });
        await authenticate(socket, token);
        await expectPong(socket, 'own');
        socket.close();
      });

      it('accepts an origin listed in allowedOrigins', async () => {
        const { token } = await signIn(server.baseUrl);
        const socket = await openSocket(url, { origin: TRUSTED_ORIGIN });
        await authenticate(socket, token);
        await expectPong(socket, 'trusted');
        socket.close();
      });
    });
  });

  describe('sockets per user', () => {
    const MAX = 4;
    let server: TestServer;
    const opened: WebSocket[] = [];
    beforeEach(async () => {
      server = await startServer(target, { socketsPerUser: MAX });
    });
    afterEach(async () => {
      for (const socket of opened.splice(0)) socket.terminate();
      await server.close();
    });
    const open = async (socketPath: string) => {
      const socket = await openSocket(server.wsUrl(socketPath));
      opened.push(socket);
      return socket;
    };

    it('refuses a socket past SOCKETS_PER_USER of one user in the process (both paths and every session counted), with 4429 and the reason', async () => {
      const first = await signIn(server.baseUrl);
      const second = await signIn(server.baseUrl);
      // Two sessions of demo, each with both sockets: the cap is the user's, not the session's.
      for (const { token } of [first, second]) for (const socketPath of SOCKET_PATHS) await authenticate(await open(socketPath), token);
      const message = tooManySocketsMessage(MAX);
      expect(message).toBe('Demasiadas conexiones abiertas de este usuario (máximo 4): cierre otras pestañas o dispositivos');
      for (const socketPath of SOCKET_PATHS) {
        const refused = await open(socketPath);
        sendJson(refused, { action: 'auth', token: first.token });
        expect(await nextMessage(refused)).toEqual({ event: 'error', message });
        expect(await waitForClose(refused)).toEqual({ code: SocketCloseCode.tooManySockets, reason: message });
      }
      // Another user is not held back by demo's sockets.
      const admin = await signIn(server.baseUrl, ADMIN);
      const adminSocket = await openAuthenticatedSocket(server.wsUrl('/ws/market'), admin.token);
      opened.push(adminSocket);
      await expectPong(adminSocket, 'admin');
      // One of demo's closes: a new one fits again.
      opened[0]!.close();
      await waitForClose(opened[0]!);
      const userId = first.user._id;
      await pollUntil('the closed socket to leave the count', () => (server.app.ctx.sockets.countOfUser(userId) < MAX ? true : null));
      const again = await open('/ws/positions');
      await authenticate(again, second.token);
      await expectPong(again, 'fits');
    });

    it('answers a socket past the cap after the refusal pause, handling nothing it sends meanwhile', async () => {
      const pauseMs = 300;
      const held = await startServer(target, { socketsPerUser: 1, refusalPauseMs: pauseMs });
      try {
        const { token } = await signIn(held.baseUrl);
        const kept = await openSocket(held.wsUrl('/ws/market'));
        opened.push(kept);
        await authenticate(kept, token);
        const refused = await openSocket(held.wsUrl('/ws/market'));
        opened.push(refused);
        const sent = performance.now();
        sendJson(refused, { action: 'auth', token });
        sendJson(refused, { action: 'ping', requestId: 'meanwhile' });
        expect(await nextMessage(refused)).toEqual({ event: 'error', message: tooManySocketsMessage(1) });
        // A timer never fires early; the 1 ms is performance.now()'s rounding against the timer's.
        expect(performance.now() - sent).toBeGreaterThanOrEqual(pauseMs - 1);
        expect(await waitForClose(refused)).toEqual({ code: SocketCloseCode.tooManySockets, reason: tooManySocketsMessage(1) });
      } finally {
        await held.close();
      }
    });
  });
});
