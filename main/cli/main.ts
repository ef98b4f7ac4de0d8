/**
 * The `pinbridge` command. Exit codes: 0 ok, 2 bad usage or bad input, 1 device or runtime
 * failure — each failure with one clear line on stderr (and, with --json, a JSON error object
 * on stdout).
 */
import { Command, CommanderError } from 'commander';
import { classifyError, CommandExit, EXIT_OK, EXIT_USAGE, UsageError } from './errors.js';
import { processIo, type CliIo } from './io.js';
import { registerClientsCommand } from './commands/clients.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { registerJournalCommand } from './commands/journal.js';
import { registerPayCommand } from './commands/pay.js';
import { registerPinpadCommands } from './commands/pinpad.js';
import { registerPosCommand } from './commands/pos.js';
import { registerReceiptCommand } from './commands/receipt.js';
import { registerSandboxCommand } from './commands/sandbox.js';
import { registerSimulatorCommand } from './commands/simulator.js';
import { registerStartCommand } from './commands/start.js';
import { VERSION } from '../version.js';

export function buildProgram(io: CliIo): Command {
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
    });
  registerStartCommand(program, io);
  registerPinpadCommands(program, io);
  registerSimulatorCommand(program, io);
  registerSandboxCommand(program, io);
  registerJournalCommand(program, io);
  registerPayCommand(program, io);
  registerReceiptCommand(program, io);
  registerClientsCommand(program, io);
  registerPosCommand(program, io);
  registerDoctorCommand(program, io);
  return program;
}

function wantsJson(argv: readonly string[]): boolean {
  return argv.includes('--json');
}

export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
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

function report(error: unknown, argv: readonly string[], io: CliIo): number {
  const { exitCode, code, message } = classifyError(error);
  io.stderr(`pinbridge: ${message}\n`);
  if (wantsJson(argv)) io.stdout(`${JSON.stringify({ error: { code, message } })}\n`);
  return exitCode === EXIT_OK ? EXIT_USAGE : exitCode;
}
