/**
 * The sandbox's connections, so that its close ends once its requests are answered.
 *
 * Node's `server.close()` (which Fastify's close calls, after closing the idle keep-alive
 * connections) waits for every connection to end. A connection that was opened but never carried
 * a request is not idle to Node: it is waiting for a request's headers and stays until the
 * headers timeout (60 s, checked every 30 s). HTTP clients open such connections: undici, after a
 * request it was running is aborted, opens a new connection for it and then drops the request
 * (nodejs/undici#5845) — which is what a Pix watch stopped mid-read did, and the sandbox's close
 * (the agent's stop in training, a spec's teardown) hung on it.
 *
 * So on close every connection with no request in flight is ended at once, one that arrives
 * meanwhile too, and one with a request in flight as soon as its answer is sent.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface SandboxConnections {
  /** Ends the connections with no request in flight now, and the others once their answer is sent. */
  closing(): void;
}

export function trackConnections(server: Server): SandboxConnections {
  /** Requests in flight, by connection. */
  const open = new Map<Socket, number>();
  let closing = false;
  const endIfIdle = (socket: Socket): void => {
    // end, not destroy: an answer just sent may still be on its way out.
    if (closing && (open.get(socket) ?? 0) === 0) socket.end(() => socket.destroy());
  };
  server.on('connection', (socket: Socket) => {
    open.set(socket, 0);
    socket.once('close', () => open.delete(socket));
    endIfIdle(socket);
  });
  server.on('request', (request, response) => {
    const socket = request.socket;
    open.set(socket, (open.get(socket) ?? 0) + 1);
    response.once('close', () => {
      if (!open.has(socket)) return;
      open.set(socket, Math.max(0, (open.get(socket) ?? 1) - 1));
      endIfIdle(socket);
    });
  });
  return {
    closing() {
      closing = true;
      for (const socket of open.keys()) endIfIdle(socket);
    },
  };
}
