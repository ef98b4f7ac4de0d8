/**
 * The receipt methods (handlers in main/pos/server/handlers/receipt.ts): a payment's receipt as
 * text, HTML or ESC/POS, or printed.
 * Assembled with the others into METHODS by ../methods.ts (see there for `access` and `cost`).
 */
import { Literals } from '../literals.js';
import { Type } from 'typebox';
import { PrintJobView } from '../models.js';
import { method, Reference } from '../method-spec.js';

export const RECEIPT_FORMATS_FOR_POS = ['text', 'html', 'escpos'] as const;

const Copy = Type.Union([Type.Literal('customer'), Type.Literal('merchant')]);

export const RECEIPT_METHODS = {
  'receipt.get': method({
    tag: 'receipt',
    access: 'client',
    cost: 2,
    summary:
      "One copy of a payment's receipt, in `content`: plain text, HTML (a preview), or ESC/POS bytes (base64) for a POS that prints itself.",
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
} as const;
