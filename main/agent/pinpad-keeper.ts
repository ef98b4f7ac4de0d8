/**
 * Keeps one PINPAD connected while the agent runs: opens it, shows the idle text, hands it over
 * (`connected`), and when it goes away (unplugged, switched off) says so (`lost`) and tries
 * again every two seconds until it answers. When the agent stops, the PINPAD is left showing
 * that Pinbridge is off.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PinpadInfo } from '../../drivers/abecs/pinpad.js';
import type { Logger } from '../log.js';
import { connectPinpad, type PinpadConnection } from './pinpad-connection.js';

const IDLE_TEXT = 'CAIXA LIVRE\nPINBRIDGE';
const TRAINING_IDLE_TEXT = 'CAIXA LIVRE\nMODO TREINAMENTO';
const CLOSED_TEXT = 'PINBRIDGE\nDESLIGADO';
const RECONNECT_DELAY_MS = 2000;

/** The simulated customer of training mode: a Visa card shortly after each prompt, the debit one for a debit sale. */
const TRAINING_CUSTOMER = { delayMs: 1_500, card: 'visaCredit', matchApplication: true } as const;

export interface PinpadHooks {
  /** The PINPAD answered: put it to work (attach it to the engine). */
  readonly connected: (connection: PinpadConnection) => Promise<void>;
  /** The PINPAD went away (or the agent is stopping). */
  readonly lost: (info: PinpadInfo) => void;
  /** Once, the first time the PINPAD is ready. */
  readonly ready: (info: PinpadInfo) => void;
}

/** Waits `ms`, or less when the agent stops; its abort listener goes with it (one per reconnect would pile up). */
async function delay(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}

/** Resolves when `signal` aborts; `off` removes the listener once something else won the race. */
function whenAborted(signal: AbortSignal): { readonly promise: Promise<void>; off(): void } {
  let listener: (() => void) | undefined;
  const promise = new Promise<void>((resolve) => {
    // Already stopped while the PINPAD was opening: a listener added now would never fire.
    if (signal.aborted) return resolve();
    listener = () => resolve();
    signal.addEventListener('abort', listener, { once: true });
  });
  return { promise, off: () => listener && signal.removeEventListener('abort', listener) };
}

export interface KeeperOptions {
  /** The wait before trying again after the PINPAD failed or went away. Default 2 s. */
  readonly reconnectDelayMs?: number;
}

/** Keeps one PINPAD connected until `signal` aborts; resolves after closing it. */
export async function keepPinpad(
  address: string,
  training: boolean,
  logger: Logger,
  signal: AbortSignal,
  hooks: PinpadHooks,
  options: KeeperOptions = {},
): Promise<void> {
  const reconnectDelayMs = options.reconnectDelayMs ?? RECONNECT_DELAY_MS;
  let announced = false;
  while (!signal.aborted) {
    let connection: PinpadConnection;
    try {
      connection = await connectPinpad(address, { logger, simulator: { autoCustomer: TRAINING_CUSTOMER } });
    } catch (error) {
      logger.warn({ port: address, code: codeOf(error), err: messageOf(error) }, 'PINPAD not available; retrying');
      await delay(reconnectDelayMs, signal);
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
      await delay(reconnectDelayMs, signal);
      continue;
    }
    const stopped = whenAborted(signal);
    await Promise.race([lost, stopped.promise]);
    stopped.off();
    hooks.lost(info);
    if (signal.aborted) {
      await connection.close(CLOSED_TEXT).catch(() => {});
      return;
    }
    logger.warn({ port: address }, 'PINPAD disconnected; waiting for it to come back');
    await connection.close(null).catch(() => {});
    await delay(reconnectDelayMs, signal);
  }
}

function codeOf(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error ? String(error.code) : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
