/**
 * `pinbridge simulator`: serves a simulated PINPAD on a pseudo terminal or over TCP until
 * stopped. stdout carries exactly one JSON line, printed when the simulator is ready; the
 * customer's side (display, a console to type keys and present cards) uses stderr and stdin.
 */
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { COMMAND_LINES } from '../command-list.js';
import {
  fileCounterStore,
  isKeyLoadoutName,
  isSimulatorProfileName,
  KEY_LOADOUT_NAMES,
  KEY_LOADOUTS,
  PinpadSimulator,
  SIMULATOR_PROFILE_NAMES,
  SIMULATOR_PROFILES,
  startPtySimulator,
  startTcpSimulator,
  TEST_CARD_NAMES,
  type PinpadSimulatorOptions,
} from '../../../drivers/simulator/index.js';
import type { SimKey } from '../../../drivers/simulator/index.js';
import { readTraceFile, TraceFileError, type RecordedTrace } from '../../../drivers/abecs/trace/format.js';
import { createLogger, logFormat } from '../../log.js';
import { simulatorCountersPath } from '../../paths.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { parseHostPort, parsePositiveInteger } from '../parse.js';

interface SimulatorCliOptions {
  profile: string;
  keys?: string;
  replay?: string;
  reseal?: string;
  pty?: boolean;
  tcp?: { host: string; port: number };
  serial?: string;
  baud?: number;
  auto?: boolean;
  cpf?: string;
  card?: string;
  pin?: string;
  ksnCounters?: string;
  console: boolean;
}

const KEYS = new Set(['enter', 'cancel', 'clear', 'f1', 'f2', 'f3', 'f4', 'up', 'down']);

const CONSOLE_HELP = [
  'Simulated PINPAD console — type a line and press Enter:',
  '  12345678909          type digits on the keypad',
  '  enter | cancel | clear | f1..f4 | up | down   press a key',
  '  insert <card> | tap <card> | swipe <card> | remove   present or remove a card',
  '  cards                list the test cards',
].join('\n');

/** Applies one console line to the simulator; returns a reply for the operator. */
export function runConsoleLine(sim: PinpadSimulator, line: string): string | undefined {
  const [word = '', arg] = line.trim().split(/\s+/, 2);
  const lower = word.toLowerCase();
  if (lower === '') return undefined;
  if (/^\d+$/.test(word)) {
    sim.keypad.type(word);
    return undefined;
  }
  if (KEYS.has(lower)) {
    sim.keypad.press(lower as SimKey);
    return undefined;
  }
  if (lower === 'cards') return TEST_CARD_NAMES.join('\n');
  if (lower === 'help' || lower === '?') return CONSOLE_HELP;
  if (lower === 'remove') {
    sim.removeCard();
    return undefined;
  }
  if (lower === 'insert' || lower === 'tap' || lower === 'swipe') {
    const name = arg ?? 'visaCredit';
    try {
      if (lower === 'insert') sim.insertCard(name);
      else if (lower === 'tap') sim.tapCard(name);
      else sim.swipeCard(name);
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    return undefined;
  }
  return `Unknown console command "${word}"; type "help".`;
}

/** The trace to replay; one that cannot be read or parsed is a usage error (exit 2) saying why. */
async function loadReplay(file: string): Promise<RecordedTrace> {
  try {
    return await readTraceFile(file);
  } catch (error) {
    if (error instanceof TraceFileError) throw new UsageError(error.message);
    throw error;
  }
}

export function registerSimulatorCommand(program: Command, io: CliIo): void {
  program
    .command('simulator')
    .description(COMMAND_LINES.simulator.description)
    .option(
      '--profile <name>',
      `how the simulated PINPAD behaves: ${SIMULATOR_PROFILE_NAMES.join(', ')} (see below)`,
      'training',
    )
    .option(
      '--keys <loadout>',
      `the keys the PINPAD holds, one of ${KEY_LOADOUT_NAMES.join(', ')} (see below; default: the profile's)`,
    )
    .option(
      '--replay <file>',
      'answer as the PINPAD of a recorded session did (a trace from "pinbridge pinpad trace"); replaces --profile',
    )
    .option(
      '--reseal <card>',
      "with --replay: answer the recording's card data (masked and zeroed in the file) with this test card's, sealed for real under the test keys, so the replayed sale can be authorized by the sandbox",
    )
    .option('--pty', 'serve on a new pseudo terminal (needs socat)')
    .option('--tcp <host:port>', 'serve over TCP, e.g. 127.0.0.1:0 (port 0 picks a free one)', parseHostPort)
    .option(
      '--serial <number>',
      "the serial number the simulator reports (default: SIM00000001; the profile's own for other profiles)",
    )
    .option('--baud <rate>', 'pace the bytes like a serial line at this speed, e.g. 19200', parsePositiveInteger)
    .option('--auto', 'answer like a customer without waiting for the console (CPF, card, PIN)')
    .option('--cpf <digits>', 'with --auto: the CPF the customer types', '12345678909')
    .option('--card <name>', 'with --auto: the test card presented', 'visaCredit')
    .option('--pin <digits>', 'with --auto: the PIN the customer types')
    .option(
      '--ksn-counters <file>',
      'where the DUKPT counters are kept across runs, as a real PINPAD keeps them (a host refuses a KSN that does not advance; default: ~/.pinbridge/simulator/ksn-counters.json)',
    )
    .option('--no-console', 'do not read console commands from standard input')
    .addHelpText(
      'after',
      `\nProfiles (--profile):\n${SIMULATOR_PROFILE_NAMES.map((name) => `  ${name.padEnd(9)} ${SIMULATOR_PROFILES[name]}`).join('\n')}\n` +
        `\nKey loadouts (--keys; DUKPT keys from the ANSI test BDK, MK/WK from the published test master keys):\n${KEY_LOADOUT_NAMES.map((name) => `  ${name.padEnd(9)} ${KEY_LOADOUTS[name].description}`).join('\n')}\n`,
    )
    .action(async (options: SimulatorCliOptions) => {
      if (Boolean(options.pty) === Boolean(options.tcp)) {
        throw new UsageError('choose exactly one of --pty or --tcp <host:port>');
      }
      const profile = options.profile;
      if (!isSimulatorProfileName(profile)) {
        throw new UsageError(
          `there is no simulator profile named "${profile}"; known: ${SIMULATOR_PROFILE_NAMES.join(', ')}`,
        );
      }
      if (options.keys !== undefined && !isKeyLoadoutName(options.keys)) {
        throw new UsageError(`there is no key loadout named "${options.keys}"; known: ${KEY_LOADOUT_NAMES.join(', ')}`);
      }
      if (options.card !== undefined && !TEST_CARD_NAMES.includes(options.card as (typeof TEST_CARD_NAMES)[number])) {
        throw new UsageError(`there is no test card named "${options.card}"; known: ${TEST_CARD_NAMES.join(', ')}`);
      }
      if (options.reseal !== undefined) {
        if (options.replay === undefined)
          throw new UsageError('--reseal re-seals a replayed session: add --replay <file>');
        if (!TEST_CARD_NAMES.includes(options.reseal as (typeof TEST_CARD_NAMES)[number])) {
          throw new UsageError(`there is no test card named "${options.reseal}"; known: ${TEST_CARD_NAMES.join(', ')}`);
        }
      }
      const replay = options.replay === undefined ? undefined : await loadReplay(options.replay);
      const logger = createLogger({
        format: logFormat(io.env),
        level: io.env.PINBRIDGE_LOG_LEVEL ?? 'info',
        name: 'pinbridge-simulator',
      });
      const simOptions: PinpadSimulatorOptions = {
        logger,
        profile,
        dukptCounters: fileCounterStore(options.ksnCounters ?? simulatorCountersPath(io.env.HOME), (error) =>
          logger.warn({ error: error.message }, 'cannot keep the DUKPT counters on disk; they go on in memory'),
        ),
        ...(options.keys !== undefined && isKeyLoadoutName(options.keys) ? { keySlots: options.keys } : {}),
        ...(replay ? { replay } : {}),
        ...(replay && options.reseal !== undefined ? { resealCard: options.reseal } : {}),
        // A given --serial wins; otherwise training keeps its historical serial, other profiles report their own.
        ...(options.serial !== undefined || profile === 'training'
          ? { serialNumber: options.serial ?? 'SIM00000001' }
          : {}),
        ...(options.baud ? { paceBaud: options.baud } : {}),
        ...(options.auto
          ? {
              autoCustomer: {
                delayMs: 300,
                ...(options.cpf ? { cpf: options.cpf } : {}),
                ...(options.card ? { card: options.card } : {}),
                ...(options.pin ? { pin: options.pin } : {}),
              },
            }
          : {}),
      };
      const sim = new PinpadSimulator(simOptions);
      // One row per display change, with every line of the profile's display: "PINPAD | l1 | l2 |";
      // an image (DSI on a graphic profile) is named, as its text lines are all blank.
      sim.on('display', ({ lines, image }) =>
        io.stderr(
          image === undefined
            ? `PINPAD | ${lines.map((line) => line.padEnd(16)).join(' | ')} |\n`
            : `PINPAD | image ${image.name} (${image.format.toUpperCase()}, ${image.width}x${image.height}, ${image.bytes.length} bytes) |\n`,
        ),
      );

      const server = options.tcp
        ? await startTcpSimulator(sim, { host: options.tcp.host, port: options.tcp.port, logger })
        : await startPtySimulator(sim, { logger });
      const ready = 'path' in server ? { path: server.path } : { host: server.host, port: server.port };
      io.stdout(`${JSON.stringify(ready)}\n`);

      const consoleInput =
        options.console && process.stdin.readable
          ? createInterface({ input: process.stdin, terminal: false })
          : undefined;
      consoleInput?.on('line', (line) => {
        const reply = runConsoleLine(sim, line);
        if (reply) io.stderr(`${reply}\n`);
      });

      await new Promise<void>((resolve) => {
        if (io.signal.aborted) resolve();
        else io.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      consoleInput?.close();
      await server.close();
    });
}
