/**
 * The peer process on Windows: `netstat -ano` lists every TCP connection with the PID that owns
 * it (the client's end is the row whose local port is the client's and whose foreign port is the
 * agent's); `tasklist /FO CSV /NH` names the PIDs. The image name ("node.exe", "chrome.exe") is
 * all Windows tells without administrator tools, so it is also what a block matches.
 *
 * netstat's headers and state words are translated on a Portuguese Windows ("ESTABELECIDA"):
 * rows are read by their columns, never by those words.
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

export interface NetstatRow {
  readonly localAddress: string;
  readonly localPort: number;
  readonly foreignAddress: string;
  readonly foreignPort: number;
  readonly pid: number;
}

/** "127.0.0.1:50123" or "[::1]:50123" as address and port; undefined for "*:*" and the like. */
function endpoint(text: string): { address: string; port: number } | undefined {
  const match = /^\[?([^\]]*?)\]?:(\d{1,5})$/.exec(text);
  if (match === null) return undefined;
  return { address: match[1]!, port: Number(match[2]) };
}

/** The TCP rows of `netstat -ano` (UDP rows, headers and blank lines skipped). */
export function parseNetstat(text: string): NetstatRow[] {
  const rows: NetstatRow[] = [];
  for (const line of text.split(/\r?\n/)) {
    const fields = line.trim().split(/\s+/);
    if (fields[0]?.toUpperCase() !== 'TCP' || fields.length < 5) continue;
    const local = endpoint(fields[1]!);
    const foreign = endpoint(fields[2]!);
    const pid = Number(fields.at(-1));
    if (local === undefined || foreign === undefined || !Number.isSafeInteger(pid)) continue;
    rows.push({
      localAddress: local.address,
      localPort: local.port,
      foreignAddress: foreign.address,
      foreignPort: foreign.port,
      pid,
    });
  }
  return rows;
}

/** The image names of `tasklist /FO CSV /NH` by PID ("INFO: No tasks…" and malformed lines skipped). */
export function parseTasklist(text: string): Map<number, string> {
  const names = new Map<number, string>();
  for (const line of text.split(/\r?\n/)) {
    const fields = [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((match) => match[1]!.replace(/""/g, '"'));
    if (fields.length < 2) continue;
    const pid = Number(fields[1]);
    if (Number.isSafeInteger(pid) && fields[0]!.length > 0) names.set(pid, fields[0]!);
  }
  return names;
}

export class WindowsPeerFinder implements PeerFinder {
  readonly #owners: BatchedSearch<string, number>;
  readonly #names: BatchedSearch<number, string>;

  constructor(run: CommandRunner, options: { readonly gapMs?: number } = {}) {
    const gap = options.gapMs === undefined ? {} : { gapMs: options.gapMs };
    this.#owners = new BatchedSearch(async (keys) => {
      const rows = parseNetstat(await run('netstat', ['-ano']));
      const found = new Map<string, number>();
      for (const row of rows) {
        const key = `${row.localPort}:${row.foreignPort}`;
        if (keys.has(key) && isLoopback(row.localAddress) && isLoopback(row.foreignAddress)) found.set(key, row.pid);
      }
      return found;
    }, gap);
    this.#names = new BatchedSearch(async () => parseTasklist(await run('tasklist', ['/FO', 'CSV', '/NH'])), gap);
  }

  async find(peer: LoopbackPeer): Promise<PeerInfo> {
    if (!isLoopback(peer.address)) return UNKNOWN_PEER;
    const pid = await this.#owners.find(`${peer.port}:${peer.serverPort}`);
    if (pid === undefined) return UNKNOWN_PEER;
    const name = (await this.#names.find(pid)) ?? `PID ${pid}`;
    return { process: { pid, name, program: programText(name) }, uid: null };
  }
}
