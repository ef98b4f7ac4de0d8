/**
 * What a POS hears when something below the handlers fails: each layer's error becomes the POS
 * API's code for it, never INTERNAL_ERROR for a cause the POS and the cashier can act on.
 */
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../../main/core/errors.js';
import { JournalError } from '../../../../main/core/journal/journal.js';
import { InvalidRequestError } from '../../../../main/api/index.js';
import { errorObject, invalidParamsFromApiClient, toPosError } from '../../../../main/pos/server/errors.js';

describe('errors reaching the POS', () => {
  it('a full disk under the journal is DISK_FULL, without the journal path', () => {
    const error = toPosError(
      new JournalError('DISK_FULL', 'the disk of the journal /home/caixa/.pinbridge/journal.db is full'),
    );
    expect(error).not.toBeNull();
    const { code, message, data } = errorObject(error!);
    expect(code).toBe(-32017);
    expect(data).toMatchObject({
      code: 'DISK_FULL',
      cashier_message: 'Disco do computador cheio: libere espaço antes de vender. Nada foi cobrado.',
    });
    expect(message).not.toContain('/home/caixa');
  });

  it('the engine refusing a sale for want of room is DISK_FULL with its own sentence', () => {
    const error = toPosError(new EngineError('DISK_FULL', "The journal's disk is nearly full (3 MiB free)"));
    expect(errorObject(error!)).toMatchObject({ code: -32017, data: { code: 'DISK_FULL' } });
  });

  it('a card number the journal refused is CARD_DATA_REFUSED', () => {
    expect(toPosError(new JournalError('CARD_DATA', 'looks like a card number'))).toMatchObject({
      code: 'CARD_DATA_REFUSED',
      data: { reason: 'CARD_NUMBER' },
    });
  });

  it('other journal failures stay internal (the caller logs them and answers INTERNAL_ERROR)', () => {
    expect(toPosError(new JournalError('CORRUPT', 'damaged row'))).toBeNull();
    expect(toPosError(new Error('a bug'))).toBeNull();
  });

  it('a refusal of the API client names the POS’s parameters in the API’s words, without an api block (the API was not asked)', () => {
    const refusal = new InvalidRequestError([
      {
        field: 'payment_method.expiration_date',
        code: 'invalid_format',
        message: 'Field payment_method.expiration_date has an invalid format',
      },
      { field: 'email', code: 'invalid_format', message: 'Field email has an invalid format' },
    ]);
    const boleto = invalidParamsFromApiClient(refusal, [['payment_method', '']]);
    expect(boleto.data.violations?.[0]).toEqual({
      field: 'expiration_date',
      message: 'params.expiration_date has an invalid format',
    });
    expect(boleto.data.api).toBeUndefined();
    const update = invalidParamsFromApiClient(refusal, [['', 'changes']]);
    expect(update.data.violations?.[1]).toEqual({
      field: 'changes.email',
      message: 'params.changes.email has an invalid format',
    });
    // Without renames (buyer.search: the same names), only the wording changes.
    expect(toPosError(refusal)?.data.violations?.[1]).toEqual({
      field: 'email',
      message: 'params.email has an invalid format',
    });
  });
});
