/**
 * The security audit trail: pairing, blocks, the supervisor, tampering, the disk — each a JSON
 * line in its own rotating file (`~/.pinbridge/logs/audit.log`), apart from the agent's log, so a
 * flood of noise there (a program knocking on the POS port thousands of times a second) can never
 * push these lines out.
 *
 * Noise cannot flush this file either. Every kind of event has a budget of lines (a burst of
 * BURST_LINES, refilled at LINES_PER_HOUR): what goes past it is not written one by one but
 * counted, and the count is written as one `suppressed` line when the budget has room again (or at
 * close). With ROTATE_BYTES × KEEP_FILES on disk and lines of at most MAX_LINE_BYTES, the oldest
 * line kept is at least `retentionHours()` old whatever a flood does — the guarantee
 * docs/pos-api.md states.
 *
 * A write that fails (a full or read-only disk) never throws: the line stays in memory (the last
 * RECENT_LINES are kept for the window and `doctor` anyway) and is written with the next line
 * that can be, flagged `late`.
 */
import { closeSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Every kind of line the agent records. The retention promise (retentionHours) assumes all of them
 * flood at once, so a new kind goes here — never a kind made up at the call.
 */
export const AUDIT_KINDS = [
  'pairing.requested',
  'pairing.approved',
  'pairing.rejected',
  'pairing.wrong_code',
  'pairing.unlocked',
  'client.blocked',
  'client.unblocked',
  'client.revoked',
  'program.blocked',
  'program.unblocked',
  'connections.refused',
  'card_data.refused',
  'supervisor.pin_set',
  'supervisor.wrong_pin',
  'supervisor.locked',
  'supervisor.unlocked',
  'tamper.detected',
  'disk.full',
  'disk.recovered',
  'agent.started',
  'audit.suppressed',
] as const;

export type AuditKind = (typeof AUDIT_KINDS)[number];

/** What happened: a kind of AUDIT_KINDS and short facts. */
export interface AuditEvent {
  readonly kind: AuditKind;
  /** Short facts (ids, ports, process names, counts): never a secret, a code, a PIN or card data. */
  readonly [field: string]: string | number | boolean | null | undefined;
}

/** One line as kept: the event with its time, and whether it was written late (after a failed write). */
export interface AuditLine {
  readonly time: string;
  readonly kind: AuditKind;
  readonly [field: string]: string | number | boolean | null | undefined;
}

export const ROTATE_BYTES = 2 * 1024 * 1024;
/** Six files of 2 MiB: a day of every kind flooding at once, with room for a few more kinds (retentionHours). */
export const KEEP_FILES = 6;
export const BURST_LINES = 30;
export const LINES_PER_HOUR = 40;
/** A line's fields are cut to this many characters each, and a line to MAX_LINE_BYTES. */
export const MAX_FIELD_CHARS = 80;
export const MAX_LINE_BYTES = 512;
export const RECENT_LINES = 200;
const HOUR_MS = 3_600_000;

export interface AuditLogOptions {
  readonly rotateBytes?: number;
  readonly keepFiles?: number;
  readonly burstLines?: number;
  readonly linesPerHour?: number;
  readonly now?: () => number;
}

interface Budget {
  tokens: number;
  updatedAt: number;
  suppressed: number;
  suppressedSince: number;
}

/**
 * How many hours of lines the files hold at the least, with every kind in `kinds` flooding at its
 * full budget (a kind is only ever written within its budget).
 */
export function retentionHours(kinds: number = AUDIT_KINDS.length, options: AuditLogOptions = {}): number {
  const bytes = (options.rotateBytes ?? ROTATE_BYTES) * (options.keepFiles ?? KEEP_FILES);
  // Each kind writes its burst once and then its hourly rate, plus one `suppressed` line an hour.
  const burst = kinds * (options.burstLines ?? BURST_LINES) * MAX_LINE_BYTES;
  const perHour = kinds * ((options.linesPerHour ?? LINES_PER_HOUR) + 1) * MAX_LINE_BYTES;
  return Math.max(0, (bytes - burst) / perHour);
}

export class AuditLog {
  readonly path: string;
  readonly #rotateBytes: number;
  readonly #keepFiles: number;
  readonly #burst: number;
  readonly #perHour: number;
  readonly #now: () => number;
  readonly #budgets = new Map<AuditKind, Budget>();
  readonly #recent: AuditLine[] = [];
  /** Lines a failed write left in memory, written before the next one. */
  readonly #unwritten: string[] = [];
  #fd: number | undefined;
  #size = 0;
  #failure: string | undefined;

  constructor(path: string, options: AuditLogOptions = {}) {
    this.path = path;
    this.#rotateBytes = options.rotateBytes ?? ROTATE_BYTES;
    this.#keepFiles = Math.max(1, options.keepFiles ?? KEEP_FILES);
    this.#burst = options.burstLines ?? BURST_LINES;
    this.#perHour = options.linesPerHour ?? LINES_PER_HOUR;
    this.#now = options.now ?? Date.now;
  }

  /** The last lines recorded (written or not), oldest first: for the window and `doctor`. */
  get recent(): readonly AuditLine[] {
    return this.#recent;
  }

  /** Why the file cannot be written now (the lines wait in memory), or undefined. */
  get failure(): string | undefined {
    return this.#failure;
  }

  /** Records `event` within its kind's budget; past it, only counted. Never throws. */
  record(event: AuditEvent): void {
    const now = this.#now();
    const budget = this.#budgetOf(event.kind, now);
    if (budget.tokens < 1) {
      if (budget.suppressed === 0) budget.suppressedSince = now;
      budget.suppressed += 1;
      return;
    }
    budget.tokens -= 1;
    if (budget.suppressed > 0) {
      budget.tokens = Math.max(0, budget.tokens - 1);
      this.#add(now, {
        kind: 'audit.suppressed',
        of: event.kind,
        count: budget.suppressed,
        since: new Date(budget.suppressedSince).toISOString(),
      });
      budget.suppressed = 0;
    }
    this.#add(now, event);
  }

  /** Writes the counts still held back and closes the file. */
  close(): void {
    const now = this.#now();
    for (const [kind, budget] of this.#budgets) {
      if (budget.suppressed === 0) continue;
      this.#add(now, {
        kind: 'audit.suppressed',
        of: kind,
        count: budget.suppressed,
        since: new Date(budget.suppressedSince).toISOString(),
      });
      budget.suppressed = 0;
    }
    if (this.#fd !== undefined) {
      try {
        closeSync(this.#fd);
      } catch {
        // Closing cannot lose a line: each was written synchronously.
      }
      this.#fd = undefined;
    }
  }

  #budgetOf(kind: AuditKind, now: number): Budget {
    let budget = this.#budgets.get(kind);
    if (budget === undefined) {
      budget = { tokens: this.#burst, updatedAt: now, suppressed: 0, suppressedSince: now };
      this.#budgets.set(kind, budget);
      return budget;
    }
    const refill = ((now - budget.updatedAt) / HOUR_MS) * this.#perHour;
    budget.tokens = Math.min(this.#burst, budget.tokens + refill);
    budget.updatedAt = now;
    return budget;
  }

  #add(now: number, event: AuditEvent): void {
    const line: Record<string, string | number | boolean | null> = { time: new Date(now).toISOString() };
    for (const [key, value] of Object.entries(event)) {
      if (value === undefined) continue;
      line[key.slice(0, 40)] = typeof value === 'string' ? value.slice(0, MAX_FIELD_CHARS) : value;
    }
    this.#recent.push(line as AuditLine);
    if (this.#recent.length > RECENT_LINES) this.#recent.shift();
    let text = JSON.stringify(line);
    if (Buffer.byteLength(text) > MAX_LINE_BYTES - 1) text = JSON.stringify({ time: line.time, kind: line.kind });
    this.#write(`${text}\n`);
  }

  #write(text: string): void {
    this.#unwritten.push(text);
    try {
      this.#open();
      while (this.#unwritten.length > 0) {
        const next = this.#unwritten[0]!;
        const late = this.#unwritten.length > 1 ? next.replace(/}\n$/, ',"late":true}\n') : next;
        const bytes = Buffer.byteLength(late);
        if (this.#size > 0 && this.#size + bytes > this.#rotateBytes) this.#rotate();
        writeSync(this.#fd!, late);
        this.#size += bytes;
        this.#unwritten.shift();
      }
      this.#failure = undefined;
    } catch (error) {
      this.#failure = (error as NodeJS.ErrnoException).code ?? String(error);
      // Held in memory, but never without bound: the newest lines are the ones kept.
      if (this.#unwritten.length > RECENT_LINES) this.#unwritten.splice(0, this.#unwritten.length - RECENT_LINES);
      if (this.#fd !== undefined) {
        try {
          closeSync(this.#fd);
        } catch {
          // Reopened at the next line.
        }
        this.#fd = undefined;
      }
    }
  }

  #open(): void {
    if (this.#fd !== undefined) return;
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    this.#fd = openSync(this.path, 'a', 0o600);
    this.#size = fstatSync(this.#fd).size;
  }

  /** audit.log → audit.log.1 → … → audit.log.(KEEP_FILES − 1); the oldest goes. */
  #rotate(): void {
    closeSync(this.#fd!);
    this.#fd = undefined;
    rmSync(`${this.path}.${this.#keepFiles - 1}`, { force: true });
    for (let n = this.#keepFiles - 2; n >= 1; n--) {
      try {
        renameSync(`${this.path}.${n}`, `${this.path}.${n + 1}`);
      } catch {
        // Not there yet.
      }
    }
    if (this.#keepFiles > 1) renameSync(this.path, `${this.path}.1`);
    else rmSync(this.path, { force: true });
    this.#open();
  }
}
