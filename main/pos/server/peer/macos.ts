/**
 * The peer process on macOS: `lsof` lists the loopback TCP sockets of the agent's own user with
 * their PID and command (a process of another user is not listed without root: unknown), and
 * `ps` gives the PIDs' command lines, so two scripts of one interpreter are two programs.
 */
import {
  BatchedSearch,
  isLoopback,
  programText,
  UNKNOWN_PEER,
  type CommandRunner,
  type LoopbackPeer,
  type PeerFinder,
  type PeerInfo,
} from './peer.js';

/** One socket of `lsof -F pcn` output: its process and its "local->remote" name. */
export interface LsofSocket {
  readonly pid: number;
  readonly command: string;
  readonly localPort: number;
  readonly remotePort: number;
}

/** The arguments that list every loopback TCP socket, one field per line (p, c, f, n). */
export const LSOF_ARGS = ['-nP', '-iTCP@127.0.0.1', '-iTCP@[::1]', '+c', '0', '-Fpcn'] as const;

/** The connected sockets of `lsof -F pcn` output (listening ones have no "->" and are skipped). */
export function parseLsof(text: string): LsofSocket[] {
  const sockets: LsofSocket[] = [];
  let pid: number | undefined;
  let command = '';
  for (const line of text.split('\n')) {
    const field = line[0];
    const value = line.slice(1);
    if (field === 'p') {
      pid = Number(value);
      command = '';
    } else if (field === 'c') command = value;
    else if (field === 'n' && pid !== undefined && Number.isSafeInteger(pid)) {
      const match = /^\[?[^\]]*?\]?:(\d+)->\[?[^\]]*?\]?:(\d+)$/.exec(value);
      if (match !== null) sockets.push({ pid, command, localPort: Number(match[1]), remotePort: Number(match[2]) });
    }
  }
  return sockets;
}

/** `ps -o pid=,args= -p …` output by PID. */
export function parsePsArgs(text: string): Map<number, string> {
  const args = new Map<number, string>();
  for (const line of text.split('\n')) {
    const match = /^\s*(\d+)\s+(.+?)\s*$/.exec(line);
    if (match !== null) args.set(Number(match[1]), match[2]!);
  }
  return args;
}

export class MacPeerFinder implements PeerFinder {
  readonly #owners: BatchedSearch<string, { pid: number; command: string }>;
  readonly #args: BatchedSearch<number, string>;

  constructor(run: CommandRunner, options: { readonly gapMs?: number } = {}) {
    const gap = options.gapMs === undefined ? {} : { gapMs: options.gapMs };
    this.#owners = new BatchedSearch(async (keys) => {
      const found = new Map<string, { pid: number; command: string }>();
      for (const socket of parseLsof(await run('lsof', LSOF_ARGS))) {
        const key = `${socket.localPort}:${socket.remotePort}`;
        if (keys.has(key)) found.set(key, { pid: socket.pid, command: socket.command });
      }
      return found;
    }, gap);
    this.#args = new BatchedSearch(
      async (pids) => parsePsArgs(await run('ps', ['-o', 'pid=,args=', '-p', [...pids].join(',')])),
      gap,
    );
  }

  async find(peer: LoopbackPeer): Promise<PeerInfo> {
    if (!isLoopback(peer.address)) return UNKNOWN_PEER;
    const owner = await this.#owners.find(`${peer.port}:${peer.serverPort}`);
    if (owner === undefined) return UNKNOWN_PEER;
    const args = await this.#args.find(owner.pid);
    const name = owner.command || `PID ${owner.pid}`;
    return { process: { pid: owner.pid, name, program: programText(args ?? name) }, uid: null };
  }
}
