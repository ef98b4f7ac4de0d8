/**
 * One TCP connection attempt with a deadline, shared by every device reached over the network
 * (PINPADs, receipt printers). Errors are left raw — the socket's own (ECONNREFUSED…) or a
 * ConnectTimeout — so each transport words them for its device.
 */
import net from 'node:net';

/** The peer did not accept the connection within the deadline. */
export class ConnectTimeout extends Error {
  override readonly name = 'ConnectTimeout';
}

export function connectSocket(host: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise<net.Socket>((resolve, reject) => {
    const socket = net.createConnection({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new ConnectTimeout(`no connection to ${host}:${port} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    });
  });
}
