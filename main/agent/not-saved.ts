/**
 * A file the window asked to write (the settings, the API token, the certificate's passphrase)
 * that the disk refused (issue 33): said plainly to the window — the disk is full, or does not
 * take writes — in English and for the cashier, never as an internal error.
 */
import { ioFaultOf } from '../../lib/io-faults.js';
import { PosError } from '../pos/protocol/index.js';

/** What the window could not save, in English and for the cashier. */
export interface NotSaved {
  readonly what: string;
  readonly pt: string;
}

export const SETTINGS_NOT_SAVED: NotSaved = {
  what: 'The settings were not saved',
  pt: 'As configurações não foram salvas',
};
export const TOKEN_NOT_SAVED: NotSaved = { what: 'The API token was not saved', pt: 'O token da API não foi salvo' };
export const PASSPHRASE_NOT_SAVED: NotSaved = {
  what: "The certificate's passphrase was not saved",
  pt: 'A senha do certificado não foi salva',
};

/** The POS error for a write the disk refused (DISK_FULL when full); anything else as it was. */
export function notSaved(error: unknown, what: NotSaved): unknown {
  const fault = ioFaultOf(error);
  if (fault === undefined) return error;
  if (fault.kind === 'full')
    return new PosError(
      'DISK_FULL',
      `${what.what}: the computer's disk is full (${fault.code}). Free some space and save again.`,
      { reason: fault.code },
      `${what.pt}: o disco do computador está cheio. Libere espaço e salve de novo.`,
    );
  return new PosError(
    'INTERNAL_ERROR',
    `${what.what}: the computer's disk does not take writes (${fault.code}).`,
    { reason: fault.code },
    `${what.pt}: o disco do computador não aceita gravação. Chame o suporte técnico.`,
  );
}

/** Runs `write`; a refusal of the disk is thrown as notSaved says. */
export function savedOrSaid(write: () => void, what: NotSaved): void {
  try {
    write();
  } catch (error) {
    throw notSaved(error, what);
  }
}
