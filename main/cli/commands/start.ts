/**
 * `pinbridge start`: runs the agent headless. With no PINPAD configured it starts in training
 * mode, with a simulated PINPAD in this process. It keeps the PINPAD open, shows the idle text,
 * reopens it when it comes back after an unplug, and logs the serial ports coming and going.
 * One JSON line on stdout says when it is ready; logs are JSON lines on stderr.
 */
import type { Command } from 'commander';
import type { PinpadInfo } from '../../../drivers/abecs/pinpad.js';
import { HotplugWatcher } from '../../../drivers/transports/discovery.js';
import { createLogger, type Logger } from '../../log.js';
import type { CliIo } from '../io.js';
import { connectPinpad, SIMULATOR_ADDRESS, type PinpadConnection } from '../pinpad-connection.js';

const IDLE_TEXT = 'CAIXA LIVRE\nPINBRIDGE';
const TRAINING_IDLE_TEXT = 'CAIXA LIVRE\nMODO TREINAMENTO';
const CLOSED_TEXT = 'PINBRIDGE\nDESLIGADO';
const RECONNECT_DELAY_MS = 2000;

interface StartOptions {
  port?: string;
  headless?: boolean;
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
  onReady: (info: PinpadInfo) => void,
): Promise<void> {
  let announced = false;
  while (!signal.aborted) {
    let connection: PinpadConnection;
    try {
      connection = await connectPinpad(address, { logger });
    } catch (error) {
      logger.warn({ port: address, code: codeOf(error), err: messageOf(error) }, 'PINPAD not available; retrying');
      await delay(RECONNECT_DELAY_MS, signal);
      continue;
    }
    const lost = new Promise<void>((resolve) => connection.pinpad.once('disconnected', () => resolve()));
    try {
      const info = await connection.pinpad.info();
      await connection.pinpad.display(training ? TRAINING_IDLE_TEXT : IDLE_TEXT);
      logger.info({ port: address, pinpad: info }, 'PINPAD ready');
      if (!announced) {
        announced = true;
        onReady(info);
      }
    } catch (error) {
      logger.warn({ port: address, code: codeOf(error), err: messageOf(error) }, 'PINPAD did not answer; retrying');
      await connection.close(null).catch(() => {});
      await delay(RECONNECT_DELAY_MS, signal);
      continue;
    }
    const stopped = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    await Promise.race([lost, stopped]);
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

export function registerStartCommand(program: Command, io: CliIo): void {
  program
    .command('start')
    .description(
      'Run the agent headless. Without --port it starts in training mode with a simulated PINPAD. ' +
        'Prints one JSON line when ready; logs go to stderr. Stop with Ctrl+C.',
    )
    .option('--port <address>', 'the PINPAD: a serial port, tcp://host:port, ble:<id>, or "sim"')
    .option('--headless', 'run without the desktop window (this build has no window yet, so always)')
    .action(async (options: StartOptions) => {
      const logger = createLogger({ level: io.env.PINBRIDGE_LOG_LEVEL ?? 'info' });
      const address = options.port ?? io.env.PINBRIDGE_PINPAD ?? SIMULATOR_ADDRESS;
      const training = address === SIMULATOR_ADDRESS;
      logger.info({ mode: training ? 'training' : 'live', port: address }, 'Pinbridge starting');

      const watcher = new HotplugWatcher();
      watcher.on('attached', (port) => logger.info({ port }, 'serial port attached'));
      watcher.on('detached', (port) => logger.info({ port }, 'serial port detached'));
      watcher.on('error', (error) => logger.warn({ err: messageOf(error) }, 'cannot list serial ports'));
      // The first listing failing is reported through the watcher's `error` event.
      void watcher.start();
      try {
        await keepPinpad(address, training, logger, io.signal, (info) => {
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
            })}\n`,
          );
        });
      } finally {
        watcher.stop();
        logger.info({}, 'Pinbridge stopped');
      }
    });
}
