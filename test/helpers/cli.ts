/**
 * The real `pinbridge` bin in child processes, as a user runs it (`npm test` builds dist/ first),
 * and the same program in-process through `main()` (faster; for commands that need no signals).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import type { CliIo } from '../../main/cli/io.js';
import { main } from '../../main/cli/main.js';

const BIN = fileURLToPath(new URL('../../bin/pinbridge.js', import.meta.url));

export interface Result {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function run(args: readonly string[], timeoutMs = 20_000, env?: NodeJS.ProcessEnv): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(env === undefined ? {} : { env: { ...process.env, ...env } }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`pinbridge ${args.join(' ')} did not finish in ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface Server {
  readonly child: ChildProcessWithoutNullStreams;
  readonly ready: Record<string, unknown>;
  stderr(): string;
  /** Stops it with SIGTERM and returns its exit code. */
  stop(): Promise<number | null>;
}

const servers: Server[] = [];

/** Stops every server `serve` started (use in afterEach). */
export async function stopServers(): Promise<void> {
  while (servers.length > 0) await servers.pop()!.stop();
}

/** Starts a long-running subcommand and waits for its one JSON "ready" line on stdout. */
export function serve(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Server> {
  return serveScript(BIN, args, env);
}

/** Like `serve`, for another Node script of the project (e.g. scripts/start.mjs, what `npm start` runs). */
export async function serveScript(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Server> {
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', resolve);
    void exited.then((code) => reject(new Error(`pinbridge ${args.join(' ')} exited with ${code}: ${stderr}`)));
  });
  const server: Server = {
    child,
    ready: JSON.parse(line) as Record<string, unknown>,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  servers.push(server);
  return server;
}

/** Runs `pinbridge <args>` in this process with its own output buffers and environment. */
export async function runMain(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  /** The person at the keyboard's answers to yes/no questions; absent: no terminal to ask on. */
  confirm?: (question: string) => Promise<boolean>,
): Promise<Result & { readonly code: number }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env,
    signal: new AbortController().signal,
    ...(confirm === undefined ? {} : { confirm }),
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}
