/**
 * `pinbridge journal list|show|export`: what support reads from the payment journal, by phone or
 * from a file the store sends; `list` also finds a past sale (amount, NSU, authorization code,
 * the card's last 4, a time range). These commands only read: a missing journal is an error, never
 * a new empty file.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Command } from 'commander';
import { COMMAND_LINES } from '../command-list.js';
import { Journal, JournalError, LIST_MAX_LIMIT } from '../../core/journal/journal.js';
import type { JournalEvent, PaymentRecord } from '../../core/journal/record.js';
import { PAYMENT_STATES, type PaymentState } from '../../core/states.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { formatBrl } from '../../locale/br-format.js';
import { emit, table } from '../output.js';
import { parsePositiveInteger } from '../parse.js';
import { defaultJournalPath, trainingJournalPath } from '../../paths.js';
import { loadSettings } from '../../settings/settings-file.js';
import { startOfDay, storeTimeZone } from '../../locale/store-time.js';

const JOURNAL_HELP = 'the journal file (default: ~/.pinbridge/journal.db)';
const TRAINING_HELP = "training mode's journal (~/.pinbridge/training/journal.db)";
const EXPORT_FORMATS = ['jsonl', 'csv'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];

interface JournalCliOptions {
  journal?: string;
  training?: boolean;
  json?: boolean;
}

interface ListCliOptions extends JournalCliOptions {
  today?: boolean;
  settings?: string;
  from?: string;
  to?: string;
  state?: string[];
  terminal?: string;
  amount?: number;
  nsu?: string;
  authorization?: string;
  cardLast4?: string;
  limit?: number;
}

interface ExportCliOptions extends JournalCliOptions {
  from?: string;
  to?: string;
  format: string;
  out?: string;
}

/** Opens an existing journal; damaged rows are skipped with one line each on stderr. */
export function openJournal(io: CliIo, path: string): Journal {
  try {
    return Journal.open(path, {
      mustExist: true,
      onCorrupt: (error) => io.stderr(`pinbridge: skipped a damaged payment: ${error.message}\n`),
    });
  } catch (error) {
    if (error instanceof JournalError && error.code === 'NOT_FOUND') {
      throw new UsageError(
        `there is no journal at ${path}; name the file with --journal <path> (or --training for training mode's)`,
      );
    }
    throw error;
  }
}

/** The journal file the options name: --journal, --training's, or the default. */
export function journalPathOf(io: CliIo, options: { journal?: string; training?: boolean }): string {
  if (options.journal !== undefined && options.training)
    throw new UsageError('--journal and --training exclude each other');
  return options.journal ?? (options.training ? trainingJournalPath(io.env.HOME) : defaultJournalPath(io.env.HOME));
}

function withJournal<T>(io: CliIo, options: JournalCliOptions, use: (journal: Journal) => T): T {
  const journal = openJournal(io, journalPathOf(io, options));
  try {
    return use(journal);
  } finally {
    journal.close();
  }
}

/** "confirmed,declined" or several words: each must be a payment state. */
function parseStates(values: readonly string[]): PaymentState[] {
  const states = values
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
  for (const state of states) {
    if (!(PAYMENT_STATES as readonly string[]).includes(state)) {
      throw new UsageError(`"${state}" is not a payment state (one of ${PAYMENT_STATES.join(', ')})`);
    }
  }
  return states as PaymentState[];
}

/** Any time Date understands ("2026-03-10", "2026-03-10T09:00", full ISO), as ISO UTC. */
function parseTime(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new UsageError(`"${value}" is not a date or time (for example 2026-03-10T09:00:00Z)`);
  return new Date(time).toISOString();
}

/** The same rules as the POS API's payment.list: what an NSU, a code or last 4 digits can be. */
function parseNsu(value: string): string {
  if (!/^[0-9A-Za-z]{1,20}$/.test(value))
    throw new UsageError(`"${value}" is not an NSU (1 to 20 letters or digits, as printed on the receipt)`);
  return value;
}

function parseAuthorizationCode(value: string): string {
  if (!/^[0-9A-Za-z]{1,12}$/.test(value))
    throw new UsageError(`"${value}" is not an authorization code (1 to 12 letters or digits)`);
  return value;
}

function parseLast4(value: string): string {
  if (!/^[0-9]{4}$/.test(value))
    throw new UsageError(`"${value}" is not the last 4 digits of a card (exactly 4 digits)`);
  return value;
}

/** Midnight of today on the store's clock: the settings' receipts.time_zone, as the window and the receipts reckon it. */
function storeMidnight(io: CliIo, settingsPath: string | undefined, now: Date = new Date()): string {
  const settings = loadSettings(settingsPath, io.env.HOME);
  return startOfDay(now, storeTimeZone(settings.receipts?.time_zone)).toISOString();
}

function parseLimit(value: string): number {
  const limit = parsePositiveInteger(value);
  if (limit > LIST_MAX_LIMIT) throw new UsageError(`--limit is at most ${LIST_MAX_LIMIT}`);
  return limit;
}

export { formatBrl };

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * An ISO time as this machine's local "2026-03-10 09:00:01" (what the store's clock said);
 * with milliseconds for a payment's history, where steps follow each other closely.
 */
export function localTime(iso: string, milliseconds = false): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const ms = milliseconds ? `.${String(at.getMilliseconds()).padStart(3, '0')}` : '';
  return `${at.getFullYear()}-${pad2(at.getMonth() + 1)}-${pad2(at.getDate())} ${pad2(at.getHours())}:${pad2(at.getMinutes())}:${pad2(at.getSeconds())}${ms}`;
}

const typeLabel = (record: PaymentRecord): string =>
  record.installments !== null && record.installments > 1
    ? `${record.paymentType} ${record.installments}x`
    : record.paymentType;

const cardLabel = (record: PaymentRecord): string =>
  record.card ? `${record.card.brand} ${record.card.maskedPan}` : '-';

/** Columns padded to their widest cell; the last one is left ragged. */
function columns(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '),
    )
    .join('\n');
}

function listText(items: readonly PaymentRecord[], total: number): string {
  if (items.length === 0) return 'No payments.';
  const rows = [
    ['TIME', 'REFERENCE', 'STATE', 'AMOUNT', 'TYPE', 'CARD', 'TRANSACTION'],
    ...items.map((r) => [
      localTime(r.createdAt),
      r.referenceId,
      r.state,
      formatBrl(r.amount),
      typeLabel(r),
      cardLabel(r),
      r.transactionId ?? '-',
    ]),
  ];
  const footer =
    items.length < total ? `\n${items.length} of ${total} payments (newest first; --limit shows more)` : '';
  return `${columns(rows)}${footer}`;
}

function showText(record: PaymentRecord, events: readonly JournalEvent[]): string {
  const a = record.authorization;
  const details = table([
    ['Payment', record.id],
    ['Reference', record.referenceId],
    ['State', record.state],
    ['Amount', formatBrl(record.amount)],
    ['Type', typeLabel(record)],
    ['Description', record.description],
    ['Notification', record.notification ?? undefined],
    ['Terminal', record.terminal],
    ['Source', record.source],
    ['Confirmation', record.confirmation],
    ['Transaction', record.transactionId ?? undefined],
    ['Card', record.card ? `${cardLabel(record)} (${record.card.entryMode})` : undefined],
    [
      'Authorization',
      a ? `${a.authorizationCode ?? '-'} NSU ${a.nsu ?? '-'} (${a.responseCode} ${a.responseMessage})` : undefined,
    ],
    ['Problem', record.problem ? `${record.problem.code}: ${record.problem.message}` : undefined],
    ['Customer tax id', record.customerTaxId ?? undefined],
    ['Confirm by', record.confirmDeadline ? localTime(record.confirmDeadline) : undefined],
    [
      'Pending undo',
      record.pendingUndo
        ? `attempt ${record.pendingUndo.attempts}, next ${localTime(record.pendingUndo.nextAttemptAt)}${record.pendingUndo.lastError ? `, last error: ${record.pendingUndo.lastError}` : ''}`
        : undefined,
    ],
    ['Created', localTime(record.createdAt)],
    ['Updated', localTime(record.updatedAt)],
    ['Finished', record.finishedAt ? localTime(record.finishedAt) : undefined],
  ]);
  const history = events.map((e) => {
    const move = e.from === null || e.from === e.to ? e.to : `${e.from} → ${e.to}`;
    return `  ${String(e.seq).padStart(3)}  ${localTime(e.at, true)}  ${move}${e.note ? `  ${e.note}` : ''}`;
  });
  return `${details}\n\nHistory:\n${history.join('\n')}`;
}

const CSV_COLUMNS: ReadonlyArray<readonly [string, (r: PaymentRecord) => string | number | null | undefined]> = [
  ['id', (r) => r.id],
  ['referenceId', (r) => r.referenceId],
  ['createdAt', (r) => r.createdAt],
  ['updatedAt', (r) => r.updatedAt],
  ['finishedAt', (r) => r.finishedAt],
  ['state', (r) => r.state],
  ['amount', (r) => r.amount],
  ['paymentType', (r) => r.paymentType],
  ['installments', (r) => r.installments],
  ['terminal', (r) => r.terminal],
  ['source', (r) => r.source],
  ['confirmation', (r) => r.confirmation],
  ['transactionId', (r) => r.transactionId],
  ['cardBrand', (r) => r.card?.brand],
  ['maskedPan', (r) => r.card?.maskedPan],
  ['entryMode', (r) => r.card?.entryMode],
  ['authorizationCode', (r) => r.authorization?.authorizationCode],
  ['nsu', (r) => r.authorization?.nsu],
  ['responseCode', (r) => r.authorization?.responseCode],
  ['problemCode', (r) => r.problem?.code],
  ['problemMessage', (r) => r.problem?.message],
  ['customerTaxId', (r) => r.customerTaxId],
  ['description', (r) => r.description],
];

/**
 * One RFC 4180 cell. Text that a spreadsheet would run as a formula (=, +, -, @ first) gets a
 * leading apostrophe: the description comes from the POS, and support opens these in Excel.
 */
function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function registerJournalCommand(program: Command, io: CliIo): void {
  const journal = program.command('journal').description(COMMAND_LINES.journal.description);

  journal
    .command('list')
    .description(
      'List payments, newest first: time, reference, state, amount, type, masked card, transaction id. The filters find a past sale (amount, NSU, authorization code, last 4 digits, time range).',
    )
    .option('--journal <path>', JOURNAL_HELP)
    .option('--training', TRAINING_HELP)
    .option(
      '--today',
      "only today's payments: since midnight on the store's clock (the settings' receipts.time_zone, else this computer's zone when it is a Brazilian one, else America/Sao_Paulo)",
    )
    .option(
      '--settings <file>',
      'the settings file whose receipts.time_zone --today reads; default ~/.pinbridge/settings.json',
    )
    .option('--from <time>', 'only payments created at or after this time (ISO; local time without a zone)', parseTime)
    .option('--to <time>', 'only payments created before this time', parseTime)
    .option('--state <state...>', 'only payments in these states (several words or comma-separated)')
    .option('--terminal <serial>', 'only payments on this PINPAD (serial number)')
    .option(
      '--amount <centavos>',
      'only payments of exactly this amount in centavos (1990 = R$ 19,90)',
      parsePositiveInteger,
    )
    .option('--nsu <nsu>', 'only the payment with this NSU, exactly as printed (leading zeros count)', parseNsu)
    .option(
      '--authorization <code>',
      'only the payment with this authorization code (letters in any case)',
      parseAuthorizationCode,
    )
    .option('--card-last4 <digits>', 'only payments by a card ending in these 4 digits', parseLast4)
    .option('--limit <n>', `how many (newest first; at most ${LIST_MAX_LIMIT})`, parseLimit, 100)
    .option('--json', 'print JSON: {"items": [payment records], "total"}')
    .action((options: ListCliOptions) => {
      const states = options.state === undefined ? undefined : parseStates(options.state);
      if (options.today && options.from !== undefined)
        throw new UsageError('--today and --from exclude each other (--today is --from midnight)');
      const from = options.today ? storeMidnight(io, options.settings) : options.from;
      const result = withJournal(io, options, (j) =>
        j.list({
          ...(from === undefined ? {} : { from }),
          ...(options.to === undefined ? {} : { to: options.to }),
          ...(states === undefined ? {} : { states }),
          ...(options.terminal === undefined ? {} : { terminal: options.terminal }),
          ...(options.amount === undefined ? {} : { amount: options.amount }),
          ...(options.nsu === undefined ? {} : { nsu: options.nsu }),
          ...(options.authorization === undefined ? {} : { authorizationCode: options.authorization }),
          ...(options.cardLast4 === undefined ? {} : { cardLast4: options.cardLast4 }),
          ...(options.limit === undefined ? {} : { limit: options.limit }),
        }),
      );
      emit(io, options.json, result, listText(result.items, result.total));
    });

  journal
    .command('show')
    .description('Show one payment, found by its reference or its journal id, with its history.')
    .argument('<reference-or-id>', "the POS's reference, or the journal's 32-hex payment id")
    .option('--journal <path>', JOURNAL_HELP)
    .option('--training', TRAINING_HELP)
    .option('--json', 'print JSON: {"payment": record, "events": [history]}')
    .action((key: string, options: JournalCliOptions) => {
      const found = withJournal(io, options, (j) => {
        const record = j.findByReference(key) ?? (/^[0-9a-f]{32}$/.test(key) ? j.get(key) : undefined);
        return record ? { payment: record, events: j.events(record.id) } : undefined;
      });
      if (!found) throw new UsageError(`no payment with reference or id "${key}" in the journal`);
      emit(io, options.json, found, showText(found.payment, found.events));
    });

  journal
    .command('export')
    .description('Write every payment (oldest first) as JSON lines, each with its history, or as CSV.')
    .option('--journal <path>', JOURNAL_HELP)
    .option('--training', TRAINING_HELP)
    .option('--from <time>', 'only payments created at or after this time (ISO; local time without a zone)', parseTime)
    .option('--to <time>', 'only payments created before this time', parseTime)
    .option('--format <format>', `${EXPORT_FORMATS.join(' or ')}`, 'jsonl')
    .option('--out <file>', 'write to this file instead of stdout')
    .action((options: ExportCliOptions) => {
      if (!(EXPORT_FORMATS as readonly string[]).includes(options.format)) {
        throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`);
      }
      const format = options.format as ExportFormat;
      withJournal(io, options, (j) => {
        const fd = options.out === undefined ? undefined : openSync(options.out, 'w');
        const write = (text: string): void => {
          if (fd === undefined) io.stdout(text);
          else writeSync(fd, text);
        };
        let count = 0;
        try {
          if (format === 'csv') write(`${CSV_COLUMNS.map(([name]) => name).join(',')}\r\n`);
          for (const record of j.records({
            ...(options.from === undefined ? {} : { from: options.from }),
            ...(options.to === undefined ? {} : { to: options.to }),
          })) {
            write(
              format === 'csv'
                ? `${CSV_COLUMNS.map(([, cell]) => csvCell(cell(record))).join(',')}\r\n`
                : `${JSON.stringify({ ...record, events: j.events(record.id) })}\n`,
            );
            count += 1;
          }
        } finally {
          if (fd !== undefined) closeSync(fd);
        }
        if (options.out !== undefined) io.stdout(`${count} payments written to ${options.out}\n`);
      });
    });
}
