/**
 * Every method of the POS API, once: its parameters and result as TypeBox schemas, who may call
 * it, and its documentation. The server validates with these schemas, the client's types are
 * their `Static`, and `asyncapi.ts` publishes them — one source, three uses.
 *
 * `access`: "public" methods work before `session.hello` (to find the agent, pair and log in);
 * "client" methods need an authenticated session (a paired POS, or the window); "operator"
 * methods are the cashier's window's alone (`session.operator` with the agent's key): pairing
 * codes, paired clients. `cost` is what a call takes from the
 * client's rate budget (see server/rate-limit.ts): cheap reads 1, anything that moves the PINPAD
 * or money more.
 */
import { Literals } from './literals.js';
import { Type, type Static, type TSchema } from 'typebox';
import {
  BillingInstructions,
  BoletoCancellation,
  BoletoPayer,
  BolepixPaymentMethod,
} from '../../contract/transactions.js';
import { BuyerUpdateRequest } from '../../contract/buyers.js';
import { Address } from '../../contract/common.js';
import { CNPJ_PATTERN } from '../../validation/taxpayer-id.js';
import {
  DESCRIPTION_MAX,
  INSTALLMENTS_MAX,
  INSTALLMENTS_MIN,
  NOTIFICATION_MAX_TAP_TO_PAY,
  REFERENCE_ID_MAX,
} from '../../contract/index.js';
import { StartParams } from '../../core/params.js';
import { PAYMENT_STATES } from '../../core/states.js';
import { SETTINGS_VIOLATION_CODES } from '../../core/settings-violations.js';
import {
  ApiHealth,
  ClientRecordView,
  PairingGuardView,
  PairingRequestView,
  BankAccount,
  BankAccountListItem,
  Buyer,
  PaymentOutcome,
  PaymentState,
  PaymentStatus,
  PinpadLinkView,
  PinpadView,
  PrinterView,
  PrintJobView,
  RelayTransaction,
} from './models.js';

export type MethodAccess = 'public' | 'client' | 'operator';

export interface MethodSpec<P extends TSchema = TSchema, R extends TSchema = TSchema> {
  readonly summary: string;
  readonly description?: string;
  readonly params: P;
  readonly result: R;
  readonly access: MethodAccess;
  readonly cost: number;
  /** Groups the methods in the documents. */
  readonly tag: 'session' | 'agent' | 'pinpad' | 'payment' | 'receipt' | 'relay' | 'operator';
}

const method = <P extends TSchema, R extends TSchema>(spec: MethodSpec<P, R>): MethodSpec<P, R> => spec;

const NoParams = Type.Object({}, { additionalProperties: false });
const Empty = Type.Object({}, { additionalProperties: false });
const Terminal = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'Serial number of the PINPAD; needed only when several are connected.',
  }),
);
const Reference = Type.Object(
  {
    reference_id: Type.String({ minLength: 1, maxLength: REFERENCE_ID_MAX, description: "The POS's id of the sale." }),
  },
  { additionalProperties: false },
);
/** payment.undo and payment.cancel: the reference, and the supervisor's PIN when the store asks for it (settings supervisor). */
const VoidParams = Type.Object(
  {
    reference_id: Reference.properties.reference_id,
    supervisor_pin: Type.Optional(
      Type.String({
        pattern: '^[0-9]{4,8}$',
        description:
          "The supervisor's PIN (4–8 digits) typed in Pinbridge's window, when the store requires the supervisor for voids (settings supervisor; operator.supervisor says when). Never logged nor journaled.",
      }),
    ),
    supervisor_entry: Type.Optional(
      Type.Union([Type.Literal('window'), Type.Literal('pinpad')], {
        description:
          '"pinpad": the supervisor types the PIN on the PINPAD keypad instead (the request answers once it is typed, or with PINPAD_CANCELLED / PINPAD_TIMEOUT).',
      }),
    ),
  },
  { additionalProperties: false },
);
const SupervisorView = Type.Object(
  {
    required_for: Type.Union([Type.Literal('none'), Type.Literal('voids')]),
    min_amount_centavos: Type.Integer({ minimum: 0 }),
    entry: Type.Union([Type.Literal('window'), Type.Literal('pinpad'), Type.Literal('either')]),
    pos_voids: Type.Union([Type.Literal('trusted'), Type.Literal('pinpad')]),
    pin_set: Type.Boolean({
      description: 'A supervisor PIN is stored (its salted hash); the PIN itself is never sent back.',
    }),
    training_pin: Type.Boolean({
      description: 'Training mode: the training PIN (1234, which the simulated PINPAD types) is taken too.',
    }),
    locked_until: Type.Union([Type.String(), Type.Null()], {
      description: 'Too many wrong PINs: every PIN is refused until this ISO time; null when not locked.',
    }),
  },
  { additionalProperties: false, title: 'SupervisorView' },
);
const ApiId = (name: string) =>
  Type.String({ pattern: '^[0-9a-fA-F]{32}$', description: `The ${name}: 32 hexadecimal characters.` });
/** A settings mistake: its field, a stable code (REQUIRED, INVALID_CNPJ, INVALID_PINPAD_ADDRESS…), English and pt-BR. */
const Violation = Type.Object(
  {
    field: Type.String(),
    code: Literals(SETTINGS_VIOLATION_CODES),
    message: Type.String({ description: 'English.' }),
    cashier_message: Type.String({ description: 'pt-BR, as the window shows it next to the field.' }),
  },
  { additionalProperties: false, title: 'SettingsViolation' },
);
/** How a secret the window cannot read back is kept, and whether one is. */
const StoredSecret = Type.Object(
  {
    kind: Type.Union([Type.Literal('safeStorage'), Type.Literal('file'), Type.Literal('environment')]),
    stored: Type.Boolean(),
  },
  { additionalProperties: false },
);
const Seconds = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 255, description: 'How long the customer has, in seconds (default 60).' }),
);

/**
 * What the customer may type on the PINPAD for the POS. Card data (the last digits, the security
 * code) is deliberately absent: it must never leave Pinbridge.
 */
export const CUSTOMER_DATA_FOR_POS = ['cpf', 'cnpj', 'phone', 'areaCodeAndPhone', 'rg', 'birthDateDdmmyyyy'] as const;
export type CustomerDataForPos = (typeof CUSTOMER_DATA_FOR_POS)[number];

export const PINPAD_KEYS = ['enter', 'cancel', 'clear', 'f1', 'f2', 'f3', 'f4', 'up', 'down'] as const;

export const RECEIPT_FORMATS_FOR_POS = ['text', 'html', 'escpos'] as const;

const Copy = Type.Union([Type.Literal('customer'), Type.Literal('merchant')]);

const BoletoBody = {
  customer: ApiId('buyer (customer) id'),
  amount: Type.Integer({ minimum: 1, description: 'Centavos, an integer > 0.' }),
  description: Type.String({ minLength: 1, maxLength: DESCRIPTION_MAX }),
  reference_id: Type.String({
    minLength: 1,
    maxLength: REFERENCE_ID_MAX,
    description: 'The POS’s id: repeating it returns the same boleto.',
  }),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  print: Type.Optional(
    Type.Boolean({ description: 'Also print the slip (digitable line, barcode, Pix QR) on the receipt printer.' }),
  ),
};

export const METHODS = {
  // ------------------------------------------------------------------------------------------
  // Session
  'agent.info': method({
    tag: 'agent',
    access: 'public',
    cost: 1,
    summary: 'Who answers: Pinbridge, its version, the protocol, the mode; the lists of methods and events.',
    description: 'Works before pairing: a page uses it to tell "Pinbridge is running" from "not installed".',
    params: NoParams,
    result: Type.Object(
      {
        name: Type.Literal('Pinbridge'),
        version: Type.String(),
        protocol: Type.Integer({ description: 'The POS API version; additions keep it, breaking changes raise it.' }),
        mode: Type.Union([Type.Literal('training'), Type.Literal('live')]),
        authenticated: Type.Boolean({ description: 'Whether this session said hello with a valid token.' }),
        methods: Type.Array(Type.String()),
        events: Type.Array(Type.String()),
      },
      { additionalProperties: false },
    ),
  }),
  'session.pair': method({
    tag: 'session',
    access: 'public',
    cost: 20,
    summary:
      'Asks to pair this POS. Pinbridge shows a 6-digit code to the cashier; send it back with session.confirmPairing.',
    description:
      "The origin is the page's (from the WebSocket upgrade), never a parameter. Codes live 2 minutes and allow 5 attempts. " +
      'Blocked origins get ORIGIN_BLOCKED; too many open requests RATE_LIMITED.',
    params: Type.Object(
      {
        name: Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'How the cashier will see this POS ("Caixa 3 — Loja Centro").',
        }),
      },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        pairing_id: Type.String(),
        expires_at: Type.String(),
        code_length: Type.Integer(),
        message: Type.String({ description: 'pt-BR, to show the cashier: where to read the code.' }),
      },
      { additionalProperties: false },
    ),
  }),
  'session.confirmPairing': method({
    tag: 'session',
    access: 'public',
    cost: 20,
    summary: 'Sends back the code the cashier read; returns the long-lived client token and logs this session in.',
    description: 'Keep the token (it is shown only once). A replayed code is PAIRING_INVALID (reason PAIRING_USED).',
    params: Type.Object(
      { pairing_id: Type.String({ minLength: 1, maxLength: 64 }), code: Type.String({ pattern: '^[0-9]{6}$' }) },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        client_id: Type.String(),
        name: Type.String(),
        token: Type.String({ description: 'Send it in session.hello on every connection.' }),
      },
      { additionalProperties: false },
    ),
  }),
  'session.hello': method({
    tag: 'session',
    access: 'public',
    cost: 5,
    summary: 'Logs the session in with the client token; returns the results of payments that ended while it was away.',
    params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
    result: Type.Object(
      {
        client_id: Type.String(),
        name: Type.String(),
        missed_results: Type.Array(PaymentOutcome, {
          description: 'Final results of this client’s payments that ended while no session of it was connected.',
        }),
      },
      { additionalProperties: false },
    ),
  }),
  'session.operator': method({
    tag: 'operator',
    access: 'public',
    cost: 20,
    summary:
      "Logs in Pinbridge's own window with the agent's operator key: it then sees every payment, the pairing codes and the paired clients.",
    description:
      'Only from a page the agent serves (its own origin) or a program on this computer; the key is in the `ui` address the agent prints when ready ' +
      '(and in ~/.pinbridge/operator.key). A wrong key is OPERATOR_ONLY.',
    params: Type.Object({ key: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
    result: Type.Object(
      {
        name: Type.Literal('Pinbridge'),
        version: Type.String(),
        mode: Type.Union([Type.Literal('training'), Type.Literal('live')]),
        time_zone: Type.String({
          description:
            "The store's IANA time zone (settings receipts.time_zone, else the computer's Brazilian zone, else America/Sao_Paulo): the window shows times and today's sales on this clock, as the receipts print them.",
        }),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.pairings': method({
    tag: 'operator',
    access: 'operator',
    cost: 1,
    summary: 'The pairing requests waiting for their code, with the code to show the cashier.',
    params: NoParams,
    result: Type.Object({ pairings: Type.Array(PairingRequestView) }, { additionalProperties: false }),
  }),
  'operator.rejectPairing': method({
    tag: 'operator',
    access: 'operator',
    cost: 2,
    summary: 'The cashier refuses a pairing request: its code stops working.',
    params: Type.Object({ pairing_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    result: Empty,
  }),
  'operator.pairingGuard': method({
    tag: 'operator',
    access: 'operator',
    cost: 1,
    summary: 'The wrong pairing codes of the last 24 hours, where they came from, and whether pairing is locked.',
    params: NoParams,
    result: PairingGuardView,
  }),
  'operator.unlockPairing': method({
    tag: 'operator',
    access: 'operator',
    cost: 2,
    summary:
      'Unlocks pairing after too many wrong codes (block the origins that guessed first): the wrong codes so far stop counting.',
    params: NoParams,
    result: PairingGuardView,
  }),
  'operator.clients': method({
    tag: 'operator',
    access: 'operator',
    cost: 1,
    summary: 'Every paired POS client (revoked ones too) with its open sessions, and the blocked origins.',
    params: NoParams,
    result: Type.Object(
      {
        clients: Type.Array(ClientRecordView),
        blocked_origins: Type.Array(
          Type.Object({ origin: Type.String(), blocked_at: Type.String() }, { additionalProperties: false }),
        ),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.revokeClient': method({
    tag: 'operator',
    access: 'operator',
    cost: 2,
    summary: 'Revokes a POS client for good: its sessions are closed (4004) and its token stops working.',
    params: Type.Object({ client_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    result: ClientRecordView,
  }),
  'operator.blockOrigin': method({
    tag: 'operator',
    access: 'operator',
    cost: 2,
    summary: 'Refuses every connection and pairing request from a web origin (its open sessions are closed).',
    params: Type.Object({ origin: Type.String({ minLength: 1, maxLength: 512 }) }, { additionalProperties: false }),
    result: Type.Object({ origin: Type.String() }, { additionalProperties: false }),
  }),
  'operator.unblockOrigin': method({
    tag: 'operator',
    access: 'operator',
    cost: 2,
    summary: 'Allows a blocked web origin again.',
    params: Type.Object({ origin: Type.String({ minLength: 1, maxLength: 512 }) }, { additionalProperties: false }),
    result: Type.Object({ origin: Type.String() }, { additionalProperties: false }),
  }),
  'operator.settings': method({
    tag: 'operator',
    access: 'operator',
    cost: 1,
    summary:
      "The settings file as it is (docs/settings.md), the mistake the agent started despite, why the saved settings are not the ones in use (a restart that could not start with them), and how the API token and the client certificate's passphrase are kept.",
    params: NoParams,
    result: Type.Object(
      {
        path: Type.String(),
        settings: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
          description: "The file's JSON; null when there is none (defaults, training mode).",
        }),
        problem: Type.Union([
          Type.Object({ message: Type.String(), violations: Type.Array(Violation) }, { additionalProperties: false }),
          Type.Null(),
        ]),
        api_token: StoredSecret,
        certificate_passphrase: StoredSecret,
        supervisor_pin: Type.Object(
          { stored: Type.Boolean() },
          { additionalProperties: false, description: 'Whether a supervisor PIN is stored (never the PIN).' },
        ),
        not_applied: Type.Union([Type.String(), Type.Null()], {
          description:
            'Why the agent does not run with the saved settings: the last restart could not start with them, and the previous ones run. null when it does.',
        }),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.saveSettings': method({
    tag: 'operator',
    access: 'operator',
    cost: 5,
    summary:
      'Checks and writes the whole settings file; a mistake is INVALID_PARAMS with data.violations, each naming its field with a stable code (REQUIRED, INVALID_CNPJ, INVALID_PINPAD_ADDRESS…, docs/settings.md), the English and the pt-BR cashier_message (the file is then untouched). They apply when the agent restarts (operator.restart).',
    params: Type.Object({ settings: Type.Record(Type.String(), Type.Unknown()) }, { additionalProperties: false }),
    result: Type.Object(
      { saved: Type.Literal(true), restart_required: Type.Literal(true) },
      { additionalProperties: false },
    ),
  }),
  'operator.restart': method({
    tag: 'operator',
    access: 'operator',
    cost: 20,
    summary:
      'Restarts the agent so the saved settings and API token apply: it answers, then every connection closes and the agent starts again from the settings file ' +
      '(the desktop app relaunches itself; headless keeps its address). Refused with BUSY (data.reason PAYMENT_IN_PROGRESS) while a PINPAD runs a payment or a prompt, ' +
      'and with INVALID_STATE (data.reason NO_RESTART) where the agent was started by something that cannot restart it.',
    params: NoParams,
    result: Type.Object({ restarting: Type.Literal(true) }, { additionalProperties: false }),
  }),
  'operator.setApiToken': method({
    tag: 'operator',
    access: 'operator',
    cost: 5,
    summary: 'Keeps the payments API token (encrypted by the OS in the desktop app); it is never sent back.',
    params: Type.Object({ token: Type.String({ minLength: 8, maxLength: 500 }) }, { additionalProperties: false }),
    result: Type.Object({ stored: Type.Literal(true) }, { additionalProperties: false }),
  }),
  'operator.setCertificatePassphrase': method({
    tag: 'operator',
    access: 'operator',
    cost: 5,
    summary:
      'Keeps the passphrase of the PKCS#12 client certificate the settings name (api.client_certificate.pfx), encrypted by the OS in the desktop app; it is never sent back. It applies when the agent restarts.',
    params: Type.Object({ passphrase: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
    result: Type.Object({ stored: Type.Literal(true) }, { additionalProperties: false }),
  }),
  'operator.setSupervisorPin': method({
    tag: 'operator',
    access: 'operator',
    cost: 5,
    summary:
      "Keeps the supervisor's PIN (4–8 digits) as a salted scrypt hash; it is never sent back nor logged. It applies at once (no restart), and the wrong PINs counted so far stop counting.",
    params: Type.Object({ pin: Type.String({ pattern: '^[0-9]{4,8}$' }) }, { additionalProperties: false }),
    result: Type.Object({ stored: Type.Literal(true) }, { additionalProperties: false }),
  }),
  'operator.supervisor': method({
    tag: 'operator',
    access: 'operator',
    cost: 1,
    summary:
      'When a void needs the supervisor in the settings in use (not the saved file), whether a PIN is set, and whether wrong PINs locked it.',
    params: NoParams,
    result: SupervisorView,
  }),
  'operator.doctor': method({
    tag: 'operator',
    access: 'operator',
    cost: 20,
    summary:
      'Runs `pinbridge doctor` (settings, serial permissions, PINPADs, printers, payments API, ports): each check with its fix.',
    params: NoParams,
    result: Type.Object(
      {
        ok: Type.Boolean(),
        checks: Type.Array(
          Type.Object(
            {
              id: Type.String(),
              status: Type.Union([
                Type.Literal('ok'),
                Type.Literal('warn'),
                Type.Literal('fail'),
                Type.Literal('skip'),
              ]),
              summary: Type.String(),
              details: Type.Record(Type.String(), Type.Unknown()),
              fix: Type.Optional(Type.String()),
              pt: Type.Object(
                { summary: Type.String(), fix: Type.Optional(Type.String()) },
                {
                  additionalProperties: false,
                  description:
                    'The summary and the fix in Brazilian Portuguese (the window shows them in pt-BR); fix exactly when the English one is there.',
                },
              ),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.exportLogs': method({
    tag: 'operator',
    access: 'operator',
    cost: 10,
    summary:
      "The agent's recent log lines for support: they hold no card data, and anything card-like is masked again (first 6 / last 4).",
    params: Type.Object(
      { max_lines: Type.Optional(Type.Integer({ minimum: 1, maximum: 20_000, default: 2_000 })) },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        file: Type.Union([Type.String(), Type.Null()], {
          description: 'The log file; null when this agent logs to the terminal only.',
        }),
        text: Type.String(),
        lines: Type.Integer({ minimum: 0 }),
        masked: Type.Integer({ minimum: 0, description: 'Card-like values masked in this export (expected 0).' }),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.testPrint': method({
    tag: 'operator',
    access: 'operator',
    cost: 10,
    summary:
      'Prints the test slip on a receipt printer (accents, full-width rule, QR code), to check it from the settings.',
    params: Type.Object(
      {
        printer: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 32,
            description: 'The printer\'s name in the settings (default "default").',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    result: PrintJobView,
  }),
  'operator.scanBle': method({
    tag: 'operator',
    access: 'operator',
    cost: 20,
    summary:
      'Listens for Bluetooth LE PINPADs (the serial-over-BLE service) for a few seconds; each address is ready for the PINPAD setting.',
    params: Type.Object(
      { seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 30, default: 5 })) },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        devices: Type.Array(
          Type.Object(
            {
              address: Type.String({ description: 'ble:<id>' }),
              name: Type.Union([Type.String(), Type.Null()]),
              rssi: Type.Integer(),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.systemPrinters': method({
    tag: 'operator',
    access: 'operator',
    cost: 5,
    summary:
      "The operating system's printers, each with the lp://NAME address the printer setting takes (the desktop app prints them at the receipt's own size).",
    params: NoParams,
    result: Type.Object(
      {
        printers: Type.Array(
          Type.Object(
            { address: Type.String(), name: Type.String(), is_default: Type.Boolean() },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.detectPinpads': method({
    tag: 'operator',
    access: 'operator',
    cost: 5,
    summary: 'Serial ports that look like PINPADs, for the PINPAD setting (only an ABECS exchange proves one is).',
    params: NoParams,
    result: Type.Object(
      {
        ports: Type.Array(
          Type.Object(
            {
              address: Type.String(),
              maker: Type.Union([Type.String(), Type.Null()]),
              model: Type.Union([Type.String(), Type.Null()]),
              manufacturer: Type.Union([Type.String(), Type.Null()]),
              likely_pinpad: Type.Boolean(),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  }),
  'agent.status': method({
    tag: 'agent',
    access: 'client',
    cost: 1,
    summary:
      'Everything at a glance: PINPADs, the link to the PINPAD in use, printers, the payments API, connected POS clients.',
    params: NoParams,
    result: Type.Object(
      {
        pinpads: Type.Array(PinpadView),
        pinpad_link: Type.Union([PinpadLinkView, Type.Null()], {
          description:
            'The link to the PINPAD Pinbridge is set to use: why `pinpads` is empty or its PINPAD disconnected (null: Pinbridge keeps none).',
        }),
        printers: Type.Array(PrinterView),
        api: ApiHealth,
        clients_connected: Type.Integer(),
      },
      { additionalProperties: false },
    ),
  }),

  // ------------------------------------------------------------------------------------------
  // PINPAD
  'pinpad.list': method({
    tag: 'pinpad',
    access: 'client',
    cost: 1,
    summary: 'The PINPADs Pinbridge knows, connected or not.',
    params: NoParams,
    result: Type.Object({ pinpads: Type.Array(PinpadView) }, { additionalProperties: false }),
  }),
  'pinpad.status': method({
    tag: 'pinpad',
    access: 'client',
    cost: 1,
    summary: 'One PINPAD: connected, busy, which payment.',
    params: Type.Object({ terminal: Terminal }, { additionalProperties: false }),
    result: PinpadView,
  }),
  'pinpad.display': method({
    tag: 'pinpad',
    access: 'client',
    cost: 5,
    summary: 'Shows a message on the idle PINPAD (≤ 32 characters: two lines of 16, split at "\\n" or after 16).',
    params: Type.Object(
      {
        terminal: Terminal,
        text: Type.String({
          minLength: 1,
          maxLength: 33,
          description: '≤ 32 characters plus an optional "\\n" between the lines.',
        }),
      },
      { additionalProperties: false },
    ),
    result: Empty,
  }),
  'pinpad.readCustomerData': method({
    tag: 'pinpad',
    access: 'client',
    cost: 10,
    summary: 'Asks the customer to type a CPF, CNPJ, phone… on the PINPAD keypad; returns the digits.',
    description:
      'Never card data: the last digits and the security code are not offered. CANCEL on the PINPAD is PINPAD_CANCELLED.',
    params: Type.Object(
      {
        terminal: Terminal,
        kind: Literals(CUSTOMER_DATA_FOR_POS),
        timeout_s: Seconds,
      },
      { additionalProperties: false },
    ),
    result: Type.Object(
      { kind: Type.String(), value: Type.String({ description: 'Digits only.' }) },
      { additionalProperties: false },
    ),
  }),
  'pinpad.readKey': method({
    tag: 'pinpad',
    access: 'client',
    cost: 10,
    summary:
      'Waits for the customer to press a function key (ENTRA, ANULA, LIMPA, F1–F4, arrows), with an optional prompt.',
    params: Type.Object(
      {
        terminal: Terminal,
        prompt: Type.Optional(Type.String({ minLength: 1, maxLength: 33 })),
        timeout_s: Seconds,
      },
      { additionalProperties: false },
    ),
    result: Type.Object({ key: Literals(PINPAD_KEYS) }, { additionalProperties: false }),
  }),
  'pinpad.abort': method({
    tag: 'pinpad',
    access: 'client',
    cost: 2,
    summary: 'Stops a pinpad.readKey or pinpad.readCustomerData in progress (not a payment: use payment.cancel).',
    params: Type.Object({ terminal: Terminal }, { additionalProperties: false }),
    result: Type.Object({ aborted: Type.Boolean() }, { additionalProperties: false }),
  }),

  // ------------------------------------------------------------------------------------------
  // Payments
  'payment.start': method({
    tag: 'payment',
    access: 'client',
    cost: 20,
    summary: 'Runs a PINPAD payment to its result. Idempotent by reference_id: repeat it after any doubt.',
    description:
      'Answers when the payment ends (approved, declined, failed or cancelled); payment.progress events arrive meanwhile. ' +
      'The same reference_id with the same parameters returns the same payment (running or finished); with others, REFERENCE_CONFLICT.',
    params: StartParams,
    result: PaymentOutcome,
  }),
  'payment.cancel': method({
    tag: 'payment',
    access: 'client',
    cost: 5,
    summary:
      'Cancels: before the card is read the PINPAD is stopped; after an approval it becomes a void (which may need the supervisor: see payment.undo).',
    params: VoidParams,
    result: PaymentOutcome,
  }),
  'payment.status': method({
    tag: 'payment',
    access: 'client',
    cost: 1,
    summary:
      'Processed (with the result and both receipts) / InProgress / NotFound: how a POS recovers after losing the connection.',
    params: Reference,
    result: PaymentStatus,
  }),
  'payment.confirm': method({
    tag: 'payment',
    access: 'client',
    cost: 5,
    summary: 'Confirms an approval (confirmation policy "pos"); harmless when already confirmed.',
    params: Reference,
    result: PaymentOutcome,
  }),
  'payment.undo': method({
    tag: 'payment',
    access: 'client',
    cost: 10,
    summary: 'Voids an approval, confirmed or not; harmless when already undone.',
    description:
      'A confirmed sale is voided (problem VOIDED_BY_POS, "cancelada"); an approval still waiting for confirmation is undone (UNDONE_BY_POS, "desfeita"). ' +
      'When the store requires the supervisor (settings supervisor), a request from the window carries supervisor_pin or supervisor_entry "pinpad", ' +
      'and a POS\'s request needs the PIN on the PINPAD only where supervisor.pos_voids is "pinpad" (the agent then asks for it there by itself). ' +
      'Refused with SUPERVISOR_REQUIRED, SUPERVISOR_PIN_WRONG (data.attempts_left) or SUPERVISOR_LOCKED (data.retry_after_ms); nothing is voided then.',
    params: VoidParams,
    result: PaymentOutcome,
  }),
  'payment.list': method({
    tag: 'payment',
    access: 'client',
    cost: 2,
    summary:
      'Payments from the journal, newest first; finds a past sale by date range, amount, NSU, authorization code or the last 4 digits of the card.',
    params: Type.Object(
      {
        from: Type.Optional(
          Type.String({ minLength: 10, maxLength: 40, description: 'Created at or after (ISO time).' }),
        ),
        to: Type.Optional(Type.String({ minLength: 10, maxLength: 40, description: 'Created before (ISO time).' })),
        states: Type.Optional(Type.Array(Literals(PAYMENT_STATES), { maxItems: PAYMENT_STATES.length })),
        terminal: Terminal,
        amount: Type.Optional(
          Type.Integer({ minimum: 1, description: 'Only payments of exactly this amount: centavos, an integer > 0.' }),
        ),
        nsu: Type.Optional(
          Type.String({
            pattern: '^[0-9A-Za-z]{1,20}$',
            description:
              'Only the payment with this NSU, exactly as printed (leading zeros count): 1–20 letters or digits.',
          }),
        ),
        authorization_code: Type.Optional(
          Type.String({
            pattern: '^[0-9A-Za-z]{1,12}$',
            description: 'Only the payment with this authorization code (letters in any case): 1–12 letters or digits.',
          }),
        ),
        card_last4: Type.Optional(
          Type.String({ pattern: '^[0-9]{4}$', description: 'Only payments by a card ending in these 4 digits.' }),
        ),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
        offset: Type.Optional(Type.Integer({ minimum: 0 })),
      },
      { additionalProperties: false },
    ),
    result: Type.Object({ items: Type.Array(PaymentOutcome), total: Type.Integer() }, { additionalProperties: false }),
  }),
  'payment.pending': method({
    tag: 'payment',
    access: 'client',
    cost: 2,
    summary: 'Approvals waiting for confirmation, and voids waiting for the payments API.',
    params: NoParams,
    result: Type.Object(
      { confirmations: Type.Array(PaymentOutcome), undos: Type.Array(PaymentOutcome) },
      { additionalProperties: false },
    ),
  }),

  // ------------------------------------------------------------------------------------------
  // Receipts
  'receipt.get': method({
    tag: 'receipt',
    access: 'client',
    cost: 2,
    summary:
      "One copy of a payment's receipt: plain text, HTML (a preview), or ESC/POS bytes (base64) for a POS that prints itself.",
    params: Type.Object(
      {
        reference_id: Reference.properties.reference_id,
        copy: Copy,
        format: Type.Optional(Literals(RECEIPT_FORMATS_FOR_POS, { default: 'text' })),
        columns: Type.Optional(
          Type.Union([Type.Literal(32), Type.Literal(42), Type.Literal(48)], {
            description: 'Paper width in characters: 32 (58 mm), 42 or 48 (80 mm, the default).',
          }),
        ),
        reprint: Type.Optional(
          Type.Boolean({ description: 'Mark it as a reprint (default: marked when that copy was printed before).' }),
        ),
      },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        reference_id: Type.String(),
        copy: Copy,
        kind: Type.Union([Type.Literal('sale'), Type.Literal('cancellation')]),
        format: Type.String(),
        encoding: Type.Union([Type.Literal('utf8'), Type.Literal('base64')]),
        content: Type.String(),
      },
      { additionalProperties: false },
    ),
  }),
  'receipt.print': method({
    tag: 'receipt',
    access: 'client',
    cost: 10,
    summary:
      'Prints copies on the receipt printer (in the background, journaled); a copy printed before comes out as a reprint.',
    params: Type.Object(
      {
        reference_id: Reference.properties.reference_id,
        copies: Type.Optional(Type.Array(Copy, { minItems: 1, maxItems: 2, uniqueItems: true })),
        printer: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      },
      { additionalProperties: false },
    ),
    result: Type.Object({ jobs: Type.Array(PrintJobView) }, { additionalProperties: false }),
  }),

  // ------------------------------------------------------------------------------------------
  // Relays of the payments API, with Pinbridge's credentials and seller
  'buyer.get': method({
    tag: 'relay',
    access: 'client',
    cost: 2,
    summary: 'A buyer by id.',
    params: Type.Object({ buyer_id: ApiId('buyer id') }, { additionalProperties: false }),
    result: Buyer,
  }),
  'buyer.update': method({
    tag: 'relay',
    access: 'client',
    cost: 5,
    summary: "Changes a buyer's name, e-mail, phone, birth date, address or metadata (never the CPF/CNPJ).",
    params: Type.Object(
      {
        buyer_id: ApiId('buyer id'),
        // Closed here: the POS may not send fields the API would refuse (the CPF/CNPJ cannot change).
        changes: Type.Object(BuyerUpdateRequest.properties, { additionalProperties: false }),
      },
      { additionalProperties: false },
    ),
    result: Buyer,
  }),
  'buyer.search': method({
    tag: 'relay',
    access: 'client',
    cost: 5,
    summary:
      'Finds a buyer by CPF or CNPJ (numeric or alphanumeric) — given, or typed by the customer on the PINPAD (`from_pinpad`: digits only).',
    description:
      'Exactly one of taxpayer_id, ein or from_pinpad. No such buyer is API_NOT_FOUND. With from_pinpad, a CPF/CNPJ typed with wrong ' +
      'check digits (a typo) is not the POS\'s mistake: the PINPAD shows "CPF INVALIDO / DIGITE NOVAMENTE" (or CNPJ) and asks again ' +
      '("REDIGITE O CPF"), 3 attempts in all; then CUSTOMER_DATA_INVALID. CANCEL on the PINPAD is PINPAD_CANCELLED.',
    params: Type.Object(
      {
        taxpayer_id: Type.Optional(Type.String({ pattern: '^[0-9]{11}$', description: 'CPF, 11 digits.' })),
        ein: Type.Optional(
          Type.String({
            pattern: CNPJ_PATTERN,
            description:
              'CNPJ, 14 characters without punctuation: 14 digits, or the alphanumeric CNPJ in uppercase (12ABC34501DE35).',
          }),
        ),
        from_pinpad: Type.Optional(
          Type.Union([Type.Literal('cpf'), Type.Literal('cnpj')], {
            description:
              'The customer types it on the PINPAD. Its keypad has digits only: a company with an alphanumeric CNPJ is searched with `ein`.',
          }),
        ),
        terminal: Terminal,
        timeout_s: Seconds,
      },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        buyer: Buyer,
        searched: Type.Object({ taxpayer_id: Type.Optional(Type.String()), ein: Type.Optional(Type.String()) }),
      },
      { additionalProperties: false },
    ),
  }),
  'bankAccount.get': method({
    tag: 'relay',
    access: 'client',
    cost: 2,
    summary: 'One of the seller’s bank accounts.',
    params: Type.Object({ bank_account_id: ApiId('bank account id') }, { additionalProperties: false }),
    result: BankAccount,
  }),
  'bankAccount.list': method({
    tag: 'relay',
    access: 'client',
    cost: 2,
    summary: "One page of the seller's bank accounts (list view), in the payments API's list envelope.",
    description:
      'Page with limit (accounts per page, 1–100; the API answers 100 when not given) and offset (how many to skip); ' +
      'has_more says whether another page follows, total how many accounts the seller has.',
    params: Type.Object(
      {
        limit: Type.Optional(
          Type.Integer({ minimum: 1, maximum: 100, description: 'Accounts per page (1–100; 100 when not given).' }),
        ),
        offset: Type.Optional(
          Type.Integer({ minimum: 0, description: 'How many accounts to skip (0 when not given).' }),
        ),
      },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        resource: Type.Literal('list'),
        uri: Type.String({ description: "The payments API's path of the request." }),
        items: Type.Array(BankAccountListItem),
        has_more: Type.Boolean({ description: 'Whether more accounts follow this page.' }),
        limit: Type.Integer({ description: 'Accounts per page.' }),
        offset: Type.Integer({ description: 'The offset of this page.' }),
        total: Type.Integer({ description: 'How many accounts the seller has.' }),
      },
      { additionalProperties: false, title: 'BankAccountList' },
    ),
  }),
  'boleto.create': method({
    tag: 'relay',
    access: 'client',
    cost: 10,
    summary: 'Issues a boleto for the seller (idempotent by reference_id); `print` prints its slip.',
    params: Type.Object(
      {
        ...BoletoBody,
        expiration_date: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' })),
        payment_limit_date: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' })),
        body_instructions: Type.Optional(Type.Array(Type.String({ maxLength: 80 }), { maxItems: 4 })),
        billing_instructions: Type.Optional(
          Type.Object(BillingInstructions.properties, {
            additionalProperties: false,
            description:
              'Late fee (late_fee: FIXED amount in centavos or PERCENTAGE, from start_date), interest (interest: DAILY_AMOUNT in centavos, ' +
              'DAILY_PERCENTAGE or MONTHLY_PERCENTAGE, from start_date) and up to 3 discounts (discount: FIXED or PERCENTAGE, until limit_date). ' +
              'Sent as payment_method.billing_instructions.',
          }),
        ),
        buyer: Type.Optional(
          Type.Object(
            {
              ...BoletoPayer.properties,
              // The buyer record's address is nullable under the same title; the documents need one name per shape.
              address: Type.Optional(
                Type.Object(Address.properties, {
                  additionalProperties: false,
                  title: 'PayerAddress',
                  description: 'The payer’s address.',
                }),
              ),
            },
            {
              additionalProperties: false,
              description:
                'The payer given inline (name, CPF or CNPJ, e-mail, phone, birth date, address): overrides `customer` on the slip. Sent as payment_method.buyer.',
            },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    result: Type.Object(
      { transaction: RelayTransaction, print_jobs: Type.Array(PrintJobView) },
      { additionalProperties: false },
    ),
  }),
  'bolepix.create': method({
    tag: 'relay',
    access: 'client',
    cost: 10,
    summary:
      'Issues a bolepix (a boleto that can also be paid by Pix) for the seller; `print` prints its slip with the QR code.',
    params: Type.Object(
      { ...BoletoBody, payment_method: Type.Optional(BolepixPaymentMethod) },
      { additionalProperties: false },
    ),
    result: Type.Object(
      { transaction: RelayTransaction, print_jobs: Type.Array(PrintJobView) },
      { additionalProperties: false },
    ),
  }),
  'boleto.cancel': method({
    tag: 'relay',
    access: 'client',
    cost: 5,
    summary: 'Asks to cancel a boleto or bolepix: REQUESTED (applied shortly) or IGNORED (already paid).',
    params: Type.Object({ transaction_id: ApiId('transaction id') }, { additionalProperties: false }),
    result: BoletoCancellation,
  }),
  'tapToPay.create': method({
    tag: 'relay',
    access: 'client',
    cost: 10,
    summary:
      "Pushes a charge to a seller's phone (tap to pay); a tapToPay.updated event follows when the phone completes it.",
    params: Type.Object(
      {
        terminal: Type.String({ minLength: 1, maxLength: 64, description: 'Id of the phone (NFC device).' }),
        payment_type: Type.Union([Type.Literal('credit'), Type.Literal('debit')]),
        amount: Type.Integer({ minimum: 1, description: 'Centavos.' }),
        description: Type.String({ minLength: 1, maxLength: DESCRIPTION_MAX }),
        reference_id: Type.String({ minLength: 1, maxLength: REFERENCE_ID_MAX }),
        notification: Type.Optional(Type.String({ maxLength: NOTIFICATION_MAX_TAP_TO_PAY })),
        installments: Type.Optional(Type.Integer({ minimum: INSTALLMENTS_MIN, maximum: INSTALLMENTS_MAX })),
      },
      { additionalProperties: false },
    ),
    result: RelayTransaction,
  }),
  'tapToPay.status': method({
    tag: 'relay',
    access: 'client',
    cost: 2,
    summary: 'A tap-to-pay charge as the payments API has it now.',
    params: Type.Object({ transaction_id: ApiId('transaction id') }, { additionalProperties: false }),
    result: RelayTransaction,
  }),
} as const;

export type MethodName = keyof typeof METHODS;
export const METHOD_NAMES = Object.keys(METHODS) as MethodName[];
export type ParamsOf<M extends MethodName> = Static<(typeof METHODS)[M]['params']>;
export type ResultOf<M extends MethodName> = Static<(typeof METHODS)[M]['result']>;

export { PaymentState };
