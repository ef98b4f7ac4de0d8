/**
 * `pinbridge pay`: one whole PINPAD payment from the terminal — the same engine, journal and
 * exactly-once rules as the agent, against the payments API the agent would use: the flags',
 * else the one the settings name (`--settings`, else ~/.pinbridge/settings.json: base URL, ids,
 * auth scheme, client certificate, CA, capabilities), with the stored token, as `start` chooses
 * it; with none (or `--training`) an embedded sandbox (training mode, and the output says so).
 * With `--port sim` the PINPAD is the simulator, and `--card` says which test card the simulated
 * customer presents.
 *
 * Exit code 0 when the payment was approved, 1 when it ended without a sale (declined, cancelled,
 * failed: the JSON says which), 2 for bad input.
 */
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { COMMAND_LINES } from '../command-list.js';
import { EngineError } from '../../core/errors.js';
import type { PaymentOutcome } from '../../core/outcome.js';
import { PinpadRegistry } from '../../pinpad/registry.js';
import { createLogger, logFormat } from '../../log.js';
import { fileCounterStore, TEST_CARD_NAMES } from '../../../drivers/simulator/index.js';
import { simulatorCountersPath } from '../../paths.js';
import { CommandExit, UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { formatBrl } from '../../locale/br-format.js';
import { emit, table } from '../output.js';
import { outcomeView } from '../../pos/server/views.js';
import { checkedSaleRequest } from '../../pos/server/wire-adapter.js';
import { PosError } from '../../pos/protocol/index.js';
import { connectPinpad } from '../../pinpad/connection.js';
import { parsePositiveInteger } from '../parse.js';
import { openPaymentStack } from '../../agent/payment-stack.js';
import { addPaymentStackOptions, apiOptionsOf, type ApiFlags, checkApiOptions, commandApi } from '../payment-stack.js';
import { loadSettings, pinpadSaleOptionsOf } from '../../settings/settings-file.js';

const PORT_HELP = 'the PINPAD: a serial port (/dev/ttyACM0, COM3), tcp://host:port, ble:<id>, or "sim"';

interface PayOptions extends ApiFlags {
  port: string;
  amount: number;
  type: string;
  installments?: number;
  notification?: string;
  description: string;
  reference?: string;
  journal?: string;
  card: string;
  confirmation?: string;
  settings?: string;
  training?: boolean;
  json?: boolean;
}

/**
 * The result as the issue specifies it for `--json`, whether it ran on the embedded sandbox
 * (`training`), the issuer's answer (`decline_code`, `issuer_response_code`: why a wrong PIN or a
 * lack of funds was declined, in codes a program can switch on) and the problem when there was no
 * sale: the POS wire's names (views.ts names the core's domain outcome once, for both).
 */
function jsonResult(outcome: PaymentOutcome, training: boolean): Record<string, unknown> {
  const wire = outcomeView(outcome);
  return {
    training,
    status: wire.status,
    transaction_id: wire.transaction_id,
    reference_id: wire.reference_id,
    authorization_code: wire.authorization_code,
    nsu: wire.nsu,
    card: wire.card,
    installments: wire.installments,
    amount: wire.amount,
    decline_code: wire.decline_code,
    issuer_response_code: wire.issuer_response_code,
    ...(wire.problem
      ? {
          problem: {
            code: wire.problem.code,
            message: wire.problem.message,
            cashier_message: wire.problem.cashier_message,
          },
        }
      : {}),
  };
}

/** Where the sale ran: the embedded sandbox (nothing real charged) or the payments API's address. */
function modeOf(training: boolean, api: string | undefined): string {
  return training ? 'TRAINING (embedded sandbox: nothing is charged)' : `live (${api ?? ''})`;
}

function humanResult(outcome: PaymentOutcome, mode: string): string {
  return table([
    ['mode', mode],
    ['status', outcome.status.toUpperCase()],
    ['amount', formatBrl(outcome.amount)],
    ['installments', outcome.installments ?? undefined],
    ['card', outcome.card ? `${outcome.card.brand} ${outcome.card.maskedPan} (${outcome.card.entryMode})` : undefined],
    ['authorization', outcome.authorizationCode ?? undefined],
    ['nsu', outcome.nsu ?? undefined],
    ['transaction', outcome.transactionId ?? undefined],
    ['reference', outcome.referenceId],
    ['reason', outcome.problem?.message],
    ['problem', outcome.problem?.code],
    ['decline', outcome.declineCode ?? undefined],
    ['issuer code', outcome.status === 'approved' ? undefined : (outcome.issuerResponseCode ?? undefined)],
  ]);
}

export function registerPayCommand(program: Command, io: CliIo): void {
  const command = program.command('pay');
  addPaymentStackOptions(command)
    .description(COMMAND_LINES.pay.description)
    .requiredOption('--port <address>', PORT_HELP)
    .requiredOption('--amount <centavos>', 'amount in centavos (1990 = R$ 19,90)', parsePositiveInteger)
    .requiredOption('--type <type>', 'credit or debit')
    .option(
      '--installments <n>',
      'credit installments, 1–12 (left out: the customer chooses on the PINPAD)',
      parsePositiveInteger,
    )
    .option('--notification <text>', 'text shown on the PINPAD while it waits for the card (≤ 32 characters)')
    .option('--description <text>', 'description of the sale', 'Venda Pinbridge')
    .option('--reference <id>', 'the sale reference (repeat it to get the same payment back); a new one by default')
    .option(
      '--card <name>',
      `test card the simulated customer uses with --port sim (${TEST_CARD_NAMES.join(', ')})`,
      'visaCredit',
    )
    .option(
      '--confirmation <policy>',
      'auto (confirm at once) or pos (leave it waiting for a confirmation); default from the settings, else auto',
    )
    .option('--training', 'run on the embedded sandbox even when the settings name a payments API (nothing is charged)')
    .option('--json', 'print the result as JSON (with "training": true on the embedded sandbox)')
    .action(async (options: PayOptions) => {
      if (options.type !== 'credit' && options.type !== 'debit') throw new UsageError('--type must be credit or debit');
      if (options.confirmation !== undefined && options.confirmation !== 'auto' && options.confirmation !== 'pos') {
        throw new UsageError('--confirmation must be auto or pos');
      }
      const settings = loadSettings(options.settings, io.env.HOME);
      if (!TEST_CARD_NAMES.includes(options.card as never)) {
        throw new UsageError(`--card must be one of ${TEST_CARD_NAMES.join(', ')}`);
      }
      checkApiOptions(options);
      if (options.training === true && options.api !== undefined) {
        throw new UsageError(
          '--training runs against the embedded sandbox: drop --api, --token, --marketplace and --seller',
        );
      }
      const api = commandApi(apiOptionsOf(options, io.env), settings, io.env, options.training === true);

      const logger = createLogger({ format: logFormat(io.env), level: io.env.PINBRIDGE_LOG_LEVEL ?? 'warn' });
      const cleanups: Array<() => Promise<void> | void> = [];
      try {
        const stack = await openPaymentStack({
          api,
          ...(options.journal === undefined ? {} : { journalPath: options.journal }),
          ...(io.env.HOME === undefined ? {} : { home: io.env.HOME }),
          // One payment and out: no polling for pending transactions.
          config: {
            ...settings.engine,
            confirmation: options.confirmation ?? settings.engine.confirmation,
            pendingPollMs: 0,
          },
          logger,
        });
        cleanups.push(() => stack.close());
        const { engine } = stack;
        const connection = await connectPinpad(options.port, {
          logger,
          simulator: {
            autoCustomer: { delayMs: 50, card: options.card },
            dukptCounters: fileCounterStore(simulatorCountersPath(io.env.HOME), (error) =>
              logger.warn({ error: error.message }, "cannot keep the simulated PINPAD's DUKPT counters on disk"),
            ),
          },
        });
        cleanups.push(() => connection.close());

        // Attached as the agent does, through the registry (the one owner of PINPAD state).
        const { serialNumber: serial } = await new PinpadRegistry(engine, { address: options.port }).attach(
          connection.pinpad,
          options.port,
          { timeouts: settings.sale, ...pinpadSaleOptionsOf(settings), logger },
        );
        if (!options.json) {
          engine.on('progress', (event) => io.stderr(`${event.cashierMessage}\n`));
        }
        await engine.recover();

        let outcome: PaymentOutcome;
        try {
          outcome = await engine.start(
            // What a POS would send, checked as the POS API checks it.
            checkedSaleRequest({
              reference_id: options.reference ?? `cli-${Date.now()}-${randomBytes(3).toString('hex')}`,
              amount: options.amount,
              payment_type: options.type,
              ...(options.installments === undefined ? {} : { installments: options.installments }),
              description: options.description,
              ...(options.notification === undefined ? {} : { notification: options.notification }),
              terminal: serial,
            }),
          );
        } catch (error) {
          if (
            (error instanceof PosError && error.code === 'INVALID_PARAMS') ||
            (error instanceof EngineError && (error.code === 'INVALID_PARAMS' || error.code === 'REFERENCE_CONFLICT'))
          ) {
            throw new UsageError(error.message);
          }
          throw error;
        }
        emit(
          io,
          options.json,
          jsonResult(outcome, stack.training),
          humanResult(outcome, modeOf(stack.training, api.api)),
        );
        if (outcome.status !== 'approved') throw new CommandExit(1);
      } finally {
        for (const cleanup of cleanups.reverse()) {
          try {
            await cleanup();
          } catch (error) {
            logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'cleanup failed');
          }
        }
      }
    });
}
