/**
 * GCR, GOC and FNC (S220 §3.6, §6.8) with the spec's examples.
 */
import { describe, expect, it } from 'vitest';
import { STRICT } from '../../../../drivers/simulator/wire/command.js';
import { FNC, GCR, GOC } from '../../../../drivers/simulator/wire/commands/legacy-card.js';
import { ST } from '../../../../drivers/simulator/wire/statuses.js';
import { answer, decode, hex, latin1, refusal } from './bytes.js';

/** The GOC086 of §3.6.3 (its GOC_RUF1 is "1", though the field is "fixo 0"). */
const GOC086 =
  'GOC086' +
  '000000001200' +
  '000000000200' +
  '0' +
  '0' +
  '1' +
  '3' +
  '01' +
  '0'.repeat(32) +
  '1' +
  '00001388' +
  '20' +
  '000003E8' +
  '80' +
  '000' +
  '025' +
  '011829F279F269F36958F9F37' +
  '003' +
  '000';

/** GCR with its block length. */
const gcr = (body: string): string => `GCR${String(body.length).padStart(3, '0')}${body}`;
/** GCR_ACQIDXREQ, GCR_APPTYPREQ, GCR_AMOUNT, GCR_DATE, GCR_TIME, GCR_TABVER. */
const head = (appType: string): string => '01' + appType + '000000001000' + '250301' + '120000' + '0000000000';

describe('GCR (§3.6.1, §6.8.1, §6.8.2)', () => {
  it('reads the first §3.6.1 example: every acquirer, a list of three records of acquirer 02', () => {
    expect(decode(GCR, 'GCR0520000000000001000131207102355876523456803021402220217')).toEqual({
      acquirer: 0,
      appType: 0,
      amount: 1000,
      date: '131207',
      time: '102355',
      tableVersion: '8765234568',
      applications: [
        { acquirer: 2, record: '14' },
        { acquirer: 2, record: '22' },
        { acquirer: 2, record: '17' },
      ],
    });
  });

  it('reads the second example: any type, no list, GCR_CTLSON "0" (contactless off, whatever its text says)', () => {
    expect(decode(GCR, 'GCR04100990000000028371407241139' + '22TABVER0918000')).toMatchObject({
      appType: 99,
      amount: 2837,
      tableVersion: 'TABVER0918',
      applications: [],
      contactless: false,
    });
  });

  it('lets GCR_QTDAPP be absent when GCR_APPTYPREQ is not "00" (§6.8.1), never when it is', () => {
    expect(decode(GCR, gcr(head('99')))).toMatchObject({ appType: 99, applications: [] });
    expect(decode(GCR, gcr(head('99') + '1'))).toMatchObject({ appType: 99, applications: [], contactless: true });
    expect(decode(GCR, gcr(head('01') + '00' + '0'))).toMatchObject({
      appType: 1,
      applications: [],
      contactless: false,
    });
    expect(refusal(GCR, gcr(head('00')))).toBe(ST.INVPARM);
    expect(refusal(GCR, gcr(head('00') + '1'))).toBe(ST.INVPARM);
  });

  it('reads a GCR without parameters as the resumption after ST_TABVERDIF (§6.8.2)', () => {
    expect(decode(GCR, 'GCR')).toEqual({ resume: true });
    expect(decode(GCR, 'GCR000')).toEqual({ resume: true });
  });

  it('answers ST_INVPARM for malformed fields', () => {
    expect(refusal(GCR, gcr(head('99') + '00' + '2'))).toBe(ST.INVPARM); // GCR_CTLSON "2"
    expect(refusal(GCR, gcr(head('99') + '00' + '11'))).toBe(ST.INVPARM); // a byte too many
    expect(refusal(GCR, gcr(head('00') + '01' + 'X214'))).toBe(ST.INVPARM); // TAB_ACQ "X2"
    expect(refusal(GCR, gcr(head('00') + '02' + '0214'))).toBe(ST.INVPARM); // two references announced, one sent
    expect(refusal(GCR, gcr(head('99').replace('000000001000', '0000000010A0')))).toBe(ST.INVPARM); // GCR_AMOUNT
  });

  it('writes the ICC answer of the §3.6.1 example (acquirer 02: GCR_ACQRD "9F0702xxxx", 352 bytes)', () => {
    const raw = answer(GCR, {
      cardType: '03',
      chipStatus: 0,
      appType: 1,
      acquirer: 2,
      record: '22',
      track1: '',
      track2: '5464999910769990=19122062812366907700',
      track3: '',
      pan: '5464999910769990',
      panSequence: '00',
      applicationLabel: 'CREDITO',
      serviceCode: '000',
      cardholderName: 'LEE WEINRIB / GEDDY',
      expiry: '191231',
      issuerCountry: '076',
      acquirerData: '9F0702FF00',
    });
    const data = raw.toString('latin1');
    expect(data.slice(0, 9)).toBe('GCR000352');
    // Up to GCR_CARDEXP, byte for byte as printed in the example.
    expect(data.slice(9, 9 + 307)).toBe(
      '03' +
        '0' +
        '01' +
        '02' +
        '22' +
        '00' +
        ' '.repeat(76) +
        '37' +
        '5464999910769990=19122062812366907700' +
        '000' +
        ' '.repeat(104) +
        '16' +
        '5464999910769990   ' +
        '00' +
        'CREDITO         ' +
        '000' +
        'LEE WEINRIB / GEDDY       ' +
        '191231',
    );
    // GCR_RUF1 N29, GCR_ISSCNTRY, GCR_ACQRDLEN "010" and the AUC. (The example prints a 39-byte
    // RUF1 and GCR_ACQRDLEN "000" — 352 bytes again — where the field table says N29.)
    expect(data.slice(9 + 307)).toBe('0'.repeat(29) + '076' + '010' + '9F0702FF00');
  });
});

describe('GOC (§3.6.3, §6.8.4)', () => {
  it('reads the §3.6.3 example: R$ 12,00 with R$ 2,00 cashback, DUKPT key 01, risk management, two tag blocks', () => {
    expect(decode(GOC, GOC086)).toEqual({
      amount: 1200,
      cashback: 200,
      exceptionList: false,
      forceOnline: false,
      pinMethod: 'dukpt',
      keyIndex: 1,
      workingKey: Buffer.alloc(16),
      riskManagement: true,
      floorLimit: 5000,
      targetPercent: 20,
      thresholdValue: 1000,
      maxTargetPercent: 80,
      acquirerParameters: '',
      tags: ['82', '9F27', '9F26', '9F36', '95', '8F', '9F37'],
    });
  });

  it('refuses the example\'s GOC_RUF1 "1" only in the strict reading ("fixo 0")', () => {
    expect(refusal(GOC, GOC086, STRICT)).toBe(ST.INVPARM);
    expect(refusal(GOC, GOC086.replace('000000000200' + '001', '000000000200' + '000'), STRICT)).toBeUndefined();
  });

  it('needs the first tag block; the second only in the strict reading', () => {
    expect(refusal(GOC, GOC086.slice(0, 6 + 86))).toBe(ST.MANDAT);
    expect(decode(GOC, GOC086.slice(0, GOC086.length - 6)).tags).toHaveLength(7);
    expect(refusal(GOC, GOC086.slice(0, GOC086.length - 6).replace('000000000200001', '000000000200000'), STRICT)).toBe(
      ST.MANDAT,
    );
  });

  it('answers ST_INVPARM for malformed fields', () => {
    expect(refusal(GOC, GOC086.replace('000000000200001', '000000000200201'))).toBe(ST.INVPARM); // GOC_EXCLIST "2"
    expect(refusal(GOC, GOC086.replace('1' + '3' + '01', '1' + '4' + '01'))).toBe(ST.INVPARM); // GOC_METHOD "4"
    expect(refusal(GOC, GOC086.replace('025011829F', '025012829F'))).toBe(ST.INVPARM); // tag length
  });

  it('writes the §3.6.3 answer byte for byte: go online, offline PIN verified, 41 bytes of EMV data', () => {
    const emv = hex('820258009F2701809F2608765DC13807D1E4C89F36020006950500100000008F01059F37045A77ACF0');
    expect(
      answer(GOC, {
        decision: 'goOnline',
        signatureRequired: false,
        offlinePinVerified: true,
        offlinePinErrors: 0,
        pinBlocked: false,
        onlinePinCaptured: false,
        pinBlock: Buffer.alloc(8),
        ksn: Buffer.alloc(10),
        emvData: emv,
      }),
    ).toEqual(
      latin1(
        'GOC000130' + '201000' + '0'.repeat(16) + '0'.repeat(20) + '041' + emv.toString('hex').toUpperCase() + '000',
      ),
    );
  });
});

describe('FNC (§3.6.4, §6.8.5)', () => {
  const FNC030 =
    'FNC030' + '0' + '0' + '00' + '010' + '9108E64A2FE21FD88672' + '000' + '025' + '011' + '829F279F269F36958F9F37';

  it('reads the §3.6.4 example: host answered, ARC "00", the issuer authentication data, seven tags', () => {
    expect(decode(FNC, FNC030)).toEqual({
      communication: 'ok',
      arc: '00',
      issuerData: [{ tag: '91', value: hex('E64A2FE21FD88672') }],
      tags: ['82', '9F27', '9F26', '9F36', '95', '8F', '9F37'],
    });
  });

  it('reads FNC_COMMST "1" and "9"; anything else is ST_INVPARM', () => {
    expect(decode(FNC, FNC030.replace('FNC0300', 'FNC0301')).communication).toBe('failed');
    expect(decode(FNC, FNC030.replace('FNC0300', 'FNC0309')).communication).toBe('approvedWithArc');
    expect(refusal(FNC, FNC030.replace('FNC0300', 'FNC0302'))).toBe(ST.INVPARM);
    expect(refusal(FNC, FNC030.replace('9108E64A', '9109E64A'))).toBe(ST.INVPARM); // broken BER-TLV
    expect(refusal(FNC, FNC030.slice(0, 6 + 30))).toBe(ST.MANDAT); // no FNC_TAGS block
  });

  it("writes the §3.6.4 answer byte for byte: declined by the card after the host's approval", () => {
    const emv = hex('820258009F2701009F260869EBA3BE1CC8B38D9F36020006950500100000008F01059F37045A77ACF0');
    expect(answer(FNC, { decision: 'declinedByCard', emvData: emv, issuerScriptResults: Buffer.alloc(0) })).toEqual(
      latin1('FNC000091' + '1' + '041' + emv.toString('hex').toUpperCase() + '00' + '000'),
    );
  });
});
