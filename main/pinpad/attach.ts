/**
 * Puts an opened driver `Pinpad` at the engine's disposal under its serial number (GIX/GIN),
 * with the PINPAD's own messages (NTM: "SELECIONADO: CREDITO", "SOLICITE A SENHA"…) relayed as
 * progress events of the payment it is running.
 */
import type { Pinpad } from '../../drivers/abecs/pinpad.js';
import type { DriverLogger } from '../../drivers/log.js';
import type { PaymentEngine } from '../core/engine.js';
import { PinpadSale, type SaleTimeouts } from './sale-session.js';

export interface AttachOptions {
  readonly timeouts?: Partial<SaleTimeouts>;
  readonly logger?: DriverLogger;
}

/** Returns the serial number the PINPAD was attached under. */
export async function attachPinpad(engine: PaymentEngine, pinpad: Pinpad, options: AttachOptions = {}): Promise<string> {
  const { serialNumber } = await pinpad.info();
  if (serialNumber.trim() === '') throw new Error(`The PINPAD at ${pinpad.address} has no serial number; it cannot be a payment terminal`);
  const sale = new PinpadSale(pinpad, {
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    onMessage: (text) => engine.relayPinpadMessage(serialNumber, text),
  });
  engine.attachTerminal(serialNumber, sale);
  return serialNumber;
}
