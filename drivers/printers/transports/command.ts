/**
 * The system printer through the operating system's print command, for printers that only the OS
 * knows how to reach (CUPS queues, shared printers) when the agent runs headless. Each job runs the
 * command once with the bytes on its standard input: `lp -d NAME -o raw` on Linux and macOS, where
 * `-o raw` makes CUPS pass the ESC/POS bytes to the printer untouched.
 *
 * The command is an argv array and is started without a shell, so a printer name or a setting can
 * never become shell syntax. No status: a print command only says whether the job was accepted.
 */
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PrinterError } from '../errors.js';
import type { PrinterTransport, PrinterTransportEvents } from './printer-transport.js';
import { Exclusive } from './exclusive.js';

/** Where the printer name goes in a configured command. */
export const PRINTER_PLACEHOLDER = '{printer}';

/** stderr kept for the error message; print commands say what went wrong in a line or two. */
const MAX_STDERR = 4096;

export interface CommandTransportOptions {
  /** The program and its arguments, e.g. `['lp', '-d', 'EPSON_TM_T20', '-o', 'raw']` (see expandPrintCommand). */
  readonly argv: readonly string[];
  /** Kill the command when it has not finished after this long. Default 60 s. */
  readonly timeoutMs?: number;
  /** What the address said, for messages; default `lp://`. */
  readonly address?: string;
}

/**
 * The default print command for the system printer: CUPS `lp` with raw output, on the named queue or
 * (printer null) the system's default destination. Windows has no command that prints raw bytes from
 * standard input, so there the command must be configured.
 */
export function systemPrintCommand(printer: string | null, platform: NodeJS.Platform = process.platform): string[] {
  if (platform === 'win32') {
    throw new PrinterError(
      'COMMAND_FAILED',
      'Windows has no "lp" command; configure the print command for the system printer (argv with {printer}).',
    );
  }
  return printer === null ? ['lp', '-o', 'raw'] : ['lp', '-d', printer, '-o', 'raw'];
}

/** Fills `{printer}` in a configured command; refuses a template that needs a name the address lacks. */
export function expandPrintCommand(template: readonly string[], printer: string | null): string[] {
  if (template.length === 0 || template[0] === '') {
    throw new PrinterError('COMMAND_FAILED', 'The print command is empty; configure the program and its arguments.');
  }
  return template.map((arg) => {
    if (!arg.includes(PRINTER_PLACEHOLDER)) return arg;
    if (printer === null) {
      throw new PrinterError(
        'INVALID_ADDRESS',
        `The print command uses ${PRINTER_PLACEHOLDER} but the address names no printer; use lp://PRINTER_NAME.`,
      );
    }
    return arg.split(PRINTER_PLACEHOLDER).join(printer);
  });
}

export class CommandTransport extends EventEmitter<PrinterTransportEvents> implements PrinterTransport {
  readonly kind = 'command' as const;
  readonly address: string;
  readonly argv: readonly string[];
  readonly #timeoutMs: number;
  readonly #exclusive = new Exclusive();
  #opened = false;

  constructor(options: CommandTransportOptions) {
    super();
    if (options.argv.length === 0 || options.argv[0] === '') {
      throw new PrinterError('COMMAND_FAILED', 'The print command is empty; configure the program and its arguments.');
    }
    this.argv = Object.freeze([...options.argv]);
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.address = options.address ?? 'lp://';
  }

  get isOpen(): boolean {
    return this.#opened;
  }

  /** Nothing to connect to: the command runs per job. */
  open(): Promise<void> {
    if (!this.#opened) {
      this.#opened = true;
      this.emit('connected');
    }
    return Promise.resolve();
  }

  write(bytes: Uint8Array): Promise<void> {
    if (!this.#opened) {
      return Promise.reject(new PrinterError('NOT_OPEN', `The system printer ${this.address} is not open.`));
    }
    return this.#exclusive.run(() => this.#runCommand(bytes));
  }

  close(): Promise<void> {
    this.#opened = false;
    return Promise.resolve();
  }

  #runCommand(bytes: Uint8Array): Promise<void> {
    const [program, ...args] = this.argv as [string, ...string[]];
    const shown = this.argv.join(' ');
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (error?: PrinterError): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      const child = spawn(program, args, { stdio: ['pipe', 'ignore', 'pipe'], shell: false, windowsHide: true });
      let stderr = '';
      let stdinError: Error | undefined;
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        finish(
          new PrinterError(
            'TIMEOUT',
            `The print command "${shown}" did not finish within ${this.#timeoutMs} ms and was stopped.`,
          ),
        );
      }, this.#timeoutMs);
      child.once('error', (error: NodeJS.ErrnoException) => {
        finish(
          error.code === 'ENOENT'
            ? new PrinterError(
                'COMMAND_FAILED',
                `The print command "${program}" was not found; install it or configure another print command.`,
                {
                  cause: error,
                },
              )
            : new PrinterError(
                'COMMAND_FAILED',
                `The print command "${shown}" could not be started: ${error.message}.`,
                { cause: error },
              ),
        );
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (text: string) => {
        if (stderr.length < MAX_STDERR) stderr = (stderr + text).slice(0, MAX_STDERR);
      });
      // A command that exits without reading its input breaks the pipe; its exit code says why.
      child.stdin.on('error', (error) => {
        stdinError = error;
      });
      child.stdin.end(bytes);
      child.once('close', (code, signal) => {
        const said = stderr.trim().replace(/\s+/g, ' ');
        if (code === 0 && !stdinError) {
          finish();
        } else if (code === 0) {
          finish(
            new PrinterError('COMMAND_FAILED', `The print command "${shown}" exited before reading the whole job.`, {
              cause: stdinError,
            }),
          );
        } else if (code !== null) {
          finish(
            new PrinterError(
              'COMMAND_FAILED',
              `The print command "${shown}" failed with exit code ${code}${said ? `: ${said}` : ' and no message'}.`,
            ),
          );
        } else {
          finish(
            new PrinterError(
              'COMMAND_FAILED',
              `The print command "${shown}" was stopped by signal ${signal ?? 'unknown'}.`,
            ),
          );
        }
      });
    });
  }
}
