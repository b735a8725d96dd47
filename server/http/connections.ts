// What a graceful stop does with the connections that hold no request. Node's server.close()
// (and Fastify's close of idle connections) leaves open a connection that has not sent a
// request yet: a browser's or a load balancer's connection opened ahead of use, or a client's
// whose request was cancelled before it went out. Node keeps such a connection until its
// headers timeout, so one of them held every stop to the whole grace period (then cut, exit 1).
// On close, this ends every connection with no request in flight, and each of the others when
// its last answer has gone.
import type { Server, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionTracker {
  /** Ends the connections with nothing in flight now, and the others as their answers finish. */
  closeUnused(): void;
}

export function trackConnections(server: Server): ConnectionTracker {
  /** Requests in flight on each open connection (0: none yet, or all answered). */
  const inFlight = new Map<Socket, number>();
  let closing = false;

  server.on('connection', (socket: Socket) => {
    if (closing) return void socket.destroy();
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  // An upgraded socket (a websocket) is the websocket server's to close, with its own code.
  server.on('upgrade', (request: IncomingMessage) => inFlight.delete(request.socket));
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    if (!inFlight.has(socket)) return;
    inFlight.set(socket, inFlight.get(socket)! + 1);
    response.once('close', () => {
      const count = inFlight.get(socket);
      if (count === undefined) return;
      inFlight.set(socket, count - 1);
      if (closing && count === 1) socket.end();
    });
  });

  return {
    closeUnused() {
      closing = true;
      for (const [socket, count] of inFlight) if (count === 0) socket.destroy();
    },
  };
}
