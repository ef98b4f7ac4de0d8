/**
 * Texts a sale puts on the PINPAD's 2 × 16 display and menus: amounts in pt-BR, the amount
 * screen with the POS's notification, the installment menu, and the fitting of any text (from
 * the POS, from a cashier) into what the PINPAD can show without refusing it.
 *
 * Money is integer centavos; formatting never goes through floating point.
 */
import { toLatin1Display } from '../../drivers/abecs/text.js';

export const DISPLAY_COLUMNS = 16;
/** SPE_MNUOPT holds at most 24 characters. */
export const MENU_OPTION_COLUMNS = 24;
/** MNU offers at most 20 options. */
export const MAX_MENU_OPTIONS = 20;

/** "1.234,56" for 123456 centavos. */
export function formatBrl(centavos: number): string {
  if (!Number.isSafeInteger(centavos) || centavos < 0) {
    throw new RangeError(`An amount is a non-negative integer number of centavos, got ${centavos}.`);
  }
  const reais = Math.trunc(centavos / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${reais},${String(centavos % 100).padStart(2, '0')}`;
}

/** `prefix` + the amount when that fits one display line, else the bare amount. */
export function amountLine(centavos: number, prefix = 'R$ '): string {
  const amount = formatBrl(centavos);
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
    throw new RangeError(`The smallest installment must be a non-negative integer number of centavos, got ${rules.minInstallmentAmount}.`);
  }
  const choices: InstallmentChoice[] = [{ installments: 1, label: 'A VISTA' }];
  for (let n = 2; n <= rules.max; n++) {
    const each = Math.floor(centavos / n);
    if (each < rules.minInstallmentAmount || each === 0) break;
    choices.push({ installments: n, label: `${n}X R$ ${formatBrl(each)}`.slice(0, MENU_OPTION_COLUMNS) });
  }
  return choices;
}
