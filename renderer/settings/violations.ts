/**
 * A settings mistake in the cashier's words: the agent names each one by its field's path, a
 * stable code, an English sentence and (for most) the cashier's pt-BR; the page has its own words
 * for the rules it knows, in the language shown.
 */
import { currentLanguage, t, type MessageKey } from '../i18n.js';
import { h } from '../dom.js';
import { DECLARED_FIELDS } from './declared-fields.js';
import { labelKeyOf } from './fields.js';

/** A settings mistake as the agent names it: a stable code, English, and the cashier's pt-BR. */
export interface Violation {
  readonly field: string;
  readonly code?: string;
  readonly message: string;
  readonly cashier_message?: string;
}

/**
 * The window's sentence for each code a field declares (main/core/settings-fields.ts): what the
 * page says next to the field, in the language shown, whatever the agent's words.
 */
const CODE_SENTENCES: Readonly<Record<string, MessageKey>> = {
  INVALID_URL: 'settings.violationUrl',
  INVALID_CNPJ: 'settings.violationCnpj',
  INVALID_CNPJ_CHECK_DIGITS: 'settings.violationCnpjDigits',
  INVALID_CHOICE: 'settings.violationChoice',
  INVALID_PINPAD_ADDRESS: 'settings.violationPinpadAddress',
  INVALID_PRINTER_ADDRESS: 'settings.violationPrinterAddress',
  INVALID_TIME_ZONE: 'settings.violationTimeZone',
};

/**
 * Keys the page does not show whose mistakes it still names (a start-up mistake lists any key):
 * the store's time zone, and every printer's address as the default one's.
 */
function undeclaredCode(path: string): string | undefined {
  if (path === 'receipts.time_zone') return 'INVALID_TIME_ZONE';
  if (/^printers\.[^.]+\.address$/.test(path)) return 'INVALID_PRINTER_ADDRESS';
  return undefined;
}

/**
 * The cashier's sentence for a refused field, where the page has one of its own — for a mistake
 * the agent sent no pt-BR sentence for (the agent names every rule's code and sentence): a
 * missing value, the field's own sentence (an amount typed in reais), or its code's.
 */
function knownFieldMessage(path: string, message: string): string | null {
  if (path === 'api' && /no API token is stored/.test(message)) return t('settings.violationNoToken');
  if (path === 'api.client_certificate')
    return /passphrase/i.test(message) ? t('settings.violationPassphrase') : t('settings.violationCertificate');
  if (/is required|must not be empty/.test(message)) return t('settings.violationRequired');
  const field = DECLARED_FIELDS.find((candidate) => candidate.key === path);
  if (field?.mistake !== undefined) return t(field.mistake);
  const code = field === undefined ? undeclaredCode(path) : field.code;
  // A CNPJ's shape and its check digits are told apart: each has its sentence.
  const said = code === 'INVALID_CNPJ' && /check digits/.test(message) ? 'INVALID_CNPJ_CHECK_DIGITS' : code;
  const key = said === undefined ? undefined : CODE_SENTENCES[said];
  return key === undefined ? null : t(key);
}

/**
 * Fields the page converts before sending (an amount typed in reais goes to the file in centavos):
 * the agent's sentence speaks of the file's value, the page's own of what the cashier typed.
 */
const CONVERTED_FIELDS: ReadonlySet<string> = new Set(
  DECLARED_FIELDS.filter((field) => field.mistake !== undefined).map((field) => field.key),
);

/** A refused field in the cashier's words; a rule the page has no words for is "not accepted", the agent's English as the detail. */
export function fieldMessage(violation: Violation): string {
  const known = knownFieldMessage(violation.field, violation.message);
  if (currentLanguage() === 'en') return known ?? violation.message;
  const agentWords = CONVERTED_FIELDS.has(violation.field) ? undefined : violation.cashier_message;
  return agentWords ?? known ?? t('settings.violationOther', { message: violation.message });
}

/** A start-up mistake in the cashier's words where the page knows them, with the agent's English sentence as the technical detail. */
export function problemText(violation: Violation): (HTMLElement | string)[] {
  const said =
    currentLanguage() === 'en'
      ? knownFieldMessage(violation.field, violation.message)
      : (violation.cashier_message ??
        knownFieldMessage(violation.field, violation.message) ??
        t('settings.violationOtherShort'));
  const english = h('span', { attrs: { lang: 'en' } }, violation.message);
  return said === null ? [english] : [said, ' (', english, ')'];
}

/**
 * The name the cashier sees on the control a mistake belongs to: a setting's label, legend or
 * switch text (a switch and a choice have no label element of their own), else the page's label.
 */
export function labelOf(target: string): string | null {
  const key = labelKeyOf(target);
  if (key !== null) return t(key);
  return document.querySelector(`label[for="${target}"]`)?.textContent?.trim() ?? null;
}
