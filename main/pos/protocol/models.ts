/**
 * The records the POS API hands out (payments, PINPADs, receipts, print jobs, paired clients,
 * relayed API records), as TypeBox schemas: they type the handlers and the client, validate in
 * tests what the server sends, and document the AsyncAPI. Amounts are integer centavos.
 */
import { Literals } from './literals.js';
import { Type, type Static } from 'typebox';
import { BankAccount, BankAccountListItem } from '../../contract/bank-accounts.js';
import { Buyer } from '../../contract/buyers.js';
import { BoletoDetails, PixDetails, TransactionError } from '../../contract/transactions.js';
import { DECLINE_CATEGORIES, PAYMENT_STATES, PROGRESS_STEPS } from './enums.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const IsoTime = Type.String({ description: 'ISO 8601 time.' });

export const PaymentState = Literals(PAYMENT_STATES, {
  description: 'The journal state (see docs/architecture.md); `status` is what most POSes need.',
});

export const PaymentPhase = Type.Union([Type.Literal('in_progress'), Type.Literal('decided')], {
  description:
    'Whether the result is decided, computed by Pinbridge from `state` — branch on this rather than on a list of ' +
    'states. in_progress: at the PINPAD or waiting for the authorization. decided: the result is known (an approval ' +
    'may still await its confirmation; a cancel, reversal or void may still be on its way to the payments API).',
});
export type PaymentPhase = Static<typeof PaymentPhase>;

export const PaymentOutcome = Type.Object(
  {
    status: Type.Union(
      [
        Type.Literal('approved'),
        Type.Literal('declined'),
        Type.Literal('failed'),
        Type.Literal('cancelled'),
        Type.Literal('in_progress'),
      ],
      {
        description:
          'in_progress: not decided yet. From payment.start it means the sale stopped before its result (problem RESULT_PENDING: ' +
          'a full disk, an internal error): the card may be charged — do not charge again; payment.result follows when ' +
          'Pinbridge has confirmed it with the payments API.',
      },
    ),
    reference_id: Type.String(),
    payment_id: Type.String({ description: "Pinbridge's id of the payment (its journal record)." }),
    transaction_id: Nullable(Type.String({ description: "The payments API's transaction id." })),
    terminal: Type.String({ description: 'Serial number of the PINPAD.' }),
    amount: Type.Integer({ description: 'Centavos.' }),
    payment_type: Type.Union([Type.Literal('credit'), Type.Literal('debit')]),
    installments: Nullable(Type.Integer()),
    authorization_code: Nullable(Type.String()),
    nsu: Nullable(Type.String()),
    card: Nullable(
      Type.Object(
        {
          brand: Type.String(),
          masked_pan: Type.String({ description: 'First 6 and last 4 digits, e.g. 411111******1111.' }),
          entry_mode: Type.String({ description: 'chip, contactless, magstripe…' }),
        },
        { additionalProperties: false },
      ),
    ),
    confirmation: Nullable(
      Type.Union([Type.Literal('pending'), Type.Literal('confirmed'), Type.Literal('undone')], {
        description: 'For an approval: pending until the POS (or the policy) confirms; undone once voided.',
      }),
    ),
    state: PaymentState,
    phase: PaymentPhase,
    problem: Nullable(
      Type.Object(
        { code: Type.String(), message: Type.String(), cashier_message: Type.String({ description: 'pt-BR.' }) },
        { additionalProperties: false },
      ),
    ),
    decline_code: Nullable(
      Literals(DECLINE_CATEGORIES, {
        description:
          'Why the issuer declined (problem CARD_DECLINED), as a stable category from the issuer response code (ABECS ' +
          'Normativo 21) — branch on this, not on the code. null for every other result. See docs/pos-api.md, "Declines".',
      }),
    ),
    issuer_response_code: Nullable(
      Type.String({
        description:
          'The issuer response code as received: "00" on an approval, e.g. "51" or "55" on a decline; null when no issuer answered.',
      }),
    ),
    customer_tax_id: Nullable(Type.String({ description: 'The CPF the customer typed on the PINPAD, when asked.' })),
    created_at: IsoTime,
    finished_at: Nullable(IsoTime),
  },
  {
    additionalProperties: false,
    title: 'PaymentOutcome',
    description: 'What the POS learns about a payment; the same before and after a restart.',
  },
);
export type PaymentOutcome = Static<typeof PaymentOutcome>;

/** Both copies as plain text, ready for a POS that prints or stores them itself. */
export const ReceiptTexts = Type.Object(
  {
    customer: Type.String({ description: 'The customer copy, one line per row, at the printer width.' }),
    merchant: Type.String(),
  },
  { additionalProperties: false, title: 'ReceiptTexts' },
);
export type ReceiptTexts = Static<typeof ReceiptTexts>;

export const PaymentStatus = Type.Union(
  [
    Type.Object(
      { status: Type.Literal('Processed'), result: PaymentOutcome, receipts: Nullable(ReceiptTexts) },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        status: Type.Literal('InProgress'),
        payment_id: Type.String(),
        state: PaymentState,
        result: Type.Optional(PaymentOutcome),
      },
      {
        additionalProperties: false,
        description:
          '`result` is present when nothing drives the payment right now (its sale stopped before the result; recovery waits ' +
          'to try again): the outcome as it stands, status in_progress with problem RESULT_PENDING. Stop waiting and tell the ' +
          'cashier not to charge again; payment.result follows.',
      },
    ),
    Type.Object({ status: Type.Literal('NotFound') }, { additionalProperties: false }),
  ],
  { title: 'PaymentStatus', description: 'Processed (with the result and receipts) / InProgress / NotFound.' },
);

export const ProgressStep = Literals(PROGRESS_STEPS, {
  description: 'Where the payment is.',
});

export const PaymentProgress = Type.Object(
  {
    payment_id: Type.String(),
    reference_id: Type.String(),
    terminal: Type.String(),
    step: ProgressStep,
    state: PaymentState,
    phase: PaymentPhase,
    message: Type.String({ description: 'English.' }),
    cashier_message: Type.String({ description: 'pt-BR; for pinpad_message, the PINPAD’s own text.' }),
    at: IsoTime,
  },
  { additionalProperties: false, title: 'PaymentProgress' },
);
export type PaymentProgress = Static<typeof PaymentProgress>;

export const PinpadView = Type.Object(
  {
    serial_number: Type.String({ description: 'The `terminal` of its payments.' }),
    manufacturer: Type.String(),
    model: Type.String(),
    firmware: Type.String(),
    address: Type.String({ description: 'Where it is connected: a serial port, tcp://…, ble:…, sim.' }),
    connected: Type.Boolean(),
    busy: Type.Boolean({ description: 'Running a payment or another operation.' }),
    payment_reference: Nullable(
      Type.String({
        description:
          'The reference_id of the payment it is running — told only to the client that started it (and the window, or every client with share_payments); null for the others, and while no payment runs.',
      }),
    ),
    tables: Nullable(
      Type.Object(
        {
          state: Type.Union([Type.Literal('loading'), Type.Literal('current'), Type.Literal('failed')], {
            description:
              'loading: being written into the PINPAD (sales wait); current: the PINPAD holds `version`; failed: sales are refused (see `error`).',
          }),
          version: Nullable(Type.String({ description: 'The tables version (PP_TABVERnn) being loaded or held.' })),
          acquirers: Type.Array(Type.Integer({ minimum: 1, maximum: 99 }), {
            description: 'Acquirer indexes being loaded or held.',
          }),
          error: Nullable(Type.String({ description: 'Why the tables cannot be read or loaded (English).' })),
          cache_tampered: Type.Boolean({
            description:
              "The provider's tables cached on this computer failed their seal at this start (changed outside Pinbridge): they were refused and asked of the provider again (docs/security.md).",
          }),
        },
        {
          additionalProperties: false,
          description:
            'Its EMV tables (AIDs and CAPKs), from the tables file or the payments provider; null when the agent manages none (the PINPAD keeps its own).',
        },
      ),
    ),
  },
  { additionalProperties: false, title: 'Pinpad' },
);
export type PinpadView = Static<typeof PinpadView>;

export const PINPAD_LINK_STATES = [
  'connecting',
  'ready',
  'not_found',
  'unreachable',
  'not_answering',
  'disconnected',
] as const;

export const PinpadLinkView = Type.Object(
  {
    address: Type.String({ description: 'Where Pinbridge looks for its PINPAD: a serial port, tcp://…, ble:…, sim.' }),
    state: Literals(PINPAD_LINK_STATES, {
      description:
        'connecting: the first attempt is under way; ready: it answered; not_found: nothing at the address; unreachable: the address cannot be opened ' +
        '(in use, no permission, refused, not a valid address); not_answering: something is there but does not answer as a PINPAD; disconnected: it went away. ' +
        'Pinbridge keeps trying (1 s doubling to 60 s, at once when its serial port appears).',
    }),
    code: Nullable(
      Type.String({
        description: 'The driver’s code of the failure (PORT_NOT_FOUND, PERMISSION_DENIED, CONNECT_TIMEOUT, …).',
      }),
    ),
    error: Nullable(Type.String({ description: 'The driver’s own sentence about the failure (English).' })),
    message: Type.String({ description: 'What the state means (English).' }),
    cashier_message: Type.String({
      description: 'The same for the cashier (pt-BR), e.g. "PINPAD não encontrado em /dev/ttyACM0. …".',
    }),
    since: IsoTime,
  },
  {
    additionalProperties: false,
    title: 'PinpadLink',
    description: 'The link to the PINPAD Pinbridge is set to use — what says why no PINPAD is listed.',
  },
);
export type PinpadLinkView = Static<typeof PinpadLinkView>;

export const PrinterView = Type.Object(
  {
    name: Type.String({ description: 'Its name in the settings ("default").' }),
    address: Type.String({
      description:
        "Where it is, in the settings' syntax (tcp://…, serial:…, file:///…/, lp://…): what a technician checks first. In training with no printer, a folder where each receipt is kept as a PDF.",
    }),
    connected: Nullable(
      Type.Boolean({
        description:
          'null until the first check, made when the agent starts (within seconds: a connection within its time limit, then the status); a system printer (lp://), which its spooler answers for, stays null until its first job.',
      }),
    ),
    paper_out: Type.Boolean(),
    paper_low: Type.Boolean(),
    cover_open: Type.Boolean(),
    error: Nullable(Type.String()),
  },
  { additionalProperties: false, title: 'Printer' },
);
export type PrinterView = Static<typeof PrinterView>;

export const PrintJobView = Type.Object(
  {
    id: Type.String(),
    printer: Type.String(),
    subject: Type.String({ description: '"payment:<reference_id>:sale:customer"…' }),
    state: Literals(['queued', 'printing', 'printed', 'failed', 'cancelled'] as const),
    attempts: Type.Integer(),
    error: Nullable(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false, title: 'PrintJob' },
);
export type PrintJobView = Static<typeof PrintJobView>;

/** What a PINPAD shows of a Pix: the QR image as loaded, or the two lines pointing at the screen. */
export const PixPinpadScreen = Type.Union(
  [
    Type.Object(
      {
        kind: Type.Literal('image'),
        format: Literals(['png', 'gif'] as const),
        width: Type.Integer({ minimum: 1, description: 'Pixels (the screen’s).' }),
        height: Type.Integer({ minimum: 1 }),
        data_url: Type.String({ description: 'The file the PINPAD holds and shows, as a data: URL.' }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      { kind: Type.Literal('text'), lines: Type.Array(Type.String(), { maxItems: 2 }) },
      { additionalProperties: false },
    ),
  ],
  { title: 'PixPinpadScreen' },
);
export type PixPinpadScreen = Static<typeof PixPinpadScreen>;

/** A bolepix's QR on a PINPAD (event pix.shown, pix.list): what a screen needs to show it too. */
export const PixShowView = Type.Object(
  {
    transaction_id: Type.String(),
    terminal: Type.String({ description: 'The PINPAD it is shown on (its serial number).' }),
    amount: Type.Integer({ minimum: 0, description: 'Centavos.' }),
    br_code: Type.String({ description: 'The Pix "copia e cola" payload the QR encodes.' }),
    expires_at: Nullable(Type.String({ description: 'When the Pix code expires (ISO 8601).' })),
    pinpad: Literals(['image', 'text'] as const, {
      description: 'image: the QR is on the PINPAD; text: the PINPAD points the customer at the screen.',
    }),
    pinpad_screen: PixPinpadScreen,
    qr_svg: Type.String({ description: 'The QR as an SVG document, for a screen.' }),
    qr_data_url: Type.String({ description: 'The same SVG as a data: URL, for an <img>.' }),
  },
  { additionalProperties: false, title: 'PixShow' },
);
export type PixShowView = Static<typeof PixShowView>;

export const DISK_SOURCES = ['journal', 'logs', 'print_journal', 'other'] as const;

export const DiskView = Type.Object(
  {
    state: Type.Union([Type.Literal('ok'), Type.Literal('full')], {
      description:
        'full: the computer’s disk refuses the agent’s writes (or has no room for a sale); ok: it takes them.',
    }),
    since: IsoTime,
    sources: Type.Array(Literals(DISK_SOURCES), {
      description:
        'What the disk refuses: journal (no room for a new sale: payment.start answers DISK_FULL), logs, print_journal (jobs wait in memory), other (another file of the agent).',
    }),
    code: Nullable(Type.String({ description: 'The first failure’s code: DISK_FULL, ENOSPC, EROFS, SQLITE_IOERR…' })),
    sales_refused: Type.Boolean({ description: 'New sales are refused with DISK_FULL until there is room.' }),
    message: Type.String({ description: 'What it means (English).' }),
    cashier_message: Type.String({ description: 'The same for the cashier (pt-BR); empty when ok.' }),
  },
  {
    additionalProperties: false,
    title: 'Disk',
    description:
      'Whether the computer’s disk takes the agent’s writes. Full, nothing stops: payments in flight finish, what cannot be written waits in memory, and everything resumes by itself once there is room.',
  },
);
export type DiskView = Static<typeof DiskView>;

/** The desktop app's updates: the version waiting and when it applies (issue 37). */
export const UpdateView = Type.Object(
  {
    enabled: Type.Boolean({
      description: 'Updates are checked (settings updates.enabled with a feed); false headless.',
    }),
    channel: Nullable(
      Type.String({ description: 'The release channel read (CHANNEL.yml); null when updates are off.' }),
    ),
    state: Type.Union(
      [Type.Literal('none'), Type.Literal('downloading'), Type.Literal('downloaded'), Type.Literal('installing')],
      {
        description:
          'none: nothing pending; downloading; downloaded: waiting to be installed (when Pinbridge quits, or in install_window when no sale is in progress); installing: Pinbridge is stopping to install it and starts again.',
      },
    ),
    version: Nullable(Type.String({ description: 'The version downloading, downloaded or installing.' })),
    install_window: Nullable(
      Type.String({
        description:
          "The daily maintenance window (HH:MM-HH:MM on the store's clock) a downloaded update also installs in; null: only when Pinbridge quits.",
      }),
    ),
    waiting_for_sale: Type.Boolean({
      description:
        'Inside the window, but a sale in progress (a busy PINPAD, an approval waiting for the POS) keeps it waiting.',
    }),
    staged_by: Nullable(
      Type.Union([Type.Literal('store'), Type.Literal('checkout'), Type.Literal('install')], {
        description:
          "What picks this checkout in a staged release: its store (all its checkouts together), itself, or its installation's random id (no store labels).",
      }),
    ),
    rollout_position: Nullable(
      Type.Number({
        minimum: 0,
        maximum: 100,
        description:
          'A release published with a stagingPercentage above this reaches this checkout; null when staged by installation.',
      }),
    ),
    last_check: Nullable(
      Type.Object(
        { at: IsoTime, error: Nullable(Type.String({ description: 'Why the check failed; null when it worked.' })) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: 'Updates' },
);
export type UpdateView = Static<typeof UpdateView>;

export const ApiHealth = Type.Object(
  {
    state: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('unknown')]),
    since: Nullable(IsoTime),
    last_error: Nullable(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false, title: 'ApiHealth', description: 'Whether the payments API answered its last calls.' },
);
export type ApiHealth = Static<typeof ApiHealth>;

export const PairedClientView = Type.Object(
  {
    client_id: Type.String(),
    name: Type.String(),
    origin: Nullable(Type.String()),
  },
  { additionalProperties: false, title: 'PairedClient' },
);

export const PeerProgramView = Type.Object(
  {
    pid: Type.Integer({ minimum: 0, description: 'Its process id now.' }),
    name: Type.String({ description: 'Its short name ("node", "chrome.exe").' }),
    command: Type.String({
      description:
        'What a block matches: the executable and its arguments on Linux and macOS, the image name on Windows.',
    }),
  },
  {
    additionalProperties: false,
    title: 'PeerProgram',
    description: 'The process at the other end of a connection, found from its TCP port (docs/pos-api.md).',
  },
);
export type PeerProgramView = Static<typeof PeerProgramView>;

export const BlockedProgramView = Type.Object(
  {
    program_id: Type.String(),
    name: Type.String(),
    command: Type.String({ description: 'What is matched: see PeerProgram.command.' }),
    blocked_at: IsoTime,
  },
  { additionalProperties: false, title: 'BlockedProgram' },
);
export type BlockedProgramView = Static<typeof BlockedProgramView>;

export const PairingRequestView = Type.Object(
  {
    pairing_id: Type.String(),
    name: Type.String({ description: 'How the POS named itself.' }),
    origin: Nullable(Type.String({ description: 'The web page asking; null for a program on this computer.' })),
    program: Type.Union([PeerProgramView, Type.Null()], {
      description:
        'The process that asked: the program itself, or the browser of a web page; null when it could not be told (another user’s process, a system without the tools).',
    }),
    code: Type.String({
      pattern: '^[0-9]{6}$',
      description: 'The code the cashier reads to the POS: only the window ever receives it.',
    }),
    expires_at: IsoTime,
  },
  { additionalProperties: false, title: 'PairingRequest' },
);
export type PairingRequestView = Static<typeof PairingRequestView>;

export const PairingGuardView = Type.Object(
  {
    wrong_codes: Type.Integer({
      minimum: 0,
      description: 'Wrong pairing codes in the last 24 hours, from everyone together.',
    }),
    budget: Type.Integer({
      minimum: 1,
      description: 'How many lock pairing (see "Security model" in docs/pos-api.md).',
    }),
    locked: Type.Boolean({ description: 'No pairing request is taken and no code checked until unlocked.' }),
    unlocks_at: Nullable(IsoTime),
    origins: Type.Array(
      Type.Object(
        {
          origin: Nullable(Type.String({ description: 'null: programs without an origin.' })),
          wrong_codes: Type.Integer({ minimum: 1 }),
        },
        { additionalProperties: false },
      ),
      { description: 'Where the wrong codes came from, most first.' },
    ),
  },
  { additionalProperties: false, title: 'PairingGuard' },
);
export type PairingGuardView = Static<typeof PairingGuardView>;

export const ClientRecordView = Type.Object(
  {
    client_id: Type.String(),
    name: Type.String(),
    origin: Nullable(Type.String()),
    created_at: IsoTime,
    last_seen_at: Nullable(IsoTime),
    revoked_at: Nullable(IsoTime),
    connected: Type.Integer({ minimum: 0, description: 'Its sessions open now.' }),
  },
  { additionalProperties: false, title: 'ClientRecord' },
);
export type ClientRecordView = Static<typeof ClientRecordView>;

/**
 * A payments API transaction as the relays return it: amounts in centavos, never card data beyond
 * first 6 / last 4. What a tap-to-pay receipt needs is here (terminal, installments, authorization
 * code, NSU, card); the cardholder's name is not relayed.
 */
export const RelayTransaction = Type.Object(
  {
    id: Type.String(),
    status: Type.String({ description: 'pending, succeeded, failed, canceled, …' }),
    amount: Type.Integer({ description: 'Centavos.' }),
    payment_type: Type.String(),
    payment_locale: Nullable(Type.String()),
    reference_id: Nullable(Type.String()),
    description: Nullable(Type.String()),
    customer: Nullable(Type.String()),
    terminal: Nullable(
      Type.String({ description: 'Tap to pay: the id of the phone (NFC device) that takes the payment.' }),
    ),
    notification: Nullable(Type.String({ description: 'The message shown on the device, as created.' })),
    installment_plan: Nullable(
      Type.Object(
        {
          number_installments: Type.Integer({ minimum: 1 }),
          mode: Type.Optional(Type.Union([Type.Literal('interest_free'), Type.Literal('with_interest')])),
        },
        {
          additionalProperties: false,
          description: 'Credit in installments; null for a payment in full (and for boletos).',
        },
      ),
    ),
    authorization_code: Nullable(
      Type.String({ description: "The issuer's authorization code, once the card payment is approved." }),
    ),
    nsu: Nullable(Type.String({ description: 'The NSU of the authorization, once approved (for the receipt).' })),
    card: Nullable(
      Type.Object(
        {
          brand: Type.String({ description: 'Visa, MasterCard, Elo, …' }),
          first6_digits: Nullable(
            Type.String({ description: 'The first 6 digits (BIN), when the payments API returns them.' }),
          ),
          last4_digits: Type.String(),
          entry_mode: Nullable(Type.String({ description: 'contactless_chip, contactless_magstripe, …' })),
        },
        {
          additionalProperties: false,
          description:
            'The card of a completed card payment as a receipt may show it: brand, first 6 / last 4 digits, entry mode — never more.',
        },
      ),
    ),
    boleto: Nullable(BoletoDetails),
    pix: Nullable(PixDetails),
    error: Nullable(TransactionError),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { additionalProperties: false, title: 'RelayTransaction' },
);
export type RelayTransaction = Static<typeof RelayTransaction>;

export { BankAccount, BankAccountListItem, Buyer };
