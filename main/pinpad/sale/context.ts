/**
 * What every step of one PINPAD sale shares: the PINPAD, the step limits, the logger and the
 * cashier's message relay — and how a step talks to the PINPAD: each failure becomes one
 * SaleStepError of its step (logged by code and step only: never card data), and each command
 * waits under the host's limit while the PINPAD's NTM notifications reach the cashier.
 *
 * The steps (prepare, display, keypad, read-card, seal, finish-chip) each take this context; it
 * holds no state of a sale, only the means every step uses. It also serves the legacy steps
 * (legacy-sale.ts LegacySaleContext: pinpad, timeouts, wait).
 */
import type { Pinpad, WaitOptions } from '../../../drivers/abecs/pinpad.js';
import type { DriverLogger } from '../../../drivers/log.js';
import type { SaleTimeouts } from '../../core/ports.js';
import { saleStepErrorOf, type SaleStep, type SaleStepError } from '../sale-errors.js';

/** Added to the host's limit where the PINPAD enforces the step's limit itself (SPE_TIMEOUT). */
export const HOST_GRACE_MS = 5_000;

/** ISO 4217 numeric code of the real (BRL). */
export const CURRENCY_BRL = 986;
/** SPE_TRNTYPE / tag 9C: goods and services. */
export const TRANSACTION_PURCHASE = 0;

/** Whole seconds for SPE_TIMEOUT (X1: 1–255). */
export function pinpadSeconds(ms: number): number {
  return Math.min(255, Math.max(1, Math.ceil(ms / 1000)));
}

export class SaleContext {
  readonly pinpad: Pinpad;
  readonly timeouts: SaleTimeouts;
  readonly logger: DriverLogger;
  readonly #onMessage: ((text: string) => void) | undefined;

  constructor(
    pinpad: Pinpad,
    options: { timeouts: SaleTimeouts; onMessage: ((text: string) => void) | undefined; logger: DriverLogger },
  ) {
    this.pinpad = pinpad;
    this.timeouts = options.timeouts;
    this.#onMessage = options.onMessage;
    this.logger = options.logger;
  }

  /** Whether the PINPAD knows only the legacy (BibComp 1.08) commands, from the identification read at attach. */
  async isLegacy(): Promise<boolean> {
    return (await this.pinpad.info()).protocol === 'legacy';
  }

  /** Runs one step, turning whatever it throws into a SaleStepError of that step. */
  async step<T>(step: SaleStep, run: () => T | Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw this.failure(error, step);
    }
  }

  /** The SaleStepError for `error`, logged (code and step only: never card data). */
  failure(error: unknown, step: SaleStep): SaleStepError {
    const failure = saleStepErrorOf(error, step);
    this.logger.info({ step, code: failure.code }, 'PINPAD sale step failed');
    return failure;
  }

  /** The wait options of one command: the sale's signal, the host's limit, NTM relayed to the cashier. */
  wait(signal: AbortSignal | undefined, timeoutMs: number): WaitOptions {
    return {
      ...(signal ? { signal } : {}),
      timeoutMs,
      onNotification: (notification) => this.message(notification.lines.filter((line) => line.length > 0).join(' ')),
    };
  }

  /** One line for the cashier (onMessage); empty text is not news. */
  message(text: string): void {
    if (!this.#onMessage || text.length === 0) return;
    try {
      this.#onMessage(text);
    } catch (error) {
      // A listener's bug must not break the PINPAD exchange in flight.
      this.logger.warn({ error: error instanceof Error ? error.name : typeof error }, 'onMessage listener threw');
    }
  }
}
