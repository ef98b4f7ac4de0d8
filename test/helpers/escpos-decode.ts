/**
 * Reads an ESC/POS byte stream back the way a printer would: the lines of text it prints (through
 * the code page selected at the time, with each line's bold, size, alignment and font) and the
 * other things it does, in order (initialize, code page, feeds, barcodes, QR codes, drawer pulse,
 * cut). Any byte sequence it does not know throws, with its offset, so a command a renderer was not
 * expected to send fails the test instead of being skipped.
 *
 * The code page tables are written out here (checked against Python's codecs), not taken from
 * the encoder library under test. (Node's TextDecoder is no help: its "windows-1252" decodes
 * 0x80–0x9F as Latin-1's control characters.)
 */

export type DecodedCodepage = 'cp437' | 'cp850' | 'cp858' | 'cp860' | 'windows1252' | 'iso8859-1' | 'iso8859-15';

/** A printer's ESC t numbering: table number → code page. */
export type CodeTables = Readonly<Record<number, DecodedCodepage>>;

/**
 * Epson's numbering (Epson's ESC/POS reference), which Star's ESC/POS emulation, the generic
 * POS-5890/POS-8360, Xprinter, Bixolon, Citizen and SUNMI printers follow for these pages.
 */
export const EPSON_CODE_TABLES: CodeTables = {
  0: 'cp437',
  2: 'cp850',
  3: 'cp860',
  16: 'windows1252',
  19: 'cp858',
  40: 'iso8859-15',
};
/** The generic Chinese POS-5890 / POS-8360 / Xprinter firmware: Epson's, plus Latin-1 at 6. */
export const POS5890_CODE_TABLES: CodeTables = {
  0: 'cp437',
  2: 'cp850',
  3: 'cp860',
  6: 'iso8859-1',
  16: 'windows1252',
  19: 'cp858',
};
/** HP's A779 numbers its pages in a list of its own. */
export const HP_CODE_TABLES: CodeTables = { 0: 'cp437', 1: 'cp850', 3: 'cp860', 6: 'cp858', 8: 'windows1252' };

export type Alignment = 'left' | 'center' | 'right';

export interface DecodedLine {
  /** The characters printed on the line (a double-width character is one character). */
  readonly text: string;
  /** Whether every character of the line is bold (false for a line without characters). */
  readonly bold: boolean;
  /** Character magnification across and down (of the first character; 1 for a line without characters). */
  readonly width: number;
  readonly height: number;
  /** Whether all the characters share one bold/size style. */
  readonly uniform: boolean;
  /** ESC a in effect when the line began. */
  readonly align: Alignment;
  /** ESC M font: 0 = A, 1 = B… */
  readonly font: number;
}

type Event =
  | { readonly kind: 'initialize' }
  | { readonly kind: 'codepage'; readonly table: number; readonly codepage: DecodedCodepage }
  /** ESC J (dots, in motion units) or ESC d (lines): paper fed without a line of text. */
  | { readonly kind: 'feed'; readonly unit: 'dots' | 'lines'; readonly amount: number }
  | {
      readonly kind: 'barcode';
      readonly symbology: string;
      /** The data as the barcode holds it (CODE128's "{B" and "{{" escapes undone). */
      readonly data: string;
      readonly height: number;
      readonly moduleWidth: number;
      /** GS H: 0 none, 1 above, 2 below, 3 both. */
      readonly hri: number;
      readonly align: Alignment;
    }
  | {
      readonly kind: 'qrcode';
      readonly data: string;
      /** GS ( k 165: undefined when never selected (the printer's default). */
      readonly model: 1 | 2 | undefined;
      readonly moduleSize: number;
      readonly errorLevel: 'L' | 'M' | 'Q' | 'H';
      readonly align: Alignment;
    }
  | { readonly kind: 'pulse'; readonly pin: 2 | 5; readonly onMs: number; readonly offMs: number }
  | { readonly kind: 'cut'; readonly mode: 'full' | 'partial'; readonly feedUnits: number };

/** A non-text event, with how many lines of text had been printed before it. */
export type EscPosEvent = Event & { readonly afterLines: number };

export interface DecodedEscPos {
  readonly lines: readonly DecodedLine[];
  readonly events: readonly EscPosEvent[];
  /** Text still in the print buffer at the end (never printed: no LF came). */
  readonly unprinted: string;
}

export class EscPosDecodeError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(`at byte ${offset}: ${message}`);
    this.name = 'EscPosDecodeError';
  }
}

const CP437_BOX_AND_MATH =
  '░▒▓│┤╡╢╖╕╣║╗╝╜╛┐' + '└┴┬├─┼╞╟╚╔╩╦╠═╬╧' + '╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀' + 'αßΓπΣσµτΦΘΩδ∞φε∩' + '≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00A0';

const CP850_HIGH =
  'ÇüéâäàåçêëèïîìÄÅ' +
  'ÉæÆôöòûùÿÖÜø£Ø×ƒ' +
  'áíóúñÑªº¿®¬½¼¡«»' +
  '░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐' +
  '└┴┬├─┼ãÃ╚╔╩╦╠═╬¤' +
  'ðÐÊËÈıÍÎÏ┘┌█▄¦Ì▀' +
  'ÓßÔÒõÕµþÞÚÛÙýÝ¯´' +
  '\u00AD±‗¾¶§÷¸°¨·¹³²■\u00A0';

/** The upper half (0x80–0xFF) of the DOS code pages. */
const DOS_HIGH: Readonly<Record<'cp437' | 'cp850' | 'cp858' | 'cp860', string>> = {
  cp437: 'ÇüéâäàåçêëèïîìÄÅ' + 'ÉæÆôöòûùÿÖÜ¢£¥₧ƒ' + 'áíóúñÑªº¿⌐¬½¼¡«»' + CP437_BOX_AND_MATH,
  cp850: CP850_HIGH,
  // CP850 with the euro sign where CP850 has the dotless i.
  cp858: CP850_HIGH.slice(0, 0x55) + '€' + CP850_HIGH.slice(0x56),
  cp860: 'ÇüéâãàÁçêÊèÍÔìÃÂ' + 'ÉÀÈôõòÚùÌÕÜ¢£Ù₧Ó' + 'áíóúñÑªº¿Ò¬½¼¡«»' + CP437_BOX_AND_MATH,
};

/** Windows-1252's 0x80–0x9F ("\0" where it has no character); from 0xA0 it is Latin-1. */
const WINDOWS_1252_C1 = '€\0‚ƒ„…†‡ˆ‰Š‹Œ\0Ž\0' + '\0‘’“”•–—˜™š›œ\0žŸ';
/** Where ISO-8859-15 (Latin-9) differs from Latin-1. */
const LATIN_9: Readonly<Record<number, string>> = {
  0xa4: '€',
  0xa6: 'Š',
  0xa8: 'š',
  0xb4: 'Ž',
  0xb8: 'ž',
  0xbc: 'Œ',
  0xbd: 'œ',
  0xbe: 'Ÿ',
};

/** A byte ≥ 0x80 in a code page; undefined where the page has no character. */
function highCharacter(byte: number, codepage: DecodedCodepage): string | undefined {
  switch (codepage) {
    case 'cp437':
    case 'cp850':
    case 'cp858':
    case 'cp860':
      return DOS_HIGH[codepage][byte - 0x80];
    case 'iso8859-1':
      return byte >= 0xa0 ? String.fromCharCode(byte) : undefined;
    case 'iso8859-15':
      return byte >= 0xa0 ? (LATIN_9[byte] ?? String.fromCharCode(byte)) : undefined;
    case 'windows1252': {
      if (byte >= 0xa0) return String.fromCharCode(byte);
      const character = WINDOWS_1252_C1[byte - 0x80];
      return character === '\0' ? undefined : character;
    }
  }
}

const SYMBOLOGIES: Readonly<Record<number, string>> = {
  0: 'upca', 1: 'upce', 2: 'ean13', 3: 'ean8', 4: 'code39', 5: 'itf', 6: 'codabar',
  65: 'upca', 66: 'upce', 67: 'ean13', 68: 'ean8', 69: 'code39', 70: 'itf', 71: 'codabar',
  72: 'code93', 73: 'code128', 74: 'gs1-128', 75: 'gs1-databar-omni', 76: 'gs1-databar-truncated',
  77: 'gs1-databar-limited', 78: 'gs1-databar-expanded', 79: 'code128-auto',
}; // prettier-ignore

const ALIGNMENTS: Readonly<Record<number, Alignment>> = {
  0: 'left',
  1: 'center',
  2: 'right',
  48: 'left',
  49: 'center',
  50: 'right',
};

const NUL = 0x00;
const LF = 0x0a;
const CR = 0x0d;
const ESC = 0x1b;
const FS = 0x1c;
const GS = 0x1d;

interface Character {
  readonly character: string;
  readonly bold: boolean;
  readonly width: number;
  readonly height: number;
}

/** CODE128 data as printed: "{A"/"{B"/"{C" pick a code set, "{{" is "{"; set C packs two digits per byte. */
function decodeCode128(bytes: readonly number[], offset: number): string {
  let set: 'A' | 'B' | 'C' | undefined;
  let data = '';
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] ?? 0;
    if (byte === 0x7b) {
      const next = String.fromCharCode(bytes[++i] ?? 0);
      if (next === 'A' || next === 'B' || next === 'C') set = next;
      else if (next === '{' && set !== undefined && set !== 'C') data += '{';
      else throw new EscPosDecodeError(offset, `CODE128 escape "{${next}" is not understood`);
      continue;
    }
    if (set === undefined)
      throw new EscPosDecodeError(offset, 'CODE128 data does not start with a code set ("{A", "{B" or "{C")');
    if (set === 'C') {
      if (byte > 99) throw new EscPosDecodeError(offset, `CODE128 code set C byte ${byte} is not a pair of digits`);
      data += String(byte).padStart(2, '0');
    } else if (set === 'B' ? byte >= 0x20 && byte <= 0x7e : byte <= 0x5f) {
      data += String.fromCharCode(byte);
    } else {
      throw new EscPosDecodeError(offset, `CODE128 code set ${set} has no character 0x${byte.toString(16)}`);
    }
  }
  return data;
}

export interface DecodeOptions {
  /** The printer's ESC t numbering (EPSON_CODE_TABLES when omitted). */
  readonly codeTables?: CodeTables;
}

export function decodeEscPos(bytes: Uint8Array, options: DecodeOptions = {}): DecodedEscPos {
  const tables = options.codeTables ?? EPSON_CODE_TABLES;
  const lines: DecodedLine[] = [];
  const events: EscPosEvent[] = [];

  // Printer state, as ESC @ leaves it.
  let codepage: DecodedCodepage = 'cp437';
  let bold = false;
  let width = 1;
  let height = 1;
  let align: Alignment = 'left';
  let font = 0;
  let barcodeHeight = 162;
  let barcodeModule = 3;
  let hri = 0;
  const qrDefaults = (): {
    model: 1 | 2 | undefined;
    size: number;
    errorLevel: 'L' | 'M' | 'Q' | 'H';
    data: string | undefined;
  } => ({
    model: undefined,
    size: 3,
    errorLevel: 'L',
    data: undefined,
  });
  let qr = qrDefaults();
  let buffer: Character[] = [];
  let lineAlign: Alignment = align;
  let lineFont = font;

  const reset = (): void => {
    codepage = tables[0] ?? 'cp437';
    bold = false;
    width = 1;
    height = 1;
    align = 'left';
    font = 0;
    barcodeHeight = 162;
    barcodeModule = 3;
    hri = 0;
    qr = qrDefaults();
  };
  reset();

  const event = (value: Event): void => {
    events.push({ ...value, afterLines: lines.length });
  };
  const printLine = (): void => {
    const first = buffer[0];
    lines.push({
      text: buffer.map((c) => c.character).join(''),
      bold: buffer.length > 0 && buffer.every((c) => c.bold),
      width: first?.width ?? 1,
      height: first?.height ?? 1,
      uniform: buffer.every((c) => c.bold === first?.bold && c.width === first.width && c.height === first.height),
      align: lineAlign,
      font: lineFont,
    });
    buffer = [];
  };

  let offset = 0;
  /** The byte at `offset + ahead`, throwing when the stream ends inside a command. */
  const at = (start: number, ahead: number, what: string): number => {
    const byte = bytes[start + ahead];
    if (byte === undefined) throw new EscPosDecodeError(start, `the stream ends inside ${what}`);
    return byte;
  };
  const requireEmptyBuffer = (start: number, what: string): void => {
    // The printer takes these only at the beginning of a line; after text it prints them as text.
    if (buffer.length > 0)
      throw new EscPosDecodeError(
        start,
        `${what} while the line holds text "${buffer.map((c) => c.character).join('')}"`,
      );
  };

  while (offset < bytes.length) {
    const start = offset;
    const byte = bytes[offset] ?? 0;

    if (byte >= 0x20 && byte !== 0x7f) {
      const character = byte < 0x7f ? String.fromCharCode(byte) : highCharacter(byte, codepage);
      if (character === undefined)
        throw new EscPosDecodeError(start, `byte 0x${byte.toString(16)} has no character in ${codepage}`);
      if (buffer.length === 0) {
        lineAlign = align;
        lineFont = font;
      }
      buffer.push({ character, bold, width, height });
      offset++;
      continue;
    }

    if (byte === LF) {
      if (buffer.length === 0) {
        lineAlign = align;
        lineFont = font;
      }
      printLine();
      offset++;
      continue;
    }
    if (byte === CR) {
      // Ignored with automatic line feed off, the ESC/POS default (the encoder library's LF CR).
      offset++;
      continue;
    }

    if (byte === ESC) {
      const command = at(start, 1, 'ESC');
      switch (command) {
        case 0x40: // ESC @
          if (buffer.length > 0) throw new EscPosDecodeError(start, 'ESC @ discards the unprinted text in the line');
          reset();
          event({ kind: 'initialize' });
          offset += 2;
          continue;
        case 0x45: // ESC E n
          bold = (at(start, 2, 'ESC E') & 1) === 1;
          offset += 3;
          continue;
        case 0x21: {
          // ESC ! n: font (bit 0), emphasized (3), double height (4), double width (5)
          const n = at(start, 2, 'ESC !');
          if ((n & 0x80) !== 0) throw new EscPosDecodeError(start, 'ESC ! with underline is not understood');
          font = n & 1;
          bold = (n & 0x08) !== 0;
          height = (n & 0x10) !== 0 ? 2 : 1;
          width = (n & 0x20) !== 0 ? 2 : 1;
          offset += 3;
          continue;
        }
        case 0x61: {
          // ESC a n
          const n = at(start, 2, 'ESC a');
          const value = ALIGNMENTS[n];
          if (value === undefined) throw new EscPosDecodeError(start, `ESC a ${n} is not an alignment`);
          align = value;
          offset += 3;
          continue;
        }
        case 0x74: {
          // ESC t n
          const table = at(start, 2, 'ESC t');
          const selected = tables[table];
          if (selected === undefined)
            throw new EscPosDecodeError(start, `ESC t ${table} is not a code page this printer's table has`);
          codepage = selected;
          event({ kind: 'codepage', table, codepage });
          offset += 3;
          continue;
        }
        case 0x4d: {
          // ESC M n
          const n = at(start, 2, 'ESC M');
          if (n > 4 && (n < 48 || n > 52)) throw new EscPosDecodeError(start, `ESC M ${n} is not a font`);
          font = n >= 48 ? n - 48 : n;
          offset += 3;
          continue;
        }
        case 0x32: // ESC 2: default line spacing
          offset += 2;
          continue;
        case 0x33: // ESC 3 n: line spacing
          at(start, 2, 'ESC 3');
          offset += 3;
          continue;
        case 0x4a: // ESC J n: print and feed n motion units
          if (buffer.length > 0) printLine();
          event({ kind: 'feed', unit: 'dots', amount: at(start, 2, 'ESC J') });
          offset += 3;
          continue;
        case 0x64: // ESC d n: print and feed n lines
          if (buffer.length > 0) printLine();
          event({ kind: 'feed', unit: 'lines', amount: at(start, 2, 'ESC d') });
          offset += 3;
          continue;
        case 0x70: {
          // ESC p m t1 t2
          const m = at(start, 2, 'ESC p');
          if (m !== 0 && m !== 1 && m !== 48 && m !== 49)
            throw new EscPosDecodeError(start, `ESC p ${m} is not a drawer pin`);
          event({
            kind: 'pulse',
            pin: m === 0 || m === 48 ? 2 : 5,
            onMs: at(start, 3, 'ESC p') * 2,
            offMs: at(start, 4, 'ESC p') * 2,
          });
          offset += 5;
          continue;
        }
        default:
          throw new EscPosDecodeError(start, `ESC 0x${command.toString(16)} is not understood`);
      }
    }

    if (byte === FS) {
      const command = at(start, 1, 'FS');
      if (command === 0x2e) {
        // FS .: cancel Kanji (double-byte) character mode, so every byte is one character
        offset += 2;
        continue;
      }
      throw new EscPosDecodeError(start, `FS 0x${command.toString(16)} is not understood`);
    }

    if (byte === GS) {
      const command = at(start, 1, 'GS');
      switch (command) {
        case 0x21: {
          // GS ! n: width (high nibble) and height (low nibble) magnification
          const n = at(start, 2, 'GS !');
          if ((n & 0x0f) > 7 || n >> 4 > 7)
            throw new EscPosDecodeError(start, `GS ! 0x${n.toString(16)} is not a character size`);
          width = (n >> 4) + 1;
          height = (n & 0x0f) + 1;
          offset += 3;
          continue;
        }
        case 0x68: // GS h n
          barcodeHeight = at(start, 2, 'GS h');
          if (barcodeHeight === 0) throw new EscPosDecodeError(start, 'GS h 0 is not a barcode height');
          offset += 3;
          continue;
        case 0x77: // GS w n
          barcodeModule = at(start, 2, 'GS w');
          if (barcodeModule < 1 || barcodeModule > 6)
            throw new EscPosDecodeError(start, `GS w ${barcodeModule} is not a module width`);
          offset += 3;
          continue;
        case 0x48: // GS H n
          hri = at(start, 2, 'GS H') % 48;
          if (hri > 3) throw new EscPosDecodeError(start, 'GS H is not a text position');
          offset += 3;
          continue;
        case 0x6b: {
          // GS k m …
          requireEmptyBuffer(start, 'GS k');
          const m = at(start, 2, 'GS k');
          const symbology = SYMBOLOGIES[m];
          if (symbology === undefined) throw new EscPosDecodeError(start, `GS k ${m} is not a barcode symbology`);
          let data: number[];
          if (m <= 6) {
            // Function A: data up to NUL
            data = [];
            let i = 3;
            for (let b = at(start, i, 'GS k'); b !== NUL; b = at(start, ++i, 'GS k')) data.push(b);
            offset = start + i + 1;
          } else {
            // Function B: length, data
            const n = at(start, 3, 'GS k');
            data = [];
            for (let i = 0; i < n; i++) data.push(at(start, 4 + i, 'GS k'));
            offset = start + 4 + n;
          }
          let text: string;
          if (symbology === 'code128') {
            text = decodeCode128(data, start);
          } else {
            text = String.fromCharCode(...data);
            if (symbology === 'itf' && !/^(?:\d\d)+$/.test(text)) {
              throw new EscPosDecodeError(start, `ITF data "${text}" is not an even number of digits`);
            }
          }
          event({
            kind: 'barcode',
            symbology,
            data: text,
            height: barcodeHeight,
            moduleWidth: barcodeModule,
            hri,
            align,
          });
          continue;
        }
        case 0x28: {
          // GS ( k pL pH cn fn …: two-dimensional codes
          if (at(start, 2, 'GS (') !== 0x6b)
            throw new EscPosDecodeError(start, `GS ( 0x${at(start, 2, 'GS (').toString(16)} is not understood`);
          const length = at(start, 3, 'GS ( k') + 256 * at(start, 4, 'GS ( k');
          if (length < 2) throw new EscPosDecodeError(start, `GS ( k with ${length} parameter bytes is not understood`);
          const cn = at(start, 5, 'GS ( k');
          const fn = at(start, 6, 'GS ( k');
          const parameters: number[] = [];
          for (let i = 2; i < length; i++) parameters.push(at(start, 5 + i, 'GS ( k'));
          offset = start + 5 + length;
          if (cn !== 0x31)
            throw new EscPosDecodeError(start, `GS ( k for symbol ${cn} (not a QR code) is not understood`);
          switch (fn) {
            case 0x41: {
              // model: n1 = 49/50/51, n2 = 0
              const model = parameters[0];
              if (length !== 4 || (model !== 49 && model !== 50) || parameters[1] !== 0) {
                throw new EscPosDecodeError(start, 'QR code model selection is not understood');
              }
              qr.model = model === 49 ? 1 : 2;
              continue;
            }
            case 0x43: {
              const size = parameters[0] ?? 0;
              if (length !== 3 || size < 1 || size > 16)
                throw new EscPosDecodeError(start, 'QR code module size is not understood');
              qr.size = size;
              continue;
            }
            case 0x45: {
              const level = (['L', 'M', 'Q', 'H'] as const)[(parameters[0] ?? 0) - 48];
              if (length !== 3 || level === undefined)
                throw new EscPosDecodeError(start, 'QR code error correction level is not understood');
              qr.errorLevel = level;
              continue;
            }
            case 0x50:
              if (parameters[0] !== 0x30) throw new EscPosDecodeError(start, 'QR code data store is not understood');
              // The bytes as they are (the encoder library sends Latin-1).
              qr.data = String.fromCharCode(...parameters.slice(1));
              continue;
            case 0x51:
              requireEmptyBuffer(start, 'QR code print');
              if (length !== 3 || parameters[0] !== 0x30)
                throw new EscPosDecodeError(start, 'QR code print is not understood');
              if (qr.data === undefined) throw new EscPosDecodeError(start, 'QR code print without data stored');
              event({
                kind: 'qrcode',
                data: qr.data,
                model: qr.model,
                moduleSize: qr.size,
                errorLevel: qr.errorLevel,
                align,
              });
              continue;
            default:
              throw new EscPosDecodeError(start, `QR code function ${fn} is not understood`);
          }
        }
        case 0x56: {
          // GS V m [n]
          requireEmptyBuffer(start, 'GS V');
          const m = at(start, 2, 'GS V');
          if (m === 0 || m === 48 || m === 1 || m === 49) {
            event({ kind: 'cut', mode: m % 48 === 0 ? 'full' : 'partial', feedUnits: 0 });
            offset += 3;
          } else if (m === 65 || m === 66) {
            event({ kind: 'cut', mode: m === 65 ? 'full' : 'partial', feedUnits: at(start, 3, 'GS V') });
            offset += 4;
          } else {
            throw new EscPosDecodeError(start, `GS V ${m} is not a cut`);
          }
          continue;
        }
        default:
          throw new EscPosDecodeError(start, `GS 0x${command.toString(16)} is not understood`);
      }
    }

    throw new EscPosDecodeError(start, `byte 0x${byte.toString(16).padStart(2, '0')} is not understood`);
  }

  return { lines, events, unprinted: buffer.map((c) => c.character).join('') };
}
