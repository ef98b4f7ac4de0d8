/** What a CLI command reads and writes; tests pass their own to run commands in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT/SIGTERM: long-running commands (simulator, start) stop cleanly. */
  readonly signal: AbortSignal;
  /**
   * Asks the person at the keyboard a yes/no question (default no); absent when there is no
   * terminal to ask on (stdin is not a TTY): a command that needs consent then refuses.
   */
  readonly confirm?: (question: string) => Promise<boolean>;
}

/** "Send it? [y/N] " on stderr, the answer read from the terminal: yes only for y or yes. */
async function confirmOnTerminal(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`${question} [y/N] `);
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    prompt.close();
  }
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
    ...(process.stdin.isTTY ? { confirm: confirmOnTerminal } : {}),
  };
}
