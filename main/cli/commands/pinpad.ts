/** `pinbridge pinpad …`: what a technician needs to check a PINPAD, by phone if need be. */
import type { Command } from 'commander';
import { COMMAND_LINES } from '../command-list.js';
import { formatDisplay2x16 } from '../../../drivers/abecs/text.js';
import { createNoble, scanBlePinpads } from '../../../drivers/transports/ble.js';
import { configuredTcpPinpads, listSerialPinpads } from '../../../drivers/transports/discovery.js';
import { createLogger, logFormat } from '../../log.js';
import { formatCpf, isValidCpf } from '../../validation/taxpayer-id.js';
import type { CliIo } from '../io.js';
import { emit, table } from '../output.js';
import { connectPinpad, type PinpadConnection } from '../../pinpad/connection.js';
import { parseSeconds } from '../parse.js';
import { registerPinpadTraceCommand } from './pinpad-trace.js';

const PORT_HELP =
  'the PINPAD: a serial port (/dev/ttyACM0, COM3), tcp://host:port, ble:<id>, "sim", or sim:replay:<trace file>';

interface PortOptions {
  port: string;
  json?: boolean;
}

/** One row of `pinpad list --json`; every row has every key. */
interface ListedPinpad {
  readonly port: string;
  readonly transport: 'serial' | 'tcp' | 'ble';
  readonly maker: string | null;
  readonly model: string | null;
  readonly likely_pinpad: boolean;
  readonly vendor_id: string | null;
  readonly product_id: string | null;
  readonly serial_number: string | null;
}

/** Network and BLE entries were named as PINPADs by the user or by their service UUID. */
function listed(
  port: string,
  transport: ListedPinpad['transport'],
  details: Partial<Omit<ListedPinpad, 'port' | 'transport'>> = {},
): ListedPinpad {
  return {
    port,
    transport,
    maker: null,
    model: null,
    likely_pinpad: true,
    vendor_id: null,
    product_id: null,
    serial_number: null,
    ...details,
  };
}

/** Command-line text may carry "\n" as two characters; on the PINPAD it splits the lines. */
export function unescapeDisplayText(text: string): string {
  return text.replace(/\\n/g, '\n');
}

async function withPinpad<T>(
  io: CliIo,
  port: string,
  run: (connection: PinpadConnection) => Promise<T>,
  closeMessage?: string | null,
): Promise<T> {
  const logger = createLogger({ format: logFormat(io.env), level: io.env.PINBRIDGE_LOG_LEVEL ?? 'warn' });
  const connection = await connectPinpad(port, { logger });
  let result: T;
  try {
    result = await run(connection);
  } catch (error) {
    await connection.close().catch(() => {});
    throw error;
  }
  await connection.close(closeMessage);
  return result;
}

/** How long `pinpad list --ble` listens for advertisements when no duration is given. */
const DEFAULT_BLE_SCAN_SECONDS = 5;

export function registerPinpadCommands(program: Command, io: CliIo): void {
  const pinpad = program.command('pinpad').description(COMMAND_LINES.pinpad.description);

  pinpad
    .command('list')
    .description('List serial ports (likely PINPADs first, guessed by USB vendor id) and configured network PINPADs.')
    .option('--tcp <host:port...>', 'network PINPADs to list too')
    .option('--ble [seconds]', 'also scan for BLE PINPADs for this long (default 5)', parseSeconds)
    .option('--json', 'print JSON')
    .action(async (options: { tcp?: string[]; ble?: number | true; json?: boolean }) => {
      const serial = await listSerialPinpads();
      const tcp = configuredTcpPinpads(options.tcp ?? []);
      const bleSeconds = options.ble === true ? DEFAULT_BLE_SCAN_SECONDS : options.ble;
      const ble =
        bleSeconds === undefined
          ? []
          : await scanBlePinpads({ noble: createNoble(), ownsNoble: true, durationMs: bleSeconds * 1000 });
      const rows: ListedPinpad[] = [
        ...serial.map((p) =>
          listed(p.address, 'serial', {
            maker: p.maker ?? null,
            model: p.model ?? null,
            likely_pinpad: p.likelyPinpad,
            vendor_id: p.vendorId ?? null,
            product_id: p.productId ?? null,
            serial_number: p.serialNumber ?? null,
          }),
        ),
        ...tcp.map((p) => listed(p.address, 'tcp')),
        ...ble.map((p) => listed(`ble:${p.id}`, 'ble', { maker: p.name ?? null })),
      ];
      const human =
        rows.length === 0
          ? 'No serial ports found and no network PINPADs given.'
          : rows
              .map((r) =>
                [r.port.padEnd(24), r.transport.padEnd(7), r.likely_pinpad ? (r.maker ?? 'PINPAD') : '-']
                  .join(' ')
                  .trimEnd(),
              )
              .join('\n');
      emit(io, options.json, rows, human);
    });

  pinpad
    .command('info')
    .description('Open the PINPAD, read its identification (GIX, or GIN on older PINPADs) and close it.')
    .requiredOption('--port <address>', PORT_HELP)
    .option('--json', 'print JSON')
    .action(async (options: PortOptions) => {
      const info = await withPinpad(io, options.port, ({ pinpad }) => pinpad.info());
      const data = {
        manufacturer: info.manufacturer,
        model: info.model,
        ...(info.memory !== undefined ? { memory: info.memory } : {}),
        firmware: info.firmware,
        spec_version: info.specVersion,
        serial_number: info.serialNumber,
        protocol: info.protocol,
        ...(info.partNumber !== undefined ? { part_number: info.partNumber } : {}),
        ...(info.contactless !== undefined ? { contactless: info.contactless } : {}),
        ...(info.managerVersion !== undefined ? { manager_version: info.managerVersion } : {}),
        ...(info.appVersion !== undefined ? { app_version: info.appVersion } : {}),
        ...(info.display ? { display: info.display } : {}),
        ...(info.tableVersions ? { table_versions: info.tableVersions } : {}),
        ...(info.link ? { link: info.link } : {}),
        port: options.port,
      };
      const human = table([
        ['Manufacturer', info.manufacturer],
        ['Model', info.model],
        ['Memory', info.memory],
        ['Serial number', info.serialNumber],
        ['Firmware', info.firmware],
        ['ABECS spec', `${info.specVersion} (${info.protocol === 'abecs' ? 'Abecs 2.x commands' : 'legacy commands'})`],
        ['Contactless', info.contactless === undefined ? undefined : info.contactless ? 'yes' : 'no'],
        ['Display', info.display ? `${info.display.lines} lines x ${info.display.columns} columns` : undefined],
        ['Port', options.port],
      ]);
      emit(io, options.json, data, human);
    });

  pinpad
    .command('display')
    .description('Show a text on the PINPAD: at most 32 characters, 2 lines of 16 ("\\n" splits the lines).')
    .requiredOption('--port <address>', PORT_HELP)
    .argument('<text>', 'the text to show')
    .option('--json', 'print JSON')
    .action(async (rawText: string, options: PortOptions) => {
      const text = unescapeDisplayText(rawText);
      // Refuse a text that does not fit before opening the PINPAD: nothing is sent.
      const shown = formatDisplay2x16(text);
      // CLO with the same text closes the session and leaves the text on the idle display.
      await withPinpad(io, options.port, ({ pinpad }) => pinpad.display(text), text);
      const lines = [shown.slice(0, 16).trimEnd(), shown.slice(16).trimEnd()];
      emit(io, options.json, { shown: true, lines }, `Shown on ${options.port}:\n  ${lines[0]}\n  ${lines[1]}`);
    });

  pinpad
    .command('cpf')
    .description('Ask the customer to type a CPF on the PINPAD keypad and print it.')
    .requiredOption('--port <address>', PORT_HELP)
    .option('--timeout <seconds>', 'how long the PINPAD waits for the customer to type (1-255)', parseSeconds, 60)
    .option('--json', 'print JSON')
    .action(async (options: PortOptions & { timeout: number }) => {
      const cpf = await withPinpad(io, options.port, ({ pinpad }) =>
        pinpad.readCustomerData('cpf', { timeoutSeconds: options.timeout }),
      );
      const valid = isValidCpf(cpf);
      emit(
        io,
        options.json,
        { cpf, valid },
        `CPF ${formatCpf(cpf)}${valid ? '' : ' (the check digits do not match: not a valid CPF)'}`,
      );
    });

  registerPinpadTraceCommand(pinpad, io, PORT_HELP);
}
