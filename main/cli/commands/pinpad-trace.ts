/**
 * `pinbridge pinpad trace`: records a session with a PINPAD to a trace file (card data masked,
 * drivers/abecs/trace), for a support desk to read or to replay as a simulated PINPAD
 * (`pinbridge simulator --replay`, the address `sim:replay:<file>`).
 *
 * The session is the identification and, with --sale, one card read as a sale would do it
 * (amount, card, PIN, card out) through PinpadSale — and nothing else: no payments API is
 * called, nothing is authorized or charged.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Pinpad } from '../../../drivers/abecs/pinpad.js';
import { writeTraceFile } from '../../../drivers/abecs/trace/format.js';
import { tracePinpadOf } from '../../support/trace-folder.js';
import { RecordingTransport, TraceRecorder } from '../../../drivers/abecs/trace/recorder.js';
import type { DriverLogger } from '../../../drivers/log.js';
import { connectPinpad } from '../../pinpad/connection.js';
import { createLogger, logFormat } from '../../log.js';
import { PinpadSale, saleStepErrorOf } from '../../pinpad/sale-session.js';
import { CommandExit, EXIT_FAILURE, UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { formatBrl } from '../../locale/br-format.js';
import { PINPAD_AMOUNT_MAX } from '../../contract/index.js';
import { isCentavos, type Centavos } from '../../core/money.js';
import { emit } from '../output.js';

interface TraceCliOptions {
  port: string;
  out: string;
  sale?: Centavos;
  debit?: boolean;
  json?: boolean;
}

/** What the card read of --sale came to, without card data (brand and entry mode only). */
type SaleOutcome =
  | { readonly amount: number; readonly ok: true; readonly entry_mode: string; readonly brand: string }
  | { readonly amount: number; readonly ok: false; readonly code: string; readonly message: string };

/** --sale: integer centavos, as GCX's SPE_AMOUNT (N12) carries them — where the amount enters. */
export function parseCentavos(value: string): Centavos {
  const n = Number(value);
  if (!/^\d{1,12}$/.test(value) || !isCentavos(n)) {
    throw new UsageError(
      `"${value}" is not an amount in centavos (a whole number from 1 to ${PINPAD_AMOUNT_MAX}, e.g. 1000 for R$ 10,00)`,
    );
  }
  return n;
}

/** Refuses, before the PINPAD is opened, an --out the trace could not be written to. */
async function checkWritable(file: string): Promise<void> {
  const path = resolve(file);
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`--out ${file} is a folder; give the trace file's name`);
  try {
    await access(dirname(path), constants.W_OK);
  } catch {
    throw new UsageError(
      `cannot write the trace to ${file}: the folder ${dirname(path)} does not exist or is not writable`,
    );
  }
}

/** Amount on the display, the card read (GCX, then GOX or GPN), the card out (RMC). */
async function readOneCard(
  pinpad: Pinpad,
  amount: Centavos,
  paymentType: 'credit' | 'debit',
  logger: DriverLogger,
): Promise<SaleOutcome> {
  const sale = new PinpadSale(pinpad, { logger });
  try {
    await sale.showAmount(amount, null);
    const read = await sale.readCard({ amount, paymentType });
    return { amount, ok: true, entry_mode: read.card.entryMode, brand: read.card.brand };
  } catch (error) {
    const failure = saleStepErrorOf(error, 'read_card');
    return { amount, ok: false, code: failure.code, message: failure.message };
  } finally {
    // A chip card stays in the slot whatever happened; a PINPAD without a card answers at once.
    await sale.removeCard('RETIRE O CARTAO').catch(() => {});
  }
}

function saleText(sale: SaleOutcome): string {
  return sale.ok
    ? `; card read for ${formatBrl(sale.amount)}: ${sale.brand} ${sale.entry_mode.replaceAll('_', ' ')} (nothing was authorized)`
    : `; the card read for ${formatBrl(sale.amount)} failed: ${sale.code} (${sale.message})`;
}

export function registerPinpadTraceCommand(pinpad: Command, io: CliIo, portHelp: string): void {
  pinpad
    .command('trace')
    .description(
      'Record a session with the PINPAD to a trace file, card data masked: the identification and, with --sale, ' +
        'one card read. Nothing is authorized or charged: no payments API is called. Replay the file with ' +
        '"pinbridge simulator --replay <file>" or the address sim:replay:<file>.',
    )
    .requiredOption('--port <address>', portHelp)
    .requiredOption('--out <file>', 'the trace file to write (JSON lines)')
    .option(
      '--sale <centavos>',
      'also read a card as a sale of this amount would (e.g. 1000 for R$ 10,00): amount, card, PIN, card out',
      parseCentavos,
    )
    .option('--debit', 'with --sale: read the card for debit (credit by default)')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      '\nThe trace keeps each packet with card data masked: PAN first 6 / last 4, tracks reduced to\n' +
        'the masked PAN, expiry and service code, no cardholder name, PIN blocks, KSNs and\n' +
        'cryptograms zeroed (docs/pinpads.md, "Record and replay").\n',
    )
    .action(async (options: TraceCliOptions) => {
      if (options.debit && options.sale === undefined) throw new UsageError('--debit goes with --sale <centavos>');
      await checkWritable(options.out);
      const logger = createLogger({ format: logFormat(io.env), level: io.env.PINBRIDGE_LOG_LEVEL ?? 'warn' });
      const recorder = new TraceRecorder(options.port.trim());
      let sale: SaleOutcome | undefined;
      let failure: Error | undefined;
      try {
        const connection = await connectPinpad(options.port, {
          logger,
          wrapTransport: (transport) => new RecordingTransport(transport, recorder),
        });
        try {
          recorder.pinpad = tracePinpadOf(await connection.pinpad.info());
          if (options.sale !== undefined)
            sale = await readOneCard(connection.pinpad, options.sale, options.debit ? 'debit' : 'credit', logger);
        } finally {
          await connection.close();
        }
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
      }
      const trace = recorder.trace();
      // A session that failed half-way is what a support desk most wants to see: written too.
      if (trace.events.length > 0 || failure === undefined) await writeTraceFile(options.out, trace);
      const packets = recorder.packetCount;
      if (failure !== undefined) {
        if (trace.events.length > 0)
          io.stderr(`The session failed; the ${packets} packets recorded until then are in ${options.out}.\n`);
        throw failure;
      }
      const data = {
        file: options.out,
        packets,
        events: trace.events.length,
        ...(trace.header.pinpad ? { pinpad: trace.header.pinpad } : {}),
        ...(sale ? { sale } : {}),
      };
      emit(io, options.json, data, `Recorded ${packets} packets to ${options.out}${sale ? saleText(sale) : ''}.`);
      if (sale && !sale.ok) throw new CommandExit(EXIT_FAILURE);
    });
}
