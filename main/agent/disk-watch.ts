/**
 * The agent's disk, watched as one thing (issue 33). Each writer degrades on its own when the
 * disk refuses it — the journal refuses new sales (DISK_FULL) and is held read-only, the log
 * file falls back to stderr and memory, the print queue holds its jobs in memory — and reports
 * it here; so does the journal's lack of room for a sale (checked on a timer: quiet at idle, one
 * statfs), and any disk fault nobody handled (the process guard, `report`). From those it keeps
 * one state, `ok` or `full`, that the window shows as a banner, the PINPAD as its idle text and
 * the audit trail as one `disk.full` line when it starts and one `disk.recovered` when it ends —
 * never a line per failed write.
 *
 * Recovery is found, not waited for: while full it looks every FULL_POLL_MS at the free space of
 * each failing writer's folder and, where there is room, has it try again (the log writes what it
 * kept in memory, the print queue journals and prints its held jobs). Once every writer writes
 * and the journal has room for a sale, the state is `ok` again: no restart.
 */
import { EventEmitter } from 'node:events';
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { ioFaultOf } from '../../lib/io-faults.js';
import type { AuditLog } from '../audit-log.js';
import type { Journal } from '../core/journal/journal.js';
import type { LogFileFailure, LogFileHealth, Logger } from '../log.js';
import { RECENT_LINES_SHOWN, type RunningDiskReport } from '../doctor/disk.js';
import { maskCardData } from './log-export.js';
import type { DiskSource, DiskState } from '../pos/server/agent.js';
import type { PrintJournalFailure, PrintQueue } from '../receipts/print-queue.js';

export type { DiskSource } from '../pos/server/agent.js';
/** The disk's state (the POS server's DiskState: agent.status, event agent.disk). */
export type DiskStatus = DiskState;

export interface DiskWatchOptions {
  readonly journal: Pick<Journal, 'room' | 'path'>;
  readonly audit: Pick<AuditLog, 'record'>;
  readonly logger: Pick<Logger, 'error' | 'warn' | 'info'>;
  /** The agent's log file, when it writes one. */
  readonly logFile?: LogFileHealth;
  readonly printQueue?: Pick<PrintQueue, 'journalFailure' | 'retryWrites' | 'journal' | 'on' | 'off'>;
  /** How often the journal's room is looked at while all is well (default OK_POLL_MS). */
  readonly okPollMs?: number;
  /** How often the writers are tried again while the disk is full (default FULL_POLL_MS). */
  readonly fullPollMs?: number;
  readonly now?: () => number;
  /** Free bytes on the file system of `path` (default statfs; tests give their own). */
  readonly freeBytes?: (path: string) => number;
}

export const OK_POLL_MS = 10_000;
export const FULL_POLL_MS = 2_000;
/** Free space at which a failing writer is tried again. */
export const RETRY_ROOM_BYTES = 1024 * 1024;

function statfsFree(path: string): number {
  try {
    const fs = statfsSync(path);
    return fs.bavail * fs.bsize;
  } catch {
    // Cannot be told (a folder gone, a network share): the writer's own attempt will tell.
    return Number.MAX_SAFE_INTEGER;
  }
}

const OK_STATUS_MESSAGE = 'the disk takes writes';

interface Failing {
  readonly code: string;
  /** The file whose folder is looked at before the writer tries again (none: the journal's). */
  readonly path: string | undefined;
  /** When it was found failing. */
  readonly at: number;
}

export class DiskWatch extends EventEmitter<{ change: [DiskStatus] }> {
  readonly #options: DiskWatchOptions;
  readonly #now: () => number;
  readonly #free: (path: string) => number;
  readonly #failing = new Map<DiskSource, Failing>();
  readonly #unsubscribe: (() => void)[] = [];
  #status: DiskStatus;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: DiskWatchOptions) {
    super();
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#free = options.freeBytes ?? statfsFree;
    this.#status = this.#describe();
  }

  get status(): DiskStatus {
    return this.#status;
  }

  /** Looks at the disk now and from then on; follows the log file and the print queue. */
  start(): void {
    const { logFile, printQueue } = this.#options;
    if (logFile !== undefined) {
      const onLog = (failure: LogFileFailure | undefined): void =>
        failure === undefined ? this.#cleared('logs') : this.#failed('logs', failure.code, logFile.path);
      this.#unsubscribe.push(logFile.onChange(onLog));
      if (logFile.failure !== undefined) onLog(logFile.failure);
    }
    if (printQueue !== undefined) {
      const onPrint = (failure: PrintJournalFailure | undefined): void =>
        failure === undefined
          ? this.#cleared('print_journal')
          : this.#failed('print_journal', failure.code, printQueue.journal.path);
      printQueue.on('journal', onPrint);
      this.#unsubscribe.push(() => printQueue.off('journal', onPrint));
      if (printQueue.journalFailure !== undefined) onPrint(printQueue.journalFailure);
    }
    this.check();
  }

  /**
   * A write the disk refused, from anywhere (the process guard: a fault nobody handled). Not a
   * disk fault: ignored. Cleared once the journal's disk has room again.
   */
  report(error: unknown, source: DiskSource = 'other', path?: string): void {
    const fault = ioFaultOf(error);
    if (fault === undefined) return;
    this.#failed(source, fault.code, path);
  }

  /** Looks now: the journal's room, and while full, each failing writer where its disk has room. */
  check(): void {
    if (this.#stopped) return;
    let room: ReturnType<DiskWatchOptions['journal']['room']> | undefined;
    try {
      room = this.#options.journal.room();
    } catch (error) {
      this.#failed('journal', ioFaultOf(error)?.code ?? 'DISK_ERROR', undefined);
    }
    if (room !== undefined) {
      if (room.enough) this.#failing.delete('journal');
      else if (!this.#failing.has('journal'))
        this.#failing.set('journal', { code: 'DISK_FULL', path: undefined, at: this.#now() });
    }
    if (this.#failing.size > 0) this.#retryWriters(room?.enough === true);
    this.#update();
    this.#schedule();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    for (const off of this.#unsubscribe.splice(0)) off();
  }

  /** Each failing writer whose disk has room tries again; what has no state of its own follows the journal. */
  #retryWriters(journalHasRoom: boolean): void {
    const { logFile, printQueue } = this.#options;
    const hasRoom = (path: string): boolean => this.#free(dirname(path)) >= RETRY_ROOM_BYTES;
    if (logFile !== undefined && this.#failing.has('logs') && hasRoom(logFile.path) && logFile.retryNow())
      this.#failing.delete('logs');
    if (printQueue !== undefined && this.#failing.has('print_journal') && hasRoom(printQueue.journal.path)) {
      printQueue.retryWrites();
      if (printQueue.journalFailure === undefined) this.#failing.delete('print_journal');
    }
    // A fault with no writer to try again: over once its folder (else the journal's) has room, a
    // full look after it was found — so the window shows it, however briefly it lasted.
    const other = this.#failing.get('other');
    if (
      other !== undefined &&
      this.#now() - other.at >= (this.#options.fullPollMs ?? FULL_POLL_MS) &&
      (other.path === undefined ? journalHasRoom : hasRoom(other.path))
    )
      this.#failing.delete('other');
  }

  /**
   * A writer failed: looked at on the next turn of the event loop, with the journal's room — not
   * here, inside the writer's own failing write (the log's, which this would log into).
   */
  #failed(source: DiskSource, code: string, path: string | undefined): void {
    if (!this.#failing.has(source)) this.#failing.set(source, { code, path, at: this.#now() });
    this.#schedule(0);
  }

  #cleared(source: DiskSource): void {
    if (!this.#failing.delete(source)) return;
    this.#schedule(0);
  }

  #schedule(ms?: number): void {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    const full = this.#failing.size > 0;
    this.#timer = setTimeout(
      () => this.check(),
      ms ?? (full ? (this.#options.fullPollMs ?? FULL_POLL_MS) : (this.#options.okPollMs ?? OK_POLL_MS)),
    );
    this.#timer.unref();
  }

  /** The state from what fails now; a change of state is logged, audited and told — once. */
  #update(): void {
    const before = this.#status;
    const described = this.#describe();
    // Still full, whatever changed in it: since when it has been full.
    const next =
      described.state === 'full' && before.state === 'full' ? { ...described, since: before.since } : described;
    if (next.state === before.state && next.salesRefused === before.salesRefused && next.code === before.code) {
      // Same state: only which writers changed (no news for the audit trail or the PINPAD).
      if (next.sources.join() !== before.sources.join()) {
        this.#status = next;
        this.emit('change', this.#status);
      }
      return;
    }
    this.#status = next;
    const { audit, logger } = this.#options;
    if (next.state === 'full' && before.state === 'ok') {
      const first = this.#failing.values().next().value;
      audit.record({
        kind: 'disk.full',
        source: next.sources.join(','),
        code: next.code,
        sales_refused: next.salesRefused,
      });
      logger.error({ sources: next.sources, code: next.code, path: first?.path }, next.message);
    } else if (next.state === 'ok' && before.state === 'full') {
      const lastedSeconds = Math.round((Date.parse(next.since) - Date.parse(before.since)) / 1000);
      audit.record({ kind: 'disk.recovered', lasted_s: lastedSeconds });
      logger.info({ lastedSeconds }, 'the disk takes writes again: sales and everything written resume');
    } else {
      logger.warn({ sources: next.sources, code: next.code }, next.message);
    }
    this.emit('change', next);
  }

  #describe(): DiskStatus {
    const since = new Date(this.#now()).toISOString();
    if (this.#failing.size === 0)
      return {
        state: 'ok',
        since,
        sources: [],
        code: null,
        salesRefused: false,
        message: OK_STATUS_MESSAGE,
        cashierMessage: '',
      };
    const sources = [...this.#failing.keys()];
    const code = [...this.#failing.values()][0]!.code;
    const salesRefused = this.#failing.has('journal');
    const what = sources.map((source) => SOURCE_NAMES[source]).join(', ');
    return {
      state: 'full',
      since,
      sources,
      code,
      salesRefused,
      message: salesRefused
        ? `the computer's disk is full (${code}; ${what}): new sales are refused (DISK_FULL) until there is room; what is written meanwhile waits in memory`
        : `the computer's disk refuses writes (${code}; ${what}): what cannot be written waits in memory; sales go on`,
      cashierMessage: salesRefused
        ? 'Disco do computador cheio: novas vendas estão suspensas até liberar espaço.'
        : 'O disco do computador não aceita gravação: registros e impressões aguardam na memória. As vendas continuam.',
    };
  }
}

const SOURCE_NAMES: Readonly<Record<DiskSource, string>> = {
  journal: 'the journal has no room for a sale',
  logs: 'the log file',
  print_journal: 'the print journal',
  other: 'a file of the agent',
};

/** What the doctor asked from the window reports of the agent's disk and its log file (the lines masked). */
export function runningDiskReport(
  status: DiskStatus | undefined,
  logFile: LogFileHealth | undefined,
): RunningDiskReport {
  const failure = logFile?.failure;
  return {
    disk: {
      state: status?.state ?? 'ok',
      salesRefused: status?.salesRefused ?? false,
      code: status?.code ?? null,
      sources: status?.sources ?? [],
    },
    logs:
      logFile === undefined
        ? null
        : {
            path: logFile.path,
            notWritten:
              failure === undefined ? null : { code: failure.code, since: failure.since, unwritten: failure.unwritten },
            recent: logFile
              .recent()
              .slice(-RECENT_LINES_SHOWN)
              .map((line) => maskCardData(line.replace(/\n$/, '')).text),
          },
  };
}
