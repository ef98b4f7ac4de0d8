/**
 * Display texts for the PINPAD (abecs.md §3.5, §3.6, §8 pitfall 17).
 *
 * The wire character set is ISO-8859-1: pt-BR accents travel as single Latin-1 bytes (Ç = C7h,
 * Ã = C3h in the spec's DSP032 example). Fixed 2×16 messages (DSP, CLO, RMC, GPN, NTM) are exactly
 * 32 characters with no separator; free texts (DEX, SPE_DSPMSG) break lines with CR (0Dh).
 * Every function here returns a JS string whose code points are all ≤ FFh, ready for
 * `Buffer.from(s, 'latin1')`.
 */
import { InvalidArgumentError } from '../errors.js';

export const DISPLAY_COLUMNS = 16;
export const DISPLAY_LINES = 2;
export const DISPLAY_SIZE = DISPLAY_COLUMNS * DISPLAY_LINES;
/** DEX_MSG is S..160. */
export const DEX_MAX_LENGTH = 160;
/** SPE_DSPMSG is S..128. */
export const DSPMSG_MAX_LENGTH = 128;

export interface DisplayTextOptions {
  /** Remove diacritics, for PINPADs without Latin-1 glyphs (they would show garbage otherwise). */
  readonly stripAccents?: boolean;
}

/** Typographic characters word processors and POS systems like to insert. */
const TYPOGRAPHIC: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u2032': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  '\u2033': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u2022': '*',
  '\u00A0': ' ',
  '\u2007': ' ',
  '\u2009': ' ',
  '\u202F': ' ',
  '\u00AD': '',
};

/** Latin-1 characters that do not decompose into ASCII + combining marks. */
const ASCII_FALLBACK: Readonly<Record<string, string>> = {
  ß: 'ss',
  Æ: 'AE',
  æ: 'ae',
  Ø: 'O',
  ø: 'o',
  Ð: 'D',
  ð: 'd',
  Þ: 'TH',
  þ: 'th',
  º: 'o',
  ª: 'a',
  '°': 'o',
  '«': '"',
  '»': '"',
  '×': 'x',
  '÷': '/',
  '¿': '?',
  '¡': '!',
  '©': '(C)',
  '®': '(R)',
  '±': '+-',
  '¹': '1',
  '²': '2',
  '³': '3',
  '¼': '1/4',
  '½': '1/2',
  '¾': '3/4',
  µ: 'u',
  '·': '.',
  '¢': 'c',
  '£': 'L',
  '¥': 'Y',
  '§': 'S',
  '¦': '|',
  '¬': '-',
  '´': "'",
  '¨': '"',
  '¸': ',',
  '¯': '-',
  '¤': '*',
  '¶': 'P',
};

function describeChar(ch: string): string {
  const code = ch.codePointAt(0)!;
  return `"${ch}" (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
}

function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/**
 * One line of display text as Latin-1: NFC-normalised, typographic characters mapped to ASCII,
 * optionally without accents. Control characters (including line breaks: callers split lines
 * first) and characters outside Latin-1 are refused with InvalidArgumentError.
 */
export function toLatin1Display(text: string, options: DisplayTextOptions = {}): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    const mapped = TYPOGRAPHIC[ch];
    if (mapped !== undefined) {
      out += mapped;
      continue;
    }
    if (isControl(code)) {
      throw new InvalidArgumentError(`Display text cannot contain the control character ${describeChar(ch)}.`);
    }
    if (code > 0xff) {
      throw new InvalidArgumentError(
        `Display text cannot contain ${describeChar(ch)}: the PINPAD only shows ISO-8859-1 characters.`,
      );
    }
    out += ch;
  }
  return options.stripAccents ? stripToAscii(out) : out;
}

function stripToAscii(latin1: string): string {
  let out = '';
  for (const ch of latin1) {
    if (ch.charCodeAt(0) < 0x80) {
      out += ch;
      continue;
    }
    const fallback = ASCII_FALLBACK[ch];
    if (fallback !== undefined) {
      out += fallback;
      continue;
    }
    // Accented letters: decompose and drop the combining marks (Ç → C, Ã → A).
    const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    out += base.length > 0 && base.charCodeAt(0) < 0x80 ? base : '?';
  }
  return out;
}

function splitLines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n');
}

/**
 * Lays a text out on the 2×16 display: returns exactly 32 characters, line 1 then line 2, each
 * left-aligned and space-padded, no separator (abecs.md §8 pitfall 17).
 *
 * - "\n" splits the lines explicitly (each line ≤ 16, at most 2 lines).
 * - Otherwise ≤ 16 characters stay on line 1; exactly 32 characters are taken as already laid
 *   out (chars 1–16 and 17–32, as the spec's examples are written); 17–31 characters wrap at the
 *   last space that lets both lines fit, or are cut at column 16 when no space does.
 * - More than 32 characters is an InvalidArgumentError.
 */
export function formatDisplay2x16(text: string, options: DisplayTextOptions = {}): string {
  const rawLines = splitLines(text);
  const lines = rawLines.map((line) => toLatin1Display(line, options));
  const total = lines.reduce((sum, line) => sum + line.length, 0);
  if (total > DISPLAY_SIZE) {
    throw new InvalidArgumentError(
      `The PINPAD shows at most ${DISPLAY_SIZE} characters (${DISPLAY_LINES} lines of ${DISPLAY_COLUMNS}); this text has ${total}.`,
    );
  }
  if (lines.length > DISPLAY_LINES) {
    throw new InvalidArgumentError(`The PINPAD shows at most ${DISPLAY_LINES} lines; this text has ${lines.length}.`);
  }
  if (lines.length === 2) {
    lines.forEach((line, index) => {
      if (line.length > DISPLAY_COLUMNS) {
        throw new InvalidArgumentError(
          `Line ${index + 1} has ${line.length} characters; the PINPAD shows at most ${DISPLAY_COLUMNS} per line.`,
        );
      }
    });
    return pad2x16(lines[0]!, lines[1]!);
  }
  const single = lines[0]!;
  if (single.length <= DISPLAY_COLUMNS) return pad2x16(single, '');
  if (single.length === DISPLAY_SIZE) return single;
  for (let at = Math.min(DISPLAY_COLUMNS, single.length - 1); at > 0; at--) {
    if (single[at] !== ' ') continue;
    const second = single.slice(at + 1);
    if (second.length <= DISPLAY_COLUMNS) return pad2x16(single.slice(0, at), second);
    break; // moving left only makes line 2 longer
  }
  return pad2x16(single.slice(0, DISPLAY_COLUMNS), single.slice(DISPLAY_COLUMNS));
}

function pad2x16(line1: string, line2: string): string {
  return line1.padEnd(DISPLAY_COLUMNS, ' ') + line2.padEnd(DISPLAY_COLUMNS, ' ');
}

export interface DexTextOptions extends DisplayTextOptions {
  /** 160 for DEX_MSG (default), 128 for SPE_DSPMSG. */
  readonly maxLength?: number;
}

/**
 * Free text for DEX and SPE_DSPMSG: "\n" (or "\r\n") becomes CR (0Dh), the PINPAD's line break;
 * the result, CRs included, must fit `maxLength`.
 */
export function formatDexText(text: string, options: DexTextOptions = {}): string {
  const maxLength = options.maxLength ?? DEX_MAX_LENGTH;
  const out = splitLines(text)
    .map((line) => toLatin1Display(line, options))
    .join('\r');
  if (out.length > maxLength) {
    throw new InvalidArgumentError(
      `The PINPAD accepts at most ${maxLength} characters of free text (line breaks included); this text has ${out.length}.`,
    );
  }
  return out;
}

/** The inverse of formatDexText for logs and the simulator: CR (or any control byte) → "\n". */
export function parseDexText(wire: string): string {
  return mapControls(wire, '\n', false);
}

/** Replaces C0 controls (and optionally DEL) by `replacement`. */
function mapControls(text: string, replacement: string, del: boolean): string {
  let out = '';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    out += code < 0x20 || (del && code === 0x7f) ? replacement : ch;
  }
  return out;
}

/**
 * A 2×16 message as the PINPAD would show it: characters below 20h become spaces, a short
 * message is padded and anything past 32 characters ignored (abecs.md §3.6 robustness rules).
 */
export function normalizeDisplay2x16(wire: string): string {
  return mapControls(wire, ' ', true).slice(0, DISPLAY_SIZE).padEnd(DISPLAY_SIZE, ' ');
}

/** The two lines of a 2×16 message, trimmed, for the simulator screen and logs. */
export function parseDisplay2x16(s: string): [string, string] {
  const normal = normalizeDisplay2x16(s);
  return [normal.slice(0, DISPLAY_COLUMNS).trim(), normal.slice(DISPLAY_COLUMNS).trim()];
}
