/**
 * The settings form's controls as the settings' declarations give them (declared-fields.ts,
 * generated from main/core/settings-fields.ts): the ids the page's other panels use, every
 * control a mistake can be shown at, and, for a mistake the agent names by its path in the file,
 * the control it belongs to.
 */
import type { MessageKey } from '../i18n/pt-br.js';
import { DECLARED_FIELDS, type DeclaredField } from './declared-fields.js';

function declared(key: string): DeclaredField {
  const field = DECLARED_FIELDS.find((candidate) => candidate.key === key);
  if (field === undefined) throw new Error(`The window declares no setting ${key}`);
  return field;
}

export const PINPAD_ADDRESS_ID = declared('pinpad.address').control.id;
export const PRINTER_ADDRESS_ID = declared('printers.default.address').control.id;
export const TRAINING_ID = declared('training').control.id;

/** The field of the certificate's passphrase: not a setting (it is kept apart), but mistakes of the certificate belong there. */
const PASSPHRASE_ID = 'settings-cert-passphrase';

/**
 * The CNPJ as the cashier types or pastes it, as the settings file keeps it: "12.abc.345/01de-35"
 * → "12ABC34501DE35" (an alphanumeric CNPJ has letters). Only the mask and spaces are dropped and
 * only a–z uppercased (as main/validation/taxpayer-id.ts normalizes); anything else stays for
 * the agent to refuse next to the field.
 */
export function normalizeCnpj(value: string): string {
  return value.replace(/[.\-/\s]/g, '').replace(/[a-z]/g, (letter) => letter.toUpperCase());
}

/** The controls a field's mistakes are shown at, with the name each is read by: a list of lines has one per line. */
function targetsOf(field: DeclaredField): readonly { readonly id: string; readonly label: MessageKey }[] {
  const control = field.control;
  return control.kind === 'lines' ? control.lines : [{ id: control.id, label: field.label }];
}

/** Every control a mistake can be shown at (each has a `${id}-error` beside it). */
export const ERROR_TARGETS: readonly string[] = DECLARED_FIELDS.flatMap((field) =>
  targetsOf(field).map(({ id }) => id),
);

/** The name a control is read by (its label, legend or switch's text), or null for a control that is no declared setting's. */
export function labelKeyOf(target: string): MessageKey | null {
  for (const field of DECLARED_FIELDS) {
    const found = targetsOf(field).find(({ id }) => id === target);
    if (found !== undefined) return found.label;
  }
  return null;
}

/**
 * Which control a mistake belongs to, by the field's path in the file: the exact setting (a
 * line of a list by its index, the last control for any line beyond), else the first setting
 * of the section the mistake names (a missing `receipts.merchant` is the store's name). A
 * mistake elsewhere in the file (a key this page does not edit) has none.
 */
export function targetOf(path: string): string | null {
  for (const field of DECLARED_FIELDS) {
    const targets = targetsOf(field);
    if (path === field.key) return targets[0]?.id ?? null;
    const index = field.control.kind === 'lines' ? /^\.(\d+)$/.exec(path.slice(field.key.length))?.[1] : undefined;
    if (path.startsWith(field.key) && index !== undefined)
      return targets[Math.min(Number(index), targets.length - 1)]?.id ?? null;
  }
  if (path === 'api.client_certificate') return PASSPHRASE_ID;
  const first = DECLARED_FIELDS.find((field) => field.key.startsWith(`${path}.`));
  return first === undefined ? null : (targetsOf(first)[0]?.id ?? null);
}
