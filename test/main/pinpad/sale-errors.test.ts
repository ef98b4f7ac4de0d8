import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../drivers/errors.js';
import { AbecsFormatError } from '../../../drivers/abecs/format-error.js';
import { LinkError } from '../../../drivers/abecs/link.js';
import { AbecsStatusError } from '../../../drivers/abecs/status.js';
import { TransportError } from '../../../drivers/transports/transport.js';
import { CardDataError } from '../../../main/pinpad/card-data.js';
import { SaleStepError, saleStepErrorOf } from '../../../main/pinpad/sale-errors.js';

const status = (command: string, code: number): AbecsStatusError => new AbecsStatusError(command, code);

describe('saleStepErrorOf', () => {
  it('maps the PINPAD statuses the customer causes', () => {
    expect(saleStepErrorOf(status('GOX', 13), 'chip')).toMatchObject({ code: 'CUSTOMER_CANCELLED', step: 'chip' });
    expect(saleStepErrorOf(status('GCX', 12), 'read_card')).toMatchObject({
      code: 'TIMEOUT',
      cashierMessage: 'Tempo esgotado aguardando o cartão.',
    });
    expect(saleStepErrorOf(status('GOX', 44), 'chip')).toMatchObject({ code: 'PIN_ENTRY_BUSY' });
  });

  it('calls an ICC error during the chip steps a removed card, and a card error elsewhere', () => {
    expect(saleStepErrorOf(status('GOX', 61), 'chip')).toMatchObject({ code: 'CARD_REMOVED' });
    expect(saleStepErrorOf(status('FCX', 43), 'finish_chip')).toMatchObject({ code: 'CARD_REMOVED' });
    expect(saleStepErrorOf(status('GCX', 61), 'read_card')).toMatchObject({ code: 'CARD_ERROR' });
  });

  it('keeps the status sentence for card problems and no-application answers', () => {
    expect(saleStepErrorOf(status('GCX', 41), 'read_card')).toMatchObject({
      code: 'CARD_ERROR',
      cashierMessage: 'Erro na leitura do cartão magnético. Passe o cartão novamente.',
    });
    expect(saleStepErrorOf(status('GCX', 79), 'read_card')).toMatchObject({
      code: 'CARD_ERROR',
      cashierMessage: 'Cartão bloqueado.',
    });
    for (const code of [70, 71, 84, 85, 22]) {
      expect(saleStepErrorOf(status('GCX', code), 'read_card')).toMatchObject({ code: 'UNSUPPORTED_CARD' });
    }
  });

  it('maps other statuses to PINPAD_ERROR', () => {
    expect(saleStepErrorOf(status('GOX', 42), 'chip')).toMatchObject({
      code: 'PINPAD_ERROR',
      cashierMessage: 'Chave de criptografia ausente no PINPAD.',
    });
    expect(saleStepErrorOf(status('FCX', 10), 'finish_chip')).toMatchObject({ code: 'PINPAD_ERROR' });
  });

  it('maps link and transport failures', () => {
    expect(saleStepErrorOf(new LinkError('CANCELLED', 'GCX was cancelled.'), 'read_card')).toMatchObject({
      code: 'CANCELLED',
    });
    expect(saleStepErrorOf(new LinkError('TIMEOUT', 'late'), 'remove_card')).toMatchObject({ code: 'TIMEOUT' });
    expect(saleStepErrorOf(new LinkError('RESPONSE_TIMEOUT', 'late'), 'show_amount')).toMatchObject({
      code: 'TIMEOUT',
    });
    expect(saleStepErrorOf(new LinkError('DISCONNECTED', 'gone'), 'chip')).toMatchObject({
      code: 'PINPAD_DISCONNECTED',
    });
    expect(saleStepErrorOf(new TransportError('NOT_OPEN', 'closed'), 'chip')).toMatchObject({
      code: 'PINPAD_DISCONNECTED',
    });
    expect(saleStepErrorOf(new LinkError('BUSY', 'busy'), 'show_amount')).toMatchObject({ code: 'PINPAD_BUSY' });
    for (const code of ['ACK_TIMEOUT', 'NAK_LIMIT', 'BAD_RESPONSE', 'CANCEL_UNANSWERED'] as const) {
      expect(saleStepErrorOf(new LinkError(code, 'x'), 'chip')).toMatchObject({ code: 'PINPAD_ERROR' });
    }
    expect(saleStepErrorOf(new AbecsFormatError('MALFORMED_RESPONSE', 'bad'), 'chip')).toMatchObject({
      code: 'PINPAD_ERROR',
    });
    expect(saleStepErrorOf(new InvalidArgumentError('bad'), 'chip')).toMatchObject({ code: 'PINPAD_ERROR' });
    expect(saleStepErrorOf(new Error('bug'), 'chip')).toMatchObject({ code: 'PINPAD_ERROR' });
  });

  it('maps card data the PINPAD returned that cannot make a request', () => {
    expect(saleStepErrorOf(new CardDataError('UNREADABLE_CARD', 'x'), 'read_card')).toMatchObject({
      code: 'CARD_ERROR',
    });
    expect(saleStepErrorOf(new CardDataError('UNSUPPORTED_CARD_TYPE', 'x'), 'read_card')).toMatchObject({
      code: 'UNSUPPORTED_CARD',
    });
    expect(saleStepErrorOf(new CardDataError('MALFORMED_EMV_DATA', 'x'), 'chip')).toMatchObject({
      code: 'PINPAD_ERROR',
    });
  });

  it('keeps the driver error as the cause, names the step in English and leaves a SaleStepError alone', () => {
    const cause = status('GOX', 13);
    const error = saleStepErrorOf(cause, 'chip');
    expect(error).toBeInstanceOf(SaleStepError);
    expect(error.cause).toBe(cause);
    expect(error.message).toMatch(/^The chip and PIN step failed \(CUSTOMER_CANCELLED\): GOX failed/);
    expect(saleStepErrorOf(error, 'read_card')).toBe(error);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ code: 'CUSTOMER_CANCELLED', step: 'chip' });
  });
});
