/**
 * `pinbridge start`: runs the agent headless. With no payments API configured it starts in
 * training mode, against an embedded sandbox (its address and token are in the ready line, for a
 * POS back end to create pending transactions on), and with no PINPAD configured it uses a
 * simulated one whose customer presents a test card by itself.
 *
 * It recovers the journal, keeps the PINPAD open (idle text; reopened when it comes back after
 * an unplug) and attached to the payment engine, which runs pending transactions created
 * elsewhere for this PINPAD as they appear. One JSON line on stdout says when it is ready; logs
 * are JSON lines on stderr.
 */
import type { Command } from 'commander';
import type { PinpadInfo } from '../../../drivers/abecs/pinpad.js';
import { HotplugWatcher } from '../../../drivers/transports/discovery.js';
import { createLogger, type Logger } from '../../log.js';
import type { CliIo } from '../io.js';
import { connectPinpad, SIMULATOR_ADDRESS, type PinpadConnection } from '../pinpad-connection.js';
import { PinpadRegistry } from '../../core/pinpad/registry.js';
import { ApiHealthMonitor } from '../../api/health.js';
import { ClientStore } from '../../pos/clients/client-store.js';
import type { PairingAnnouncement } from '../../pos/server/dispatch.js';
import { PosServer } from '../../pos/server/server.js';
import { SettingsError } from '../../core/settings.js';
import { VERSION } from '../../version.js';
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { clientsPath } from '../paths.js';
import { addPaymentStackOptions, checkApiOptions, openPaymentStack, type ApiOptions } from '../payment-stack.js';
import { loadSettings, type AgentSettings } from '../settings-file.js';
import type { Journal } from '../../core/journal/journal.js';
import { openReceiptPrinting, type ReceiptPrinting } from '../../receipts/printing.js';
import { TRAINING_RECEIPT_SETTINGS } from '../../receipts/settings.js';

const IDLE_TEXT = 'CAIXA LIVRE\nPINBRIDGE';
const TRAINING_IDLE_TEXT = 'CAIXA LIVRE\nMODO TREINAMENTO';
const CLOSED_TEXT = 'PINBRIDGE\nDESLIGADO';
const RECONNECT_DELAY_MS = 2000;

interface StartOptions extends ApiOptions {
  port?: string;
  posPort?: string;
  headless?: boolean;
  journal?: string;
  settings?: string;
}

/** The simulated customer of training mode: inserts this test card shortly after each prompt. */
const TRAINING_CUSTOMER = { delayMs: 1_500, card: 'visaCredit' } as const;

interface PinpadHooks {
  /** The PINPAD answered: put it to work (attach it to the engine). */
  readonly connected: (connection: PinpadConnection) => Promise<void>;
  /** The PINPAD went away (or the agent is stopping). */
  readonly lost: (info: PinpadInfo) => void;
  /** Once, the first time the PINPAD is ready. */
  readonly ready: (info: PinpadInfo) => void;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** Keeps one PINPAD connected until `signal` aborts; resolves after closing it. */
async function keepPinpad(
  address: string,
  training: boolean,
  logger: Logger,
  signal: AbortSignal,
  hooks: PinpadHooks,
): Promise<void> {
  let announced = false;
  while (!signal.aborted) {
    let connection: PinpadConnection;
    try {
      connection = await connectPinpad(address, { logger, simulator: { autoCustomer: TRAINING_CUSTOMER } });
    } catch (error) {
      logger.warn({ port: address, code: codeOf(error), err: messageOf(error) }, 'PINPAD not available; retrying');
      await delay(RECONNECT_DELAY_MS, signal);
      continue;
    }
    const lost = new Promise<void>((resolve) => connection.pinpad.once('disconnected', () => resolve()));
    let info: PinpadInfo;
    try {
      info = await connection.pinpad.info();
      await connection.pinpad.display(training ? TRAINING_IDLE_TEXT : IDLE_TEXT);
      await hooks.connected(connection);
      logger.info({ port: address, pinpad: info }, 'PINPAD ready');
      if (!announced) {
        announced = true;
        hooks.ready(info);
      }
    } catch (error) {
      logger.warn({ port: address, code: codeOf(error), err: messageOf(error) }, 'PINPAD did not answer; retrying');
      await connection.close(null).catch(() => {});
      await delay(RECONNECT_DELAY_MS, signal);
      continue;
    }
    const stopped = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    await Promise.race([lost, stopped]);
    hooks.lost(info);
    if (signal.aborted) {
      await connection.close(CLOSED_TEXT).catch(() => {});
      return;
    }
    logger.warn({ port: address }, 'PINPAD disconnected; waiting for it to come back');
    await connection.close(null).catch(() => {});
    await delay(RECONNECT_DELAY_MS, signal);
  }
}

function codeOf(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error ? String(error.code) : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Receipts printed by themselves when payments end, on the settings' printers. Without the store
 * (receipts.merchant) outside training mode there is nothing lawful to print: said once, at start.
 */
function startReceiptPrinting(journal: Journal, settings: AgentSettings, training: boolean, logger: Logger): ReceiptPrinting | undefined {
  const store = settings.receipts ?? (training ? TRAINING_RECEIPT_SETTINGS : undefined);
  if (store === undefined) {
    logger.warn({ settings: settings.path }, 'no "receipts": {"merchant": …} in the settings: receipts are not printed (they must show the store name and CNPJ)');
    return undefined;
  }
  const printing = openReceiptPrinting({ journal, store, training, printers: settings.printers, autoPrint: settings.autoPrint, pollMs: 10_000 });
  for (const [name, printer] of printing.printers) {
    printer.device.on('status', (status) => {
      const trouble = status.paperOut || status.coverOpen || (status.error !== null && status.error !== 'AUTO_RECOVERABLE');
      (trouble ? logger.warn.bind(logger) : logger.info.bind(logger))({ printer: name, status }, 'printer status');
    });
    printer.device.on('disconnected', (error) => logger.warn({ printer: name, code: error.code, err: error.message }, 'printer unreachable'));
    printer.device.on('connected', () => logger.info({ printer: name }, 'printer connected'));
  }
  printing.queue?.on('job', (job) => {
    const fields = { job: job.id, subject: job.subject, printer: job.printer, attempts: job.attempts };
    if (job.state === 'printed') logger.info(fields, 'receipt printed');
    else if (job.state === 'failed') logger.error({ ...fields, error: job.lastError }, 'receipt not printed; reprint it when the printer is back');
    else if (job.state === 'queued' && job.lastError !== null) logger.warn({ ...fields, error: job.lastError, next: job.nextAttemptAt }, 'receipt waiting for the printer');
  });
  return printing;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^[0-9]+$/.test(text) || port > 65535) throw new UsageError(`--pos-port must be a port number (0–65535), not "${text}"`);
  return port;
}

/** The certificate and key of `pos.tls`, read at start (a missing file stops the start with its name). */
function readTls(settings: AgentSettings): { key: Buffer; cert: Buffer } | undefined {
  const tls = settings.pos.tls;
  if (tls === undefined) return undefined;
  const read = (field: 'cert_file' | 'key_file'): Buffer => {
    try {
      return readFileSync(tls[field]);
    } catch (error) {
      throw new SettingsError([{ field: `pos.tls.${field}`, message: `cannot be read (${(error as Error).message})` }], settings.path ?? '(settings)');
    }
  };
  return { cert: read('cert_file'), key: read('key_file') };
}

/**
 * Headless, the terminal is the cashier's window: the pairing code goes to stdout as a JSON line
 * (for a supervisor program) and to stderr as a sentence (for a person).
 */
function announcePairing(io: CliIo, pairing: PairingAnnouncement): void {
  io.stdout(
    `${JSON.stringify({ event: 'pairing_requested', pairing_id: pairing.pairingId, name: pairing.name, origin: pairing.origin, code: pairing.code, expires_at: pairing.expiresAt })}\n`,
  );
  io.stderr(`Pairing request from "${pairing.name}" (${pairing.origin ?? 'a program on this computer'}): code ${pairing.code} — type it in the POS before ${pairing.expiresAt}.\n`);
}

export function registerStartCommand(program: Command, io: CliIo): void {
  const command = program.command('start');
  addPaymentStackOptions(command)
    .description(
      'Run the agent headless. Without --api it runs in training mode against an embedded sandbox; without --port it uses a ' +
        'simulated PINPAD. Pending transactions created elsewhere for the PINPAD are run as they appear. ' +
        'Prints one JSON line when ready; logs go to stderr. Stop with Ctrl+C.',
    )
    .option('--port <address>', 'the PINPAD: a serial port, tcp://host:port, ble:<id>, or "sim" (default: $PINBRIDGE_PINPAD, else sim)')
    .option('--headless', 'run without the desktop window (this build has no window yet, so always)')
    .option('--pos-port <port>', 'port of the POS API (WebSocket and demo page) on 127.0.0.1; 0 = any free port (default: settings pos.ports, else 17301, 17302, 17303)')
    .action(async (options: StartOptions) => {
      const settings = loadSettings(options.settings, io.env.HOME);
      checkApiOptions(options);
      const posPorts = options.posPort === undefined ? settings.pos.ports : [parsePort(options.posPort)];
      const tls = readTls(settings);
      const logger = createLogger({ level: io.env.PINBRIDGE_LOG_LEVEL ?? 'info' });
      const address = options.port ?? io.env.PINBRIDGE_PINPAD ?? SIMULATOR_ADDRESS;
      const apiHealth = new ApiHealthMonitor();
      const stack = await openPaymentStack({
        api: options,
        ...(options.journal === undefined ? {} : { journalPath: options.journal }),
        ...(io.env.HOME === undefined ? {} : { home: io.env.HOME }),
        config: settings.engine,
        logger,
        onAttempt: apiHealth.record,
      });
      const { engine, training } = stack;
      apiHealth.on('change', (health) =>
        (health.state === 'down' ? logger.warn.bind(logger) : logger.info.bind(logger))({ state: health.state, error: health.lastError }, 'payments API health'),
      );
      logger.info({ mode: training ? 'training' : 'live', port: address, journal: stack.journalPath, settings: settings.path }, 'Pinbridge starting');
      const printing = startReceiptPrinting(stack.journal, settings, training, logger);
      engine.on('progress', (event) =>
        printing?.service.onProgress(event, (error) => logger.warn({ payment: event.paymentId, err: messageOf(error) }, 'receipt not printed')),
      );

      const pinpads = new PinpadRegistry(engine);
      let clients: ClientStore | undefined;
      let pos: PosServer | undefined;
      const watcher = new HotplugWatcher();
      watcher.on('attached', (port) => logger.info({ port }, 'serial port attached'));
      watcher.on('detached', (port) => logger.info({ port }, 'serial port detached'));
      watcher.on('error', (error) => logger.warn({ err: messageOf(error) }, 'cannot list serial ports'));
      try {
        // Whatever a crash left in flight is finished or undone before the first sale.
        const recovered = await engine.recover();
        logger.info({ ...recovered }, 'journal recovered');
        clients = ClientStore.open(clientsPath(io.env.HOME));
        pos = await PosServer.start({
          agent: {
            version: VERSION,
            mode: training ? 'training' : 'live',
            engine,
            pinpads,
            receipts: printing?.service,
            printers: printing?.printers ?? new Map(),
            printQueue: printing?.queue,
            api: stack.client,
            sellerId: stack.sellerId,
            apiHealth,
            clients,
          },
          logger,
          ...(posPorts === undefined ? {} : { ports: posPorts }),
          ...(tls === undefined ? {} : { tls }),
          announcePairing: (pairing) => announcePairing(io, pairing),
        });
        // The first listing failing is reported through the watcher's `error` event.
        void watcher.start();
        const server = pos;
        await keepPinpad(address, training, logger, io.signal, {
          connected: async (connection) => {
            await pinpads.attach(connection.pinpad, address, { timeouts: settings.sale, logger });
          },
          lost: (info) => pinpads.detach(info.serialNumber),
          ready: (info) => {
            io.stdout(
              `${JSON.stringify({
                status: 'ready',
                mode: training ? 'training' : 'live',
                pinpad: {
                  port: address,
                  manufacturer: info.manufacturer,
                  model: info.model,
                  serial_number: info.serialNumber,
                },
                journal: stack.journalPath,
                recovered,
                printers: printing ? [...printing.printers.keys()] : [],
                pos: { ws: server.url, demo: server.demoUrl },
                ...(stack.sandbox
                  ? {
                      sandbox: {
                        url: stack.sandbox.url,
                        marketplace_id: stack.sandbox.marketplaceId,
                        seller_id: stack.sandbox.sellerId,
                        token: stack.sandbox.token,
                      },
                    }
                  : {}),
              })}\n`,
            );
          },
        });
      } finally {
        watcher.stop();
        await pos?.close();
        clients?.close();
        await printing?.close();
        await stack.close();
        logger.info({}, 'Pinbridge stopped');
      }
    });
}
