/** What a CLI command reads and writes; tests pass their own to run commands in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT/SIGTERM: long-running commands (simulator, start) stop cleanly. */
  readonly signal: AbortSignal;
}

export function processIo(): CliIo {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    signal: controller.signal,
  };
}
