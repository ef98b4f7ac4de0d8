/**
 * A pair of linked pseudo-terminals made by socat: bytes written to one come out of the other,
 * like a null-modem cable between two real serial ports. Killing socat yanks the "cable", which is
 * how tests reproduce a PINPAD being unplugged.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface PtyPair {
  /** Path of the first end, e.g. `/dev/pts/3`. */
  readonly a: string;
  /** Path of the second end. */
  readonly b: string;
  /** The socat process, for tests that need to kill it abruptly (unplug). */
  readonly process: ChildProcess;
  /** Stops socat (if still running) and waits for it to exit. Safe to call more than once. */
  close(): Promise<void>;
}

const PTY_LINE = /PTY is (\S+)/g;

export function createPtyPair(options: { timeoutMs?: number } = {}): Promise<PtyPair> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const child = spawn('socat', ['-d', '-d', 'pty,raw,echo=0', 'pty,raw,echo=0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };

  return new Promise<PtyPair>((resolve, reject) => {
    let stderr = '';
    let ready = false;
    const paths: string[] = [];
    const fail = (error: Error): void => {
      clearTimeout(timer);
      void close().finally(() => reject(error));
    };
    const timer = setTimeout(
      () => fail(new Error(`socat did not report two ptys within ${timeoutMs} ms: ${stderr.trim()}`)),
      timeoutMs,
    );
    child.once('error', (error) => fail(new Error(`could not start socat: ${error.message}`)));
    child.once('exit', (code) => {
      if (!ready) fail(new Error(`socat exited with code ${code}: ${stderr.trim()}`));
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      if (ready) return;
      stderr += text;
      paths.length = 0;
      for (const match of stderr.matchAll(PTY_LINE)) if (match[1]) paths.push(match[1]);
      // socat prints "starting data transfer loop" once both ptys exist and it relays bytes.
      if (paths.length >= 2 && stderr.includes('starting data transfer loop')) {
        ready = true;
        clearTimeout(timer);
        const [a, b] = paths as [string, string];
        resolve({ a, b, process: child, close });
      }
    });
  });
}
