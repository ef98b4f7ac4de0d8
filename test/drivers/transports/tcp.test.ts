import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TcpTransport, backoffDelayMs, formatTcpAddress } from '../../../drivers/transports/tcp.js';
import type { TransportCloseInfo } from '../../../drivers/transports/transport.js';
import { CLOSED_PORT } from '../../helpers/closed-port.js';

const HOST = '127.0.0.1';
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A loopback server; `sockets` are its accepted connections. */
async function startServer(
  port = 0,
  onConnection: (socket: net.Socket) => void = (s) => s.pipe(s),
): Promise<{ server: net.Server; port: number; sockets: Set<net.Socket> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onConnection(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => resolve());
  });
  const address = server.address() as net.AddressInfo;
  cleanups.push(() => stopServer(server, sockets));
  return { server, port: address.port, sockets };
}

function stopServer(server: net.Server, sockets: Set<net.Socket>): Promise<void> {
  for (const s of sockets) s.destroy();
  return new Promise((resolve) => {
    if (!server.listening) resolve();
    else server.close(() => resolve());
  });
}

function track(t: TcpTransport): TcpTransport {
  cleanups.push(() => t.close());
  return t;
}

function nextEvent<T>(t: TcpTransport, event: 'close' | 'open'): Promise<T> {
  return new Promise((resolve) => t.once(event, (...args: unknown[]) => resolve(args[0] as T)));
}

describe('TcpTransport', () => {
  it('round-trips bytes through an echo server, with Nagle disabled', async () => {
    const noDelay = vi.spyOn(net.Socket.prototype, 'setNoDelay');
    const { port } = await startServer();
    const t = track(new TcpTransport({ host: HOST, port, reconnect: false }));
    expect(t.address).toBe(`tcp://${HOST}:${port}`);
    let opens = 0;
    t.on('open', () => opens++);
    await t.open();
    expect(opens).toBe(1);
    expect(t.isOpen).toBe(true);
    expect(noDelay).toHaveBeenCalledWith(true);

    const payload = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const received: Buffer[] = [];
    const done = new Promise<void>((resolve) => {
      t.on('data', (chunk) => {
        received.push(chunk);
        if (Buffer.concat(received).length >= payload.length) resolve();
      });
    });
    await t.write(payload);
    await done;
    expect(Buffer.concat(received)).toEqual(payload);
  });

  it('rejects with CONNECTION_REFUSED when nothing listens on the port', async () => {
    const port = CLOSED_PORT;
    const t = track(new TcpTransport({ host: HOST, port, reconnect: false }));
    const error = await t.open().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONNECTION_REFUSED' });
    expect((error as Error).message).toContain(`${HOST}:${port}`);
    expect(t.isOpen).toBe(false);
    expect(t.reconnecting).toBe(false);
  });

  it('emits close with expected: true on close(), and close() is idempotent', async () => {
    const { port } = await startServer();
    const t = track(new TcpTransport({ host: HOST, port }));
    await t.open();
    const closed = nextEvent<TransportCloseInfo>(t, 'close');
    await t.close();
    expect(await closed).toEqual({ expected: true });
    await t.close();
    expect(t.reconnecting).toBe(false);
    await expect(t.write(Buffer.from([1]))).rejects.toMatchObject({ code: 'NOT_OPEN' });
  });

  it('reports a peer close as unexpected, then reconnects with backoff once the server is back', async () => {
    const first = await startServer();
    const t = track(
      new TcpTransport({ host: HOST, port: first.port, reconnect: { initialDelayMs: 10, maxDelayMs: 80, factor: 2 } }),
    );
    await t.open();

    const closed = nextEvent<TransportCloseInfo>(t, 'close');
    await stopServer(first.server, first.sockets);
    const info = await closed;
    expect(info.expected).toBe(false);
    expect(info.error).toMatchObject({ code: 'DISCONNECTED' });
    expect(t.isOpen).toBe(false);
    expect(t.reconnecting).toBe(true);

    // While the server is down the attempts fail and are counted.
    await vi.waitFor(() => expect(t.reconnectAttempts).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    expect(t.reconnecting).toBe(true);

    const reopened = nextEvent<undefined>(t, 'open');
    await startServer(first.port);
    await reopened;
    expect(t.isOpen).toBe(true);
    expect(t.reconnecting).toBe(false);
    expect(t.reconnectAttempts).toBe(0);

    // The new link works.
    const echoed = new Promise<Buffer>((resolve) => t.once('data', resolve));
    await t.write(Buffer.from('OK'));
    expect((await echoed).toString()).toBe('OK');
  });

  it('stops reconnecting when close() is called during the backoff', async () => {
    const first = await startServer();
    const t = track(
      new TcpTransport({ host: HOST, port: first.port, reconnect: { initialDelayMs: 10, maxDelayMs: 20 } }),
    );
    await t.open();
    const closed = nextEvent<TransportCloseInfo>(t, 'close');
    await stopServer(first.server, first.sockets);
    await closed;
    expect(t.reconnecting).toBe(true);

    await t.close();
    expect(t.reconnecting).toBe(false);
    let reopened = false;
    t.on('open', () => (reopened = true));
    const again = await startServer(first.port);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reopened).toBe(false);
    expect(again.sockets.size).toBe(0);
  });

  it('does not reconnect when reconnect is false', async () => {
    const first = await startServer();
    const t = track(new TcpTransport({ host: HOST, port: first.port, reconnect: false }));
    await t.open();
    const closed = nextEvent<TransportCloseInfo>(t, 'close');
    for (const s of first.sockets) s.destroy();
    expect((await closed).expected).toBe(false);
    expect(t.reconnecting).toBe(false);
  });

  it('gives up after maxAttempts failed reconnections', async () => {
    const first = await startServer();
    const t = track(
      new TcpTransport({
        host: HOST,
        port: first.port,
        reconnect: { initialDelayMs: 5, maxDelayMs: 10, maxAttempts: 2 },
      }),
    );
    await t.open();
    const closed = nextEvent<TransportCloseInfo>(t, 'close');
    await stopServer(first.server, first.sockets);
    await closed;
    await vi.waitFor(() => expect(t.reconnecting).toBe(false), { timeout: 10_000 });
    expect(t.reconnectAttempts).toBe(2);
    expect(t.isOpen).toBe(false);
  });

  const hasPython = spawnSync('python3', ['--version']).status === 0;
  it.skipIf(!hasPython)('rejects with CONNECT_TIMEOUT when the server never completes the handshake', async () => {
    // A listener with a full accept queue that never accepts: Linux drops further SYNs, so the
    // connection attempt hangs on loopback exactly like an unreachable PINPAD would.
    const child: ChildProcess = spawn(
      'python3',
      [
        '-c',
        "import socket,sys\ns=socket.socket();s.bind(('127.0.0.1',0));s.listen(0)\nprint(s.getsockname()[1],flush=True)\nsys.stdin.read()",
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    cleanups.push(() => {
      child.stdin?.end();
      child.kill();
    });
    const port = await new Promise<number>((resolve) =>
      child.stdout?.once('data', (d) => resolve(Number(String(d).trim()))),
    );
    // Fill the accept queue.
    const fillers: net.Socket[] = [];
    cleanups.push(() => fillers.forEach((s) => s.destroy()));
    for (;;) {
      const s = net.connect(port, HOST);
      s.on('error', () => {});
      fillers.push(s);
      const connected = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 300);
        s.once('connect', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (!connected || fillers.length > 16) break;
    }

    const t = track(new TcpTransport({ host: HOST, port, connectTimeoutMs: 200, reconnect: false }));
    const error = await t.open().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONNECT_TIMEOUT' });
    expect((error as Error).message).toContain('200 ms');
  });
});

describe('backoffDelayMs', () => {
  it('grows by the factor from the initial delay and stops at the maximum', () => {
    const opts = { initialDelayMs: 500, maxDelayMs: 10_000, factor: 2 };
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n, opts))).toEqual([
      500, 1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });

  it('spreads the delay by at most ±jitter', () => {
    const opts = { initialDelayMs: 1000, maxDelayMs: 10_000, factor: 2, jitter: 0.25 };
    expect(backoffDelayMs(0, opts, () => 0)).toBe(750);
    expect(backoffDelayMs(0, opts, () => 0.5)).toBe(1000);
    expect(backoffDelayMs(0, opts, () => 1)).toBe(1250);
  });
});

describe('formatTcpAddress', () => {
  it('brackets IPv6 literals', () => {
    expect(formatTcpAddress('::1', 4000)).toBe('tcp://[::1]:4000');
    expect(formatTcpAddress('10.0.0.5', 4000)).toBe('tcp://10.0.0.5:4000');
  });
});
