/**
 * A pair of linked pseudo terminals made by socat: bytes written to one come out of the other,
 * like a null-modem cable between two serial ports. The pty simulator holds one end; tests use a
 * pair to drive the serial transport and kill socat to reproduce an unplug.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { SimulatorServerError } from './server-error.js';

const PTY_LINE = /PTY is (\S+)/g;

export interface PtyPair {
  /** Path of the first end, e.g. `/dev/pts/3`. */
  readonly a: string;
  /** Path of the second end. */
  readonly b: string;
  /** The socat process (killing it abruptly pulls the "cable"). */
  readonly process: ChildProcess;
  /** Stops socat (if still running) and waits for it to exit. Safe to call more than once. */
  close(): Promise<void>;
}

export interface PtyPairOptions {
  /** The socat executable; "socat" from PATH by default. */
  readonly socatPath?: string;
  /** How long to wait for socat to report both ptys. */
  readonly startTimeoutMs?: number;
  /**
   * A symbolic link socat makes to the second end (`b`, the host's) and removes when it exits — a
   * device node that comes and goes as a plugged and pulled USB PINPAD's does.
   */
  readonly linkB?: string;
}

/** Starts socat with two linked ptys; rejects with SOCAT_NOT_FOUND when socat is not installed. */
export function createPtyPair(options: PtyPairOptions = {}): Promise<PtyPair> {
  const timeoutMs = options.startTimeoutMs ?? 10_000;
  const second = options.linkB === undefined ? 'pty,raw,echo=0' : `pty,raw,echo=0,link=${options.linkB}`;
  const child = spawn(options.socatPath ?? 'socat', ['-d', '-d', 'pty,raw,echo=0', second], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) child.kill('SIGTERM');
    await exited;
  };
  return new Promise<PtyPair>((resolve, reject) => {
    let stderr = '';
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop().finally(() => reject(error));
    };
    const timer = setTimeout(
      () =>
        fail(
          new SimulatorServerError(
            'SOCAT_FAILED',
            `socat did not create the two pseudo terminals within ${timeoutMs} ms.`,
          ),
        ),
      timeoutMs,
    );
    child.once('error', (error: NodeJS.ErrnoException) => {
      fail(
        error.code === 'ENOENT'
          ? new SimulatorServerError(
              'SOCAT_NOT_FOUND',
              'The pseudo-terminal simulator needs socat; install it (e.g. "apt-get install socat" or "brew install socat").',
            )
          : new SimulatorServerError('SOCAT_FAILED', `socat could not be started: ${error.message}.`),
      );
    });
    child.once('exit', (code) =>
      fail(new SimulatorServerError('SOCAT_FAILED', `socat exited early with code ${code}.`)),
    );
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      if (settled) return;
      stderr += text;
      const paths = [...stderr.matchAll(PTY_LINE)].map((match) => match[1]!);
      // "starting data transfer loop" means both ptys exist and socat relays bytes.
      if (paths.length >= 2 && stderr.includes('starting data transfer loop')) {
        settled = true;
        clearTimeout(timer);
        child.stderr?.removeAllListeners('data');
        child.stderr?.resume();
        resolve({ a: paths[0]!, b: paths[1]!, process: child, close: stop });
      }
    });
  });
}
