/**
 * Pix at the counter (handlers in main/pos/server/handlers/pix.ts): a bolepix the POS created
 * (bolepix.create) shown as a QR on the PINPAD — or, on a text-only PINPAD, on the checkout's
 * screen — while Pinbridge watches for its payment (events pix.paid, pix.ended).
 * Assembled with the others into METHODS by ../methods.ts (see there for `access` and `cost`).
 */
import { Type } from 'typebox';
import { Literals } from '../literals.js';
import { method, NoParams, Terminal } from '../method-spec.js';
import { PixShowView, PrintJobView } from '../models.js';

const TransactionId = Type.String({
  pattern: '^[0-9a-fA-F]{32}$',
  description: 'The bolepix transaction (bolepix.create’s transaction.id).',
});

/** How the QR went onto the PINPAD. */
export const PIX_ON_PINPAD = ['image', 'text', 'taken'] as const;

/** What pix.show answers (operator.trainingPix too). */
const PixShowAnswer = Type.Object(
  {
    transaction_id: Type.String(),
    terminal: Type.String({ description: 'The PINPAD it is shown on (its serial number).' }),
    amount: Type.Integer({ minimum: 0, description: 'Centavos.' }),
    br_code: Type.String({ description: 'The Pix "copia e cola" payload the QR encodes.' }),
    expires_at: Type.Union([Type.String(), Type.Null()], { description: 'When the Pix code expires (ISO 8601).' }),
    pinpad: Literals(PIX_ON_PINPAD, {
      description:
        'image: the QR is on the PINPAD; text: the PINPAD points the customer at the screen; taken: a card sale took the PINPAD first.',
    }),
    qr_svg: Type.String({ description: 'The QR as an SVG document, for a screen.' }),
    qr_data_url: Type.String({ description: 'The same SVG as a data: URL, for an <img>.' }),
  },
  { additionalProperties: false },
);

export const PIX_METHODS = {
  'pix.show': method({
    tag: 'pix',
    access: 'client',
    cost: 5,
    summary: "Shows a pending bolepix's Pix QR on the PINPAD (its amount under it) and watches for its payment.",
    description:
      'On a PINPAD with a graphic display the QR is drawn and shown there (`pinpad: "image"`); on a text-only one ' +
      'the PINPAD says "PAGUE COM PIX / QR NA TELA" and the QR is for the POS (or the window) to show: `qr_svg` and ' +
      '`qr_data_url` draw it (`pinpad: "text"`). pix.paid comes when it is paid, pix.ended when the QR is no longer ' +
      'shown. A new pix.show on the same PINPAD replaces the one there (pix.ended "replaced"); a card sale takes ' +
      'the PINPAD back at once (pix.ended "pinpad_taken", the payment still watched). NOT_FOUND: no such transaction; ' +
      'INVALID_STATE: not a pending bolepix with a valid Pix code (data.reason NOT_BOLEPIX, NOT_PENDING, BR_CODE_INVALID).',
    params: Type.Object({ transaction_id: TransactionId, terminal: Terminal }, { additionalProperties: false }),
    result: PixShowAnswer,
  }),
  'pix.list': method({
    tag: 'pix',
    access: 'client',
    cost: 1,
    summary: 'The bolepix QRs on the PINPADs now (a screen that opens mid-show draws them from here).',
    description:
      'A POS sees the shows it started (all of them where the POS clients share payments); the window sees every show.',
    params: NoParams,
    result: Type.Object({ shows: Type.Array(PixShowView) }, { additionalProperties: false }),
  }),
  'pix.cancel': method({
    tag: 'pix',
    access: 'client',
    cost: 2,
    summary:
      'Stops showing a bolepix’s QR and watching it; the PINPAD goes back to idle (the bolepix itself stays: boleto.cancel cancels it).',
    params: Type.Object({ transaction_id: TransactionId }, { additionalProperties: false }),
    result: Type.Object(
      { cancelled: Type.Boolean({ description: 'false: it was not being shown.' }) },
      { additionalProperties: false },
    ),
  }),
  'pix.print': method({
    tag: 'pix',
    access: 'client',
    cost: 10,
    summary:
      "Prints a pending bolepix's Pix QR on the receipt printer (in the background, journaled): a short slip to pay from with a bank app.",
    description:
      'The slip: the store, "PAGUE COM PIX", the amount, the QR (the bolepix\'s BR Code, as the printer\'s own QR code ' +
      "sized for its paper, 58 or 80 mm), until when the Pix is valid (the store's clock) and the transaction id. " +
      'It need not be shown with pix.show first, and does not change what the PINPAD shows. API_NOT_FOUND: no such ' +
      'transaction; INVALID_STATE: not a pending bolepix with a valid Pix code (data.reason NOT_BOLEPIX, NOT_PENDING, ' +
      'BR_CODE_INVALID); PRINTING_OFF: no store data or no printer in the settings; INVALID_PARAMS: no printer of that name.',
    params: Type.Object(
      {
        transaction_id: TransactionId,
        printer: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 64,
            description: 'A printer by its settings name (default "default").',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    result: Type.Object({ print_jobs: Type.Array(PrintJobView) }, { additionalProperties: false }),
  }),
  'operator.trainingPix': method({
    tag: 'operator',
    access: 'operator',
    cost: 10,
    summary:
      "Training mode: a practice Pix of `amount` — a bolepix for a training buyer, shown as pix.show shows it (the window's Pix panel follows).",
    description: 'Live mode: INVALID_STATE with data.reason NOT_TRAINING. Then as pix.show.',
    params: Type.Object(
      {
        amount: Type.Integer({ minimum: 1, maximum: 99_999_999, description: 'Centavos.' }),
        terminal: Terminal,
      },
      { additionalProperties: false },
    ),
    result: PixShowAnswer,
  }),
  'operator.trainingPayPix': method({
    tag: 'operator',
    access: 'operator',
    cost: 5,
    summary:
      "Training mode: the customer pays a bolepix, as the bank would report it (the training sandbox's pay route); a show sees it at once.",
    description:
      'Live mode: INVALID_STATE with data.reason NOT_TRAINING. NOT_FOUND: no such transaction in the training sandbox; ' +
      'INVALID_STATE (reason NOT_PAYABLE): already paid, cancelled or its Pix code expired.',
    params: Type.Object(
      { transaction_id: TransactionId, via: Type.Optional(Literals(['pix', 'boleto'] as const)) },
      { additionalProperties: false },
    ),
    result: Type.Object({ paid: Type.Literal(true) }, { additionalProperties: false }),
  }),
} as const;
