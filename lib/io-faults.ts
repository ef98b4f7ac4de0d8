/**
 * Whether an error is the disk refusing a write (full, over quota, read-only, failing) rather than
 * a bug: what the agent degrades on instead of exiting (issue 33). Told by the `code`s the layers
 * put on their errors — Node's errno codes, SQLite's result codes, and the stores' own codes for
 * the same conditions — looked for along the `cause` chain, since each store wraps what it got.
 */

/** The errno codes of a write the disk refused. */
const ERRNO_FAULTS: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EFBIG']);
/** The errno codes that mean "no room" (the rest of ERRNO_FAULTS: the disk itself fails or is read-only). */
const NO_ROOM: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

export type IoFaultKind = 'full' | 'failing';

export interface IoFault {
  /** `full`: no room (ENOSPC, SQLITE_FULL, a store's DISK_FULL); `failing`: read-only or I/O errors. */
  readonly kind: IoFaultKind;
  /** The most specific code found (ENOSPC, SQLITE_FULL, SQLITE_IOERR_SHMSIZE…). */
  readonly code: string;
}

function faultOfCode(code: string, name: string): IoFault | undefined {
  if (ERRNO_FAULTS.has(code)) return { kind: NO_ROOM.has(code) ? 'full' : 'failing', code };
  if (code === 'SQLITE_FULL') return { kind: 'full', code };
  // SQLITE_IOERR_SHMSIZE: the shared-memory index could not grow — on a full disk, where it is met.
  if (code === 'SQLITE_IOERR_SHMSIZE') return { kind: 'full', code };
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY')) return { kind: 'failing', code };
  // The stores' own codes for the same conditions (StorageError, JournalError…), by their class names.
  if (code === 'DISK_FULL' && /Error$/.test(name)) return { kind: 'full', code };
  return undefined;
}

/** The disk fault `error` (or one of its causes) reports, or undefined when it is something else. */
export function ioFaultOf(error: unknown): IoFault | undefined {
  let current: unknown = error;
  let fallback: IoFault | undefined;
  // A few levels: the stores wrap SQLite's error once or twice; a loop of causes must not hang.
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    const name = (current as { name?: unknown }).name;
    if (typeof code === 'string') {
      const fault = faultOfCode(code, typeof name === 'string' ? name : '');
      // The innermost errno or SQLite code says most: keep looking past a store's own code.
      if (fault !== undefined && (code.startsWith('E') || code.startsWith('SQLITE_'))) return fault;
      fallback ??= fault;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return fallback;
}

/** Whether `error` is the disk refusing a write (see ioFaultOf). */
export function isIoFault(error: unknown): boolean {
  return ioFaultOf(error) !== undefined;
}
