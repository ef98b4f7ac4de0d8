/**
 * The peer process on Linux, from /proc: the client socket's inode and uid from /proc/net/tcp
 * (tcp6 for ::1), then the process whose /proc/<pid>/fd/* links to `socket:[inode]`, and its
 * executable (exe) and arguments (cmdline). Another user's process can only be
 * searched by root: for it the uid alone is known.
 *
 * The processes that were peers lately are searched first (a program that opens many
 * connections is found among a few dozen links), and every walk of /proc serves all the lookups
 * waiting for it (BatchedSearch).
 */
import { readdir, readFile, readlink } from 'node:fs/promises';
import {
  BatchedSearch,
  isLoopback,
  programText,
  UNKNOWN_PEER,
  type LoopbackPeer,
  type PeerFinder,
  type PeerInfo,
} from './peer.js';

/** One row of /proc/net/tcp or tcp6: the ends of a socket, its state, owner and inode. */
export interface ProcNetTcpRow {
  readonly localAddress: string;
  readonly localPort: number;
  readonly remoteAddress: string;
  readonly remotePort: number;
  /** The kernel's state number (1 established, 10 listening…). */
  readonly state: number;
  readonly uid: number;
  readonly inode: string;
}

/** Processes that were peers lately, searched first. */
const RECENT_PIDS = 32;
const LISTEN = 0x0a;

/**
 * An address of /proc/net/tcp (8 hex digits) or tcp6 (32), each 32-bit word in the machine's
 * byte order (little-endian on every machine Pinbridge runs on), as text: "127.0.0.1", "::1",
 * "::ffff:127.0.0.1", or the hex itself for any other IPv6 address.
 */
export function procAddress(hex: string): string {
  const bytes: number[] = [];
  for (let word = 0; word < hex.length; word += 8)
    for (let byte = 6; byte >= 0; byte -= 2) bytes.push(parseInt(hex.slice(word + byte, word + byte + 2), 16));
  if (bytes.length === 4) return bytes.join('.');
  if (bytes.every((value, index) => value === (index === 15 ? 1 : 0))) return '::1';
  const mapped = bytes.slice(0, 10).every((value) => value === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? `::ffff:${bytes.slice(12).join('.')}` : hex.toLowerCase();
}

/** The rows of /proc/net/tcp or /proc/net/tcp6 (the header and malformed lines skipped). */
export function parseProcNetTcp(text: string): ProcNetTcpRow[] {
  const rows: ProcNetTcpRow[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    // sl local rem st tx:rx tr:when retrnsmt uid timeout inode …
    if (fields.length < 10 || !/^\d+:$/.test(fields[0]!)) continue;
    const local = /^([0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}):([0-9A-Fa-f]{4})$/.exec(fields[1]!);
    const remote = /^([0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}):([0-9A-Fa-f]{4})$/.exec(fields[2]!);
    if (local === null || remote === null) continue;
    rows.push({
      localAddress: procAddress(local[1]!),
      localPort: parseInt(local[2]!, 16),
      remoteAddress: procAddress(remote[1]!),
      remotePort: parseInt(remote[2]!, 16),
      state: parseInt(fields[3]!, 16),
      uid: Number(fields[7]),
      inode: fields[9]!,
    });
  }
  return rows;
}

/** The client's socket of a connection to the agent: its inode and owner, or undefined. */
export function clientSocket(rows: readonly ProcNetTcpRow[], peer: LoopbackPeer): ProcNetTcpRow | undefined {
  return rows.find(
    (row) =>
      row.localPort === peer.port &&
      row.remotePort === peer.serverPort &&
      row.state !== LISTEN &&
      row.inode !== '0' &&
      isLoopback(row.localAddress) &&
      isLoopback(row.remoteAddress),
  );
}

export class LinuxPeerFinder implements PeerFinder {
  readonly #proc: string;
  readonly #recent: number[] = [];
  /** Ports (the client's) to their socket rows: one read of both tables per batch. */
  readonly #sockets: BatchedSearch<string, ProcNetTcpRow>;
  /** Socket inodes to the pid holding them: one walk of /proc per batch. */
  readonly #holders: BatchedSearch<string, number>;

  constructor(options: { readonly proc?: string; readonly gapMs?: number } = {}) {
    this.#proc = options.proc ?? '/proc';
    const gap = options.gapMs === undefined ? {} : { gapMs: options.gapMs };
    this.#sockets = new BatchedSearch((keys) => this.#readSockets(keys), gap);
    this.#holders = new BatchedSearch((inodes) => this.#searchHolders(inodes), gap);
  }

  async find(peer: LoopbackPeer): Promise<PeerInfo> {
    if (!isLoopback(peer.address)) return UNKNOWN_PEER;
    try {
      const socket = await this.#sockets.find(`${peer.port}:${peer.serverPort}`);
      if (socket === undefined) return UNKNOWN_PEER;
      const pid = await this.#holders.find(socket.inode);
      if (pid === undefined) return { process: null, uid: socket.uid };
      return { process: await this.#describe(pid), uid: socket.uid };
    } catch {
      return UNKNOWN_PEER;
    }
  }

  async #readSockets(keys: ReadonlySet<string>): Promise<Map<string, ProcNetTcpRow>> {
    const tables = await Promise.all(
      ['tcp', 'tcp6'].map((name) => readFile(`${this.#proc}/net/${name}`, 'utf8').catch(() => '')),
    );
    const rows = tables.flatMap(parseProcNetTcp);
    const found = new Map<string, ProcNetTcpRow>();
    for (const key of keys) {
      const [port, serverPort] = key.split(':').map(Number);
      const row = clientSocket(rows, { address: '127.0.0.1', port: port!, serverPort: serverPort! });
      if (row !== undefined) found.set(key, row);
    }
    return found;
  }

  async #searchHolders(inodes: ReadonlySet<string>): Promise<Map<string, number>> {
    const wanted = new Map([...inodes].map((inode) => [`socket:[${inode}]`, inode]));
    const found = new Map<string, number>();
    const visit = async (pid: number): Promise<void> => {
      let fds: string[];
      try {
        fds = await readdir(`${this.#proc}/${pid}/fd`);
      } catch {
        return; // gone, or another user's (only root may look)
      }
      const links = await Promise.all(fds.map((fd) => readlink(`${this.#proc}/${pid}/fd/${fd}`).catch(() => '')));
      for (const link of links) {
        const inode = wanted.get(link);
        if (inode === undefined) continue;
        found.set(inode, pid);
        wanted.delete(link);
      }
    };
    const recent = new Set(this.#recent);
    for (const pid of recent) {
      await visit(pid);
      if (wanted.size === 0) break;
    }
    if (wanted.size > 0) {
      const pids = (await readdir(this.#proc))
        .filter((name) => /^\d+$/.test(name))
        .map(Number)
        .filter((pid) => !recent.has(pid))
        // Newest first: a program that just started is the likelier newcomer.
        .sort((a, b) => b - a);
      for (const pid of pids) {
        await visit(pid);
        if (wanted.size === 0) break;
      }
    }
    for (const pid of new Set(found.values())) this.#remember(pid);
    return found;
  }

  #remember(pid: number): void {
    const at = this.#recent.indexOf(pid);
    if (at >= 0) this.#recent.splice(at, 1);
    this.#recent.unshift(pid);
    if (this.#recent.length > RECENT_PIDS) this.#recent.pop();
  }

  async #describe(pid: number): Promise<PeerInfo['process']> {
    const base = `${this.#proc}/${pid}`;
    const [comm, exe, cmdline] = await Promise.all([
      readFile(`${base}/comm`, 'utf8').catch(() => ''),
      readlink(`${base}/exe`).catch(() => ''),
      readFile(`${base}/cmdline`, 'utf8').catch(() => ''),
    ]);
    const argv = cmdline.split('\0');
    if (argv.at(-1) === '') argv.pop();
    // A replaced executable reads "/path (deleted)": the path is still what it ran.
    const executable = exe.replace(/ \(deleted\)$/, '') || argv[0] || comm.trim();
    // The executable's name: comm is the main thread's, which a runtime may rename (Node: "MainThread").
    const name = executable.split('/').pop() || comm.trim() || `PID ${pid}`;
    return { pid, name, program: programText([executable, ...argv.slice(1)].join(' ')) };
  }
}
