/**
 * A PrintDocument as ESC/POS bytes, through @point-of-sale/receipt-printer-encoder: exactly the
 * lines of `layout()` (already wrapped and positioned, so printed left-aligned), bold and double
 * size as the layout says, native barcodes and QR codes, the cash drawer pulse and the cut.
 *
 * The printer model (one of the encoder's) decides the ESC t number of the code page and what the
 * printer can do; the code page itself is always one that has every Portuguese letter.
 */
import { createRequire } from 'node:module';
import type ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { bwipLibrary } from './symbol-libraries.js';
import { DriverError } from '../errors.js';
import { isPaperColumns, type PaperColumns, type PrintDocument } from './document.js';
import { layout, type LaidOutLine } from './layout.js';

export type EscPosErrorCode =
  /** `printerModel` is not one of escPosPrinterModels(). */
  | 'UNKNOWN_PRINTER_MODEL'
  /** `codepage` is not one of ESC_POS_CODEPAGES. */
  | 'UNKNOWN_CODEPAGE'
  /** The printer has no such code page (or none with the Portuguese letters). */
  | 'UNSUPPORTED_CODEPAGE'
  /** The paper is not 32, 42 or 48 columns, or is wider than the printer's font A. */
  | 'UNSUPPORTED_COLUMNS'
  /** The printer cannot print this barcode symbology, or QR codes. */
  | 'UNSUPPORTED_CODE'
  /** Barcode or QR code data the symbology cannot hold. */
  | 'INVALID_CODE_DATA'
  /** The barcode is wider than the paper even at the thinnest bars. */
  | 'BARCODE_TOO_WIDE';

export class EscPosError extends DriverError {
  declare readonly code: EscPosErrorCode;

  constructor(code: EscPosErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/**
 * The code pages a receipt may be printed in: those that hold every Portuguese letter (ç ã õ á à
 * â é ê í ó ô ú ü, their capitals, ª º). CP437, the printers' power-on page, lacks ã õ Ã Õ Ê Í Ó Ô Ú.
 * The order is the preference when the renderer chooses (see below).
 */
export const ESC_POS_CODEPAGES = ['cp850', 'cp858', 'cp860', 'windows1252', 'iso8859-1', 'iso8859-15'] as const;
export type EscPosCodepage = (typeof ESC_POS_CODEPAGES)[number];

/*
 * Why CP850 first, and for printers outside the encoder's list (numbered as Epson does, which the
 * encoder assumes and ESC/POS clones follow): it has every Portuguese letter plus the Latin-1
 * symbols, and it is ESC t 2, one of the six pages of Epson's original table (0–5) that every
 * ESC/POS printer we know of has, the cheap 58 mm "POS-58/5890" ones included, where the later
 * pages (16 = Windows-1252, 19 = CP858, 40 = ISO-8859-15) are missing from older firmware. Every
 * model the encoder knows has it (HP's A779 numbers it 1, the encoder's table says so). CP858
 * (CP850 with €) and CP860 (Portuguese) follow, for a model whose table should lack CP850.
 */

export interface EscPosPrinterModel {
  /** The encoder's id, what `EscPosOptions.printerModel` takes ("epson-tm-t20iii"). */
  readonly id: string;
  /** For a settings screen ("Epson TM-T20III"; Star printers as "Star TSP100IV (ESC/POS emulation)"). */
  readonly name: string;
}

/*
 * Star printers speak StarPRNT or Star Line natively and the encoder would encode for that; this
 * renderer speaks ESC/POS only, so they are offered for their ESC/POS emulation, which has to be
 * switched on in the printer (Star's configuration utility or DIP switches). The encoder keeps the
 * Star model's ESC/POS code page table for them.
 */
let printerModels: readonly EscPosPrinterModel[] | undefined;

/** The printer models a receipt printer can be set as (the encoder's), loading the encoder. */
export function escPosPrinterModels(): readonly EscPosPrinterModel[] {
  const Encoder = encoderClass();
  return (printerModels ??= Encoder.printerModels.map(({ id, name }) => {
    const native = new Encoder({ printerModel: id as EncoderOptions['printerModel'] }).language;
    return { id, name: native === 'esc-pos' ? name.trim() : `${name.trim()} (ESC/POS emulation)` };
  }));
}

/**
 * The encoder, loaded with the first ESC/POS job or printer model asked for: with its code page
 * tables it is some 3 MB an agent without an ESC/POS printer (training's, printing PDF files)
 * never uses. Its CommonJS build, so that encoding stays synchronous.
 */
function encoderClass(): typeof ReceiptPrinterEncoder {
  return createRequire(import.meta.url)('@point-of-sale/receipt-printer-encoder') as typeof ReceiptPrinterEncoder;
}

export interface EscPosOptions {
  readonly columns: PaperColumns;
  /** One of escPosPrinterModels()' ids; without it an Epson-compatible printer is assumed. */
  readonly printerModel?: string;
  /** Forces a code page (one of ESC_POS_CODEPAGES) for a printer whose table the encoder does not know. */
  readonly codepage?: string;
}

type EncoderOptions = NonNullable<ConstructorParameters<typeof ReceiptPrinterEncoder>[0]>;

/** Lines fed before the cut when the model does not say: about 17 mm at the default 1/6" line, past any cutter or tear bar. */
const DEFAULT_FEED_BEFORE_CUT = 4;
/** 13 mm, the height FEBRABAN gives the boleto barcode, at 203 dpi (14.7 mm at 180 dpi). */
const BARCODE_HEIGHT_DOTS = 104;
/** Thickest bars tried: GS w 3 is Epson's default, wider only makes a receipt barcode longer. */
const MAX_MODULE_DOTS = 3;
/** The white a scanner needs left and right of a 1D barcode, in narrow modules. */
const BARCODE_QUIET_ZONE_MODULES = 10;
/** The QR code's side with its quiet zone: 36 mm at 203 dpi, as the screen and PDF renderers draw it. */
const QR_SIDE_DOTS = 288;
const QR_QUIET_ZONE_MODULES = 4;
/** White under a barcode or QR code before the caption (ESC J, in motion units: about 2 mm). */
const FEED_AFTER_CODE = 16;

const ESC = 0x1b;
const GS = 0x1d;
/** ESC p 0 50 250: pulse on pin 2 (the drawer connector's usual wiring) for 100 ms, then 500 ms off. */
const DRAWER_PULSE = [ESC, 0x70, 0, 50, 250];
/** GS V 1: the slip hangs on a hinge until torn off, as checkouts print the two copies in a row. */
const PARTIAL_CUT = [GS, 0x56, 1];

export function encodeEscPos(document: PrintDocument, options: EscPosOptions): Uint8Array {
  const printer = openPrinter(options);
  const { encoder } = printer;
  encoder.initialize();
  encoder.codepage(printer.codepage);
  for (const line of layout(document, options.columns).lines) {
    switch (line.kind) {
      case 'text':
        encoder.bold(line.bold).size(line.large ? 2 : 1);
        encoder.text(printable(line.text));
        encoder.newline();
        break;
      case 'barcode':
        encoder.bold(false).size(1);
        encoder.raw([...barcodeCommands(line, printer), ESC, 0x4a, FEED_AFTER_CODE]);
        break;
      case 'qrcode':
        encoder.bold(false).size(1);
        printQrCode(line, printer);
        encoder.raw([ESC, 0x4a, FEED_AFTER_CODE]);
        break;
    }
  }
  encoder.bold(false).size(1);
  // The pulse and the cut go in as raw bytes: the encoder follows its own pulse (when not last)
  // and its cut with a line feed, which would print a blank line after the pulse and feed the
  // next receipt's paper after the cut. Raw bytes get no line feed of their own.
  if (document.openDrawer === true) encoder.raw(DRAWER_PULSE);
  if (document.cut !== false) {
    encoder.newline(printer.feedBeforeCut);
    encoder.raw(PARTIAL_CUT);
  }
  return encoder.encode();
}

/** The code page `encodeEscPos` prints in for these options (for a settings screen or a log line). */
export function escPosCodepage(options: EscPosOptions): EscPosCodepage {
  return openPrinter(options).codepage;
}

interface Printer {
  readonly encoder: ReceiptPrinterEncoder;
  readonly name: string;
  readonly codepage: EscPosCodepage;
  readonly capabilities: Capabilities;
  readonly feedBeforeCut: number;
}

function openPrinter(options: EscPosOptions): Printer {
  const { columns, printerModel } = options;
  if (!isPaperColumns(columns)) {
    throw new EscPosError('UNSUPPORTED_COLUMNS', `A receipt paper has 32, 42 or 48 columns, not ${String(columns)}.`);
  }
  const models = escPosPrinterModels();
  const model = printerModel === undefined ? undefined : models.find((m) => m.id === printerModel);
  if (printerModel !== undefined && model === undefined) {
    throw new EscPosError(
      'UNKNOWN_PRINTER_MODEL',
      `Unknown printer model "${printerModel}"; the known ones are ${models.map((m) => m.id).join(', ')}.`,
    );
  }
  const name = model?.name ?? 'ESC/POS printer';
  const Encoder = encoderClass();
  const encoder = new Encoder({
    ...(model === undefined ? {} : { printerModel: model.id as EncoderOptions['printerModel'] }),
    // Star models too: see escPosPrinterModels().
    language: 'esc-pos',
    columns,
    // LF alone prints and feeds a line in ESC/POS; the encoder's default LF CR makes printers
    // set to "CR = line feed" (a common serial setting) double-space the receipt.
    newline: '\n',
    // Nothing is fed after a QR code by the encoder; encodeEscPos feeds a little itself, so the
    // caption under the code is the next line of the layout and not a blank line after it.
    feedAfterBlock: false,
    // The cut's feed is done by encodeEscPos (the model's, or the default for models without one).
    feedBeforeCut: 0,
    // Never drop a barcode or a font with a console warning: what the printer cannot do is checked first.
    errors: 'strict',
  });
  const capabilities = readCapabilities(encoder.printerCapabilities);
  if (model !== undefined && capabilities.fontAColumns !== undefined && columns > capabilities.fontAColumns) {
    throw new EscPosError(
      'UNSUPPORTED_COLUMNS',
      `The ${name} prints at most ${capabilities.fontAColumns} columns; the paper is set to ${columns}.`,
    );
  }
  return {
    encoder,
    name,
    codepage: chooseCodepage(encoder, name, options.codepage),
    capabilities,
    feedBeforeCut: capabilities.cutterFeedLines ?? DEFAULT_FEED_BEFORE_CUT,
  };
}

function isEscPosCodepage(value: string): value is EscPosCodepage {
  return (ESC_POS_CODEPAGES as readonly string[]).includes(value);
}

/** Whether the printer's code page table has the page (the encoder refuses pages it does not). */
function printerHas(encoder: ReceiptPrinterEncoder, codepage: EscPosCodepage): boolean {
  try {
    encoder.codepage(codepage);
    return true;
  } catch {
    return false;
  }
}

function chooseCodepage(encoder: ReceiptPrinterEncoder, name: string, forced: string | undefined): EscPosCodepage {
  const available = ESC_POS_CODEPAGES.filter((codepage) => printerHas(encoder, codepage));
  if (forced !== undefined) {
    if (!isEscPosCodepage(forced)) {
      throw new EscPosError(
        'UNKNOWN_CODEPAGE',
        `Unknown code page "${forced}"; a receipt in Portuguese is printed in one of ${ESC_POS_CODEPAGES.join(', ')}.`,
      );
    }
    if (!available.includes(forced)) {
      throw new EscPosError(
        'UNSUPPORTED_CODEPAGE',
        `The ${name} has no code page ${forced}; it has ${available.length > 0 ? available.join(', ') : 'none with the Portuguese letters'}.`,
      );
    }
    return forced;
  }
  const chosen = available[0];
  if (chosen === undefined) {
    throw new EscPosError('UNSUPPORTED_CODEPAGE', `The ${name} has no code page with the Portuguese letters.`);
  }
  return chosen;
}

/** What the renderer needs to know of the encoder's printer definition (typed as a plain object there). */
interface Capabilities {
  readonly fontAColumns: number | undefined;
  /** The barcode symbologies the printer prints (empty when it prints none). */
  readonly symbologies: readonly string[];
  /** QR codes: with model 2 selected, without selecting a model (the printer's own, model 2 today), or not at all. */
  readonly qrcode: 'model-2' | 'default-model' | 'none';
  readonly cutterFeedLines: number | undefined;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function readCapabilities(capabilities: object): Capabilities {
  const columns = field(field(field(capabilities, 'fonts'), 'A'), 'columns');
  const barcodes = field(capabilities, 'barcodes');
  const symbologies = field(barcodes, 'symbologies');
  const qrcode = field(capabilities, 'qrcode');
  const qrModels = field(qrcode, 'models');
  const feed = field(field(capabilities, 'cutter'), 'feed');
  return {
    fontAColumns: typeof columns === 'number' ? columns : undefined,
    symbologies:
      field(barcodes, 'supported') === false || !Array.isArray(symbologies)
        ? []
        : symbologies.filter((s): s is string => typeof s === 'string'),
    qrcode:
      field(qrcode, 'supported') === false
        ? 'none'
        : !Array.isArray(qrModels) || qrModels.length === 0
          ? 'default-model'
          : qrModels.includes('2')
            ? 'model-2'
            : 'none',
    cutterFeedLines: typeof feed === 'number' ? feed : undefined,
  };
}

/**
 * Typographic characters none of the Portuguese code pages but Windows-1252 has, as the ASCII
 * character they look like: one for one, so every character keeps the column `layout()` gave it
 * (and the receipt reads the same on every printer).
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'", '\u2032': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u201F': '"', '\u2033': '"',
  '\u2022': '*',
  '\u2002': ' ', '\u2003': ' ', '\u2007': ' ', '\u2009': ' ', '\u200A': ' ', '\u202F': ' ',
}; // prettier-ignore

/**
 * A line's text as it may go to the printer: NFC (so "ã" typed as "a" + combining tilde is one
 * character of the code page), typographic look-alikes, and every control character replaced
 * one for one — an ESC or GS inside a customer's name would otherwise be a printer command (open
 * the drawer, cut). What the code page still lacks the encoder prints as "?".
 */
function printable(text: string): string {
  return (
    text
      .normalize('NFC')
      .replace(/[\u2002-\u2022\u202F\u2032\u2033\u2212]/g, (c) => LOOK_ALIKES[c] ?? c)
      .replace(/[\t\n\v\f\r]/g, ' ')
      // eslint-disable-next-line no-control-regex -- the control characters are what is replaced
      .replace(/[\u0000-\u001F\u007F-\u009F]/g, '?')
  );
}

function requireSymbology(printer: Printer, symbology: string): void {
  if (!printer.capabilities.symbologies.includes(symbology)) {
    throw new EscPosError('UNSUPPORTED_CODE', `The ${printer.name} cannot print ${symbology.toUpperCase()} barcodes.`);
  }
}

/** Epson's thick ITF element for each GS w (binary-level bar codes: 0.141 mm per dot at 180 dpi). */
const ITF_THICK_DOTS: Readonly<Record<number, number>> = { 1: 3, 2: 5, 3: 8 };

/**
 * GS h / GS w / GS H / GS k for one barcode, centred (ESC a). Built here rather than with the
 * encoder's barcode(), whose thinnest ITF bars are GS w 2: the boleto's 44 digits are then 721 dots
 * (about 90 mm) wide and the printer skips a barcode wider than the paper. With GS w 1 (thin bar
 * one dot, thick three) they are 405 dots and fit 80 mm paper; GS w 1 is below the range of some
 * older firmware (2–6), which ignores it. The widest bars that fit are used; nothing fits 58 mm.
 */
function barcodeCommands(line: LaidOutLine & { kind: 'barcode' }, printer: Printer): number[] {
  const { symbology, data } = line;
  requireSymbology(printer, symbology);
  let payload: number[];
  let identifier: number;
  let widthDots: (moduleDots: number) => number;
  if (symbology === 'itf') {
    if (!/^(?:\d\d){1,127}$/.test(data)) {
      throw new EscPosError(
        'INVALID_CODE_DATA',
        `An ITF barcode holds an even number of digits (at most 254); got "${data}".`,
      );
    }
    // Function A (GS k 5 … NUL), which every ESC/POS printer has.
    identifier = 5;
    payload = [...Buffer.from(data, 'ascii'), 0];
    // Each digit is 3 thin and 2 thick elements; start: 4 thin; stop: thick + 2 thin.
    widthDots = (n) => {
      const thick = ITF_THICK_DOTS[n] ?? 3 * n;
      return data.length * (3 * n + 2 * thick) + 4 * n + thick + 2 * n;
    };
  } else {
    if (!/^[\x20-\x7E]+$/.test(data)) {
      throw new EscPosError('INVALID_CODE_DATA', 'A CODE128 barcode holds printable ASCII characters only.');
    }
    // Code set B ("{B"); a "{" in the data is written "{{", as "{" starts a code set switch.
    const escaped = `{B${data.replace(/\{/g, '{{')}`;
    if (escaped.length > 255) {
      throw new EscPosError('INVALID_CODE_DATA', `A CODE128 barcode holds at most 253 characters; got ${data.length}.`);
    }
    identifier = 73;
    payload = [escaped.length, ...Buffer.from(escaped, 'ascii')];
    // Start, data, check symbol: 11 modules each; stop: 13.
    widthDots = (n) => n * (11 * (data.length + 2) + 13);
  }
  const room = printer.encoder.printableWidth;
  const withQuietZones = (n: number): number => widthDots(n) + 2 * BARCODE_QUIET_ZONE_MODULES * n;
  let moduleDots = MAX_MODULE_DOTS;
  while (moduleDots > 1 && withQuietZones(moduleDots) > room) moduleDots--;
  if (withQuietZones(moduleDots) > room) {
    throw new EscPosError(
      'BARCODE_TOO_WIDE',
      `The ${symbology.toUpperCase()} barcode of ${data.length} characters needs ${withQuietZones(1)} dots with its ` +
        `thinnest bars and quiet zones; ${printer.encoder.columns}-column paper has ${room}.`,
    );
  }
  return [
    ...[ESC, 0x61, 1], // centred
    ...[GS, 0x68, BARCODE_HEIGHT_DOTS],
    ...[GS, 0x77, moduleDots],
    ...[GS, 0x48, 0], // no digits under the bars: the layout prints the caption
    ...[GS, 0x6b, identifier, ...payload],
    ...[ESC, 0x61, 0],
  ];
}

/** Model 2, error correction M (as Pix QR codes are printed), modules as large as fit QR_SIDE_DOTS. */
function printQrCode(line: LaidOutLine & { kind: 'qrcode' }, printer: Printer): void {
  if (printer.capabilities.qrcode === 'none') {
    throw new EscPosError('UNSUPPORTED_CODE', `The ${printer.name} cannot print QR codes.`);
  }
  // The encoder sends the data as Latin-1 bytes; a Pix payload is ASCII, and anything else would
  // reach the reader as other bytes than the ones its checksum was computed over.
  if (!/^[\x20-\x7E]+$/.test(line.data)) {
    throw new EscPosError('INVALID_CODE_DATA', 'A QR code holds printable ASCII characters only.');
  }
  let modules: number | undefined;
  try {
    // Byte mode, as the printer may encode it: the largest symbol the printer can choose. bwip-js
    // picks the cheapest modes itself, so it sizes as many bytes that only byte mode holds ('a').
    const [symbol] = bwipLibrary().raw('qrcode', 'a'.repeat(line.data.length), 'eclevel=M');
    if (symbol !== undefined && 'pixx' in symbol) modules = symbol.pixx;
  } catch (error) {
    throw new EscPosError(
      'INVALID_CODE_DATA',
      `The QR code data (${line.data.length} characters) does not fit a QR code.`,
      {
        cause: error,
      },
    );
  }
  if (modules === undefined) throw new Error('bwip-js returned no QR code modules');
  const side = Math.min(QR_SIDE_DOTS, printer.encoder.printableWidth);
  const size = Math.max(1, Math.min(8, Math.floor(side / (modules + 2 * QR_QUIET_ZONE_MODULES))));
  printer.encoder.align('center');
  if (printer.capabilities.qrcode === 'model-2') {
    printer.encoder.qrcode(line.data, { model: 2, size, errorlevel: 'm' });
  } else {
    // A printer without model selection (the encoder lists no models for it) gets no GS ( k 165.
    // (`model: undefined` keeps the encoder from adding its default model 2 and refusing it.)
    printer.encoder.qrcode(line.data, { model: undefined, size, errorlevel: 'm' });
  }
  printer.encoder.align('left');
}
