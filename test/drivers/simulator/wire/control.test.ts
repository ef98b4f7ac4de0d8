/**
 * OPN, GIN, GIX, CLO and CLX (S220 §3.2, §6.4) with the spec's examples.
 */
import { describe, expect, it } from 'vitest';
import { STRICT } from '../../../../drivers/simulator/wire/command.js';
import { CLO, CLX, GIN, GIX, OPN } from '../../../../drivers/simulator/wire/commands/control.js';
import { ST } from '../../../../drivers/simulator/wire/statuses.js';
import { item } from '../../../../drivers/simulator/wire/tlv.js';
import { answer, cat, decode, hex, latin1, refusal } from './bytes.js';

describe('OPN (§3.2.1, §3.2.2, §6.4.1)', () => {
  it('is classic bare or as OPN000, and answers OPN000', () => {
    expect(decode(OPN, 'OPN')).toEqual({});
    expect(decode(OPN, 'OPN000')).toEqual({});
    expect(answer(OPN, {})).toEqual(latin1('OPN000'));
  });

  it('reads the secure OPN: OPMODE "0", MODLEN "256", the modulus, EXPLEN and the exponent (the §3.2.2 example: exponent 0Dh)', () => {
    const modulus = 'A82A660B'.repeat(64);
    const request = decode(OPN, `OPN519` + `0256${modulus}10D`);
    expect(request.publicKey?.modulus).toEqual(hex(modulus));
    expect(request.publicKey?.exponent).toEqual(hex('0D'));
    expect(decode(OPN, `OPN523` + `0256${modulus}3010001`).publicKey?.exponent).toEqual(hex('01 00 01')); // the TRACE's key
  });

  it('refuses a malformed OPN with ST_INVPARM (§6.4.1)', () => {
    const modulus = 'AB'.repeat(256);
    expect(refusal(OPN, `OPN519` + `1256${modulus}10D`)).toBe(ST.INVPARM); // OPN_OPMODE
    expect(refusal(OPN, `OPN518` + `0256${modulus}10`)).toBe(ST.INVPARM); // exponent cut short
    expect(refusal(OPN, `OPN519` + `0256${modulus.slice(2)}XX10D`)).toBe(ST.INVPARM); // not hex
    expect(refusal(OPN, 'OPN003abc003def')).toBe(ST.INVPARM); // two blocks
    // OPN_MODLEN is "fixo 256": only the strict reading refuses another size.
    expect(refusal(OPN, `OPN263` + `0128${'AB'.repeat(128)}10D`)).toBeUndefined();
    expect(refusal(OPN, `OPN263` + `0128${'AB'.repeat(128)}10D`, STRICT)).toBe(ST.INVPARM);
  });
});

describe('GIN (§3.2.3)', () => {
  it('reads GIN_ACQIDX (GIN00200, GIN00202)', () => {
    expect(decode(GIN, 'GIN00200')).toEqual({ acquirer: 0 });
    expect(decode(GIN, 'GIN00202')).toEqual({ acquirer: 2 });
  });

  it('answers ST_MANDAT without GIN_ACQIDX and ST_INVPARM when it is not N2', () => {
    expect(refusal(GIN, 'GIN')).toBe(ST.MANDAT);
    expect(refusal(GIN, 'GIN000')).toBe(ST.MANDAT);
    expect(refusal(GIN, 'GIN002XX')).toBe(ST.INVPARM);
    expect(refusal(GIN, 'GIN003000')).toBe(ST.INVPARM);
  });

  it('writes the general answer of the §3.2.3 example byte for byte', () => {
    const general = answer(GIN, {
      kind: 'general',
      manufacturer: 'CYGNUS',
      model: 'PP X-1;10MB',
      contactless: true,
      firmware: '8065XA077X0060X',
      specVersion: '2.00',
      managerVersion: '001.03 130715',
      serialNumber: '001101010300000',
    });
    expect(general).toEqual(
      hex(`47 49 4E 30 30 30 31 30 30 43 59 47 4E 55 53 20 20 20 20 20 20 20 20 20 20 20 20 20 20 50 50 20
        58 2D 31 3B 31 30 4D 42 20 20 20 20 20 20 20 20 43 38 30 36 35 58 41 30 37 37 58 30 30 36 30 58
        20 20 20 20 20 32 2E 30 30 30 30 31 2E 30 33 20 31 33 30 37 31 35 20 20 20 30 30 31 31 30 31 30
        31 30 33 30 30 30 30 30 20 20 20 20 20`),
    );
  });

  it('writes the "02" answer of the §3.2.3 example byte for byte, and the "03" and common layouts in 42 bytes', () => {
    expect(
      answer(GIN, { kind: 'acquirer02', kernelVersion: 'V1.09', appVersion: '001.03 130715', specVersion: '2.00' }),
    ).toEqual(
      hex(`47 49 4E 30 30 30 30 34 32 41 62 65 63 73 20 20 20 56 31 2E 30 39 20 20 20 20 20 20 20 30 30 31
        2E 30 33 20 31 33 30 37 31 35 32 2E 30 30 20 20 20 30 30`),
    );
    const cielo = answer(GIN, {
      kind: 'acquirer03',
      kernelVersion: '4.3e',
      contactlessVersion: '2.6',
      mastercardVersion: '3.1',
      visaVersion: '2.2',
      appVersion: '001.00 250228',
      specVersion: '2.20',
      dukptSlot01: true,
    });
    expect(cielo.toString('latin1')).toBe(
      'GIN000042' + 'Abecs ' + '4.3e' + '2.6 ' + '3.1' + '2.2' + '001.00 250228' + '2.20' + '  ' + 'T' + '00',
    );
    expect(answer(GIN, { kind: 'acquirer', appVersion: '001.00 250228', specVersion: '2.20' }).toString('latin1')).toBe(
      'GIN000042' + 'Abecs'.padEnd(20) + '001.00 250228' + '2.20' + '   00',
    );
  });
});

describe('GIX (§3.2.4, §6.4.3)', () => {
  it('reads the SPE_IDLIST of the GIX014 example in order', () => {
    expect(decode(GIX, cat('GIX014', hex('00 01 00 0A 80 01 80 04 80 34 91 01 91 0E')))).toEqual({
      ids: [0x8001, 0x8004, 0x8034, 0x9101, 0x910e],
    });
  });

  it('has no list when SPE_IDLIST is absent (GIX, GIX000: the handler decides)', () => {
    expect(decode(GIX, 'GIX')).toEqual({});
    expect(decode(GIX, 'GIX000')).toEqual({});
  });

  it('answers ST_INVPARM to an odd-length SPE_IDLIST', () => {
    expect(refusal(GIX, cat('GIX007', hex('00 01 00 03 80 07 80')))).toBe(ST.INVPARM);
  });

  it('writes the GIX000151 answer of §3.2.4', () => {
    const raw = answer(GIX, {
      items: [
        item(0x8001, '991274366155'),
        item(0x8004, 'HEMISPHERES  '),
        item(0x8034, '0111001100000000000000000' + '2'.repeat(75)),
        item(0x9101, hex('FF FF F9 13 25 00 43 20 04 43')),
      ],
    });
    expect(raw.subarray(0, 9).toString('latin1')).toBe('GIX000151');
    expect(raw.length).toBe(160);
  });

  it("splits more than 999 bytes into blocks and answers ST_RSPOVRFL past the protocol's limit", () => {
    const many = Array.from({ length: 12 }, (_, i) => item(0x8030 + i, '0'.repeat(100)));
    expect(answer(GIX, { items: many }).subarray(0, 9).toString('latin1')).toBe('GIX000936'); // 9 × 104, then 3 × 104
    const tooMuch = Array.from({ length: 3 }, (_, i) => item(0x9300 + i, 'X'.repeat(995)));
    expect(answer(GIX, { items: tooMuch })).toEqual(latin1(`GIX0${ST.RSPOVRFL}`));
  });
});

describe('CLO (§3.2.6, §6.4.5)', () => {
  it('reads CLO_MSG as 2×16 (the §3.2.6 example) and answers CLO000', () => {
    expect(decode(CLO, 'CLO032POSTO FORÇA 10  OBRIGADO!!!     ')).toEqual({
      message: 'POSTO FORÇA 10  OBRIGADO!!!     ',
    });
    expect(answer(CLO, {})).toEqual(latin1('CLO000'));
  });

  it('never refuses the message: "inconsistências ... não devem causar erro" (read as DSP is)', () => {
    expect(decode(CLO, 'CLO')).toEqual({ message: ' '.repeat(32) });
    expect(decode(CLO, 'CLO005A\rB\x01C')).toEqual({ message: 'A B C' + ' '.repeat(27) });
  });
});

describe('CLX (§3.2.7)', () => {
  it('reads the three-line SPE_DSPMSG of the §3.2.7 example', () => {
    expect(decode(CLX, cat('CLX040', hex('00 1B 00 24'), 'PRESTO SHOP\rOBRIGADO E\rVOLTE SEMPRE!'))).toEqual({
      message: 'PRESTO SHOP\rOBRIGADO E\rVOLTE SEMPRE!',
    });
    expect(answer(CLX, {})).toEqual(latin1('CLX000'));
  });

  it('reads SPE_MFNAME too, and nothing at all (a blank display)', () => {
    expect(decode(CLX, cat('CLX012', hex('00 1E 00 08'), 'QRCODE01'))).toEqual({ mediaFile: 'QRCODE01' });
    expect(decode(CLX, 'CLX')).toEqual({});
  });

  it('answers ST_INVPARM to a broken TLV structure (§6.2.2)', () => {
    expect(refusal(CLX, cat('CLX006', hex('00 1B 00 24 41 42')))).toBe(ST.INVPARM);
  });
});
