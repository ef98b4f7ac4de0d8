/**
 * Opens a `Pinpad` from a `--port` address. Besides the transport addresses
 * (drivers/transports/address.ts) the CLI accepts `sim`: a simulated PINPAD in this process,
 * for trying commands out without hardware.
 */
import { Pinpad } from '../../drivers/abecs/pinpad.js';
import type { DriverLogger } from '../../drivers/log.js';
import { createTransport } from '../../drivers/transports/address.js';
import { PinpadSimulator, startMemorySimulator, type PinpadSimulatorOptions } from '../../drivers/simulator/index.js';

export const SIMULATOR_ADDRESS = 'sim';

export interface PinpadConnection {
  readonly pinpad: Pinpad;
  /** The in-process simulator when the address was `sim`. */
  readonly simulator?: PinpadSimulator;
  /** Closes the PINPAD (CLO with `message` when given, `null` to skip CLO) and everything opened. */
  close(message?: string | null): Promise<void>;
}

export interface ConnectOptions {
  readonly logger: DriverLogger;
  /** Options of the in-process simulator (address `sim`). */
  readonly simulator?: PinpadSimulatorOptions;
}

/** Creates the transport and opens the PINPAD (CAN, OPN). */
export async function connectPinpad(address: string, options: ConnectOptions): Promise<PinpadConnection> {
  if (address.trim().toLowerCase() === SIMULATOR_ADDRESS) {
    const simulator = new PinpadSimulator({ logger: options.logger, ...options.simulator });
    const served = await startMemorySimulator(simulator, { name: 'sim' });
    // An in-memory link carries no line noise and no bytes in flight after EOT: the half-second
    // of silence a serial line is given to settle after the start-up CAN would only delay the start.
    const pinpad = new Pinpad(served.link.host, { logger: options.logger, timings: { silenceMs: 20 } });
    try {
      await pinpad.open();
    } catch (error) {
      await served.close();
      throw error;
    }
    return {
      pinpad,
      simulator,
      async close(message) {
        try {
          await pinpad.close(message);
        } finally {
          await served.close();
        }
      },
    };
  }
  const pinpad = new Pinpad(createTransport(address), { logger: options.logger });
  try {
    await pinpad.open();
  } catch (error) {
    await pinpad.transport.close().catch(() => {});
    throw error;
  }
  return { pinpad, close: (message) => pinpad.close(message) };
}
