/**
 * A settings mistake in the cashier's words: the agent names each one by its field's path, a
 * stable code, an English sentence and (for most) the cashier's pt-BR; the page has its own words
 * for the rules it knows, in the language shown.
 */
import { currentLanguage, t } from '../i18n.js';
import { h } from '../dom.js';
import { CONFIRMATION_TARGET, TRAINING_ID } from './fields.js';

/** A settings mistake as the agent names it: a stable code, English, and the cashier's pt-BR. */
export interface Violation {
  readonly field: string;
  readonly code?: string;
  readonly message: string;
  readonly cashier_message?: string;
}

/**
 * The cashier's sentence for a refused field, where the page has one of its own — for a mistake
 * the agent sent no pt-BR sentence for (the agent names every rule's code and sentence).
 */
function knownFieldMessage(path: string, message: string): string | null {
  if (path === 'api' && /no API token is stored/.test(message)) return t('settings.violationNoToken');
  if (path === 'api.client_certificate')
    return /passphrase/i.test(message) ? t('settings.violationPassphrase') : t('settings.violationCertificate');
  if (/is required|must not be empty/.test(message)) return t('settings.violationRequired');
  if (path === 'api.base_url') return t('settings.violationUrl');
  if (path === 'receipts.merchant.cnpj')
    return /check digits/.test(message) ? t('settings.violationCnpjDigits') : t('settings.violationCnpj');
  if (path === 'confirmation') return t('settings.violationChoice');
  if (path === 'pinpad.address') return t('settings.violationPinpadAddress');
  if (path === 'receipts.time_zone') return t('settings.violationTimeZone');
  if (path === 'supervisor.min_amount_centavos') return t('settings.violationAmount');
  if (/^printers\.[^.]+\.address$/.test(path)) return t('settings.violationPrinterAddress');
  return null;
}

/**
 * Fields the page converts before sending (an amount typed in reais goes to the file in centavos):
 * the agent's sentence speaks of the file's value, the page's of what the cashier typed.
 */
const CONVERTED_FIELDS: ReadonlySet<string> = new Set(['supervisor.min_amount_centavos']);

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

/** The name the cashier sees on the control a mistake belongs to. */
export function labelOf(target: string): string | null {
  if (target === CONFIRMATION_TARGET) return t('settings.confirmation');
  if (target === TRAINING_ID) return t('settings.training');
  return document.querySelector(`label[for="${target}"]`)?.textContent?.trim() ?? null;
}
