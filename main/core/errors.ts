/**
 * Errors of the payment engine's operations: a machine-readable code, an English sentence (logs,
 * the POS developer) and a pt-BR sentence for the cashier. What ends a *payment* (a decline, a
 * PINPAD timeout) is not an error of the operation: it is the payment's outcome (PaymentProblem).
 */
import { CodedError } from '../../lib/errors.js';
export type EngineErrorCode =
  /** The parameters of `start` break a rule; `violations` says which. */
  | 'INVALID_PARAMS'
  /** The reference was used before with other parameters. */
  | 'REFERENCE_CONFLICT'
  /** The PINPAD is running another operation. */
  | 'BUSY'
  /** No PINPAD with that serial is attached (or none at all). */
  | 'PINPAD_NOT_FOUND'
  /** Several PINPADs are attached and the request did not say which. */
  | 'PINPAD_REQUIRED'
  /** No payment with that reference. */
  | 'NOT_FOUND'
  /** The operation does not apply to the payment's state (confirming a declined sale…). */
  | 'INVALID_STATE'
  /** The engine is shutting down. */
  | 'CLOSED'
  /** The journal's disk is (nearly) full: no sale starts until there is room; nothing was done. */
  | 'DISK_FULL';

const CASHIER_MESSAGES: Readonly<Record<EngineErrorCode, string>> = {
  INVALID_PARAMS: 'Dados do pagamento inválidos.',
  REFERENCE_CONFLICT: 'Esta venda já foi registrada com outros dados.',
  BUSY: 'O PINPAD está ocupado com outra operação.',
  PINPAD_NOT_FOUND: 'PINPAD não encontrado. Verifique a conexão.',
  PINPAD_REQUIRED: 'Escolha o PINPAD para esta venda.',
  NOT_FOUND: 'Venda não encontrada.',
  INVALID_STATE: 'Esta operação não é possível nesta venda.',
  CLOSED: 'O Pinbridge está sendo encerrado.',
  DISK_FULL: 'Disco do computador cheio: libere espaço antes de vender. Nada foi cobrado.',
};

export interface EngineViolation {
  readonly field: string;
  readonly message: string;
}

export class EngineError extends CodedError<EngineErrorCode> {
  readonly cashierMessage: string;
  readonly violations: readonly EngineViolation[];
  /** BUSY with a payment: that payment's reference_id (what the POS knows it by). */
  readonly busyWith: string | undefined;

  constructor(
    code: EngineErrorCode,
    message: string,
    options: { violations?: readonly EngineViolation[]; busyWith?: string; cause?: unknown } = {},
  ) {
    super(code, message, options);
    this.cashierMessage = CASHIER_MESSAGES[code];
    this.violations = options.violations ?? [];
    this.busyWith = options.busyWith;
  }
}
