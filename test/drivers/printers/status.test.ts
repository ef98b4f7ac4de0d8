import { describe, expect, it } from 'vitest';
import { PrinterError } from '../../../drivers/printers/errors.js';
import {
  StatusRequest,
  checkStatusByte,
  parseErrorCauseByte,
  parseOfflineCauseByte,
  parsePrinterStatusByte,
  parseRollPaperByte,
  parseStatusAnswers,
  sameStatus,
  statusRequestBytes,
  type PrinterStatus,
} from '../../../drivers/printers/status.js';
import { thrown } from '../../helpers/thrown.js';

// Answer bytes as the Epson DLE EOT tables give them: 0x12 is "nothing to report" (bits 1 and 4,
// fixed on); each condition adds its bit.
const NOTHING = 0x12;

const READY: PrinterStatus = {
  online: true,
  coverOpen: false,
  paperOut: false,
  paperNearEnd: false,
  drawerOpen: false,
  error: null,
};

function answers(change: Partial<Record<'printer' | 'offlineCause' | 'errorCause' | 'rollPaper', number>> = {}) {
  return { printer: NOTHING, offlineCause: NOTHING, errorCause: NOTHING, rollPaper: NOTHING, ...change };
}

describe('DLE EOT requests', () => {
  it('are DLE (0x10), EOT (0x04) and n for the four statuses', () => {
    expect([...statusRequestBytes(StatusRequest.printer)]).toEqual([0x10, 0x04, 1]);
    expect([...statusRequestBytes(StatusRequest.offlineCause)]).toEqual([0x10, 0x04, 2]);
    expect([...statusRequestBytes(StatusRequest.errorCause)]).toEqual([0x10, 0x04, 3]);
    expect([...statusRequestBytes(StatusRequest.rollPaper)]).toEqual([0x10, 0x04, 4]);
  });
});

describe('the printer status answer (DLE EOT 1)', () => {
  it('reports nothing in 0x12', () => {
    expect(parsePrinterStatusByte(0x12)).toEqual({
      drawerPin3High: false,
      offline: false,
      waitingForOnlineRecovery: false,
      feedButtonPressed: false,
    });
  });

  it('reads bit 2 as the drawer connector pin 3 being HIGH', () => {
    expect(parsePrinterStatusByte(0x16).drawerPin3High).toBe(true);
  });

  it('reads bit 3 as offline', () => {
    expect(parsePrinterStatusByte(0x1a).offline).toBe(true);
  });

  it('reads bit 5 as waiting for online recovery and bit 6 as the feed button pressed', () => {
    expect(parsePrinterStatusByte(0x32).waitingForOnlineRecovery).toBe(true);
    expect(parsePrinterStatusByte(0x52).feedButtonPressed).toBe(true);
    expect(parsePrinterStatusByte(0x32).feedButtonPressed).toBe(false);
  });
});

describe('the offline cause answer (DLE EOT 2)', () => {
  it('reads bit 2 as the cover open', () => {
    expect(parseOfflineCauseByte(0x16)).toEqual({
      coverOpen: true,
      feedingByButton: false,
      stoppedByPaperEnd: false,
      errorOccurred: false,
    });
  });

  it('reads bit 3 as paper fed by the FEED button', () => {
    expect(parseOfflineCauseByte(0x1a).feedingByButton).toBe(true);
  });

  it('reads bit 5 as printing stopped by paper end', () => {
    expect(parseOfflineCauseByte(0x32).stoppedByPaperEnd).toBe(true);
  });

  it('reads bit 6 as an error occurred', () => {
    expect(parseOfflineCauseByte(0x52).errorOccurred).toBe(true);
  });
});

describe('the error cause answer (DLE EOT 3)', () => {
  it('reads bits 2, 3, 5 and 6 as mechanical, autocutter, unrecoverable and auto-recoverable errors', () => {
    expect(parseErrorCauseByte(0x12)).toEqual({
      mechanical: false,
      autocutter: false,
      unrecoverable: false,
      autoRecoverable: false,
    });
    expect(parseErrorCauseByte(0x16)).toEqual({
      mechanical: true,
      autocutter: false,
      unrecoverable: false,
      autoRecoverable: false,
    });
    expect(parseErrorCauseByte(0x1a)).toEqual({
      mechanical: false,
      autocutter: true,
      unrecoverable: false,
      autoRecoverable: false,
    });
    expect(parseErrorCauseByte(0x32)).toEqual({
      mechanical: false,
      autocutter: false,
      unrecoverable: true,
      autoRecoverable: false,
    });
    expect(parseErrorCauseByte(0x52)).toEqual({
      mechanical: false,
      autocutter: false,
      unrecoverable: false,
      autoRecoverable: true,
    });
  });
});

describe('the roll paper sensor answer (DLE EOT 4)', () => {
  it('reads bits 2-3 (0x0C) as paper near end and bits 5-6 (0x60) as paper out', () => {
    expect(parseRollPaperByte(0x12)).toEqual({ nearEnd: false, paperOut: false });
    expect(parseRollPaperByte(0x1e)).toEqual({ nearEnd: true, paperOut: false });
    expect(parseRollPaperByte(0x72)).toEqual({ nearEnd: false, paperOut: true });
    expect(parseRollPaperByte(0x7e)).toEqual({ nearEnd: true, paperOut: true });
  });

  it('takes one bit of a pair as enough (printers with two near-end sensors report them apart)', () => {
    expect(parseRollPaperByte(0x16).nearEnd).toBe(true);
    expect(parseRollPaperByte(0x1a).nearEnd).toBe(true);
    expect(parseRollPaperByte(0x32).paperOut).toBe(true);
    expect(parseRollPaperByte(0x52).paperOut).toBe(true);
  });
});

describe('a malformed answer byte', () => {
  const parsers = [parsePrinterStatusByte, parseOfflineCauseByte, parseErrorCauseByte, parseRollPaperByte];
  // The free bits are 2, 3, 5 and 6: sixteen combinations, each with bits 1 and 4 on.
  const valid = new Set(
    Array.from(
      { length: 16 },
      (_, i) => 0x12 | (i & 1 ? 0x04 : 0) | (i & 2 ? 0x08 : 0) | (i & 4 ? 0x20 : 0) | (i & 8 ? 0x40 : 0),
    ),
  );

  it('is accepted only with bit 0 off, bit 1 on, bit 4 on and bit 7 off, by every parser', () => {
    for (const parse of parsers) {
      const accepted = Array.from({ length: 256 }, (_, byte) => byte).filter((byte) => {
        try {
          parse(byte);
          return true;
        } catch (error) {
          expect(error).toBeInstanceOf(PrinterError);
          expect(error).toMatchObject({ code: 'INVALID_STATUS' });
          return false;
        }
      });
      expect(new Set(accepted)).toEqual(valid);
    }
  });

  it('throws INVALID_STATUS with a sentence naming the request and the byte', () => {
    const error = thrown(() => parsePrinterStatusByte(0x00));
    expect(error).toBeInstanceOf(PrinterError);
    expect(error).toMatchObject({ code: 'INVALID_STATUS' });
    expect((error as PrinterError).message).toMatch(/DLE EOT 1.*0x00/);
    expect(thrown(() => parseRollPaperByte(0xff))).toMatchObject({ code: 'INVALID_STATUS' });
  });

  it('refuses XON (0x11) and XOFF (0x13), which a serial printer may send between answers', () => {
    expect(thrown(() => checkStatusByte(StatusRequest.printer, 0x11))).toMatchObject({ code: 'INVALID_STATUS' });
    expect(thrown(() => checkStatusByte(StatusRequest.printer, 0x13))).toMatchObject({ code: 'INVALID_STATUS' });
  });

  it('refuses values that are not a byte', () => {
    for (const value of [-1, 256, 1.5, Number.NaN]) {
      expect(thrown(() => checkStatusByte(StatusRequest.errorCause, value))).toMatchObject({ code: 'INVALID_STATUS' });
    }
  });

  it('makes the combined status fail rather than report anything', () => {
    expect(thrown(() => parseStatusAnswers(answers({ errorCause: 0x00 })))).toMatchObject({ code: 'INVALID_STATUS' });
  });
});

describe('the combined PrinterStatus', () => {
  it('is ready when all four answers are 0x12', () => {
    expect(parseStatusAnswers(answers())).toEqual(READY);
  });

  it('is offline from DLE EOT 1 bit 3', () => {
    expect(parseStatusAnswers(answers({ printer: 0x1a }))).toEqual({ ...READY, online: false });
  });

  it('reports the cover open from DLE EOT 2', () => {
    expect(parseStatusAnswers(answers({ printer: 0x1a, offlineCause: 0x16 }))).toEqual({
      ...READY,
      online: false,
      coverOpen: true,
    });
  });

  it('reports a printer out of paper (1A, 32, 7E) as offline, paper out and near end', () => {
    expect(parseStatusAnswers(answers({ printer: 0x1a, offlineCause: 0x32, rollPaper: 0x7e }))).toEqual({
      ...READY,
      online: false,
      paperOut: true,
      paperNearEnd: true,
    });
  });

  it('reports paper out when printing stopped at paper end even if the roll sensor says nothing', () => {
    expect(parseStatusAnswers(answers({ offlineCause: 0x32 })).paperOut).toBe(true);
  });

  it('reports paper near end alone, the printer still online', () => {
    expect(parseStatusAnswers(answers({ rollPaper: 0x1e }))).toEqual({ ...READY, paperNearEnd: true });
  });

  it('reads the drawer as open on pin 3 HIGH by default, or on LOW when the drawer is wired that way', () => {
    expect(parseStatusAnswers(answers({ printer: 0x16 })).drawerOpen).toBe(true);
    expect(parseStatusAnswers(answers({ printer: 0x12 })).drawerOpen).toBe(false);
    expect(parseStatusAnswers(answers({ printer: 0x16 }), { drawerOpenLevel: 'low' }).drawerOpen).toBe(false);
    expect(parseStatusAnswers(answers({ printer: 0x12 }), { drawerOpenLevel: 'low' }).drawerOpen).toBe(true);
  });

  it('names each error cause', () => {
    expect(parseStatusAnswers(answers({ offlineCause: 0x52, errorCause: 0x16 })).error).toBe('MECHANICAL');
    expect(parseStatusAnswers(answers({ offlineCause: 0x52, errorCause: 0x1a })).error).toBe('AUTOCUTTER');
    expect(parseStatusAnswers(answers({ offlineCause: 0x52, errorCause: 0x32 })).error).toBe('UNRECOVERABLE');
    expect(parseStatusAnswers(answers({ offlineCause: 0x52, errorCause: 0x52 })).error).toBe('AUTO_RECOVERABLE');
  });

  it('names the most serious error when several are reported', () => {
    expect(parseStatusAnswers(answers({ errorCause: 0x7e })).error).toBe('UNRECOVERABLE');
    expect(parseStatusAnswers(answers({ errorCause: 0x5e })).error).toBe('MECHANICAL');
    expect(parseStatusAnswers(answers({ errorCause: 0x5a })).error).toBe('AUTOCUTTER');
  });

  it('reports UNKNOWN when DLE EOT 2 says an error occurred and DLE EOT 3 names no cause', () => {
    expect(parseStatusAnswers(answers({ printer: 0x1a, offlineCause: 0x52 })).error).toBe('UNKNOWN');
  });
});

describe('sameStatus', () => {
  it('compares every field', () => {
    expect(sameStatus(READY, { ...READY })).toBe(true);
    for (const change of [
      { online: false },
      { coverOpen: true },
      { paperOut: true },
      { paperNearEnd: true },
      { drawerOpen: true },
      { error: 'AUTOCUTTER' as const },
    ]) {
      expect(sameStatus(READY, { ...READY, ...change })).toBe(false);
    }
  });
});
