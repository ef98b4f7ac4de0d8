/**
 * The installed app as the `pinbridge` command. On Linux the deb's /usr/bin/pinbridge and on macOS
 * Pinbridge.app/Contents/MacOS/Pinbridge are the Electron app itself; started with a subcommand
 * (`pinbridge doctor`, `pinbridge pinpad list`) it runs that command as `node bin/pinbridge.js`
 * would in a checkout — in Electron's main process, with no window, no tray and no single-instance
 * lock, so it also works beside a running Pinbridge — and exits with the command's code. Without a
 * subcommand (a menu entry, `--training`, `--autostart`) it is the desktop app.
 *
 * Windows starts GUI programs without a console, so there the command is `pinbridge-cli`
 * (build/win/pinbridge-cli.cmd, docs/packaging.md), which runs bin/pinbridge.js in Electron's Node.
 */
import { COMMAND_NAMES } from '../cli/command-list.js';

/** The `pinbridge` subcommands, as the CLI lists them (main/cli/command-list.ts, a module of data alone). */
export const CLI_COMMANDS: readonly string[] = COMMAND_NAMES;

/** The CLI's own options, answered without a subcommand. */
const CLI_OPTIONS: readonly string[] = ['--help', '-h', '--version', '-V'];

/**
 * The command-line words for the CLI when the app was started as a command, else undefined (the
 * desktop app). `argv` is what follows the executable (and, unpackaged, the app folder). macOS
 * adds `-psn_…` to an app opened from the Finder; it is never a command.
 */
export function cliInvocation(argv: readonly string[]): readonly string[] | undefined {
  const words = argv.filter((word) => !word.startsWith('-psn_'));
  const first = words[0];
  if (first === undefined) return undefined;
  return CLI_COMMANDS.includes(first) || CLI_OPTIONS.includes(first) ? words : undefined;
}

export interface CliApp {
  exit(code?: number): void;
  /** macOS: a command shows no Dock icon. */
  readonly dock?: { hide(): void } | undefined;
}

/** Waits until everything written to stdout and stderr has been handed to the OS. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (!stream.writable) resolve();
    else stream.write('', () => resolve());
  });
}

/**
 * Runs the CLI with `args` and exits the app with its exit code once its output is written
 * (app.exit ends the process at once, and a pipe such as `pinbridge doctor --json | jq` would
 * otherwise lose the end of it). `run` is the CLI's main (loaded only for a command, so the
 * desktop app does not load the CLI).
 */
export async function runCliInApp(
  app: CliApp,
  args: readonly string[],
  run: (args: readonly string[]) => Promise<number>,
  streams: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream } = {
    stdout: process.stdout,
    stderr: process.stderr,
  },
): Promise<number> {
  app.dock?.hide();
  let code: number;
  try {
    code = await run(args);
  } catch (error) {
    streams.stderr.write(`pinbridge: ${error instanceof Error ? error.message : String(error)}\n`);
    code = 1;
  }
  await Promise.all([flushed(streams.stdout), flushed(streams.stderr)]);
  app.exit(code);
  return code;
}
