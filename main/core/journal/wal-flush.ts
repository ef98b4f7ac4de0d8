/**
 * The fsync of the journal's write-ahead log off the event loop (F_FULLFSYNC on macOS, through
 * libuv), on a libuv thread: what `transitionsSyncedLater` waits on while the customer takes the
 * card out. Callers that come while one is in flight share the next one (group commit).
 */
import { closeSync, fsync, openSync } from 'node:fs';
import { JournalError } from './errors.js';

export class WalFlush {
  readonly #path: string;
  /** Our own descriptor of the write-ahead log, for fsyncs off the event loop (opened on first use). */
  #walFd: number | undefined;
  /** The fsync in flight, and the one queued behind it for commits made meanwhile (group commit). */
  #flushing: Promise<void> | undefined;
  #flushQueued: Promise<void> | undefined;

  /** `path`: the journal's file (its log is `${path}-wal`). */
  constructor(path: string) {
    this.#path = path;
  }

  /** Resolves once every commit made before the call is on the disk itself. */
  flush(): Promise<void> {
    if (this.#flushQueued) return this.#flushQueued;
    if (!this.#flushing) {
      this.#flushing = this.#fsyncWal().finally(() => {
        this.#flushing = undefined;
      });
      return this.#flushing;
    }
    // The fsync in flight may have started before this caller's commit: one more after it.
    this.#flushQueued = this.#flushing
      .catch(() => undefined)
      .then(() => {
        this.#flushQueued = undefined;
        return this.flush();
      });
    return this.#flushQueued;
  }

  #fsyncWal(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let fd: number;
      try {
        // The -wal file exists from the first commit on; fsync through any descriptor flushes the file.
        fd = this.#walFd ??= openSync(`${this.#path}-wal`, 'r+');
      } catch (error) {
        reject(
          new JournalError('IO', `the journal's write-ahead log ${this.#path}-wal cannot be opened: ${String(error)}`, {
            cause: error,
          }),
        );
        return;
      }
      fsync(fd, (error) => {
        if (error?.code === 'ENOSPC')
          reject(
            new JournalError('DISK_FULL', `the disk of the journal ${this.#path} is full: ${error.message}`, {
              cause: error,
            }),
          );
        else if (error)
          reject(
            new JournalError('IO', `the journal ${this.#path} could not be written to the disk: ${error.message}`, {
              cause: error,
            }),
          );
        else resolve();
      });
    });
  }

  /** Closes the log's descriptor; an fsync in flight keeps it until it is done. */
  close(): void {
    const fd = this.#walFd;
    this.#walFd = undefined;
    if (fd === undefined) return;
    const pending = this.#flushQueued ?? this.#flushing;
    if (pending) void pending.catch(() => undefined).finally(() => closeSync(fd));
    else closeSync(fd);
  }
}
