/**
 * A printer that is a folder: each job becomes a file of its own (a PDF when the job is one), for
 * headless stores whose "printer" is a watched folder, a spooler's hot folder or a place to keep
 * PDFs of the receipts. Written under a temporary name and renamed, so whatever watches the folder
 * never picks up half a receipt. Address: file:///var/spool/receipts/ (the trailing slash says
 * folder). Write-only: there is no status to ask a folder for.
 */
import { EventEmitter } from 'node:events';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PrinterError } from '../errors.js';
import type { PrinterTransport, PrinterTransportEvents } from './printer-transport.js';

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46]; // "%PDF"

const isPdf = (bytes: Uint8Array): boolean => PDF_MAGIC.every((byte, i) => bytes[i] === byte);

/** "20261121-140327-123": sortable, and unique with the job counter after it. */
function stamp(at: Date): string {
  const p = (n: number, width = 2): string => String(n).padStart(width, '0');
  return `${at.getFullYear()}${p(at.getMonth() + 1)}${p(at.getDate())}-${p(at.getHours())}${p(at.getMinutes())}${p(at.getSeconds())}-${p(at.getMilliseconds(), 3)}`;
}

export class FolderTransport extends EventEmitter<PrinterTransportEvents> implements PrinterTransport {
  readonly kind = 'file' as const;
  readonly address: string;
  #opened = false;
  #jobs = 0;
  readonly #now: () => Date;

  constructor(
    readonly folder: string,
    now: () => Date = () => new Date(),
  ) {
    super();
    this.#now = now;
    this.address = `file://${folder.endsWith('/') ? folder : `${folder}/`}`;
  }

  get isOpen(): boolean {
    return this.#opened;
  }

  /** Creates the folder when missing; a path that is a file is UNREACHABLE. */
  async open(): Promise<void> {
    try {
      await mkdir(this.folder, { recursive: true });
      if (!(await stat(this.folder)).isDirectory()) throw new Error('not a folder');
    } catch (error) {
      throw new PrinterError(
        'UNREACHABLE',
        `The receipt folder ${this.folder} cannot be used: ${(error as Error).message}.`,
        { cause: error },
      );
    }
    this.#opened = true;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (!this.#opened) throw new PrinterError('NOT_OPEN', `The receipt folder ${this.folder} is not open.`);
    this.#jobs += 1;
    const name = `${stamp(this.#now())}-${String(this.#jobs).padStart(4, '0')}.${isPdf(bytes) ? 'pdf' : 'bin'}`;
    const temporary = join(this.folder, `.${name}.part`);
    try {
      await writeFile(temporary, bytes);
      await rename(temporary, join(this.folder, name));
    } catch (error) {
      // A full disk leaves half a receipt behind: taken away, so the folder holds only whole ones.
      await rm(temporary, { force: true }).catch(() => undefined);
      throw new PrinterError(
        'IO_ERROR',
        `The receipt could not be written to ${this.folder}: ${(error as Error).message}.`,
        { cause: error },
      );
    }
  }

  close(): Promise<void> {
    this.#opened = false;
    return Promise.resolve();
  }
}
