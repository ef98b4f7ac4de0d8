/**
 * The paired POS clients, their pairing requests and the origins the cashier blocked: one SQLite
 * file shared by every Pinbridge process on the machine (the agent, the CLI, the window), so a
 * revocation made in one takes effect in the others on their next request (anchors §4.4–4.6,
 * §7, §8.2: an origin allowlist, a pairing secret shown in the bridge window, a remembered list
 * that can be viewed and revoked).
 *
 * Pairing, step by step:
 * 1. The POS asks to pair with a name; the server adds the browser Origin from the upgrade request
 *    (null for a non-browser client). `requestPairing` stores the request and returns a six-digit
 *    code. The code goes to the cashier's screen only, never back to the POS: typing it into the
 *    POS is what proves someone at this checkout agreed.
 *    One request waits per connection and per program: a newer one withdraws the older (its code
 *    stops working), so neither a connection nor a program can hold many places (`PairingSource`).
 * 2. The POS sends the pairing id and the code back; `completePairing` checks them (same origin,
 *    not expired, not used, few wrong attempts) and returns a long-lived client token, once.
 * 3. Every connection then presents the token to `authenticate`, from the origin it was paired
 *    from; `isActive` is cheap enough to ask on every request (one read of the change marker beside
 *    the file, change-marker.ts; the clients are read again only when it moved), and exact: a
 *    revocation by a store in any process is seen by the next call.
 *
 * What is stored: tokens only as SHA-256 hashes (a copy of the file gives no usable token), codes
 * only as hashes salted with the pairing id. Pairing requests are kept after they end so that a
 * replayed code is told PAIRING_USED rather than PAIRING_NOT_FOUND; rows older than a day are
 * deleted when a store is opened.
 */
import { CodedError } from '../../../lib/errors.js';
import { isIoFault } from '../../../lib/io-faults.js';
import { createHash, randomBytes } from 'node:crypto';
import {
  sameStamp,
  sqliteErrorOf,
  StorageError,
  type ChangeStamp,
  type SqliteDatabase,
  type Statement,
} from '../../storage/sqlite.js';
import { ChangeMarker } from './change-marker.js';
import { openClientsFile } from './clients-file.js';
import {
  draw,
  generatePairingCode,
  hashPairingCode,
  normalizePairingCode,
  pairingCodeMatches,
  type RandomSource,
} from './pairing-code.js';

export { PAIRING_CODE_DIGITS, type RandomSource } from './pairing-code.js';
export { CLIENT_STORE_SCHEMA_VERSION } from './clients-file.js';

/** Stable codes for the server to map to JSON-RPC errors and to pt-BR sentences for the cashier. */
export type ClientStoreErrorCode =
  /** A name, origin, id, code or option that is malformed (nothing was changed). */
  | 'INVALID_INPUT'
  /** requestPairing (or authenticate) from an origin the cashier blocked. */
  | 'ORIGIN_BLOCKED'
  /**
   * The origin already has `pendingPerOrigin` pairing requests waiting, the program
   * `pendingPerProgram`, or everyone together `maxPending` with no program holding more than its share.
   */
  | 'TOO_MANY_PENDING'
  /** completePairing / rejectPairing: no such pairing request (or it was cleaned up). */
  | 'PAIRING_NOT_FOUND'
  /** The code's time ran out before it was typed. */
  | 'PAIRING_EXPIRED'
  /** The request was already completed: the code is being replayed. */
  | 'PAIRING_USED'
  /** Too many wrong codes (or wrong origins): the request is dead, start a new one. */
  | 'PAIRING_FAILED'
  /** The cashier said no (or blocked the origin or the program). */
  | 'PAIRING_REJECTED'
  /** A newer request from the same connection or program took this one's place. */
  | 'PAIRING_WITHDRAWN'
  /** requestPairing from a program the cashier blocked. */
  | 'PROGRAM_BLOCKED'
  /** The code does not match; `attemptsLeft` says how many tries remain. */
  | 'WRONG_CODE'
  /** The origin differs from the one that requested the pairing, or the one the token is bound to. */
  | 'ORIGIN_MISMATCH'
  /** The token is malformed or unknown. */
  | 'TOKEN_INVALID'
  /** The token was revoked by the cashier. */
  | 'TOKEN_REVOKED'
  /** revoke: no client with this id. */
  | 'NOT_FOUND'
  /** Another process held the write lock longer than the busy timeout. */
  | 'LOCKED'
  /** The file is damaged, not a client store, or from a newer Pinbridge. */
  | 'CORRUPT'
  /**
   * Too many wrong pairing codes in the last 24 hours, from all origins together: no request is
   * taken and no code is checked until they age out or the cashier unlocks pairing (`retryAfterMs`).
   */
  | 'PAIRING_LOCKED';

export class ClientStoreError extends CodedError<ClientStoreErrorCode> {
  /** WRONG_CODE and ORIGIN_MISMATCH on completion: the attempts the pairing request still allows. */
  readonly attemptsLeft: number | undefined;
  /** PAIRING_LOCKED: until the oldest wrong code of the window ages out. */
  readonly retryAfterMs: number | undefined;

  constructor(
    code: ClientStoreErrorCode,
    message: string,
    options: { attemptsLeft?: number; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(code, message, options);
    this.attemptsLeft = options.attemptsLeft;
    this.retryAfterMs = options.retryAfterMs;
  }
}

export interface ClientStoreOptions {
  /** The clock for every stored time and expiry (tests pass their own). */
  readonly now?: () => Date;
  /** How long a pairing code can be typed. Default 120 000 ms. */
  readonly codeTtlMs?: number;
  /** Wrong codes (and wrong origins) a pairing request survives. Default 3. */
  readonly maxCodeAttempts?: number;
  /** Unexpired pending requests one web origin may have at once. Default 3. */
  readonly pendingPerOrigin?: number;
  /** Unexpired pending requests from everyone together (programs without an origin included). Default 10. */
  readonly maxPending?: number;
  /** Unexpired pending requests one program (a process, e.g. a browser with several pages) may have at once. Default 3. */
  readonly pendingPerProgram?: number;
  /** Wrong codes from everyone together in 24 hours before pairing locks. Default 50 (docs/pos-api.md has the arithmetic). */
  readonly wrongCodeBudget?: number;
  /** Random bytes for codes, ids and tokens. Default `crypto.randomBytes`. */
  readonly random?: RandomSource;
  /** How long a write waits for another process's write lock before LOCKED. Default 5000 ms. */
  readonly busyTimeoutMs?: number;
}

/** `withdrawn`: the same connection or program asked again, and the newer request took its place. */
export type PairingState = 'pending' | 'completed' | 'expired' | 'failed' | 'rejected' | 'withdrawn';

/** The process behind a pairing request, when the server could tell it. */
export interface PairingProgram {
  readonly pid: number;
  /** Its short name ("node", "chrome.exe"). */
  readonly name: string;
  /** What a block matches: its executable and arguments where the system tells them (see pos/server/peer). */
  readonly program: string;
}

/**
 * Who asks to pair, as the POS server saw it. A request withdraws the pending ones of the same
 * connection, and — when `peer.exact` — those of the same program for the same origin.
 */
export interface PairingSource {
  /** The connection's id. */
  readonly connection: string;
  readonly peer: {
    /** Groups the program's requests: "pid:1234"; "uid:1001" or "unknown" when no process could be told. */
    readonly key: string;
    /** The key names one process (its requests replace each other per origin); else a group of several. */
    readonly exact: boolean;
    readonly process: PairingProgram | null;
  };
}

/** A pairing request as the window shows it (never its code). */
export interface PairingRequest {
  readonly id: string;
  readonly name: string;
  /** The normalized browser origin, or null for a non-browser client. */
  readonly origin: string | null;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly state: PairingState;
  /** The process that asked (the browser, for a web page); null when it could not be told. */
  readonly program: PairingProgram | null;
}

/** A program the cashier blocked: its connections are refused. */
export interface BlockedProgram {
  readonly id: string;
  readonly name: string;
  readonly program: string;
  readonly blockedAt: string;
}

/** A POS that paired (never its token or the token's hash). */
export interface PairedClient {
  readonly id: string;
  readonly name: string;
  /** The normalized origin the token is bound to; null for a non-browser client. */
  readonly origin: string | null;
  readonly createdAt: string;
  readonly lastSeenAt: string | null;
  readonly revokedAt: string | null;
}

/** The wrong pairing codes of the last 24 hours, against the budget that locks pairing. */
export interface PairingGuard {
  readonly wrongCodes: number;
  readonly budget: number;
  readonly locked: boolean;
  /** When the oldest wrong code ages out and pairing unlocks by itself; null unless locked. */
  readonly unlocksAt: string | null;
  /** Where the wrong codes came from (null: programs without an origin), most first. */
  readonly origins: readonly { readonly origin: string | null; readonly wrongCodes: number }[];
}

export interface BlockedOrigin {
  readonly origin: string;
  readonly blockedAt: string;
}

export const DEFAULT_CODE_TTL_MS = 120_000;
export const DEFAULT_MAX_CODE_ATTEMPTS = 3;
export const DEFAULT_PENDING_PER_ORIGIN = 3;
export const DEFAULT_MAX_PENDING = 10;
export const DEFAULT_PENDING_PER_PROGRAM = 3;
export const DEFAULT_WRONG_CODE_BUDGET = 50;
/** The window the wrong-code budget counts over. */
export const WRONG_CODE_WINDOW_MS = 24 * 60 * 60 * 1000;
export const NAME_MAX_LENGTH = 64;
/**
 * How long isActive trusts the change marker alone: then it asks SQLite too (its change stamp), which sees a
 * write made without a ClientStore (an older Pinbridge, the sqlite3 shell, the `file` of a store) that the
 * marker does not count.
 */
export const MARKER_TRUST_MS = 1_000;
/** Ended pairing requests are kept this long so that a replayed code is recognised. */
const PAIRING_RETENTION_MS = 24 * 60 * 60 * 1000;
const MAX_ORIGIN_LENGTH = 512;
const TOKEN_PREFIX = 'pbt_';
const TOKEN_BYTES = 32;
/** `pbt_` and 32 bytes in base64url (43 characters, no padding). */
const TOKEN_SHAPE = /^pbt_[A-Za-z0-9_-]{43}$/u;

/**
 * `scheme://host[:port]` and nothing else: no user info, path, query or fragment, no percent
 * escapes (a browser never sends them in Origin, and URL would decode them into another host).
 * The host is a bracketed IPv6 address or a run of characters allowed in a host name.
 */
const ORIGIN_SHAPE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(\[[0-9A-Fa-f:.]+\]|[^\p{Cc}\s/\\?#@:[\]%]+)(?::([0-9]{1,5}))?$/u;

/**
 * Characters refused in a POS name: controls, lone surrogates, line and paragraph separators, and
 * the bidirectional overrides and isolates that would let a name disguise itself in the window.
 */
const NAME_FORBIDDEN = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/**
 * The canonical form of a browser origin: lowercase scheme and host, IDN in punycode, default
 * port (80 for http, 443 for https) dropped, so `http://LOCALHOST:80` equals `http://localhost`.
 * Undefined unless it is `http(s)://host[:port]` — "null", file:, paths and user info included.
 */
export function normalizeOrigin(origin: string): string | undefined {
  if (typeof origin !== 'string' || origin.length === 0 || origin.length > MAX_ORIGIN_LENGTH) return undefined;
  const match = ORIGIN_SHAPE.exec(origin);
  if (!match) return undefined;
  const scheme = match[1]!.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return undefined;
  const port = match[3];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return undefined;
  try {
    // URL does the host canonicalization browsers do (case, punycode, IPv4 and IPv6 forms).
    const url = new URL(`${scheme}://${match[2]!}${port === undefined ? '' : `:${port}`}`);
    return url.hostname === '' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

// --- rows ------------------------------------------------------------------------------------

interface ClientRow {
  readonly id: string;
  readonly name: string;
  readonly origin: string | null;
  readonly created_at: string;
  readonly last_seen_at: string | null;
  readonly revoked_at: string | null;
}

interface PairingRow {
  readonly id: string;
  readonly name: string;
  readonly origin: string | null;
  readonly code_hash: string;
  readonly created_at: string;
  readonly expires_at: string;
  readonly attempts: number;
  readonly state: PairingState;
  readonly peer_pid: number | null;
  readonly peer_name: string | null;
  readonly peer_program: string | null;
}

const CLIENT_COLUMNS = 'id, name, origin, created_at, last_seen_at, revoked_at';
const PAIRING_COLUMNS =
  'id, name, origin, code_hash, created_at, expires_at, attempts, state, peer_pid, peer_name, peer_program';

const toClient = (row: ClientRow): PairedClient => ({
  id: row.id,
  name: row.name,
  origin: row.origin,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  revokedAt: row.revoked_at,
});

/** A pending request past its expiry reads as expired, whether or not the row was updated yet. */
const toPairing = (row: PairingRow, nowIso: string): PairingRequest => ({
  id: row.id,
  name: row.name,
  origin: row.origin,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  state: row.state === 'pending' && row.expires_at <= nowIso ? 'expired' : row.state,
  program:
    row.peer_pid === null || row.peer_name === null || row.peer_program === null
      ? null
      : { pid: row.peer_pid, name: row.peer_name, program: row.peer_program },
});

/** A blocked program's id: stable for the same program text, short enough to pass around. */
const programId = (program: string): string =>
  `prg_${createHash('sha256').update(program, 'utf8').digest('hex').slice(0, 16)}`;
const PROGRAM_MAX_LENGTH = 1_000;

/**
 * Busy, damaged, foreign or newer files become ClientStoreErrors; anything else (a full disk
 * included, which the store never named) stays as SQLite threw it.
 */
function translate(error: unknown, path: string): unknown {
  if (!(error instanceof StorageError)) return error;
  switch (error.code) {
    case 'LOCKED':
      return new ClientStoreError('LOCKED', `the client store ${path} is locked by another process: ${error.detail}`, {
        cause: sqliteErrorOf(error),
      });
    case 'CORRUPT':
      return new ClientStoreError(
        'CORRUPT',
        `the client store ${path} is damaged or not a client store: ${error.detail}`,
        { cause: sqliteErrorOf(error) },
      );
    case 'TOO_NEW':
      return new ClientStoreError(
        'CORRUPT',
        `the client store is at schema version ${error.version?.found ?? '?'}, newer than this Pinbridge understands (${error.version?.supported ?? '?'}); update Pinbridge`,
      );
    default:
      return sqliteErrorOf(error);
  }
}

function positiveInteger(value: number | undefined, fallback: number, option: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ClientStoreError('INVALID_INPUT', `${option} must be a positive integer, not ${String(value)}`);
  }
  return value;
}

/** The name trimmed, or INVALID_INPUT. */
function checkName(name: unknown): string {
  if (typeof name !== 'string') throw new ClientStoreError('INVALID_INPUT', 'the POS name must be a string');
  const trimmed = name.trim();
  const length = [...trimmed].length;
  if (length === 0 || length > NAME_MAX_LENGTH) {
    throw new ClientStoreError(
      'INVALID_INPUT',
      `the POS name must have 1 to ${NAME_MAX_LENGTH} characters (it has ${length})`,
    );
  }
  if (NAME_FORBIDDEN.test(trimmed)) {
    throw new ClientStoreError('INVALID_INPUT', 'the POS name contains control or direction-changing characters');
  }
  return trimmed;
}

/** null stays null (a non-browser client); a string must be a valid origin, normalized. */
function checkOrigin(origin: unknown): string | null {
  if (origin === null) return null;
  const normalized = typeof origin === 'string' ? normalizeOrigin(origin) : undefined;
  if (normalized === undefined) {
    throw new ClientStoreError(
      'INVALID_INPUT',
      `${JSON.stringify(origin)} is not an origin (expected http(s)://host[:port] or null)`,
    );
  }
  return normalized;
}

const MALFORMED = Symbol('malformed origin');

/**
 * The origin presented by a caller, for comparison with a stored one: a malformed origin becomes
 * a value no stored origin equals (stored origins are normalized).
 */
function presentedOrigin(origin: string | null): string | null | typeof MALFORMED {
  if (origin === null) return null;
  return normalizeOrigin(origin) ?? MALFORMED;
}
const describeOrigin = (origin: string | null): string => origin ?? 'a non-browser client';
const describeSource = (from: PairingSource): string =>
  from.peer.process === null
    ? `the program group ${from.peer.key}`
    : `${from.peer.process.name} (PID ${from.peer.process.pid})`;

/** What a completion attempt decided: committed first, thrown after (a throw would roll it back). */
type Completion = { readonly client: PairedClient; readonly token: string } | { readonly error: ClientStoreError };

export class ClientStore {
  readonly path: string;
  readonly #db: SqliteDatabase;
  readonly #now: () => Date;
  readonly #random: RandomSource;
  readonly #codeTtlMs: number;
  readonly #maxCodeAttempts: number;
  readonly #pendingPerOrigin: number;
  readonly #maxPending: number;
  readonly #pendingPerProgram: number;
  readonly #wrongCodeBudget: number;
  /** A delete of personal data was committed: its old pages are still in the write-ahead log. */
  #afterDelete = false;
  /** The change marker beside the file (undefined in memory, or when it cannot be opened: then SQLite is asked). */
  #marker: ChangeMarker | undefined;
  /**
   * The clients not revoked, as the file said at `stamp` (SQLite's change stamp, taken before they were read).
   * `marker`: the marker's count read before the stamp was last found unchanged (undefined: a write was under
   * way), at `checkedAt` (the store's clock, ms). isActive answers from it while the marker stays as it was
   * (every store's writes move it, this one's too), for at most MARKER_TRUST_MS; then, or when it moved, it
   * compares the stamp, and reads the clients again when the stamp moved (another connection committed, this
   * one wrote a row — through `file` too —, or the connection reopened).
   */
  #activeView:
    | {
        readonly stamp: ChangeStamp;
        readonly active: ReadonlySet<string>;
        marker: number | undefined;
        checkedAt: number;
      }
    | undefined;

  private constructor(path: string, db: SqliteDatabase, marker: ChangeMarker | undefined, options: ClientStoreOptions) {
    this.path = path;
    this.#db = db;
    this.#marker = marker;
    this.#now = options.now ?? (() => new Date());
    this.#random = options.random ?? randomBytes;
    this.#codeTtlMs = positiveInteger(options.codeTtlMs, DEFAULT_CODE_TTL_MS, 'codeTtlMs');
    this.#maxCodeAttempts = positiveInteger(options.maxCodeAttempts, DEFAULT_MAX_CODE_ATTEMPTS, 'maxCodeAttempts');
    this.#pendingPerOrigin = positiveInteger(options.pendingPerOrigin, DEFAULT_PENDING_PER_ORIGIN, 'pendingPerOrigin');
    this.#maxPending = positiveInteger(options.maxPending, DEFAULT_MAX_PENDING, 'maxPending');
    this.#pendingPerProgram = positiveInteger(
      options.pendingPerProgram,
      DEFAULT_PENDING_PER_PROGRAM,
      'pendingPerProgram',
    );
    this.#wrongCodeBudget = positiveInteger(options.wrongCodeBudget, DEFAULT_WRONG_CODE_BUDGET, 'wrongCodeBudget');
  }

  /** Opens (creating the directories, file and schema) the store at `path`; ':memory:' works. */
  static open(path: string, options: ClientStoreOptions = {}): ClientStore {
    let db: SqliteDatabase | undefined;
    try {
      db = openClientsFile(path, options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs });
      const store = new ClientStore(path, db, ChangeMarker.open(path), options);
      // Housekeeping: on a full disk it waits for the next start.
      if (!db.held) store.#cleanUp();
      return store;
    } catch (error) {
      db?.close();
      throw translate(error, path);
    }
  }

  // --- pairing ---------------------------------------------------------------------------------

  /**
   * Stores a pairing request and returns it with its code, and the ids of the requests it
   * withdrew. The code is for the cashier's screen only: the server must never send it to the POS.
   *
   * With `from` (the server always gives it), no one connection or program can take the places of
   * the others: the request withdraws the same connection's pending one and, from a known process,
   * that process's pending one for the same origin; a program has at most `pendingPerProgram`
   * waiting; and when everyone together has `maxPending`, a program with fewer gives the oldest
   * request of the program with the most (at least two more than it) its place — a program with
   * one request waiting never loses it to another program.
   */
  requestPairing(input: { name: string; origin: string | null; from?: PairingSource }): {
    pairing: PairingRequest;
    code: string;
    withdrawn: string[];
  } {
    const name = checkName(input.name);
    const origin = checkOrigin(input.origin);
    const from = input.from;
    return this.#write(() => {
      if (origin !== null && this.#blocked(origin)) {
        throw new ClientStoreError('ORIGIN_BLOCKED', `the cashier blocked ${origin}`);
      }
      const program = from?.peer.process?.program;
      if (program !== undefined && this.#blockedProgram(programId(program)) !== undefined) {
        throw new ClientStoreError('PROGRAM_BLOCKED', `the cashier blocked the program ${program}`);
      }
      const now = this.#now();
      const nowIso = now.toISOString();
      this.#assertUnlocked(now);
      const withdrawn: string[] = [];
      const withdraw = (ids: readonly { id: string }[]): void => {
        for (const { id } of ids) {
          this.#statement(`UPDATE pairings SET state = 'withdrawn' WHERE id = ?`).run(id);
          withdrawn.push(id);
        }
      };
      const PENDING = `state = 'pending' AND expires_at > ?`;
      let mine = 0;
      if (from !== undefined) {
        withdraw(
          this.#statement(`SELECT id FROM pairings WHERE ${PENDING} AND connection_id = ?`).all(
            nowIso,
            from.connection,
          ) as { id: string }[],
        );
        if (from.peer.exact) {
          withdraw(
            this.#statement(`SELECT id FROM pairings WHERE ${PENDING} AND peer_key = ? AND origin IS ?`).all(
              nowIso,
              from.peer.key,
              origin,
            ) as { id: string }[],
          );
        }
        mine = (
          this.#statement(`SELECT COUNT(*) AS count FROM pairings WHERE ${PENDING} AND peer_key = ?`).get(
            nowIso,
            from.peer.key,
          ) as { count: number }
        ).count;
        if (mine >= this.#pendingPerProgram) {
          throw new ClientStoreError(
            'TOO_MANY_PENDING',
            `${describeSource(from)} already has ${mine} pairing requests waiting (at most ${this.#pendingPerProgram} per program)`,
          );
        }
      }
      if (origin !== null) {
        const { pending } = this.#statement(
          `SELECT COUNT(*) AS pending FROM pairings WHERE ${PENDING} AND origin = ?`,
        ).get(nowIso, origin) as { pending: number };
        if (pending >= this.#pendingPerOrigin) {
          throw new ClientStoreError(
            'TOO_MANY_PENDING',
            `${origin} already has ${pending} pairing requests waiting (at most ${this.#pendingPerOrigin})`,
          );
        }
      }
      const { total } = this.#statement(`SELECT COUNT(*) AS total FROM pairings WHERE ${PENDING}`).get(nowIso) as {
        total: number;
      };
      if (total >= this.#maxPending) {
        // Requests stored without a source (by hand, or before version 4) each count alone.
        const busiest = this.#statement(
          `SELECT peer_key AS key, COUNT(*) AS count FROM pairings WHERE ${PENDING} AND peer_key IS NOT NULL
           GROUP BY peer_key ORDER BY count DESC, MIN(created_at) LIMIT 1`,
        ).get(nowIso) as { key: string; count: number } | undefined;
        if (from === undefined || busiest === undefined || busiest.count < mine + 2) {
          throw new ClientStoreError(
            'TOO_MANY_PENDING',
            `${total} pairing requests are waiting already (at most ${this.#maxPending} at once)`,
          );
        }
        withdraw(
          this.#statement(
            `SELECT id FROM pairings WHERE ${PENDING} AND peer_key = ? ORDER BY created_at, rowid LIMIT 1`,
          ).all(nowIso, busiest.key) as { id: string }[],
        );
      }
      const id = `pair_${draw(this.#random, 16).toString('hex')}`;
      const code = generatePairingCode(this.#random);
      const process = from?.peer.process ?? null;
      const pairing: PairingRequest = {
        id,
        name,
        origin,
        createdAt: nowIso,
        expiresAt: new Date(now.getTime() + this.#codeTtlMs).toISOString(),
        state: 'pending',
        program: process === null ? null : { pid: process.pid, name: process.name, program: process.program },
      };
      this.#statement(
        `INSERT INTO pairings (id, name, origin, code_hash, created_at, expires_at, attempts, state,
           connection_id, peer_key, peer_pid, peer_name, peer_program)
         VALUES (?, ?, ?, ?, ?, ?, 0, 'pending', ?, ?, ?, ?, ?)`,
      ).run(
        id,
        name,
        origin,
        hashPairingCode(id, code),
        pairing.createdAt,
        pairing.expiresAt,
        from?.connection ?? null,
        from?.peer.key ?? null,
        process?.pid ?? null,
        process?.name ?? null,
        process?.program ?? null,
      );
      return { pairing, code, withdrawn };
    });
  }

  /** One pairing request (any state), or undefined: the window blocks the program behind one. */
  pairing(pairingId: string): PairingRequest | undefined {
    const row = this.#read(
      () =>
        this.#statement(`SELECT ${PAIRING_COLUMNS} FROM pairings WHERE id = ?`).get(pairingId) as
          PairingRow | undefined,
    );
    return row === undefined ? undefined : toPairing(row, this.#now().toISOString());
  }

  /** The requests waiting for their code, oldest first (for the window; codes are not stored). */
  pendingPairings(): PairingRequest[] {
    const nowIso = this.#now().toISOString();
    const rows = this.#read(
      () =>
        this.#statement(
          `SELECT ${PAIRING_COLUMNS} FROM pairings WHERE state = 'pending' AND expires_at > ? ORDER BY created_at, rowid`,
        ).all(nowIso) as PairingRow[],
    );
    return rows.map((row) => toPairing(row, nowIso));
  }

  /**
   * Checks the code typed into the POS and, when it is right, creates the client and returns its
   * token (the only time the token exists in clear). One IMMEDIATE transaction: of two completions
   * racing, in this process or another, one wins and the other is told PAIRING_USED. A wrong code
   * or a wrong origin uses up one attempt; the last one kills the request (PAIRING_FAILED after).
   */
  completePairing(input: { pairingId: string; code: string; origin: string | null }): {
    client: PairedClient;
    token: string;
  } {
    if (typeof input.pairingId !== 'string' || input.pairingId.length === 0 || input.pairingId.length > 64) {
      throw new ClientStoreError('INVALID_INPUT', 'the pairing id must be a non-empty string');
    }
    const code = normalizePairingCode(input.code);
    if (code === undefined) throw new ClientStoreError('INVALID_INPUT', 'the pairing code must be 6 digits');
    if (input.origin !== null && typeof input.origin !== 'string') {
      throw new ClientStoreError('INVALID_INPUT', 'the origin must be a string or null');
    }
    const origin = presentedOrigin(input.origin);
    const outcome = this.#write((): Completion => {
      // Locked: no code is even looked at, so guessing on gains nothing.
      const locked = this.#lockError(this.#now());
      if (locked) return { error: locked };
      const row = this.#statement(`SELECT ${PAIRING_COLUMNS} FROM pairings WHERE id = ?`).get(input.pairingId) as
        PairingRow | undefined;
      if (!row)
        return { error: new ClientStoreError('PAIRING_NOT_FOUND', `there is no pairing request ${input.pairingId}`) };
      const nowIso = this.#now().toISOString();
      const ended = this.#endedError(row, nowIso);
      if (ended) return { error: ended };

      const matches = origin === row.origin && pairingCodeMatches(row.id, code, row.code_hash);
      if (!matches) {
        const attempts = row.attempts + 1;
        const attemptsLeft = Math.max(0, this.#maxCodeAttempts - attempts);
        this.#statement(`UPDATE pairings SET attempts = ?, state = ? WHERE id = ?`).run(
          attempts,
          attemptsLeft === 0 ? 'failed' : 'pending',
          row.id,
        );
        this.#statement(`INSERT INTO pairing_failures (at, origin, pairing_id) VALUES (?, ?, ?)`).run(
          nowIso,
          origin,
          row.id,
        );
        // The origin is checked first so that a caller from another origin learns nothing about the code.
        return origin === row.origin
          ? { error: new ClientStoreError('WRONG_CODE', `wrong code for pairing request ${row.id}`, { attemptsLeft }) }
          : {
              error: new ClientStoreError(
                'ORIGIN_MISMATCH',
                `pairing request ${row.id} was made by ${describeOrigin(row.origin)}, not by ${input.origin === null ? 'a non-browser client' : JSON.stringify(input.origin)}`,
                { attemptsLeft },
              ),
            };
      }
      // Blocking rejects pending requests in its own transaction, so this only guards a row
      // written by an older version or by hand.
      if (row.origin !== null && this.#blocked(row.origin)) {
        this.#statement(`UPDATE pairings SET state = 'rejected' WHERE id = ?`).run(row.id);
        return { error: new ClientStoreError('ORIGIN_BLOCKED', `the cashier blocked ${row.origin}`) };
      }

      const token = `${TOKEN_PREFIX}${draw(this.#random, TOKEN_BYTES).toString('base64url')}`;
      const client: PairedClient = {
        id: `cli_${draw(this.#random, 8).toString('hex')}`,
        name: row.name,
        origin: row.origin,
        createdAt: nowIso,
        lastSeenAt: null,
        revokedAt: null,
      };
      this.#statement(`INSERT INTO clients (id, name, origin, token_hash, created_at) VALUES (?, ?, ?, ?, ?)`).run(
        client.id,
        client.name,
        client.origin,
        sha256(token),
        client.createdAt,
      );
      this.#statement(`UPDATE pairings SET state = 'completed', attempts = ?, client_id = ? WHERE id = ?`).run(
        row.attempts + 1,
        client.id,
        row.id,
      );
      return { client, token };
    });
    if ('error' in outcome) throw outcome.error;
    return outcome;
  }

  /**
   * The wrong codes of the last 24 hours against the budget, and where they came from: what the
   * window shows, and whether pairing is locked.
   */
  pairingGuard(): PairingGuard {
    return this.#read(() => this.#guard(this.#now()));
  }

  /** The cashier unlocks pairing (after blocking what guessed): the wrong codes so far stop counting. */
  unlockPairing(): PairingGuard {
    return this.#write(() => {
      this.#statement(`DELETE FROM pairing_failures`).run();
      this.#afterDelete = true;
      return this.#guard(this.#now());
    });
  }

  /**
   * The cashier said no. A request already completed answers PAIRING_USED (the client exists: revoke
   * it instead); one that ended otherwise stays as it is.
   */
  rejectPairing(pairingId: string): void {
    this.#write(() => {
      const row = this.#statement(`SELECT state FROM pairings WHERE id = ?`).get(pairingId) as
        { state: PairingState } | undefined;
      if (!row) throw new ClientStoreError('PAIRING_NOT_FOUND', `there is no pairing request ${String(pairingId)}`);
      if (row.state === 'completed') {
        throw new ClientStoreError(
          'PAIRING_USED',
          `pairing request ${pairingId} was already completed; revoke its client instead`,
        );
      }
      if (row.state === 'pending')
        this.#statement(`UPDATE pairings SET state = 'rejected' WHERE id = ?`).run(pairingId);
    });
  }

  // --- clients ---------------------------------------------------------------------------------

  /**
   * The client holding `token`, presented from `origin` (null for a non-browser client), with
   * lastSeenAt now. The token is bound to exactly the origin it was paired from: another origin,
   * a browser origin for a non-browser token, or null for a browser token is ORIGIN_MISMATCH.
   * A blocked origin is refused (ORIGIN_BLOCKED) while it stays blocked; its tokens stay valid.
   */
  authenticate(token: string, origin: string | null): PairedClient {
    if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) {
      throw new ClientStoreError('TOKEN_INVALID', 'the client token is malformed');
    }
    const presented = presentedOrigin(origin);
    const row = this.#read(
      () =>
        this.#statement(`SELECT ${CLIENT_COLUMNS} FROM clients WHERE token_hash = ?`).get(sha256(token)) as
          ClientRow | undefined,
    );
    if (!row) throw new ClientStoreError('TOKEN_INVALID', 'the client token is not known');
    if (row.revoked_at !== null)
      throw new ClientStoreError('TOKEN_REVOKED', `client ${row.id} was revoked at ${row.revoked_at}`);
    if (presented !== row.origin) {
      throw new ClientStoreError(
        'ORIGIN_MISMATCH',
        `client ${row.id} is paired to ${describeOrigin(row.origin)}, not ${origin === null ? 'a non-browser client' : JSON.stringify(origin)}`,
      );
    }
    if (row.origin !== null && this.isBlocked(row.origin)) {
      throw new ClientStoreError('ORIGIN_BLOCKED', `the cashier blocked ${row.origin}`);
    }
    const seenAt = this.#now().toISOString();
    let changes: number;
    try {
      // Conditional on not revoked: a revocation committed since the read above wins.
      changes = this.#read(
        () =>
          this.#statement(`UPDATE clients SET last_seen_at = ? WHERE id = ? AND revoked_at IS NULL`).run(seenAt, row.id)
            .changes,
      );
    } catch (error) {
      // A full disk does not lock a POS out (issue 33): the time is just not kept. Read above: not revoked.
      if (!isIoFault(error)) throw error;
      return toClient(row);
    }
    if (changes === 0) throw new ClientStoreError('TOKEN_REVOKED', `client ${row.id} was revoked`);
    return toClient({ ...row, last_seen_at: seenAt });
  }

  /**
   * Whether the client exists and is not revoked, as the file says now: asked on every POS request. Answered from
   * the clients not revoked as last read, when the change marker says no store (this one included) wrote since
   * (no SQLite lock taken); else SQLite's change stamp is asked (a one-row read's lock, no row), and the clients
   * read again when it moved.
   */
  isActive(clientId: string): boolean {
    // The marker first: whatever is read after it is at least as new as the writes it counts.
    const marker = this.#marker?.read();
    const now = this.#now().getTime();
    const view = this.#activeView;
    if (
      view !== undefined &&
      marker !== undefined &&
      marker === view.marker &&
      now >= view.checkedAt &&
      now - view.checkedAt < MARKER_TRUST_MS &&
      view.stamp.connection === this.#db.connection
    ) {
      return view.active.has(clientId);
    }
    return this.#checkedActive(marker, now).has(clientId);
  }

  /** The clients not revoked, as SQLite says now: the view kept if its stamp still holds, else read again. */
  #checkedActive(marker: number | undefined, now: number): ReadonlySet<string> {
    let stamp: ChangeStamp;
    try {
      stamp = this.#db.changeStamp();
    } catch (error) {
      throw translate(error, this.path);
    }
    let view = this.#activeView;
    if (view === undefined || !sameStamp(view.stamp, stamp)) {
      // Stamped before the read: a commit between the two changes the next stamp, and the next check reads again.
      const rows = this.#read(
        () => this.#statement(`SELECT id FROM clients WHERE revoked_at IS NULL`).all() as { id: string }[],
      );
      view = { stamp, active: new Set(rows.map((row) => row.id)), marker, checkedAt: now };
      this.#activeView = view;
    } else {
      view.marker = marker;
      view.checkedAt = now;
    }
    return view.active;
  }

  /** Whether some unrevoked client is paired to this origin (compared normalized). */
  isPairedOrigin(origin: string): boolean {
    const normalized = normalizeOrigin(origin);
    if (normalized === undefined) return false;
    return this.#read(
      () =>
        this.#statement(`SELECT 1 FROM clients WHERE origin = ? AND revoked_at IS NULL LIMIT 1`).get(normalized) !==
        undefined,
    );
  }

  /** Every client ever paired, revoked ones included, oldest first. */
  list(): PairedClient[] {
    const rows = this.#read(
      () => this.#statement(`SELECT ${CLIENT_COLUMNS} FROM clients ORDER BY created_at, rowid`).all() as ClientRow[],
    );
    return rows.map(toClient);
  }

  get(clientId: string): PairedClient | undefined {
    const row = this.#read(
      () =>
        this.#statement(`SELECT ${CLIENT_COLUMNS} FROM clients WHERE id = ?`).get(clientId) as ClientRow | undefined,
    );
    return row === undefined ? undefined : toClient(row);
  }

  /** Revokes the client's token for good (a new pairing is needed); revoking twice keeps the first time. */
  revoke(clientId: string): PairedClient {
    return this.#write(() => {
      this.#statement(`UPDATE clients SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`).run(
        this.#now().toISOString(),
        clientId,
      );
      const row = this.#statement(`SELECT ${CLIENT_COLUMNS} FROM clients WHERE id = ?`).get(clientId) as
        ClientRow | undefined;
      if (!row) throw new ClientStoreError('NOT_FOUND', `there is no client ${String(clientId)}`);
      return toClient(row);
    });
  }

  // --- blocked origins -------------------------------------------------------------------------

  /**
   * Blocks an origin: it can no longer ask to pair, its pending requests are rejected, and
   * authenticate refuses it while it stays blocked. Its clients' tokens are NOT revoked: blocking
   * is a switch the cashier can turn back (unblockOrigin), revocation is for good and is separate
   * (revoke). Blocking twice keeps the first time.
   */
  blockOrigin(origin: string): void {
    const normalized = checkOrigin(origin);
    if (normalized === null) throw new ClientStoreError('INVALID_INPUT', 'only a browser origin can be blocked');
    this.#write(() => {
      this.#statement(`INSERT OR IGNORE INTO blocked_origins (origin, blocked_at) VALUES (?, ?)`).run(
        normalized,
        this.#now().toISOString(),
      );
      this.#statement(`UPDATE pairings SET state = 'rejected' WHERE state = 'pending' AND origin = ?`).run(normalized);
    });
  }

  /** Lets the origin ask to pair again (and its unrevoked tokens work again). */
  unblockOrigin(origin: string): void {
    const normalized = checkOrigin(origin);
    if (normalized === null) return;
    this.#write(() => {
      this.#statement(`DELETE FROM blocked_origins WHERE origin = ?`).run(normalized);
      this.#afterDelete = true;
    });
  }

  blockedOrigins(): BlockedOrigin[] {
    const rows = this.#read(
      () =>
        this.#statement(`SELECT origin, blocked_at FROM blocked_origins ORDER BY blocked_at, origin`).all() as {
          origin: string;
          blocked_at: string;
        }[],
    );
    return rows.map((row) => ({ origin: row.origin, blockedAt: row.blocked_at }));
  }

  /** Whether the cashier blocked this origin; never for null (a non-browser client has no origin to block). */
  isBlocked(origin: string | null): boolean {
    if (origin === null) return false;
    const normalized = normalizeOrigin(origin);
    if (normalized === undefined) return false;
    return this.#read(() => this.#blocked(normalized));
  }

  // --- blocked programs ------------------------------------------------------------------------

  /**
   * Blocks a program (as the POS server identified it: pos/server/peer): the server refuses its
   * connections, and its pending requests are rejected. Blocking twice keeps the first time.
   */
  blockProgram(input: { name: string; program: string }): BlockedProgram {
    const program = typeof input.program === 'string' ? input.program.trim() : '';
    if (program.length === 0 || program.length > PROGRAM_MAX_LENGTH)
      throw new ClientStoreError('INVALID_INPUT', `a program must have 1 to ${PROGRAM_MAX_LENGTH} characters`);
    const name = typeof input.name === 'string' && input.name.trim() !== '' ? input.name.trim().slice(0, 200) : program;
    return this.#write(() => {
      this.#statement(`INSERT OR IGNORE INTO blocked_programs (id, program, name, blocked_at) VALUES (?, ?, ?, ?)`).run(
        programId(program),
        program,
        name,
        this.#now().toISOString(),
      );
      this.#statement(`UPDATE pairings SET state = 'rejected' WHERE state = 'pending' AND peer_program = ?`).run(
        program,
      );
      return this.#blockedProgram(programId(program))!;
    });
  }

  /** Lets a blocked program connect again; NOT_FOUND for an id not blocked. */
  unblockProgram(id: string): BlockedProgram {
    return this.#write(() => {
      const blocked = this.#blockedProgram(id);
      if (blocked === undefined) throw new ClientStoreError('NOT_FOUND', `no blocked program ${String(id)}`);
      this.#statement(`DELETE FROM blocked_programs WHERE id = ?`).run(id);
      this.#afterDelete = true;
      return blocked;
    });
  }

  blockedPrograms(): BlockedProgram[] {
    const rows = this.#read(
      () =>
        this.#statement(`SELECT id, program, name, blocked_at FROM blocked_programs ORDER BY blocked_at, id`).all() as {
          id: string;
          program: string;
          name: string;
          blocked_at: string;
        }[],
    );
    return rows.map((row) => ({ id: row.id, name: row.name, program: row.program, blockedAt: row.blocked_at }));
  }

  /** Whether any program is blocked (asked at every connection: one indexed read). */
  hasBlockedPrograms(): boolean {
    return this.#read(() => this.#statement(`SELECT 1 FROM blocked_programs LIMIT 1`).get() !== undefined);
  }

  isProgramBlocked(program: string): boolean {
    return this.#read(() => this.#blockedProgram(programId(program)) !== undefined);
  }

  /**
   * The open file, for the neighbour that keeps its records in it: the payment owners
   * (pos/server/ownership-store.ts). It closes with this store. Writes to the clients go through the store:
   * one made through the file directly reaches isActive within MARKER_TRUST_MS, as another program's would.
   */
  get file(): SqliteDatabase {
    return this.#db;
  }

  close(): void {
    this.#activeView = undefined;
    this.#marker?.close();
    this.#marker = undefined;
    this.#db.close();
  }

  // --- internals -------------------------------------------------------------------------------

  #guard(now: Date): PairingGuard {
    const since = new Date(now.getTime() - WRONG_CODE_WINDOW_MS).toISOString();
    const { count, oldest } = this.#statement(
      `SELECT COUNT(*) AS count, MIN(at) AS oldest FROM pairing_failures WHERE at > ?`,
    ).get(since) as {
      count: number;
      oldest: string | null;
    };
    const origins = (
      this.#statement(
        `SELECT origin, COUNT(*) AS count FROM pairing_failures WHERE at > ? GROUP BY origin ORDER BY count DESC, origin`,
      ).all(since) as {
        origin: string | null;
        count: number;
      }[]
    ).map((row) => ({ origin: row.origin, wrongCodes: row.count }));
    const locked = count >= this.#wrongCodeBudget;
    const unlocksAt =
      locked && oldest !== null ? new Date(Date.parse(oldest) + WRONG_CODE_WINDOW_MS).toISOString() : null;
    return { wrongCodes: count, budget: this.#wrongCodeBudget, locked, unlocksAt, origins };
  }

  #lockError(now: Date): ClientStoreError | undefined {
    const guard = this.#guard(now);
    if (!guard.locked) return undefined;
    const retryAfterMs =
      guard.unlocksAt === null ? WRONG_CODE_WINDOW_MS : Math.max(0, Date.parse(guard.unlocksAt) - now.getTime());
    return new ClientStoreError(
      'PAIRING_LOCKED',
      `pairing is locked: ${guard.wrongCodes} wrong codes in 24 hours (at most ${guard.budget}); the cashier can unlock it in Pinbridge's window`,
      { retryAfterMs },
    );
  }

  #assertUnlocked(now: Date): void {
    const locked = this.#lockError(now);
    if (locked) throw locked;
  }

  #blockedProgram(id: string): BlockedProgram | undefined {
    const row = this.#statement(`SELECT id, program, name, blocked_at FROM blocked_programs WHERE id = ?`).get(id) as
      { id: string; program: string; name: string; blocked_at: string } | undefined;
    return row === undefined
      ? undefined
      : { id: row.id, name: row.name, program: row.program, blockedAt: row.blocked_at };
  }

  #blocked(normalized: string): boolean {
    return this.#statement(`SELECT 1 FROM blocked_origins WHERE origin = ?`).get(normalized) !== undefined;
  }

  /** Why an ended request cannot complete (marking an expired pending row), or undefined if it can. */
  #endedError(row: PairingRow, nowIso: string): ClientStoreError | undefined {
    switch (row.state) {
      case 'completed':
        return new ClientStoreError(
          'PAIRING_USED',
          `pairing request ${row.id} was already completed; its code cannot be used again`,
        );
      case 'failed':
        return new ClientStoreError(
          'PAIRING_FAILED',
          `pairing request ${row.id} had too many wrong attempts; ask to pair again`,
          {
            attemptsLeft: 0,
          },
        );
      case 'rejected':
        return new ClientStoreError('PAIRING_REJECTED', `pairing request ${row.id} was rejected by the cashier`);
      case 'expired':
        return new ClientStoreError('PAIRING_EXPIRED', `pairing request ${row.id} expired at ${row.expires_at}`);
      case 'withdrawn':
        return new ClientStoreError(
          'PAIRING_WITHDRAWN',
          `pairing request ${row.id} was replaced by a newer request from the same connection or program`,
        );
      case 'pending':
        if (row.expires_at > nowIso) return undefined;
        this.#statement(`UPDATE pairings SET state = 'expired' WHERE id = ?`).run(row.id);
        return new ClientStoreError('PAIRING_EXPIRED', `pairing request ${row.id} expired at ${row.expires_at}`);
      default:
        throw new ClientStoreError(
          'CORRUPT',
          `pairing request ${row.id} has an unknown state ${JSON.stringify(row.state)}`,
        );
    }
  }

  /** Marks pending requests past their expiry; deletes requests and wrong codes older than their retention. */
  #cleanUp(): void {
    const now = this.#now();
    this.#write(() => {
      this.#statement(`UPDATE pairings SET state = 'expired' WHERE state = 'pending' AND expires_at <= ?`).run(
        now.toISOString(),
      );
      const pairings = this.#statement(`DELETE FROM pairings WHERE created_at < ?`).run(
        new Date(now.getTime() - PAIRING_RETENTION_MS).toISOString(),
      );
      const failures = this.#statement(`DELETE FROM pairing_failures WHERE at < ?`).run(
        new Date(now.getTime() - WRONG_CODE_WINDOW_MS).toISOString(),
      );
      if (pairings.changes > 0 || failures.changes > 0) this.#afterDelete = true;
    });
  }

  /**
   * After a delete of what named a POS or a site: the write-ahead log still holds the pages as
   * they were, so it is copied into the file (where secure_delete zeroed the rows) and truncated.
   */
  #forgetDeleted(): void {
    if (!this.#afterDelete) return;
    // A reader holds the log: the next delete (or start) tries again.
    this.#afterDelete = !this.#db.truncateLog();
  }

  /** One compiled statement per SQL text (the storage module's cache). */
  #statement(sql: string): Statement {
    return this.#db.statement(sql);
  }

  /**
   * Runs `work` in one IMMEDIATE transaction: the write lock is taken before anything is read. The change
   * marker counts it (begun under the lock, ended after the commit or rollback) for every store's isActive.
   */
  #write<T>(work: () => T): T {
    // A marker that could not be opened (no room when the store opened) is tried again: writes are rare.
    if (this.#marker === undefined && this.#db.connection.open) this.#marker = ChangeMarker.open(this.path);
    const marker = this.#marker;
    let begun: number | undefined;
    let result: T;
    try {
      result = this.#db.write(() => {
        begun = marker?.begin();
        return work();
      });
    } catch (error) {
      this.#afterDelete = false;
      throw translate(error, this.path);
    } finally {
      if (begun !== undefined) marker?.end(begun);
    }
    this.#forgetDeleted();
    return result;
  }

  #read<T>(work: () => T): T {
    try {
      return this.#db.autocommit(work);
    } catch (error) {
      throw translate(error, this.path);
    }
  }
}
