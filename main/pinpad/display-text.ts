/**
 * Texts a sale puts on the PINPAD's 2 × 16 display and menus: amounts in pt-BR, the amount
 * screen with the POS's notification, the installment menu, and the fitting of any text (from
 * the POS, from a cashier) into what the PINPAD can show without refusing it.
 *
 * Amounts are formatted by main/locale (integer centavos, never floating point).
 */
import { toLatin1Display } from '../../drivers/abecs/text.js';
import { formatReais } from '../locale/br-format.js';

export const DISPLAY_COLUMNS = 16;

const IDLE_TEXT = 'CAIXA LIVRE\nPINBRIDGE';
const TRAINING_IDLE_TEXT = 'CAIXA LIVRE\nMODO TREINAMENTO';
/** While the disk has no room for a sale (issue 33): the customer sees why nothing starts (2 × 16). */
export const DISK_FULL_IDLE_TEXT = 'DISCO CHEIO\nVENDAS SUSPENSAS';

/** What an idle PINPAD shows: why sales are refused when they are, else that the checkout is free. */
export function idleText(training: boolean, salesRefused = false): string {
  if (salesRefused) return DISK_FULL_IDLE_TEXT;
  return training ? TRAINING_IDLE_TEXT : IDLE_TEXT;
}
/** SPE_MNUOPT holds at most 24 characters. */
export const MENU_OPTION_COLUMNS = 24;
/** MNU offers at most 20 options. */
export const MAX_MENU_OPTIONS = 20;

/** `prefix` + the amount when that fits one display line, else the bare amount. */
export function amountLine(centavos: number, prefix = 'R$ '): string {
  const amount = formatReais(centavos);
  const withPrefix = prefix + amount;
  return withPrefix.length <= DISPLAY_COLUMNS ? withPrefix : amount;
}

/** One character as the PINPAD can show it (ISO-8859-1, no control characters). */
function displayChars(ch: string): string {
  const code = ch.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return ' ';
  try {
    return toLatin1Display(ch);
  } catch {
    // Outside Latin-1: the letter without its accent when that is Latin-1, else a placeholder.
    const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    return base.length > 0 && [...base].every((c) => c.codePointAt(0)! <= 0xff) ? base : '?';
  }
}

/** `text` made showable and cut to `width` columns (trailing spaces dropped). */
export function fitLine(text: string, width = DISPLAY_COLUMNS): string {
  let out = '';
  for (const ch of text.normalize('NFC')) out += displayChars(ch);
  return out.slice(0, width).trimEnd();
}

/**
 * A message for the 2 × 16 display: "\n" splits the lines; a single line longer than 16 wraps
 * at the last space that lets both lines fit (else at column 16). Anything past two lines of 16
 * is cut, so the PINPAD never refuses the text.
 */
export function fitMessage(text: string): string {
  const parts = text.replace(/\r\n?/g, '\n').split('\n');
  if (parts.length > 1) return `${fitLine(parts[0]!)}\n${fitLine(parts[1]!)}`;
  const single = fitLine(text, DISPLAY_COLUMNS * 2);
  if (single.length <= DISPLAY_COLUMNS) return single;
  for (let at = DISPLAY_COLUMNS; at > 0; at--) {
    if (single[at] !== ' ') continue;
    const second = single.slice(at + 1).trimStart();
    if (second.length <= DISPLAY_COLUMNS) return `${single.slice(0, at).trimEnd()}\n${second}`;
    break;
  }
  return `${single.slice(0, DISPLAY_COLUMNS).trimEnd()}\n${single.slice(DISPLAY_COLUMNS).trimStart()}`;
}

/**
 * The amount screen: "R$ 1.234,56" on line 1 and, when the POS sent one, the notification on
 * line 2 (its first 16 columns: the notification may hold 32 characters, the line 16).
 */
export function amountScreen(centavos: number, notification: string | null): string {
  const line2 = notification === null ? '' : fitLine(notification.trim());
  return `${amountLine(centavos)}\n${line2}`;
}

/** The PINPAD's text display (PP_DSPTXTSZ "LLCC"). */
export interface DisplaySize {
  readonly lines: number;
  readonly columns: number;
}

/** SPE_DSPMSG holds at most 128 characters, line breaks (CR) included. */
export const DISPLAY_MESSAGE_MAX = 128;

/** `text` in lines of `width`: broken at spaces where a word fits, else inside the word. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((w) => w.length > 0)) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (joined.length <= width) {
      line = joined;
      continue;
    }
    if (line !== '') lines.push(line);
    let rest = word;
    while (rest.length > width) {
      lines.push(rest.slice(0, width));
      rest = rest.slice(width);
    }
    line = rest;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** `text` cut into lines of exactly `width` columns (the last one shorter), spaces kept. */
function wrapColumns(text: string, width: number): string[] {
  const lines: string[] = [];
  for (let at = 0; at < text.length; at += width) lines.push(text.slice(at, at + width).trim());
  return lines.filter((line) => line.length > 0);
}

/**
 * The card prompt (GCX SPE_DSPMSG, lines joined by CR) that keeps the POS's notification on the
 * PINPAD, whole, while the customer is asked for the card — with the amount above it and the
 * request to present the card below, laid out for the display's size as S220 asks of the host
 * (SPE_DSPMSG "shall respect the pinpad display capabilities, see PP_DSPTXTSZ"):
 *
 * ```
 * R$ 1.234,56          amount
 *                      (blank lines only where there is room)
 * PEDIDO 4521 - LOJA   the notification, wrapped at spaces (or at the column when the display
 * DO CENTRO SP          is short of lines)
 *
 * APROXIME, INSIRA     the request (one line, "APRESENTE CARTAO", when short of lines)
 * OU PASSE CARTAO
 * ```
 *
 * Undefined when the display cannot hold the amount, the whole notification and at least one
 * line of request together (a 2-line display): the caller must show the notification another way.
 */
export function cardPromptScreen(
  display: DisplaySize,
  amount: number,
  notification: string,
  options: { readonly contactless: boolean },
): string | undefined {
  const { lines: rows, columns } = display;
  if (!Number.isInteger(rows) || !Number.isInteger(columns) || rows < 1 || columns < 1) return undefined;
  const text = fitLine(notification.trim().replace(/\s+/g, ' '), DISPLAY_MESSAGE_MAX);
  const amountText = fitLine(amountLine(amount), columns);
  const request = (options.contactless ? ['APROXIME, INSIRA', 'OU PASSE CARTAO'] : ['INSIRA OU PASSE', 'O CARTAO']).map(
    (line) => fitLine(line, columns),
  );
  const shortRequest = [fitLine('APRESENTE CARTAO', columns)];
  const byWords = text === '' ? [] : wrapWords(text, columns);
  const byColumns = text === '' ? [] : wrapColumns(text, columns);
  const layouts: string[][][] = [
    [[amountText], byWords, request],
    [[amountText], byWords, shortRequest],
    [[amountText], byColumns, request],
    [[amountText], byColumns, shortRequest],
  ];
  for (const layout of layouts) {
    const parts = layout.filter((part) => part.length > 0);
    const used = parts.reduce((sum, part) => sum + part.length, 0);
    if (used > rows) continue;
    // Blank lines between the parts while the display has room for them.
    let spare = rows - used;
    const screen: string[] = [];
    parts.forEach((part, index) => {
      if (index > 0 && spare > 0) {
        screen.push('');
        spare--;
      }
      screen.push(...part);
    });
    const message = screen.join('\r');
    if (message.length <= DISPLAY_MESSAGE_MAX) return message;
    const compact = parts.flat().join('\r');
    if (compact.length <= DISPLAY_MESSAGE_MAX) return compact;
  }
  return undefined;
}

/**
 * For a 2 × 16 display, which cannot hold amount, notification and request at once: the
 * notification's screen (DSP, "\n" between the lines), shown in turns with the PINPAD's own card
 * prompt (which has the amount) while the card is asked for.
 */
export function rotatingCardScreens(notification: string): [string] {
  return [fitMessage(notification.trim().replace(/\s+/g, ' '))];
}

export interface InstallmentChoice {
  readonly installments: number;
  /** "A VISTA", "2X R$ 50,00"… (≤ 24 characters). */
  readonly label: string;
}

export interface InstallmentRules {
  /** Most installments offered (1–20, the PINPAD menu's limit). */
  readonly max: number;
  /** Smallest installment in centavos: options below it are not offered. */
  readonly minInstallmentAmount: number;
}

/**
 * The installment menu: "A VISTA" always, then n = 2…max while amount / n (rounded down, the
 * amount each installment shows) is at least the minimum installment.
 */
export function installmentChoices(centavos: number, rules: InstallmentRules): InstallmentChoice[] {
  if (!Number.isSafeInteger(centavos) || centavos <= 0) {
    throw new RangeError(`The amount must be a positive integer number of centavos, got ${centavos}.`);
  }
  if (!Number.isInteger(rules.max) || rules.max < 1 || rules.max > MAX_MENU_OPTIONS) {
    throw new RangeError(`The most installments must be an integer from 1 to ${MAX_MENU_OPTIONS}, got ${rules.max}.`);
  }
  if (!Number.isSafeInteger(rules.minInstallmentAmount) || rules.minInstallmentAmount < 0) {
    throw new RangeError(
      `The smallest installment must be a non-negative integer number of centavos, got ${rules.minInstallmentAmount}.`,
    );
  }
  const choices: InstallmentChoice[] = [{ installments: 1, label: 'A VISTA' }];
  for (let n = 2; n <= rules.max; n++) {
    const each = Math.floor(centavos / n);
    if (each < rules.minInstallmentAmount || each === 0) break;
    choices.push({ installments: n, label: `${n}X R$ ${formatReais(each)}`.slice(0, MENU_OPTION_COLUMNS) });
  }
  return choices;
}
