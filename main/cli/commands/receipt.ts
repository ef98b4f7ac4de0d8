/**
 * `pinbridge receipt show|print`: a payment's receipt from the journal, for support and for the
 * cashier's "print it again" — shown as text, written as ESC/POS, HTML or PDF, or sent to a
 * receipt printer. A copy the agent already printed comes out marked as a reprint.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { COMMAND_LINES } from '../command-list.js';
import { isPaperColumns, type PaperColumns } from '../../../drivers/printers/document.js';
import { RECEIPT_COPIES, type ReceiptCopy } from '../../receipts/card-receipt.js';
import { PrintJournal } from '../../receipts/print-jobs.js';
import { DEFAULT_PRINTER, printerColumns, SettingsPrinter, type PrinterSettings } from '../../receipts/printers.js';
import { RECEIPT_FORMATS, renderDocument, type ReceiptFormat } from '../../receipts/receipts.js';
import { ReceiptService } from '../../receipts/service.js';
import { TRAINING_RECEIPT_SETTINGS, type ReceiptSettings } from '../../receipts/settings.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { emit } from '../output.js';
import { loadSettings, type AgentSettings } from '../../settings/settings-file.js';
import { journalPathOf, openJournal } from './journal.js';

const KEY_HELP = "the POS's reference, the API's transaction id or the journal's payment id";

interface ReceiptCliOptions {
  journal?: string;
  training?: boolean;
  settings?: string;
  copy?: string;
  columns?: PaperColumns;
  reprint?: boolean;
}

interface ShowCliOptions extends ReceiptCliOptions {
  format: string;
  out?: string;
}

interface PrintCliOptions extends ReceiptCliOptions {
  printer?: string;
  model?: string;
  json?: boolean;
}

function parseColumns(value: string): PaperColumns {
  const columns = Number(value);
  if (!isPaperColumns(columns)) throw new UsageError('--columns must be 32 (58 mm paper), 42 or 48 (80 mm)');
  return columns;
}

function parseCopies(value: string | undefined, fallback: readonly ReceiptCopy[]): readonly ReceiptCopy[] {
  if (value === undefined) return fallback;
  if (value === 'both') return RECEIPT_COPIES;
  if (value === 'customer' || value === 'merchant') return [value];
  throw new UsageError('--copy must be customer, merchant or both');
}

/** The store as receipts print it: the settings' `receipts`, or training mode's made-up store. */
function storeOf(settings: AgentSettings, training: boolean): ReceiptSettings {
  if (settings.receipts !== null) return settings.receipts;
  if (training) return TRAINING_RECEIPT_SETTINGS;
  const where = settings.path === null ? 'there is no settings file' : `${settings.path} has none`;
  throw new UsageError(
    `a receipt outside training mode shows the store's name and CNPJ, and ${where}: set them in the window (Configurações) or as "receipts": {"merchant": {"name": …, "cnpj": …}} in the settings; ` +
      'for a sale made in training mode, add --training',
  );
}

/** Runs `use` with the receipts of the journal the options name (and its print journal, when there is one). */
async function withReceipts<T>(
  io: CliIo,
  options: ReceiptCliOptions,
  use: (service: ReceiptService, settings: AgentSettings) => Promise<T>,
): Promise<T> {
  const settings = loadSettings(options.settings, io.env.HOME);
  const training = options.training === true;
  const journalPath = journalPathOf(io, options);
  // The journal first: with none outside training mode, "add --training" is the whole answer.
  const journal = openJournal(io, journalPath);
  let store: ReceiptSettings;
  try {
    store = storeOf(settings, training);
  } catch (error) {
    journal.close();
    throw error;
  }
  // What the agent printed: a copy printed before comes out as a reprint.
  const printsPath = join(dirname(journalPath), 'print-jobs.db');
  const prints = existsSync(printsPath) ? PrintJournal.open(printsPath) : undefined;
  try {
    const printedBefore = (subject: string): boolean =>
      prints !== undefined && prints.list({ subject, states: ['printed'], limit: 1 }).length > 0;
    return await use(new ReceiptService({ journal, settings: store, training, printedBefore }), settings);
  } finally {
    prints?.close();
    journal.close();
  }
}

/** The printer --printer names: a name in the settings, or an address (tcp://…, serial:…, file:…, lp://…). */
function printerOf(settings: AgentSettings, options: PrintCliOptions): PrinterSettings {
  const name = options.printer ?? DEFAULT_PRINTER;
  const configured = settings.printers[name];
  const base: PrinterSettings | undefined = configured ?? (name.includes(':') ? { address: name } : undefined);
  if (base === undefined) {
    throw new UsageError(
      `no printer "${name}" in the settings (${settings.path ?? 'none found'}); add "printers": {"${name}": {"address": "tcp://…"}} or pass --printer tcp://HOST:9100`,
    );
  }
  return {
    ...base,
    ...(options.columns !== undefined ? { columns: options.columns } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
  };
}

export function registerReceiptCommand(program: Command, io: CliIo): void {
  const receipt = program.command('receipt').description(COMMAND_LINES.receipt.description);

  receipt
    .command('show')
    .description('Write a copy of the receipt: text on the terminal, or ESC/POS, HTML or PDF to a file.')
    .argument('<reference-or-id>', KEY_HELP)
    .option('--copy <copy>', 'customer or merchant', 'customer')
    .option('--format <format>', `one of ${RECEIPT_FORMATS.join(', ')}`, 'text')
    .option('--columns <n>', 'paper width in characters: 32 (58 mm), 42 or 48 (80 mm); default 48', parseColumns)
    .option('--out <file>', 'write to this file (required for escpos and pdf, which are binary)')
    .option('--reprint', 'mark it as a reprint (default: when the agent printed that copy before)')
    .option('--journal <path>', 'the journal file (default: ~/.pinbridge/journal.db)')
    .option('--training', "training mode's journal and store")
    .option(
      '--settings <file>',
      "the settings file with the store's name and CNPJ (receipts.merchant) and the printers; default ~/.pinbridge/settings.json",
    )
    .action(async (key: string, options: ShowCliOptions) => {
      if (!(RECEIPT_FORMATS as readonly string[]).includes(options.format))
        throw new UsageError(`--format must be one of ${RECEIPT_FORMATS.join(', ')}`);
      const format = options.format as ReceiptFormat;
      const [copy] = parseCopies(options.copy, ['customer']);
      if (options.copy === 'both') throw new UsageError('--copy must be customer or merchant (show writes one copy)');
      if ((format === 'escpos' || format === 'pdf') && options.out === undefined)
        throw new UsageError(`${format} is binary: name a file with --out`);
      const output = await withReceipts(io, options, async (service, settings) => {
        const document = service.document(key, copy!, options.reprint === true ? { reprint: true } : {});
        const printer = settings.printers[DEFAULT_PRINTER];
        const columns = options.columns ?? (printer ? printerColumns(printer) : 48);
        const escpos = printer?.model !== undefined ? { printerModel: printer.model } : {};
        return renderDocument(document, format, { columns, escpos });
      });
      if (options.out !== undefined) writeFileSync(options.out, output);
      else io.stdout(output as string);
    });

  receipt
    .command('print')
    .description(
      'Print copies of the receipt on a receipt printer (the settings\' "default", another by name, or an address).',
    )
    .argument('<reference-or-id>', KEY_HELP)
    .option('--copy <copy>', 'customer, merchant or both', 'both')
    .option(
      '--printer <name-or-address>',
      'a printer of the settings, or tcp://HOST:9100, serial:///dev/ttyUSB0?baud=9600, file:///dev/usb/lp0, lp://NAME',
    )
    .option('--model <id>', 'ESC/POS printer model (picks the code page for ç, ã, é)')
    .option('--columns <n>', 'paper width in characters: 32 (58 mm), 42 or 48 (80 mm)', parseColumns)
    .option('--reprint', 'mark it as a reprint (default: when the agent printed that copy before)')
    .option('--journal <path>', 'the journal file (default: ~/.pinbridge/journal.db)')
    .option('--training', "training mode's journal and store")
    .option('--settings <file>', 'the settings file (store and printers); default ~/.pinbridge/settings.json')
    .option('--json', 'print JSON: {"printed": [copies], "printer"}')
    .action(async (key: string, options: PrintCliOptions) => {
      const copies = parseCopies(options.copy, RECEIPT_COPIES);
      const result = await withReceipts(io, options, async (service, settings) => {
        const target = printerOf(settings, options);
        const printer = new SettingsPrinter(target);
        try {
          for (const copy of copies)
            await printer.print(service.document(key, copy, options.reprint === true ? { reprint: true } : {}));
        } finally {
          await printer.close();
        }
        return { printed: copies, printer: target.address };
      });
      emit(
        io,
        options.json,
        { printed: result.printed, printer: result.printer },
        `Printed the ${result.printed.join(' and ')} cop${result.printed.length > 1 ? 'ies' : 'y'} on ${result.printer}.`,
      );
    });
}
