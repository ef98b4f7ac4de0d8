import { describe, expect, it } from 'vitest';
import { DriverError } from '../../../drivers/errors.js';
import { ABECS_STATUSES, AbecsStatusError, describeStatus } from '../../../drivers/abecs/status.js';

describe('ABECS status table', () => {
  it('lists every wire code of Abecs 2.20 with its name', () => {
    const expected: Record<number, string> = {
      0: 'ST_OK',
      3: 'ST_NOSEC',
      4: 'ST_F1',
      5: 'ST_F2',
      6: 'ST_F3',
      7: 'ST_F4',
      8: 'ST_BACKSP',
      9: 'ST_ERRPKTSEC',
      10: 'ST_INVCALL',
      11: 'ST_INVPARM',
      12: 'ST_TIMEOUT',
      13: 'ST_CANCEL',
      19: 'ST_MANDAT',
      20: 'ST_TABVERDIF',
      21: 'ST_TABERR',
      40: 'ST_INTERR',
      41: 'ST_MCDATAERR',
      42: 'ST_ERRKEY',
      43: 'ST_NOCARD',
      44: 'ST_PINBUSY',
      45: 'ST_RSPOVRFL',
      46: 'ST_ERRCRYPT',
      47: 'ST_SECURITY',
      60: 'ST_DUMBCARD',
      61: 'ST_ERRCARD',
      67: 'ST_CARDINVALIDAT',
      68: 'ST_CARDPROBLEMS',
      69: 'ST_CARDINVDATA',
      70: 'ST_CARDAPPNAV',
      71: 'ST_CARDAPPNAUT',
      76: 'ST_ERRFALLBACK',
      77: 'ST_INVAMOUNT',
      78: 'ST_ERRMAXAID',
      79: 'ST_CARDBLOCKED',
      80: 'ST_CTLSMULTIPLE',
      81: 'ST_CTLSCOMMERR',
      82: 'ST_CTLSINVALIDAT',
      83: 'ST_CTLSPROBLEMS',
      84: 'ST_CTLSAPPNAV',
      85: 'ST_CTLSAPPNAUT',
      86: 'ST_CTLSEXTCVM',
      87: 'ST_CTLSIFCHG',
      100: 'ST_MFNFOUND',
      101: 'ST_MFERRFMT',
      102: 'ST_MFERR',
    };
    for (const [status, name] of Object.entries(expected)) {
      const info = describeStatus(Number(status));
      expect(info.name).toBe(name);
      expect(info.legacy).toBe(false);
    }
  });

  it('knows the legacy BibComp codes a PINPAD may still send, such as 014 and 015', () => {
    expect(describeStatus(14)).toMatchObject({ name: 'PP_ALREADYOPEN', category: 'sequence', legacy: true });
    expect(describeStatus(15)).toMatchObject({ name: 'PP_NOTOPEN', category: 'sequence', legacy: true });
    expect(describeStatus(51).name).toBe('PP_NOSAM');
  });

  it('leaves out library-only codes that never travel on the wire', () => {
    expect(describeStatus(1).name).toBe('ST_UNKNOWN_001');
    expect(describeStatus(31).name).toBe('ST_UNKNOWN_031');
  });

  it('has one entry per number, each with a meaning, a pt-BR sentence and a category', () => {
    const numbers = ABECS_STATUSES.map((info) => info.status);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    for (const info of ABECS_STATUSES) {
      expect(info.meaning).toMatch(/^[a-z]/);
      expect(info.cashierMessage).toMatch(/\.$/);
    }
  });

  it('categorises statuses so callers can react without knowing the numbers', () => {
    expect(describeStatus(0).category).toBe('ok');
    expect(describeStatus(4).category).toBe('key');
    expect(describeStatus(13).category).toBe('cancelled');
    expect(describeStatus(12).category).toBe('timeout');
    expect(describeStatus(10).category).toBe('sequence');
    expect(describeStatus(19).category).toBe('parameter');
    expect(describeStatus(42).category).toBe('security');
    expect(describeStatus(20).category).toBe('tables');
    expect(describeStatus(40).category).toBe('device');
    expect(describeStatus(70).category).toBe('card');
    expect(describeStatus(86).category).toBe('contactless');
    expect(describeStatus(101).category).toBe('media');
  });

  it('gives the cashier sentences in Portuguese', () => {
    expect(describeStatus(13).cashierMessage).toBe('Operação cancelada pelo cliente no PINPAD.');
    expect(describeStatus(12).cashierMessage).toBe('Tempo esgotado no PINPAD.');
  });

  it('describes an unknown number with a generic ST_UNKNOWN entry', () => {
    expect(describeStatus(555)).toMatchObject({ status: 555, name: 'ST_UNKNOWN_555', category: 'device' });
    expect(describeStatus(63).legacy).toBe(true);
  });
});

describe('AbecsStatusError', () => {
  it('uses the status name as its stable code and explains the failure in one sentence', () => {
    const error = AbecsStatusError.from('GCD', 13);
    expect(error).toBeInstanceOf(DriverError);
    expect(error).toBeInstanceOf(AbecsStatusError);
    expect(error.code).toBe('ST_CANCEL');
    expect(error.status).toBe(13);
    expect(error.command).toBe('GCD');
    expect(error.category).toBe('cancelled');
    expect(error.cashierMessage).toBe('Operação cancelada pelo cliente no PINPAD.');
    expect(error.message).toBe('GCD failed: cancelled by the cardholder (ST_CANCEL, 013).');
    expect(error.name).toBe('AbecsStatusError');
  });

  it('reports unknown statuses with a stable generated code', () => {
    const error = AbecsStatusError.from('GIX', 250);
    expect(error.code).toBe('ST_UNKNOWN_250');
    expect(error.message).toBe('GIX failed: the PINPAD answered the undocumented status 250 (ST_UNKNOWN_250, 250).');
  });

  it('serialises the status details for JSON output', () => {
    expect(JSON.parse(JSON.stringify(AbecsStatusError.from('GCR', 20)))).toEqual({
      name: 'AbecsStatusError',
      code: 'ST_TABVERDIF',
      message: 'GCR failed: the EMV table version differs from the expected one (ST_TABVERDIF, 020).',
      status: 20,
      command: 'GCR',
      category: 'tables',
      cashierMessage: 'As tabelas do PINPAD precisam ser atualizadas.',
    });
  });
});
