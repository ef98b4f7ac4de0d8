/**
 * `pinbridge start`: runs the agent (main/agent/agent.ts) headless. With no payments API
 * configured, or with --training, it starts in training mode against an embedded sandbox (its
 * address and token are in the ready line, for a POS back end to create pending transactions
 * on), and with no PINPAD configured it uses a simulated one whose customer presents a test card
 * by itself.
 *
 * One JSON line on stdout says when it is ready — when the POS API and the window are served and
 * the PINPAD answered, or failed to (its "pinpad" then says why: not found, unreachable…, and
 * Pinbridge keeps trying) — again after each restart the window asks for
 * (operator.restart: the settings file and token read again, same addresses); pairing requests are
 * JSON lines on stdout too (and a sentence on stderr); logs go to stderr — JSON lines, or on a
 * terminal readable lines from warnings up (PINBRIDGE_LOG_FORMAT=json|pretty to choose) — and,
 * all of them, to the log file.
 *
 * No error ends it once it runs (issue 33): the process guard (main/agent/fault-guard.ts) turns an
 * uncaught exception or an unhandled rejection into a logged fault, a disk fault reported to the
 * agent's disk watch; the agent starts on a full disk too.
 */
import type { Command } from 'commander';
import { COMMAND_LINES } from '../command-list.js';
import type { Agent, AgentOptions } from '../../agent/agent.js';
import type { AgentRunner } from '../../agent/agent-runner.js';
import { startWithRemoteSettings } from '../../agent/remote-follow.js';
import { RemoteSettings } from '../../remote-settings/remote-settings.js';
import { guardProcess } from '../../agent/fault-guard.js';
import { logFilePath } from '../../paths.js';
import { pinpadAddressProblem, SIMULATOR_ADDRESS } from '../../pinpad/connection.js';
import type { AgentSettings } from '../../settings/settings-file.js';
import { createLogger, logFormat } from '../../log.js';
import type { PairingAnnouncement } from '../../pos/protocol/pairing.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import {
  addPaymentStackOptions,
  type ApiFlags,
  apiOptionsOf,
  checkApiOptions,
  commandApi,
  headlessSecrets,
} from '../payment-stack.js';
import { storeTimeZone, wallClock } from '../../locale/store-time.js';

interface StartOptions extends ApiFlags {
  port?: string;
  posPort?: string;
  headless?: boolean;
  training?: boolean;
  journal?: string;
  settings?: string;
  config?: string;
  customerDelay?: number;
}

/** A simulated customer's pace: 0 (at once) to a minute; a timer past 2³¹ ms would fire at once. */
function parseCustomerDelay(text: string): number {
  const ms = Number(text);
  if (!/^[0-9]{1,5}$/.test(text) || ms > 60_000)
    throw new UsageError(`--customer-delay must be milliseconds from 0 to 60000, not "${text}"`);
  return ms;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^[0-9]+$/.test(text) || port > 65535)
    throw new UsageError(`--pos-port must be a port number (0–65535), not "${text}"`);
  return port;
}

/**
 * Headless, the terminal is the cashier's window: the pairing code goes to stdout as a JSON line
 * (for a supervisor program) and to stderr as a sentence (for a person).
 */
function announcePairing(io: CliIo, pairing: PairingAnnouncement, timeZone: string): void {
  const program = pairing.program;
  io.stdout(
    `${JSON.stringify({ event: 'pairing_requested', pairing_id: pairing.pairingId, name: pairing.name, origin: pairing.origin, program: program === null ? null : { pid: program.pid, name: program.name, command: program.program }, code: pairing.code, expires_at: pairing.expiresAt })}\n`,
  );
  // Which program asked (the browser, for a page): a request nobody at the checkout made shows here.
  const from = `${pairing.origin ?? 'a program on this computer'}${program === null ? '' : `, ${program.name} PID ${program.pid}`}`;
  // The person reads the store's clock (the one on its receipts), not UTC; the JSON line keeps ISO.
  io.stderr(
    `Pairing request from "${pairing.name}" (${from}): code ${pairing.code} — type it in the POS before ${clockTime(pairing.expiresAt, timeZone)} (${timeZone}).\n`,
  );
}

/** "14:05:09" on the wall clock of `timeZone`. */
function clockTime(iso: string, timeZone: string): string {
  const { hour, minute, second } = wallClock(new Date(iso), timeZone);
  return [hour, minute, second].map((part) => String(part).padStart(2, '0')).join(':');
}

/** Resolves when `signal` aborts (Ctrl+C, SIGTERM). */
function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

export function registerStartCommand(program: Command, io: CliIo): void {
  const command = program.command('start');
  addPaymentStackOptions(command)
    .description(COMMAND_LINES.start.description)
    .option(
      '--port <address>',
      'the PINPAD: a serial port, tcp://host:port, ble:<id>, or "sim" (default: $PINBRIDGE_PINPAD, else the settings\' pinpad.address, else sim)',
    )
    .option(
      '--headless',
      'run without the desktop window (what this command always does; the desktop app runs the same agent with its window)',
    )
    .option(
      '--training',
      'training mode even when a payments API is configured: embedded sandbox, receipts marked TREINAMENTO',
    )
    .option('--config <file>', 'the settings file (same as --settings)')
    .option(
      '--customer-delay <ms>',
      'with the simulated PINPAD (sim): how long its customer takes at each prompt, in milliseconds (default 1500)',
      parseCustomerDelay,
    )
    .option(
      '--pos-port <port>',
      'port of the POS API (WebSocket and demo page) on 127.0.0.1; 0 = any free port (default: settings pos.ports, else 17301, 17302, 17303)',
    )
    .action(async (options: StartOptions) => {
      if (options.config !== undefined && options.settings !== undefined && options.config !== options.settings) {
        throw new UsageError('--config and --settings name the same file: give one of them');
      }
      checkApiOptions(options);
      if (options.training === true && options.api !== undefined) {
        throw new UsageError(
          '--training runs against the embedded sandbox: drop --api, --token, --marketplace and --seller',
        );
      }
      // Checked here as the settings check theirs: a mistyped address stops the start with one line,
      // instead of an agent looking for a PINPAD that cannot be there.
      const given = options.port ?? io.env.PINBRIDGE_PINPAD;
      const addressProblem = given === undefined ? undefined : pinpadAddressProblem(given);
      if (addressProblem !== undefined)
        throw new UsageError(
          `${options.port === undefined ? 'PINBRIDGE_PINPAD' : '--port'}: ${addressProblem.message}`,
        );
      const settingsPath = options.config ?? options.settings;
      const posPorts = options.posPort === undefined ? undefined : [parsePort(options.posPort)];
      const logFile = logFilePath(io.env.HOME);
      // A person at a terminal sees the ready line, warnings and errors; the log file keeps
      // everything (PINBRIDGE_LOG_LEVEL shows more on the terminal too). A program reading stderr gets every JSON line.
      const format = logFormat(io.env);
      const logger = createLogger({
        format,
        level: io.env.PINBRIDGE_LOG_LEVEL || 'info',
        copyTo: logFile,
        ...(format === 'pretty' && !io.env.PINBRIDGE_LOG_LEVEL ? { stderrLevel: 'warn' } : {}),
      });
      // No uncaught error ends the agent (issue 33): a disk fault is reported to the running
      // agent's disk watch, anything else logged as fatal (fault-guard.ts says why it keeps running).
      let running: Agent | undefined;
      const guard = guardProcess({ logger, onDiskFault: (error) => running?.disk.report(error) });
      const flags = apiOptionsOf(options, io.env);
      const { tokens, passphrases } = headlessSecrets(io.env);
      // Read at start (a mistake stops it there, naming the key) and again at every restart from the
      // window: the settings file and the stored token as they are then.
      // The zone the settings name, if any: the computer's own is read at the first pairing request
      // (store-time.ts says why not before).
      let configuredTimeZone: string | undefined;
      // Each start reads the local file with the chain's signed document merged over it, when the
      // settings follow one (main/agent/remote-follow.ts, docs/remote-settings.md).
      const remote = new RemoteSettings({ logger, ...(io.env.HOME === undefined ? {} : { home: io.env.HOME }) });
      const build = (settings: AgentSettings): AgentOptions => {
        configuredTimeZone = settings.receipts?.time_zone;
        return {
          settings,
          api: commandApi(flags, settings, io.env, options.training === true, { tokens, passphrases }),
          pinpadAddress: options.port ?? io.env.PINBRIDGE_PINPAD ?? settings.pinpad?.address ?? SIMULATOR_ADDRESS,
          tokens,
          passphrases,
          logFile,
          ...(options.journal === undefined ? {} : { journalPath: options.journal }),
          ...(io.env.HOME === undefined ? {} : { home: io.env.HOME }),
          ...(posPorts === undefined ? {} : { posPorts }),
          ...(options.customerDelay === undefined ? {} : { simulatedCustomerDelayMs: options.customerDelay }),
          logger,
        };
      };
      let runner: AgentRunner;
      try {
        runner = await startWithRemoteSettings({ remote, settingsPath, build, logger });
      } catch (error) {
        remote.stop();
        guard.uninstall();
        throw error;
      }
      // Each agent (the first, and each after a restart) says when it is ready and shows pairing codes.
      let announced: Agent | undefined;
      const announce = (agent: Agent): void => {
        announced = agent;
        running = agent;
        agent.on('pairing', (pairing) => announcePairing(io, pairing, storeTimeZone(configuredTimeZone)));
        // Without waiting for a PINPAD that is not there: the line says where the window is to fix it from.
        agent.started.then(
          (ready) => {
            if (io.signal.aborted) return;
            io.stdout(`${JSON.stringify({ status: 'ready', ws: ready.pos.ws, ...ready })}\n`);
            if (ready.pinpad.state !== 'ready') {
              io.stderr(`${ready.pinpad.message}; Pinbridge keeps trying. Check it in the window: ${ready.ui}\n`);
            }
          },
          () => {},
        );
      };
      announce(runner.agent);
      runner.on('restarted', announce);
      runner.on('restartFailed', (error, agent) => {
        io.stderr(`The saved settings did not apply (${error.message}); Pinbridge runs as it was.\n`);
        // Started again with the previous settings: a new agent, with its own ready line.
        if (agent !== announced) announce(agent);
      });
      try {
        await Promise.race([
          stopped(io.signal),
          new Promise<never>((_resolve, reject) => runner.once('failed', reject)),
        ]);
      } finally {
        remote.stop();
        await runner.stop();
        guard.uninstall();
      }
    });
}
