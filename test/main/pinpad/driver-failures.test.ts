/**
 * Every way the PINPAD's drivers and the payments network can fail reaches the cashier as one
 * sentence in Portuguese, by its code: the transports (serial, TCP, BLE), the ABECS link, the
 * framing and packet layout, the card data, the PINPAD's own statuses, and the problems a
 * payment ends with. The driver's English stays in `message` (logs, the POS developer).
 */
import { describe, expect, it } from 'vitest';
import { LINK_ERROR_CODES, LinkError } from '../../../drivers/abecs/link.js';
import { AbecsFormatError } from '../../../drivers/abecs/format-error.js';
import { FrameError } from '../../../drivers/abecs/frame.js';
import { ABECS_STATUSES } from '../../../drivers/abecs/status.js';
import { InvalidArgumentError } from '../../../drivers/errors.js';
import { TRANSPORT_ERROR_CODES, TransportError } from '../../../drivers/transports/transport.js';
import { PROBLEM_CODES, problem } from '../../../main/core/problems.js';
import { pinpadProblem } from '../../../main/core/sale.js';
import { CARD_DATA_ERROR_CODES, CardDataError } from '../../../main/pinpad/card-data.js';
import {
  DRIVER_FAILURE_CODES,
  driverCashierMessage,
  PACKET_ERROR_CODES,
} from '../../../main/pinpad/driver-failures.js';
import { saleStepErrorOf } from '../../../main/pinpad/sale-errors.js';
import { englishWordsIn } from '../../helpers/english-words.js';

/** The driver error a code comes in, with an English sentence as the driver writes it. */
function driverError(code: string): Error {
  const english = `The PINPAD link failed while sending GOX (${code}).`;
  if ((TRANSPORT_ERROR_CODES as readonly string[]).includes(code))
    return new TransportError(code as (typeof TRANSPORT_ERROR_CODES)[number], english);
  if ((LINK_ERROR_CODES as readonly string[]).includes(code))
    return new LinkError(code as (typeof LINK_ERROR_CODES)[number], english);
  if ((CARD_DATA_ERROR_CODES as readonly string[]).includes(code))
    return new CardDataError(code as (typeof CARD_DATA_ERROR_CODES)[number], english);
  if (code === 'MALFORMED_RESPONSE' || code === 'MALFORMED_COMMAND') return new AbecsFormatError(code, english);
  if (code === 'INVALID_ARGUMENT') return new InvalidArgumentError(english);
  return new FrameError(code, english);
}

describe('driver failures in the cashier’s words', () => {
  it('lists every transport, link, packet and card-data code', () => {
    expect(new Set(DRIVER_FAILURE_CODES)).toEqual(
      new Set([...TRANSPORT_ERROR_CODES, ...LINK_ERROR_CODES, ...PACKET_ERROR_CODES, ...CARD_DATA_ERROR_CODES]),
    );
    expect(DRIVER_FAILURE_CODES.length).toBeGreaterThan(30);
    // The check below can fail: it finds the English a driver writes.
    expect(englishWordsIn('The PINPAD did not acknowledge OPN within 2000 ms')).toEqual(['the', 'did', 'not']);
  });

  it.each(DRIVER_FAILURE_CODES)('%s has a Portuguese sentence with no English in it', (code) => {
    const sentence = driverCashierMessage(code);
    expect(sentence).toMatch(/^[A-ZÀ-Ú].*\.$/);
    expect(englishWordsIn(sentence ?? ''), sentence).toEqual([]);
  });

  it.each(DRIVER_FAILURE_CODES)(
    '%s ends a sale with a Portuguese problem; the English stays in its message',
    (code) => {
      const error = driverError(code);
      const why = pinpadProblem(saleStepErrorOf(error, 'chip'));
      expect(why.message).toContain(error.message);
      expect(why.cashierMessage).not.toBe(why.message);
      expect(englishWordsIn(why.cashierMessage), why.cashierMessage).toEqual([]);
    },
  );

  it('says what the driver’s code means where "Erro no PINPAD" said nothing', () => {
    expect(
      pinpadProblem(
        saleStepErrorOf(new LinkError('ACK_TIMEOUT', 'The PINPAD did not acknowledge GOX within 2000 ms.'), 'chip'),
      ),
    ).toMatchObject({
      code: 'PINPAD_ERROR',
      message: expect.stringContaining('did not acknowledge GOX') as string,
      cashierMessage: 'O PINPAD não confirmou o recebimento do comando. Verifique o cabo e se ele está ligado.',
    });
    expect(pinpadProblem(saleStepErrorOf(new LinkError('LINE_NOISE', 'noise'), 'read_card')).cashierMessage).toMatch(
      /interferência/,
    );
    expect(
      pinpadProblem(saleStepErrorOf(new CardDataError('MALFORMED_EMV_DATA', 'PP_EMVDATA is not BER-TLV.'), 'chip'))
        .cashierMessage,
    ).toBe('Os dados do chip do cartão vieram ilegíveis. Tente novamente.');
    // A code no driver raises has no sentence of its own: the problem's stands.
    expect(driverCashierMessage('SOMETHING_ELSE')).toBeUndefined();
    expect(pinpadProblem(new Error('a bug')).cashierMessage).toBe('Erro no PINPAD');
  });

  it.each(ABECS_STATUSES.map((status) => [status.name, status] as const))(
    'the PINPAD status %s has a Portuguese sentence',
    (_name, status) => {
      expect(status.cashierMessage).not.toBe(status.meaning);
      expect(englishWordsIn(status.cashierMessage), status.cashierMessage).toEqual([]);
    },
  );

  it.each(PROBLEM_CODES)('the payment problem %s has a Portuguese sentence', (code) => {
    const why = problem(code);
    expect(why.cashierMessage).not.toBe(why.message);
    expect(englishWordsIn(why.cashierMessage), why.cashierMessage).toEqual([]);
  });
});
