/**
 * What the engine needs from the layers below, as plain interfaces: the payments API (the
 * PaymentsClient fits), a PINPAD driven through one sale at a time (PinpadSale fits), a logger
 * (pino fits). Tests and other channels can supply their own.
 */
import type { CallOptions, PinpadParams, Transaction } from '../api/index.js';
import type { TerminalGateway } from '../api/terminal/gateway.js';
import type { CardRead } from './pinpad/sale-session.js';

export interface PaymentsPort {
  readonly transactions: {
    create(params: PinpadParams, options?: CallOptions & { idempotencyKey?: string }): Promise<Transaction>;
    retrieve(transactionId: string, options?: CallOptions): Promise<Transaction>;
    findByReference(referenceId: string, options?: CallOptions): Promise<Transaction | undefined>;
  };
  readonly terminal: TerminalGateway;
}

/** The chip's final word (second GENERATE AC), with its EMV data for the completion report. */
export interface ChipFinish {
  readonly decision: 'accepted' | 'refused';
  /** BER-TLV hex (TC or AAC and friends), card-data tags removed; null when the PINPAD gave none. */
  readonly emvData: string | null;
}

/** One PINPAD, as the engine drives it through a sale (see pinpad/sale-session.ts). */
export interface SaleDevice {
  showAmount(amount: number, notification: string | null): Promise<void>;
  chooseInstallments(amount: number, options: { max: number; minInstallmentAmount: number }, signal?: AbortSignal): Promise<number>;
  readTaxId(signal?: AbortSignal): Promise<string>;
  readCard(request: { amount: number; paymentType: 'credit' | 'debit'; signal?: AbortSignal }): Promise<CardRead>;
  finishChip(
    answer: { approved: boolean; responseCode: string; issuerEmvData: string | null },
    signal?: AbortSignal,
  ): Promise<ChipFinish>;
  removeCard(message: string, signal?: AbortSignal): Promise<void>;
  showResult(text: string): Promise<void>;
}

export interface EngineLogger {
  debug(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

export const silentEngineLogger: EngineLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
