/**
 * Which program is at the other end of a loopback connection: the process that holds the
 * client's socket, found from its TCP port. The POS server uses it to count pairing requests and
 * waiting connections per program (so one program cannot take every place), to show the cashier
 * who asks to pair, and to refuse a program the cashier blocked.
 *
 * How each system tells (each is asked as the agent's own user):
 * - Linux: /proc/net/tcp and tcp6 give the client socket's inode and its owner's uid; the process
 *   holding `socket:[inode]` among /proc/<pid>/fd/* is the peer. Processes of other users cannot be
 *   searched without root: for those only the uid is known (linux.ts).
 * - Windows: `netstat -ano` maps the client's port to a PID, `tasklist` gives its image name
 *   (windows.ts).
 * - macOS: `lsof` gives the PID and command of the same user's processes; `ps` their arguments
 *   (macos.ts).
 * Anything else, or a lookup that fails, is "unknown": the caller treats it as one shared group.
 *
 * Lookups are batched: every lookup waiting when a search starts is answered by that search, and
 * searches are at least MIN_SEARCH_GAP_MS apart, so a flood of connections costs a few searches
 * a second, never one per connection.
 */

/** The client side of a connection to the agent, as the server's socket sees it. */
export interface LoopbackPeer {
  /** The client's address (127.0.0.1, ::1 or ::ffff:127.0.0.1). */
  readonly address: string;
  /** The client's TCP port (the socket's remote port). */
  readonly port: number;
  /** The agent's port it connected to. */
  readonly serverPort: number;
}

/** A process found behind a connection. */
export interface PeerProcess {
  readonly pid: number;
  /** Its short name: the executable's on Linux, the image name on Windows, the command on macOS. */
  readonly name: string;
  /**
   * What identifies the program for a block, shown to the cashier: on Linux its executable's path
   * and its arguments (two scripts of one interpreter are two programs); on macOS the command and
   * its arguments; on Windows its image name.
   */
  readonly program: string;
}

/** What could be told about a peer: its process, or at least its user (Linux), or nothing. */
export interface PeerInfo {
  readonly process: PeerProcess | null;
  readonly uid: number | null;
}

export const UNKNOWN_PEER: PeerInfo = { process: null, uid: null };

export interface PeerFinder {
  /** Never rejects: a lookup that fails is UNKNOWN_PEER. */
  find(peer: LoopbackPeer): Promise<PeerInfo>;
}

/** Runs a program and resolves with its standard output (tests pass recorded output). */
export type CommandRunner = (file: string, args: readonly string[]) => Promise<string>;

/** Searches (a /proc walk, a netstat run) are at least this far apart. */
export const MIN_SEARCH_GAP_MS = 200;
/** The program text is cut to this many characters. */
export const PROGRAM_MAX_CHARS = 300;

export function isLoopback(address: string): boolean {
  const plain = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

/**
 * Batches lookups of keys (socket inodes, ports) into searches: a search answers every key that
 * was waiting when it started; keys asked meanwhile wait for the next one, MIN_SEARCH_GAP_MS later.
 */
export class BatchedSearch<K, V> {
  readonly #search: (keys: ReadonlySet<K>) => Promise<ReadonlyMap<K, V>>;
  readonly #gapMs: number;
  readonly #now: () => number;
  #waiting = new Map<K, ((value: V | undefined) => void)[]>();
  #running = false;
  #lastStart = -Infinity;

  constructor(search: (keys: ReadonlySet<K>) => Promise<ReadonlyMap<K, V>>, options: { gapMs?: number } = {}) {
    this.#search = search;
    this.#gapMs = options.gapMs ?? MIN_SEARCH_GAP_MS;
    this.#now = () => performance.now();
  }

  /** The value the next search finds for `key` (undefined: not found, or the search failed). */
  find(key: K): Promise<V | undefined> {
    return new Promise((resolve) => {
      const waiters = this.#waiting.get(key);
      if (waiters === undefined) this.#waiting.set(key, [resolve]);
      else waiters.push(resolve);
      void this.#pump();
    });
  }

  async #pump(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      while (this.#waiting.size > 0) {
        const wait = this.#lastStart + this.#gapMs - this.#now();
        // At least a turn of the event loop: lookups asked together go in one search.
        await new Promise((resolve) => (wait > 0 ? setTimeout(resolve, wait) : setImmediate(resolve)));
        const batch = this.#waiting;
        this.#waiting = new Map();
        this.#lastStart = this.#now();
        let found: ReadonlyMap<K, V>;
        try {
          found = await this.#search(new Set(batch.keys()));
        } catch {
          found = new Map();
        }
        for (const [key, waiters] of batch) for (const resolve of waiters) resolve(found.get(key));
      }
    } finally {
      this.#running = false;
    }
  }
}

/** `text` cut to PROGRAM_MAX_CHARS, on one line. */
export function programText(text: string): string {
  return text
    .replace(/\p{Cc}+/gu, ' ')
    .trim()
    .slice(0, PROGRAM_MAX_CHARS);
}
