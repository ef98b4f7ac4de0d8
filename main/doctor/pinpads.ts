/**
 * The `pinpads` check: which serial ports look like PINPADs (by USB ids, see
 * drivers/transports/usb-ids.ts), and — when an address is given, in the `--port` syntax of
 * `pinbridge start` — whether that PINPAD really answers: it is opened (CAN, OPN), asked for its
 * identification (GIX, or GIN on older PINPADs) and closed, all within the check's time limit.
 */
import { Pinpad, type PinpadInfo } from '../../drivers/abecs/pinpad.js';
import { silentLogger, type DriverLogger } from '../../drivers/log.js';
import { createTransport, parseTransportAddress } from '../../drivers/transports/address.js';
import { listSerialPinpads, type ListPorts, type SerialPinpadInfo } from '../../drivers/transports/discovery.js';
import { connectPinpad, SIMULATOR_ADDRESS } from '../agent/pinpad-connection.js';
import { codeOf, DeadlineError, formatSeconds, messageOf, shellQuote, withDeadline, type CheckResult, type CheckDetails } from './check.js';

export interface PinpadsCheckOptions {
  /** The PINPAD to open and identify; without it only the serial ports are listed. */
  readonly address?: string;
  /** For opening and identifying the PINPAD (and for listing the ports). */
  readonly timeoutMs: number;
  /** Lists the serial ports (default serialport's list). */
  readonly listPorts?: ListPorts;
  readonly logger?: DriverLogger;
  /** The user's name, for the dialout command in a fix. */
  readonly username?: string;
}

/** Opens the PINPAD at `address`, reads its identification and closes it, within `timeoutMs`. */
export async function identifyPinpad(address: string, timeoutMs: number, logger: DriverLogger = silentLogger): Promise<PinpadInfo> {
  if (address.trim().toLowerCase() === SIMULATOR_ADDRESS) {
    // The in-process simulator cannot hang; it is opened the way `pinbridge start --port sim` opens it.
    const connection = await connectPinpad(address, { logger });
    try {
      return await connection.pinpad.info();
    } finally {
      await connection.close();
    }
  }
  // Built here rather than with connectPinpad so the transport can be closed when the deadline
  // passes: closing it is what ends an open or a command stuck waiting for a silent PINPAD.
  const pinpad = new Pinpad(createTransport(address), { logger });
  let info: PinpadInfo | undefined;
  try {
    info = await withDeadline(
      (async () => {
        await pinpad.open();
        return pinpad.info();
      })(),
      timeoutMs,
      `Opening the PINPAD on ${address} and reading its identification`,
    );
    return info;
  } finally {
    // CLO only after a PINPAD that answered; a silent one is just let go.
    await pinpad.close(info === undefined ? null : undefined).catch(() => undefined);
  }
}

function pinpadFix(address: string, error: unknown, username: string): string {
  const retry = `then run \`pinbridge doctor --port ${shellQuote(address)}\` again`;
  switch (codeOf(error)) {
    case 'INVALID_PORT':
      return `Give the PINPAD as a serial port (/dev/ttyACM0, COM3), tcp://host:port or ble:<id>; \`pinbridge pinpad list\` shows the serial ports present.`;
    case 'PORT_NOT_FOUND':
      return `Check the PINPAD's USB cable and that it is switched on; \`pinbridge pinpad list\` shows the ports present (a PINPAD may come back as another ttyACM number after a replug), ${retry}.`;
    case 'PERMISSION_DENIED':
      return `Run \`sudo usermod -aG dialout ${username}\`, log out and in again, ${retry}.`;
    case 'PORT_BUSY':
      return `Another program holds ${address}: close it (a Pinbridge already running keeps its PINPAD open — stop it, or run the check while it is stopped), ${retry}.`;
    case 'CONNECTION_REFUSED':
    case 'HOST_UNREACHABLE':
    case 'CONNECT_TIMEOUT':
      return `Check that the PINPAD is switched on, on the store network and at that address and port (its network settings screen shows them), ${retry}.`;
    case 'BLE_UNAVAILABLE':
    case 'BLE_DEVICE_NOT_FOUND':
    case 'BLE_SERVICE_NOT_FOUND':
      return `Switch Bluetooth on, bring the PINPAD close and pair it; \`pinbridge pinpad list --ble 10\` lists the BLE PINPADs in range, ${retry}.`;
    default:
      return `Check that the PINPAD is switched on and shows its idle screen, unplug it and plug it in again (or switch it off and on), ${retry}; \`pinbridge pinpad info --port ${shellQuote(address)}\` shows the same exchange.`;
  }
}

function describe(port: SerialPinpadInfo): string {
  const name = [port.maker, port.model].filter((part) => part !== undefined).join(' ');
  return name === '' ? port.address : `${port.address} (${name})`;
}

export async function checkPinpads(options: PinpadsCheckOptions): Promise<CheckResult> {
  const logger = options.logger ?? silentLogger;
  // Listing the ports and opening the PINPAD do not depend on each other: both run at once, so
  // the check takes one time limit, not two.
  const listing = withDeadline(listSerialPinpads(options.listPorts ? { list: options.listPorts } : {}), options.timeoutMs, 'Listing the serial ports').then(
    (ports) => ({ ports, listError: undefined }),
    (error: unknown) => ({ ports: [] as SerialPinpadInfo[], listError: messageOf(error) }),
  );
  const identifying = options.address === undefined ? undefined : identifyAddress(options.address, options.timeoutMs, logger);
  const { ports, listError } = await listing;
  const likely = ports.filter((p) => p.likelyPinpad);
  const serial = ports.map((p) => ({
    address: p.address,
    likely_pinpad: p.likelyPinpad,
    maker: p.maker ?? null,
    model: p.model ?? null,
    vendor_id: p.vendorId ?? null,
    product_id: p.productId ?? null,
  }));
  const found = likely.length > 0 ? `likely PINPAD(s) on ${likely.map(describe).join(', ')}` : 'no serial port looks like a PINPAD';
  const baseDetails: CheckDetails = { serial_ports: serial, ...(listError ? { list_error: listError } : {}) };

  if (identifying === undefined) {
    if (listError !== undefined) {
      return {
        id: 'pinpads',
        status: 'warn',
        summary: `The serial ports could not be listed (${listError}); no PINPAD address given to open`,
        details: baseDetails,
        fix: 'Run `pinbridge doctor --port <address>` with the PINPAD\'s port (/dev/ttyACM0, COM3, tcp://host:port) to open it directly.',
      };
    }
    if (likely.length === 0) {
      return {
        id: 'pinpads',
        status: 'warn',
        summary: `No PINPAD found: ${ports.length === 0 ? 'no serial port present' : `${ports.length} serial port(s), none with a PINPAD maker's USB id`}; no PINPAD address given to open`,
        details: baseDetails,
        fix: 'Plug the PINPAD\'s USB cable in and switch it on, then run `pinbridge pinpad list`; a network PINPAD is checked with `pinbridge doctor --port tcp://HOST:PORT`.',
      };
    }
    return {
      id: 'pinpads',
      status: 'ok',
      summary: `Found ${found}; run \`pinbridge doctor --port ${shellQuote(likely[0]!.address)}\` to open it`,
      details: baseDetails,
    };
  }

  const outcome = await identifying;
  const { address } = outcome;
  if (!outcome.ok) {
    const silent = outcome.error instanceof DeadlineError;
    return {
      id: 'pinpads',
      status: 'fail',
      summary:
        outcome.kind === undefined
          ? messageOf(outcome.error)
          : silent
            ? `The PINPAD on ${address} did not answer within ${formatSeconds(options.timeoutMs)}`
            : `The PINPAD on ${address} could not be opened: ${messageOf(outcome.error)}`,
      details: {
        ...baseDetails,
        address,
        ...(outcome.kind === undefined ? {} : { transport: outcome.kind }),
        error: { code: silent ? 'TIMEOUT' : (codeOf(outcome.error) ?? 'ERROR'), message: messageOf(outcome.error) },
      },
      fix: pinpadFix(address, outcome.error, options.username ?? '$USER'),
    };
  }
  const { info } = outcome;
  return {
    id: 'pinpads',
    status: 'ok',
    summary: `The PINPAD on ${address} answered: ${info.manufacturer} ${info.model}, serial number ${info.serialNumber}, firmware ${info.firmware}`,
    details: {
      ...baseDetails,
      address,
      transport: outcome.kind,
      pinpad: {
        manufacturer: info.manufacturer,
        model: info.model,
        serial_number: info.serialNumber,
        firmware: info.firmware,
        spec_version: info.specVersion,
        protocol: info.protocol,
      },
      ms: outcome.ms,
    },
  };
}

type IdentifyOutcome =
  | { readonly ok: true; readonly address: string; readonly kind: string; readonly info: PinpadInfo; readonly ms: number }
  /** `kind` undefined: the address itself was refused. */
  | { readonly ok: false; readonly address: string; readonly kind: string | undefined; readonly error: unknown };

/** The address's transport and the PINPAD's identification, or why not; never rejects. */
async function identifyAddress(address: string, timeoutMs: number, logger: DriverLogger): Promise<IdentifyOutcome> {
  let kind: string;
  try {
    kind = address.trim().toLowerCase() === SIMULATOR_ADDRESS ? 'simulator' : parseTransportAddress(address).kind;
  } catch (error) {
    return { ok: false, address, kind: undefined, error };
  }
  const started = performance.now();
  try {
    const info = await identifyPinpad(address, timeoutMs, logger);
    return { ok: true, address, kind, info, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, address, kind, error };
  }
}
