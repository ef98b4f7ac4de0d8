/**
 * The `pinbridge` command. Exit codes: 0 ok, 2 bad usage or bad input, 1 device or runtime
 * failure — each failure with one clear line on stderr (and, with --json, a JSON error object
 * on stdout).
 */
import { Command, CommanderError, Help } from 'commander';
import { COMMAND_LINES, COMMAND_NAMES, type CommandName } from './command-list.js';
import { CommandExit, EXIT_OK, EXIT_USAGE, UsageError } from './errors.js';
import { processIo, type CliIo } from './io.js';
import { VERSION } from '../version.js';

/** Adds one command, in full, to the program. */
export type RegisterCommand = (program: Command, io: CliIo) => void;

/**
 * Each command's module, imported only when that command runs: `pinbridge --version` or
 * `--help` loads none of them, `pinbridge sandbox` the sandbox's alone (not the agent, the
 * PINPAD drivers or the journal).
 */
export const COMMAND_MODULES: Readonly<Record<CommandName, () => Promise<RegisterCommand>>> = {
  start: async () => (await import('./commands/start.js')).registerStartCommand,
  pinpad: async () => (await import('./commands/pinpad.js')).registerPinpadCommands,
  simulator: async () => (await import('./commands/simulator.js')).registerSimulatorCommand,
  sandbox: async () => (await import('./commands/sandbox.js')).registerSandboxCommand,
  journal: async () => (await import('./commands/journal.js')).registerJournalCommand,
  pay: async () => (await import('./commands/pay.js')).registerPayCommand,
  receipt: async () => (await import('./commands/receipt.js')).registerReceiptCommand,
  clients: async () => (await import('./commands/clients.js')).registerClientsCommand,
  pos: async () => (await import('./commands/pos.js')).registerPosCommand,
  doctor: async () => (await import('./commands/doctor.js')).registerDoctorCommand,
  support: async () => (await import('./commands/support.js')).registerSupportCommand,
  'remote-settings': async () => (await import('./commands/remote-settings.js')).registerRemoteSettingsCommand,
  updates: async () => (await import('./commands/updates.js')).registerUpdatesCommand,
};

/** Thrown by a command not loaded yet when commander dispatches to it: main() loads it and parses again. */
class CommandNotLoaded extends Error {
  constructor(readonly command: CommandName) {
    super(`the command ${command} is not loaded`);
  }
}

/**
 * A command whose module is not loaded: its name and description for the root help and for
 * commander's suggestions. Run, or asked for its help (`pinbridge help start`), it asks main() to
 * load the command; it takes whatever follows it, --help included, for the command to parse.
 */
class Placeholder extends Command {
  readonly #command: CommandName;

  constructor(command: CommandName, program: Command) {
    super(command);
    this.#command = command;
    // Commander's own settings first (output, exit override), then its own (copied settings would undo them).
    this.copyInheritedSettings(program)
      .description(COMMAND_LINES[command].description)
      .helpOption(false)
      .allowUnknownOption()
      .allowExcessArguments()
      .action(() => {
        throw new CommandNotLoaded(command);
      });
  }

  override help(): never {
    throw new CommandNotLoaded(this.#command);
  }

  /** "start [options]", as the loaded command's own options would make commander show it. */
  get term(): string {
    return COMMAND_LINES[this.#command].options ? `${this.#command} [options]` : this.#command;
  }
}

/**
 * The `pinbridge` program: the commands in `loaded` in full, every other one as a placeholder that
 * the root help shows as the full command would be shown (COMMAND_LINES).
 */
export function buildProgram(io: CliIo, loaded: ReadonlyMap<CommandName, RegisterCommand> = new Map()): Command {
  const program = new Command('pinbridge')
    .description('Pinbridge: the desktop agent between a POS, ABECS PINPADs, a payments API and receipt printers.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for this command')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      // Usage errors are reported by main() as one line; commander's own text is dropped.
      outputError: () => {},
    })
    .configureHelp({
      subcommandTerm: (command) =>
        command instanceof Placeholder ? command.term : Help.prototype.subcommandTerm.call(new Help(), command),
    });
  for (const name of COMMAND_NAMES) {
    const register = loaded.get(name);
    if (register !== undefined) register(program, io);
    else program.addCommand(new Placeholder(name, program));
  }
  return program;
}

function wantsJson(argv: readonly string[]): boolean {
  return argv.includes('--json');
}

export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let program = buildProgram(io);
  try {
    try {
      await program.parseAsync([...argv], { from: 'user' });
    } catch (error) {
      if (!(error instanceof CommandNotLoaded)) throw error;
      // The command named on the line, now in full: parsed again from the start, as if it had always been there.
      program = buildProgram(io, new Map([[error.command, await COMMAND_MODULES[error.command]()]]));
      await program.parseAsync([...argv], { from: 'user' });
    }
    return EXIT_OK;
  } catch (error) {
    // The command printed its own result and chose its exit code (e.g. a payment without a sale).
    if (error instanceof CommandExit) return error.exitCode;
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) {
        return EXIT_OK;
      }
      if (error.code === 'commander.help') return EXIT_OK;
      // "error: unknown option '--x'" → "unknown option '--x'"
      const message = error.message.replace(/^error:\s*/, '');
      return report(new UsageError(`${message} (see '${commandPath(program, argv)} --help')`), argv, io);
    }
    return report(error, argv, io);
  }
}

/** "pinbridge pinpad info": the deepest command the arguments name. */
function commandPath(program: Command, argv: readonly string[]): string {
  const names = ['pinbridge'];
  let command = program;
  for (const word of argv) {
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) break;
    names.push(sub.name());
    command = sub;
  }
  return names.join(' ');
}

async function report(error: unknown, argv: readonly string[], io: CliIo): Promise<number> {
  // A usage error is said as it is; any other is classified by a module of its own, loaded only now.
  const { exitCode, code, message } =
    error instanceof UsageError
      ? { exitCode: EXIT_USAGE, code: 'USAGE', message: error.message }
      : (await import('./classify.js')).classifyError(error);
  io.stderr(`pinbridge: ${message}\n`);
  if (wantsJson(argv)) io.stdout(`${JSON.stringify({ error: { code, message } })}\n`);
  return exitCode === EXIT_OK ? EXIT_USAGE : exitCode;
}
