/**
 * The POS API's errors: one table of stable string codes, each with its JSON-RPC number, an
 * English sentence for the POS developer and a pt-BR sentence the POS may show the cashier.
 * The string code (`error.data.code`) is what a POS branches on; the number only groups them
 * (JSON-RPC's own range for protocol errors, -32000… for Pinbridge's).
 *
 * Close codes are the WebSocket close frames the agent sends when it refuses or ends a
 * connection: a page cannot read an HTTP refusal of the upgrade, but it can read a close code
 * and its reason, so "blocked" is told apart from "agent down" (QZ Tray's most asked gap).
 */
import { CodedError } from '../../../lib/errors.js';
import { Literals } from './literals.js';
import { Type, type Static } from 'typebox';

interface ErrorEntry {
  readonly rpc: number;
  readonly message: string;
  readonly cashier: string;
}

export const POS_ERRORS = {
  // JSON-RPC 2.0's own.
  PARSE_ERROR: {
    rpc: -32700,
    message: 'The message is not valid JSON.',
    cashier: 'Mensagem inválida do sistema de vendas.',
  },
  INVALID_REQUEST: {
    rpc: -32600,
    message: 'The message is not a JSON-RPC 2.0 request.',
    cashier: 'Mensagem inválida do sistema de vendas.',
  },
  METHOD_NOT_FOUND: { rpc: -32601, message: 'There is no such method.', cashier: 'Operação desconhecida.' },
  INVALID_PARAMS: {
    rpc: -32602,
    message: 'The parameters break a rule; see data.violations.',
    cashier: 'Dados inválidos.',
  },
  INTERNAL_ERROR: {
    rpc: -32603,
    message: 'Pinbridge failed to run the request.',
    cashier: 'Erro interno do Pinbridge.',
  },
  // Session and pairing.
  UNAUTHENTICATED: {
    rpc: -32001,
    message: 'Send session.hello with the client token (or pair first) before this method.',
    cashier: 'Sistema de vendas não autorizado no Pinbridge.',
  },
  TOKEN_INVALID: {
    rpc: -32002,
    message: 'The client token is unknown, revoked or bound to another origin.',
    cashier: 'Autorização do sistema de vendas inválida; pareie de novo.',
  },
  PAIRING_INVALID: {
    rpc: -32003,
    message: 'The pairing request is unknown, expired, used or failed; see data.reason.',
    cashier: 'Pareamento inválido ou expirado.',
  },
  WRONG_CODE: {
    rpc: -32004,
    message: 'The pairing code is wrong; see data.attempts_left.',
    cashier: 'Código de pareamento incorreto.',
  },
  ORIGIN_BLOCKED: {
    rpc: -32005,
    message: 'This origin was blocked in Pinbridge.',
    cashier: 'Este sistema foi bloqueado no Pinbridge.',
  },
  CARD_DATA_REFUSED: {
    rpc: -32008,
    message:
      'A parameter holds what looks like card data (data.reason CARD_NUMBER or TRACK; the field in data.violations). The card is read by the PINPAD only: nothing was done, stored or logged.',
    cashier: 'O sistema de vendas enviou o que parece um número de cartão; por segurança, nada foi feito.',
  },
  PAIRING_LOCKED: {
    rpc: -32009,
    message:
      "Too many wrong pairing codes in 24 hours: pairing is locked until data.retry_after_ms passes or the cashier unlocks it in Pinbridge's window.",
    cashier:
      'Pareamento bloqueado por excesso de códigos errados. Desbloqueie na janela do Pinbridge, página Caixas (PDV).',
  },
  OPERATOR_ONLY: {
    rpc: -32007,
    message: "Only Pinbridge's own window (session.operator with the agent's key) may call this method.",
    cashier: 'Somente a janela do Pinbridge pode fazer isso.',
  },
  RATE_LIMITED: {
    rpc: -32006,
    message: 'Too many requests; retry after data.retry_after_ms.',
    cashier: 'Muitas solicitações; aguarde.',
  },
  // The payment engine.
  BUSY: {
    rpc: -32010,
    message:
      'The PINPAD is running another payment (its reference_id in data.reference_id) or another operation (a message, a key, a customer prompt).',
    cashier: 'O PINPAD está ocupado com outra operação.',
  },
  PINPAD_NOT_FOUND: {
    rpc: -32011,
    message: 'No PINPAD with that serial is connected (or none at all).',
    cashier: 'PINPAD não encontrado. Verifique a conexão.',
  },
  PINPAD_REQUIRED: {
    rpc: -32012,
    message: 'Several PINPADs are connected: say which with "terminal".',
    cashier: 'Escolha o PINPAD.',
  },
  NOT_FOUND: { rpc: -32013, message: 'No such payment, receipt or record.', cashier: 'Não encontrado.' },
  INVALID_STATE: {
    rpc: -32014,
    message: "The operation does not apply in the payment's state.",
    cashier: 'Esta operação não é possível nesta venda.',
  },
  REFERENCE_CONFLICT: {
    rpc: -32015,
    message: 'The reference_id was used before with other parameters.',
    cashier: 'Esta venda já foi registrada com outros dados.',
  },
  CLOSED: { rpc: -32016, message: 'Pinbridge is shutting down.', cashier: 'O Pinbridge está sendo encerrado.' },
  DISK_FULL: {
    rpc: -32017,
    message:
      "The computer's disk is (nearly) full: Pinbridge cannot journal a sale, so none starts until there is room. Nothing was done.",
    cashier: 'Disco do computador cheio: libere espaço antes de vender. Nada foi cobrado.',
  },
  // The supervisor's authorization of voids (settings supervisor).
  SUPERVISOR_REQUIRED: {
    rpc: -32018,
    message:
      'This void needs the supervisor (settings supervisor): send supervisor_pin or supervisor_entry "pinpad" (the window), or set the PIN first; see data.reason (PIN_MISSING, PIN_NOT_SET, PINPAD_ONLY, WINDOW_ONLY).',
    cashier: 'Esta operação precisa da senha do supervisor.',
  },
  SUPERVISOR_PIN_WRONG: {
    rpc: -32019,
    message: 'The supervisor PIN is wrong; nothing was done. data.attempts_left says how many more before it locks.',
    cashier: 'Senha do supervisor incorreta.',
  },
  SUPERVISOR_LOCKED: {
    rpc: -32024,
    message:
      'Every supervisor PIN is refused; nothing was done. data.reason WRONG_PINS: too many wrong PINs in a row, until data.locked_until (data.retry_after_ms from now; the window and the POS systems are counted apart); TAMPERED: the PIN file was changed outside Pinbridge, until the PIN is set again in the window.',
    cashier: 'Senha do supervisor bloqueada por excesso de tentativas erradas. Aguarde alguns minutos.',
  },
  // The PINPAD outside a payment.
  PINPAD_TIMEOUT: {
    rpc: -32020,
    message: 'The customer did not answer on the PINPAD in time.',
    cashier: 'Tempo esgotado no PINPAD.',
  },
  PINPAD_CANCELLED: {
    rpc: -32021,
    message: 'The customer pressed CANCEL on the PINPAD (or the request was cancelled).',
    cashier: 'Operação cancelada no PINPAD.',
  },
  PINPAD_ERROR: {
    rpc: -32022,
    message: 'The PINPAD failed or was disconnected.',
    cashier: 'Falha de comunicação com o PINPAD.',
  },
  CUSTOMER_DATA_INVALID: {
    rpc: -32023,
    message:
      'The customer typed an invalid CPF/CNPJ (wrong check digits) on the PINPAD at every attempt (asked again after each); nothing was searched.',
    cashier: 'CPF/CNPJ inválido digitado no PINPAD.',
  },
  // Receipts.
  NO_RECEIPT: {
    rpc: -32030,
    message: 'That payment has no receipt (it never reached the card).',
    cashier: 'Esta venda não tem comprovante.',
  },
  PRINTING_OFF: {
    rpc: -32031,
    message: 'No receipt printer is configured (or the store data is missing).',
    cashier: 'Nenhuma impressora configurada.',
  },
  // The payments API behind Pinbridge (relays).
  API_REJECTED: {
    rpc: -32040,
    message: 'The payments API refused the request; see data.api.',
    cashier: 'O serviço de pagamentos recusou a operação.',
  },
  API_UNAVAILABLE: {
    rpc: -32041,
    message: 'The payments API could not be reached or did not answer in time.',
    cashier: 'Sem comunicação com o serviço de pagamentos.',
  },
  API_NOT_FOUND: {
    rpc: -32042,
    message: 'The payments API has no such record.',
    cashier: 'Registro não encontrado no serviço de pagamentos.',
  },
} as const satisfies Record<string, ErrorEntry>;

export type PosErrorCode = keyof typeof POS_ERRORS;
export const POS_ERROR_CODES = Object.keys(POS_ERRORS) as PosErrorCode[];

/** One broken rule of a request's parameters. */
export const Violation = Type.Object(
  {
    field: Type.String({
      description: 'Dotted path of the parameter ("amount", "installments"), "" for the whole params.',
    }),
    code: Type.Optional(
      Type.String({
        description:
          'The rule broken, where it has a stable code (operator.saveSettings: REQUIRED, INVALID_CNPJ, INVALID_PINPAD_ADDRESS, OUT_OF_RANGE…).',
      }),
    ),
    message: Type.String({ description: 'English.' }),
    cashier_message: Type.Optional(
      Type.String({ description: 'pt-BR, for the cashier, where the rule has one (operator.saveSettings).' }),
    ),
  },
  { additionalProperties: false, title: 'Violation' },
);
export type Violation = Static<typeof Violation>;

export const ErrorData = Type.Object(
  {
    code: Literals(POS_ERROR_CODES, { description: 'The stable code to branch on.' }),
    cashier_message: Type.String({ description: 'pt-BR, for the cashier.' }),
    violations: Type.Optional(Type.Array(Violation)),
    retry_after_ms: Type.Optional(Type.Integer({ minimum: 0 })),
    locked_until: Type.Optional(
      Type.String({
        description:
          'SUPERVISOR_LOCKED with reason WRONG_PINS: when the lock ends (ISO time), the same after a restart of Pinbridge; retry_after_ms says how long from now.',
      }),
    ),
    attempts_left: Type.Optional(Type.Integer({ minimum: 0 })),
    reason: Type.Optional(Type.String({ description: 'A finer cause, e.g. PAIRING_EXPIRED, TOKEN_REVOKED.' })),
    reference_id: Type.Optional(
      Type.String({
        description:
          'BUSY: the reference_id of the payment the PINPAD is running (absent when it runs another operation: a message, a key, a customer prompt).',
      }),
    ),
    api: Type.Optional(
      Type.Object(
        {
          status: Type.Union([Type.Integer(), Type.Null()]),
          code: Type.String({ description: "The payments API client's error code (VALIDATION_ERROR, TIMEOUT…)." }),
          message: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: 'ErrorData' },
);
export type ErrorData = Static<typeof ErrorData>;

/** An error a method handler throws: becomes the JSON-RPC error object. */
export class PosError extends CodedError<PosErrorCode> {
  readonly data: Omit<ErrorData, 'code' | 'cashier_message'>;
  readonly cashierMessage: string;

  constructor(
    code: PosErrorCode,
    message?: string,
    data: Omit<ErrorData, 'code' | 'cashier_message'> = {},
    cashierMessage?: string,
  ) {
    super(code, message ?? POS_ERRORS[code].message);
    this.data = data;
    this.cashierMessage = cashierMessage ?? POS_ERRORS[code].cashier;
  }
}

/**
 * WebSocket close codes (4000–4999 are the application's). The reason text is the code's name,
 * so a page reads `event.code` / `event.reason` on its `close` event.
 */
export const CLOSE_CODES = {
  /**
   * The page's Origin cannot be paired at all ("null" from a file or a sandboxed frame, not
   * http/https), or it holds what looks like card data (never logged).
   */
  ORIGIN_NOT_ALLOWED: 4001,
  /** The page's origin is on the blocked list. */
  ORIGIN_BLOCKED: 4003,
  /** The client's token was revoked while it was connected. */
  TOKEN_REVOKED: 4004,
  /** The cashier blocked the program behind this connection (sent right after the upgrade, and to its open connections). */
  PROGRAM_BLOCKED: 4005,
  /**
   * The connection had not logged in 30 s after it connected, whatever it sent meanwhile (with a
   * pairing request waiting for its code: when that request ends).
   */
  IDLE: 4008,
  /** Room for a newer connection: too many connections had not logged in, and this program held the most of them (the oldest goes). */
  TOO_MANY_CONNECTIONS: 4009,
  /** Pinbridge is stopping (1001 is "going away"). */
  AGENT_STOPPING: 1001,
  /** A message over the size limit (ws sends it by itself). */
  MESSAGE_TOO_BIG: 1009,
} as const;
export type CloseReason = keyof typeof CLOSE_CODES;

/**
 * HTTP refusals of the upgrade itself (the body is JSON `{error: {code, message}}`): only
 * non-browser clients and rebinding attackers see these.
 */
export const UPGRADE_REFUSALS = {
  /** The Host header is not this agent's loopback address (DNS rebinding), or it holds what looks like card data. */
  HOST_NOT_ALLOWED: 403,
  /** The path is not the API's. */
  NOT_FOUND: 404,
} as const;
