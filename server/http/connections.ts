// What a graceful stop does with the connections that hold no request. Node's server.close()
// (and Fastify's close of idle connections) leaves open a connection that has not sent a
// request yet: a browser's or a load balancer's connection opened ahead of use, or a client's
// whose request was cancelled before it went out. Node keeps such a connection until its
// headers timeout, so one of them held every stop to the whole grace period (then cut, exit 1).
// On close, this ends every connection that has nothing in flight and has read nothing since
// its last answer; the others end when their last answer has gone. A connection whose request
// head is arriving is one with a request in flight: its request is answered, then it ends.
import type { Server, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionTracker {
  /** Ends the connections with nothing in flight now, and the others as their answers finish. */
  closeUnused(): void;
}

interface Tracked {
  /** Answers not finished yet. */
  responses: Set<ServerResponse>;
  /** socket.bytesRead when its last answer finished (0 before any): more read since is a request arriving. */
  readWhenIdle: number;
}

export function trackConnections(server: Server): ConnectionTracker {
  const tracked = new Map<Socket, Tracked>();
  let closing = false;

  server.on('connection', (socket: Socket) => {
    if (closing) return void socket.destroy();
    tracked.set(socket, { responses: new Set(), readWhenIdle: 0 });
    socket.once('close', () => tracked.delete(socket));
  });
  // An upgraded socket (a websocket) is the websocket server's to close, with its own code.
  server.on('upgrade', (request: IncomingMessage) => tracked.delete(request.socket));
  // Before the app's own listener, which may answer at once.
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    const entry = tracked.get(socket);
    if (!entry) return;
    entry.responses.add(response);
    // Said in the answer (Connection: close), so the client sends no next request on it.
    if (closing) response.shouldKeepAlive = false;
    response.once('close', () => {
      entry.responses.delete(response);
      entry.readWhenIdle = socket.bytesRead;
      if (closing && entry.responses.size === 0) socket.end();
    });
  });

  return {
    closeUnused() {
      closing = true;
      for (const [socket, entry] of tracked) {
        for (const response of entry.responses) if (!response.headersSent) response.shouldKeepAlive = false;
        if (entry.responses.size === 0 && socket.bytesRead === entry.readWhenIdle) socket.destroy();
      }
    },
  };
}
