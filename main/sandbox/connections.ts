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

/**
 * A connection's key, the same for its TCP socket ('connection') and, on HTTPS, the TLS socket
 * its requests arrive on: the client's address and port.
 */
function keyOf(socket: Socket): string {
  return `${socket.remoteAddress ?? ''}|${socket.remotePort ?? ''}`;
}

export function trackConnections(server: Server): SandboxConnections {
  /** Each connection's TCP socket and its requests in flight, by key. */
  const open = new Map<string, { readonly socket: Socket; readonly key: string; inFlight: number }>();
  let closing = false;
  const endIfIdle = (key: string): void => {
    const connection = open.get(key);
    if (!closing || connection === undefined || connection.inFlight > 0) return;
    // end, not destroy: an answer just sent may still be on its way out.
    connection.socket.end(() => connection.socket.destroy());
  };
  server.on('connection', (socket: Socket) => {
    const key = keyOf(socket);
    const connection = { socket, key, inFlight: 0 };
    open.set(key, connection);
    socket.once('close', () => {
      if (open.get(key) === connection) open.delete(key);
    });
    endIfIdle(key);
  });
  server.on('request', (request, response) => {
    const connection = open.get(keyOf(request.socket));
    if (connection === undefined) return;
    connection.inFlight++;
    response.once('close', () => {
      connection.inFlight--;
      endIfIdle(connection.key);
    });
  });
  return {
    closing() {
      closing = true;
      for (const key of open.keys()) endIfIdle(key);
    },
  };
}
