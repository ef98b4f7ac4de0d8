/**
 * Puts an opened driver `Pinpad` at the engine's disposal under its serial number (GIX/GIN),
 * with the PINPAD's own messages (NTM: "SELECIONADO: CREDITO", "SOLICITE A SENHA"…) relayed as
 * progress events of the payment it is running.
 *
 * In the product this is a step of `PinpadRegistry.attach`, the one owner of PINPAD state (the
 * agent and the CLI attach through the registry); the engine's own specs use it alone.
 */
import type { Pinpad } from '../../drivers/abecs/pinpad.js';
import type { DriverLogger } from '../../drivers/log.js';
import type { PaymentEngine } from '../core/engine.js';
import { SaleStepError } from '../core/sale-failure.js';
import type { EmvTables, TablesFileError } from './emv-tables.js';
import type { TablesSource } from './provider-tables.js';
import { PinpadSale, type KeySlots, type SaleTimeouts, type TablesStatus } from './sale-session.js';

export interface AttachOptions {
  readonly timeouts?: Partial<SaleTimeouts>;
  /** The DUKPT slots the store's acquirer uses (settings `pinpad.key_slots`); 01 each by default. */
  readonly keySlots?: Partial<KeySlots>;
  /** The store's EMV tables (settings `pinpad.tables`), or why its file cannot be used. */
  readonly tables?: EmvTables | TablesFileError;
  /** Without `tables`: where this PINPAD's tables are asked for (the payments provider), by serial number. */
  readonly tablesFrom?: (serial: string) => TablesSource;
  readonly onTablesStatus?: (serial: string, status: TablesStatus) => void;
  /** False for a provider on terminal channel v1: a legacy PINPAD may then sell (see PinpadSaleOptions). */
  readonly requireSealedCardData?: boolean;
  readonly logger?: DriverLogger;
}

/** Returns the serial number the PINPAD was attached under. */
export async function attachPinpad(
  engine: PaymentEngine,
  pinpad: Pinpad,
  options: AttachOptions = {},
): Promise<string> {
  const { serialNumber } = await pinpad.info();
  if (serialNumber.trim() === '')
    throw new Error(`The PINPAD at ${pinpad.address} has no serial number; it cannot be a payment terminal`);
  const sale = new PinpadSale(pinpad, {
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.keySlots ? { keySlots: options.keySlots } : {}),
    ...(options.tables
      ? { tables: options.tables }
      : options.tablesFrom
        ? { tables: options.tablesFrom(serialNumber) }
        : {}),
    ...(options.onTablesStatus
      ? { onTablesStatus: (status: TablesStatus) => options.onTablesStatus?.(serialNumber, status) }
      : {}),
    ...(options.requireSealedCardData !== undefined ? { requireSealedCardData: options.requireSealedCardData } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    onMessage: (text) => engine.relayPinpadMessage(serialNumber, text),
  });
  // Said at attach, where a technician looks first; the PINPAD is attached all the same (it still
  // shows messages and reads CPFs), and each sale refuses itself before anything is created.
  try {
    await sale.prepare();
  } catch (error) {
    options.logger?.warn(
      {
        address: pinpad.address,
        code: error instanceof SaleStepError ? error.code : 'UNKNOWN',
        reason: error instanceof Error ? error.message : String(error),
      },
      'this PINPAD cannot run sales',
    );
  }
  engine.attachTerminal(serialNumber, sale);
  return serialNumber;
}
