/**
 * The peer process on Linux, for real: connections from this test process and from a child
 * process it spawns are traced through /proc to the PIDs the test knows, with their programs;
 * and the /proc/net/tcp rows as the kernel writes them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientSocket,
  LinuxPeerFinder,
  parseProcNetTcp,
  procAddress,
} from '../../../../../main/pos/server/peer/linux.js';

const linux = process.platform === 'linux';

/** As the kernel wrote them: a listener, a connection's two ends, a TIME_WAIT, and ::1 in tcp6. */
const PROC_NET_TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:4395 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 649711 1 00000000ee2a615d 100 0 0 10 0
   1: 0100007F:C350 0100007F:4395 01 00000000:00000000 00:00000000 00000000  1001        0 777001 1 00000000de4c48e9 20 4 30 10 -1
   2: 0100007F:4395 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 777002 1 000000007a136207 20 4 30 10 -1
   3: 0100007F:C351 0100007F:4395 06 00000000:00000000 03:00000A64 00000000     0        0 0 3 000000007a136207
   4: 0A00020F:C352 5DB8D822:4395 01 00000000:00000000 00:00000000 00000000  1000        0 777003 1 000000007a136207 20 4 30 10 -1
`;
const PROC_NET_TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:C360 00000000000000000000000001000000:4395 01 00000000:00000000 00:00000000 00000000  1002        0 888001 1 0000000000000000 20 4 30 10 -1
   1: 0000000000000000FFFF00000100007F:C361 0000000000000000FFFF00000100007F:4395 01 00000000:00000000 00:00000000 00000000  1003        0 888002 1 0000000000000000 20 4 30 10 -1
`;

describe('reading /proc/net/tcp', () => {
  it('decodes addresses word by word in little-endian order', () => {
    expect(procAddress('0100007F')).toBe('127.0.0.1');
    expect(procAddress('0A00020F')).toBe('15.2.0.10');
    expect(procAddress('00000000000000000000000001000000')).toBe('::1');
    expect(procAddress('0000000000000000FFFF00000100007F')).toBe('::ffff:127.0.0.1');
  });

  it("finds the client's end of a connection to the agent's port, never the agent's end, a listener or a closed socket", () => {
    const rows = [...parseProcNetTcp(PROC_NET_TCP), ...parseProcNetTcp(PROC_NET_TCP6)];
    expect(rows).toHaveLength(7);
    const agentPort = 0x4395;
    expect(clientSocket(rows, { address: '127.0.0.1', port: 0xc350, serverPort: agentPort })).toMatchObject({
      inode: '777001',
      uid: 1001,
    });
    // TIME_WAIT has no inode: no process holds it any more.
    expect(clientSocket(rows, { address: '127.0.0.1', port: 0xc351, serverPort: agentPort })).toBeUndefined();
    // A connection to another machine on the same port number is not a loopback peer.
    expect(clientSocket(rows, { address: '127.0.0.1', port: 0xc352, serverPort: agentPort })).toBeUndefined();
    expect(clientSocket(rows, { address: '::1', port: 0xc360, serverPort: agentPort })).toMatchObject({
      inode: '888001',
      uid: 1002,
    });
    expect(clientSocket(rows, { address: '::ffff:127.0.0.1', port: 0xc361, serverPort: agentPort })?.inode).toBe(
      '888002',
    );
  });
});

describe.runIf(linux)('the process behind a loopback connection, for real', () => {
  let server: Server;
  let port: number;
  const accepted: Socket[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    server = createServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const child of children) child.kill();
    for (const socket of accepted) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  /** The next connection the server accepts, as the server sees its peer. */
  async function nextAccepted(): Promise<Socket> {
    const before = accepted.length;
    const deadline = Date.now() + 10_000;
    while (accepted.length === before) {
      if (Date.now() > deadline) throw new Error('no connection accepted');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return accepted.at(-1)!;
  }

  it('names this test process for a connection it opened', async () => {
    const { connect } = await import('node:net');
    const client = connect(port, '127.0.0.1');
    const socket = await nextAccepted();
    const found = await new LinuxPeerFinder().find({
      address: socket.remoteAddress!,
      port: socket.remotePort!,
      serverPort: port,
    });
    expect(found.process).toMatchObject({ pid: process.pid });
    expect(found.process!.program.startsWith(process.execPath)).toBe(true);
    expect(found.uid).toBe(process.getuid!());
    client.destroy();
  });

  it('names a child process with its own script and arguments, told apart from this one', async () => {
    const script = `const s=require('node:net').connect(${port},'127.0.0.1');setInterval(()=>{},1000);`;
    const child = spawn(process.execPath, ['-e', script, 'squatter-argument'], { stdio: 'ignore' });
    children.push(child);
    const socket = await nextAccepted();
    const finder = new LinuxPeerFinder();
    const found = await finder.find({ address: socket.remoteAddress!, port: socket.remotePort!, serverPort: port });
    expect(found.process).toMatchObject({ pid: child.pid, name: 'node' });
    expect(found.process!.program).toContain('squatter-argument');
    // Found again among the recent peers (no walk of every process).
    const again = await finder.find({ address: socket.remoteAddress!, port: socket.remotePort!, serverPort: port });
    expect(again.process?.pid).toBe(child.pid);
  });

  it('answers many lookups at once with a few searches, each right', async () => {
    const { connect } = await import('node:net');
    const clients = Array.from({ length: 20 }, () => connect(port, '127.0.0.1'));
    const deadline = Date.now() + 10_000;
    while (accepted.filter((socket) => !socket.destroyed).length < 20 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const finder = new LinuxPeerFinder();
    const open = accepted.filter(
      (socket) => !socket.destroyed && clients.some((c) => c.localPort === socket.remotePort),
    );
    const found = await Promise.all(
      open.map((socket) => finder.find({ address: socket.remoteAddress!, port: socket.remotePort!, serverPort: port })),
    );
    expect(found.map((info) => info.process?.pid)).toEqual(open.map(() => process.pid));
    for (const client of clients) client.destroy();
  });

  it('tells nothing for a port no socket has', async () => {
    const found = await new LinuxPeerFinder().find({ address: '127.0.0.1', port: 1, serverPort: port });
    expect(found).toEqual({ process: null, uid: null });
  });
});
