/**
 * Opens a `Pinpad` from a `--port` address. Besides the transport addresses
 * (drivers/transports/address.ts) the CLI accepts `sim`: a simulated PINPAD in this process,
 * for trying commands out without hardware, `sim:<profile>` for one that behaves like a
 * given kind of device (`sim:strict`, `sim:ppc930`, `sim:legacy`; `sim` = `sim:training`), and
 * `sim:replay:<file>` for one that answers as the PINPAD of a recorded session did
 * (`pinbridge pinpad trace`).
 */
import { Pinpad } from '../../drivers/abecs/pinpad.js';
import type { DriverLogger } from '../../drivers/log.js';
import { readTraceFile } from '../../drivers/abecs/trace/format.js';
import { createTransport, parseTransportAddress } from '../../drivers/transports/address.js';
import { TransportError, type ByteTransport } from '../../drivers/transports/transport.js';
import type { PinpadSimulator, PinpadSimulatorOptions } from '../../drivers/simulator/index.js';
import {
  isSimulatorProfileName,
  SIMULATOR_PROFILE_NAMES,
  type SimulatorProfileName,
} from '../../drivers/simulator/profiles.js';

export const SIMULATOR_ADDRESS = 'sim';
const REPLAY_PREFIX = `${SIMULATOR_ADDRESS}:replay:`;

/**
 * The trace file of a `sim:replay:<file>` address (the path as written, case kept); undefined
 * for any other address. An empty path is an INVALID_PORT TransportError.
 */
export function simulatorReplayFileOf(address: string): string | undefined {
  const text = address.trim();
  if (!text.toLowerCase().startsWith(REPLAY_PREFIX)) return undefined;
  const file = text.slice(REPLAY_PREFIX.length);
  if (file === '') throw new TransportError('INVALID_PORT', `"${text}" names no trace file; use sim:replay:<file>.`);
  return file;
}

/**
 * The simulator profile an address names: `sim` → 'training', `sim:<profile>` → that profile,
 * `sim:replay:<file>` → 'replay'; undefined for any other address. An unknown profile is an
 * INVALID_PORT TransportError.
 */
export function simulatorProfileOf(address: string): SimulatorProfileName | 'replay' | undefined {
  if (simulatorReplayFileOf(address) !== undefined) return 'replay';
  const text = address.trim().toLowerCase();
  if (text === SIMULATOR_ADDRESS) return 'training';
  if (!text.startsWith(`${SIMULATOR_ADDRESS}:`)) return undefined;
  const name = text.slice(SIMULATOR_ADDRESS.length + 1);
  if (!isSimulatorProfileName(name)) {
    throw new TransportError(
      'INVALID_PORT',
      `"${address.trim()}" names no simulator profile; use sim, sim:replay:<file> or sim:<profile> with one of ${SIMULATOR_PROFILE_NAMES.join(', ')}.`,
    );
  }
  return name;
}

/** Why an address cannot name a PINPAD: the code, the driver's English sentence and one in pt-BR for the cashier's window. */
export interface PinpadAddressProblem {
  readonly code: 'INVALID_PINPAD_ADDRESS';
  /** English, naming the address and the forms accepted (the CLI's own `--port` sentence). */
  readonly message: string;
  readonly cashier_message: string;
}

/** The reason in pt-BR, from the address's shape (the English reason is the driver's). */
function reasonPt(text: string): string {
  const value = text.trim();
  if (value === '') return 'está vazio';
  if (/^tcp:/i.test(value)) return 'um endereço de rede precisa do host e da porta, por exemplo tcp://10.0.0.5:4000';
  if (/^(?:\\\\\.\\)?COM\b/i.test(value)) return 'uma porta serial do Windows é COM e o número, por exemplo COM3';
  if (/^ble:/i.test(value)) return 'um endereço Bluetooth precisa do id do aparelho, ble:<id>';
  if (/^sim:/i.test(value))
    return `o simulador é sim, sim:replay:<arquivo> ou sim:<perfil> (${SIMULATOR_PROFILE_NAMES.join(', ')})`;
  return 'não é uma porta serial, um endereço de rede nem um endereço Bluetooth';
}

/**
 * The one check of a PINPAD address, as `--port` makes it: the CLI, the settings validation, the
 * doctor and the agent's link status all refuse the same addresses with the same sentence.
 * Undefined when the address is usable (a transport address or a simulator one).
 */
export function pinpadAddressProblem(address: string): PinpadAddressProblem | undefined {
  try {
    if (simulatorProfileOf(address) === undefined) parseTransportAddress(address);
    return undefined;
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    const message = /^sim(?::|$)/i.test(address.trim())
      ? error.message
      : error.message.replace(/\.$/, ', or "sim" for the simulated PINPAD.');
    return {
      code: 'INVALID_PINPAD_ADDRESS',
      message,
      cashier_message: `O endereço do PINPAD “${address}” não é válido (${reasonPt(address)}). Use uma porta serial (/dev/ttyACM0, COM3), tcp://host:porta, ble:<id> ou sim.`,
    };
  }
}

export interface PinpadConnection {
  readonly pinpad: Pinpad;
  /** The in-process simulator when the address was `sim`, `sim:<profile>` or `sim:replay:<file>`. */
  readonly simulator?: PinpadSimulator;
  /** Closes the PINPAD (CLO with `message` when given, `null` to skip CLO) and everything opened. */
  close(message?: string | null): Promise<void>;
}

export interface ConnectOptions {
  readonly logger: DriverLogger;
  /** Options of the in-process simulator (address `sim` or `sim:<profile>`; the address's profile wins). */
  readonly simulator?: PinpadSimulatorOptions;
  /** Wraps the transport before the PINPAD is opened on it (`pinbridge pinpad trace` records through it). */
  readonly wrapTransport?: (transport: ByteTransport) => ByteTransport;
}

/** Creates the transport and opens the PINPAD (CAN, OPN). */
export async function connectPinpad(address: string, options: ConnectOptions): Promise<PinpadConnection> {
  const wrap = options.wrapTransport ?? ((transport: ByteTransport) => transport);
  const profile = simulatorProfileOf(address);
  if (profile !== undefined) {
    const replayFile = simulatorReplayFileOf(address);
    // A trace that does not parse is refused here, before anything is opened (TraceFileError).
    const simulatorOptions: PinpadSimulatorOptions =
      replayFile !== undefined
        ? { logger: options.logger, ...options.simulator, replay: await readTraceFile(replayFile) }
        : { logger: options.logger, ...options.simulator, profile: profile as SimulatorProfileName };
    // The simulator (its wire layer, cards and keys) is loaded for a simulated PINPAD only.
    const { PinpadSimulator: Simulator, startMemorySimulator } = await import('../../drivers/simulator/index.js');
    const simulator = new Simulator(simulatorOptions);
    const served = await startMemorySimulator(simulator, { name: 'sim' });
    // An in-memory link carries no line noise and no bytes in flight after EOT: the half-second
    // of silence a serial line is given to settle after the start-up CAN would only delay the start.
    const pinpad = new Pinpad(wrap(served.link.host), { logger: options.logger, timings: { silenceMs: 20 } });
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
  const pinpad = new Pinpad(wrap(createTransport(address)), { logger: options.logger });
  try {
    await pinpad.open();
  } catch (error) {
    await pinpad.transport.close().catch(() => {});
    throw error;
  }
  return { pinpad, close: (message) => pinpad.close(message) };
}
