/**
 * GCX, GED, GOX and FCX (S220 §3.7, §6.9) with the spec's examples and the TRACE's GCX062.
 * Responses are compared item by item: "o pinpad poderá devolver os parâmetros em qualquer ordem"
 * (§3.1.3.2).
 */
import { describe, expect, it } from 'vitest';
import { STRICT } from '../../../../drivers/simulator/wire/command.js';
import { FCX, GCX, GED, GOX } from '../../../../drivers/simulator/wire/commands/card.js';
import { decodeResponsePacket } from '../../../../drivers/simulator/wire/packet.js';
import { ST } from '../../../../drivers/simulator/wire/statuses.js';
import { decodeTlvBlocks, type TlvItem } from '../../../../drivers/simulator/wire/tlv.js';
import { answer, cat, decode, hex, latin1, refusal } from './bytes.js';

/** The data items of a response, ordered by id. */
const itemsOf = (response: Buffer): TlvItem[] =>
  decodeTlvBlocks(decodeResponsePacket(response).blocks).sort((a, b) => a.id - b.id);

/** An Abecs command from its parameters (id, value). */
function abecs(id: string, params: Array<[number, Buffer | string]>): Buffer {
  const block = Buffer.concat(
    params.map(([param, value]) => {
      const bytes = typeof value === 'string' ? latin1(value) : value;
      return cat(Buffer.of(param >> 8, param & 0xff, bytes.length >> 8, bytes.length & 0xff), bytes);
    }),
  );
  return cat(`${id}${String(block.length).padStart(3, '0')}`, block);
}

describe('GCX (§3.7.1, §6.9.1)', () => {
  it('reads the first §3.7.1 example: R$ 483,00, no contactless, acquirer 08, 9F33 forced, 5F28 and 5F24 asked for', () => {
    const gcx = hex(`47 43 58 30 36 39 00 17 00 05 30 30 30 30 30 00 10 00 02 30 38 00 13 00 0C 30 30 30 30 30 30 30
      34 38 33 30 30 00 15 00 06 31 33 30 39 30 31 00 16 00 06 32 30 31 38 34 37 00 05 00 06 9F 33 03 E0 F8 C8
      00 04 00 04 5F 28 5F 24`);
    expect(decode(GCX, gcx)).toEqual({
      options: { contactless: false, hideAmount: false },
      acquirer: 8,
      amount: 48300,
      date: '130901',
      time: '201847',
      emvData: [{ tag: '9F33', value: hex('E0 F8 C8') }],
      tagList: ['5F28', '5F24'],
    });
  });

  it('reads the second example: 42 s, its own prompt, four AID records, cashback, contactless', () => {
    const gcx = hex(`47 43 58 31 33 34 00 0C 00 01 2A 00 1B 00 2C 50 4F 52 20 46 41 56 4F 52 20 41 4D 49 47 4F 2C 20
      55 53 45 20 53 45 55 20 43 41 52 54 C3 4F 20 43 4F 4D 4F 20 51 55 49 53 45 52 21 00 12 00 10 30
      31 30 31 30 32 30 35 30 33 30 38 32 35 30 34 00 13 00 0C 30 30 30 30 30 30 31 31 32 38 30 30 00
      14 00 0C 30 30 30 30 30 30 30 31 32 38 30 30 00 15 00 06 31 34 30 37 32 35 00 16 00 06 30 38 32
      35 35 39 00 17 00 05 31 30 30 30 30`);
    expect(decode(GCX, gcx)).toEqual({
      timeout: 42,
      prompt: 'POR FAVOR AMIGO, USE SEU CARTÃO COMO QUISER!',
      aids: [
        { acquirer: 1, record: '01' },
        { acquirer: 2, record: '05' },
        { acquirer: 3, record: '08' },
        { acquirer: 25, record: '04' },
      ],
      amount: 112800,
      cashback: 12800,
      date: '140725',
      time: '082559',
      options: { contactless: true, hideAmount: false },
    });
  });

  it("reads the TRACE's GCX062: AID records 0201 and 0204, 1 cent, contactless, a purchase", () => {
    const gcx = abecs('GCX', [
      [0x12, '02010204'],
      [0x13, '000000000001'],
      [0x15, '251111'],
      [0x16, '173647'],
      [0x17, '10000'],
      [0x21, Buffer.of(0x00)],
    ]);
    expect(gcx.subarray(0, 6).toString('latin1')).toBe('GCX062');
    expect(decode(GCX, gcx)).toEqual({
      aids: [
        { acquirer: 2, record: '01' },
        { acquirer: 2, record: '04' },
      ],
      amount: 1,
      date: '251111',
      time: '173647',
      options: { contactless: true, hideAmount: false },
      transactionType: 0,
    });
  });

  it('answers ST_MANDAT without SPE_TRNDATE or SPE_TRNTIME', () => {
    expect(refusal(GCX, abecs('GCX', [[0x16, '120000']]))).toBe(ST.MANDAT);
    expect(refusal(GCX, abecs('GCX', [[0x15, '250301']]))).toBe(ST.MANDAT);
    expect(refusal(GCX, 'GCX')).toBe(ST.MANDAT);
  });

  it('answers ST_INVPARM for malformed parameters', () => {
    const base: Array<[number, string]> = [
      [0x15, '250301'],
      [0x16, '120000'],
    ];
    const bad: Array<[number, string]> = [
      [0x13, '1000'], // SPE_AMOUNT is N12
      [0x17, '2000'], // SPE_GCXOPT is N5
      [0x17, '20000'], // d1 is "0" or "1"
      [0x11, '010'], // SPE_APPTYPE: two-digit types
      [0x11, '0099'], // types 01–98
      [0x12, '020'], // SPE_AIDLIST: "AARR" entries
      [0x12, '0001'], // TAB_ACQ 01–99
      [0x23, '06'], // SPE_PANMASK is N4
      [0x0c, '60'], // SPE_TIMEOUT is X1
    ];
    for (const param of bad) expect(refusal(GCX, abecs('GCX', [...base, param])), String(param)).toBe(ST.INVPARM);
    expect(refusal(GCX, abecs('GCX', [...base, [0x05, hex('9F 33 05 E0')]]))).toBe(ST.INVPARM); // broken SPE_EMVDATA
    expect(refusal(GCX, abecs('GCX', base))).toBeUndefined();
  });

  it("takes CR as SPE_DSPMSG's line break; other controls only in the lenient reading", () => {
    const prompt = (text: string): Buffer =>
      abecs('GCX', [
        [0x15, '250301'],
        [0x16, '120000'],
        [0x1b, text],
      ]);
    expect(decode(GCX, prompt('LINHA 1\rLINHA 2'), STRICT).prompt).toBe('LINHA 1\rLINHA 2');
    expect(decode(GCX, prompt('LINHA 1\nLINHA 2')).prompt).toBe('LINHA 1\nLINHA 2');
    expect(refusal(GCX, prompt('LINHA 1\nLINHA 2'), STRICT)).toBe(ST.INVPARM);
  });

  it("writes the items of the first example's answer (an ICC card read through acquirer 08)", () => {
    const spec = hex(`47 43 58 30 30 30 31 32 35 80 55 00 08 4A 4F 48 4E 20 44 4F 45 80 52 00 10 34 34 34 34 33 33 33
      33 32 32 32 32 31 31 31 31 80 42 00 18 34 34 34 34 33 33 33 33 32 32 32 32 31 31 31 31 3D 31 36
      30 38 32 30 31 80 4F 00 02 30 33 80 51 00 06 30 38 30 33 30 31 80 53 00 02 30 31 80 54 00 0B 5F
      28 02 00 76 5F 24 03 16 08 31 80 5B 00 06 52 C9 44 49 54 4F 80 5C 00 04 30 30 37 36 80 5D 00 06
      31 36 30 38 33 31`);
    const ours = answer(GCX, {
      cardType: '03',
      aidTableInfo: [{ acquirer: 8, record: '03', appType: 1 }],
      pan: '4444333322221111',
      panSequence: '01',
      track2: '4444333322221111=1608201',
      cardholderName: 'JOHN DOE',
      applicationLabel: 'RÉDITO',
      issuerCountry: '0076', // as printed (PP_ISSCNTRY is N3 in §3.1.3.2)
      expiry: '160831',
      emvData: hex('5F 28 02 00 76 5F 24 03 16 08 31'),
    });
    expect(ours.subarray(0, 9)).toEqual(spec.subarray(0, 9));
    expect(itemsOf(ours)).toEqual(itemsOf(spec));
  });

  it("writes the items of the second example's answer (contactless, two acquirers in PP_AIDTABINFO)", () => {
    const spec = hex(`47 43 58 30 30 30 30 39 36 80 42 00 19 35 30 30 39 38 32 33 37 32 33 34 32 33 38 30 30 32 3D 31
      37 30 31 36 30 30 80 4F 00 02 30 36 80 51 00 0C 30 32 30 35 30 33 32 35 30 34 30 33 80 52 00 11
      35 30 30 39 38 32 33 37 32 33 34 32 33 38 30 30 32 80 53 00 02 30 30 80 5B 00 07 50 41 59 50 41
      53 53 80 5C 00 03 38 34 30`);
    const ours = answer(GCX, {
      cardType: '06',
      aidTableInfo: [
        { acquirer: 2, record: '05', appType: 3 },
        { acquirer: 25, record: '04', appType: 3 },
      ],
      pan: '50098237234238002',
      panSequence: '00',
      track2: '50098237234238002=1701600',
      applicationLabel: 'PAYPASS',
      issuerCountry: '840',
    });
    expect(itemsOf(ours)).toEqual(itemsOf(spec));
  });

  it('writes an unreadable swipe as PP_CARDTYPE "00" and PP_ICCSTAT only (§6.9.1.1)', () => {
    expect(answer(GCX, { cardType: '00', iccStatus: 1 })).toEqual(
      cat('GCX000011', hex('80 4F 00 02'), '00', hex('80 50 00 01'), '1'),
    );
  });
});

describe('GED (§3.7.2)', () => {
  it("reads the example's SPE_TAGLIST and writes its answer byte for byte", () => {
    expect(decode(GED, hex('47 45 44 30 31 31 00 04 00 07 9F 07 9F 08 4F DF 55'))).toEqual({
      tagList: ['9F07', '9F08', '4F', 'DF55'],
    });
    expect(
      answer(GED, { emvData: hex('9F 07 02 FF 00 4F 07 A0 00 00 00 03 10 10 DF 55 08 11 22 33 44 55 66 77 88') }),
    ).toEqual(
      hex(`47 45 44 30 30 30 30 32 39 80 54 00 19 9F 07 02 FF 00 4F 07 A0 00 00 00 03 10 10 DF 55 08 11 22
        33 44 55 66 77 88`),
    );
  });

  it('answers ST_MANDAT without SPE_TAGLIST', () => {
    expect(refusal(GED, 'GED')).toBe(ST.MANDAT);
  });
});

describe('GOX (§3.7.3, §6.9.3)', () => {
  const GOX116 = hex(`47 4F 58 31 31 36 00 13 00 0C 30 30 30 30 30 30 30 32 33 34 35 30 00 14 00 0C 30 30 30 30 30 30
    30 31 30 30 30 30 00 02 00 01 33 00 09 00 02 30 37 00 1B 00 22 43 52 C9 44 49 54 4F 0D 52 24 20
    32 33 34 2C 35 30 0D 44 49 47 49 54 45 20 53 55 41 20 53 45 4E 48 41 00 1A 00 0A 00 00 27 10 14
    00 00 00 19 50 00 04 00 0B 95 9F 26 9F 27 9F 10 9F 34 9F 36 00 10 00 02 30 38`);

  it('reads the §3.7.3 example: acquirer 08, R$ 234,50 with R$ 100,00 cashback, DUKPT key 07, its PIN screen, TRMPAR, six tags', () => {
    expect(decode(GOX, GOX116)).toEqual({
      acquirer: 8,
      amount: 23450,
      cashback: 10000,
      options: { exceptionList: false, forceOnline: false, noPinBypass: false },
      pinMethod: 'dukpt',
      keyIndex: 7,
      pinPrompt: 'CRÉDITO\rR$ 234,50\rDIGITE SUA SENHA',
      riskParameters: hex('00 00 27 10 14 00 00 00 19 50'),
      tagList: ['95', '9F26', '9F27', '9F10', '9F34', '9F36'],
    });
  });

  it('reads the TRACE\'s SPE_GOXOPT "00100" (no PIN bypass)', () => {
    const gox = abecs('GOX', [
      [0x10, '02'],
      [0x02, '3'],
      [0x09, '02'],
      [0x18, '00100'],
    ]);
    expect(decode(GOX, gox).options).toEqual({ exceptionList: false, forceOnline: false, noPinBypass: true });
  });

  it('answers ST_MANDAT without SPE_ACQREF, SPE_MTHDPIN or SPE_KEYIDX, and without SPE_WKENC under MK/WK', () => {
    expect(
      refusal(
        GOX,
        abecs('GOX', [
          [0x02, '3'],
          [0x09, '07'],
        ]),
      ),
    ).toBe(ST.MANDAT);
    expect(
      refusal(
        GOX,
        abecs('GOX', [
          [0x10, '08'],
          [0x09, '07'],
        ]),
      ),
    ).toBe(ST.MANDAT);
    expect(
      refusal(
        GOX,
        abecs('GOX', [
          [0x10, '08'],
          [0x02, '3'],
        ]),
      ),
    ).toBe(ST.MANDAT);
    expect(
      refusal(
        GOX,
        abecs('GOX', [
          [0x10, '08'],
          [0x02, '1'],
          [0x09, '07'],
        ]),
      ),
    ).toBe(ST.MANDAT);
    expect(
      refusal(
        GOX,
        abecs('GOX', [
          [0x10, '08'],
          [0x02, '1'],
          [0x09, '07'],
          [0x0a, Buffer.alloc(16)],
        ]),
      ),
    ).toBeUndefined();
  });

  it('answers ST_INVPARM for malformed parameters', () => {
    const base: Array<[number, Buffer | string]> = [
      [0x10, '08'],
      [0x02, '3'],
      [0x09, '07'],
    ];
    expect(refusal(GOX, abecs('GOX', [...base, [0x1a, Buffer.alloc(9)]]))).toBe(ST.INVPARM); // SPE_TRMPAR is B10
    expect(refusal(GOX, abecs('GOX', [...base, [0x18, '00200']]))).toBe(ST.INVPARM); // GOXOPT digits are 0/1
    expect(
      refusal(
        GOX,
        abecs('GOX', [
          [0x10, '08'],
          [0x02, '5'],
          [0x09, '07'],
        ]),
      ),
    ).toBe(ST.INVPARM);
    expect(refusal(GOX, abecs('GOX', [...base, [0x0a, Buffer.alloc(12)]]))).toBe(ST.INVPARM); // WKENC B8/B16
  });

  it('writes the items of the §3.7.3 answer: online with an online PIN, PIN block, KSN, EMV data', () => {
    const spec = hex(`47 4F 58 30 30 30 30 38 38 80 56 00 06 32 30 32 30 30 30 80 54 00 30 95 05 00 80 00 00 00 9F 26
      08 E0 DB 51 A3 74 2F EA 83 9F 27 01 80 9F 10 0C 2C 51 4D 27 0F C3 CD 87 6C A4 00 00 9F 34 03 42
      03 02 9F 36 02 00 4C 80 57 00 08 B9 DF 0A 99 6E A6 CC B7 80 4C 00 0A FF FF F7 98 41 00 34 40 00 08`);
    const ours = answer(GOX, {
      decision: 'goOnline',
      signatureRequired: false,
      offlinePinVerified: false,
      onlinePinCaptured: true,
      deviceCvm: false,
      pinBlock: hex('B9 DF 0A 99 6E A6 CC B7'),
      ksn: hex('FF FF F7 98 41 00 34 40 00 08'),
      emvData: hex(`95 05 00 80 00 00 00 9F 26 08 E0 DB 51 A3 74 2F EA 83 9F 27 01 80 9F 10 0C 2C 51 4D 27 0F C3 CD 87
        6C A4 00 00 9F 34 03 42 03 02 9F 36 02 00 4C`),
    });
    expect(ours.subarray(0, 9)).toEqual(spec.subarray(0, 9));
    expect(itemsOf(ours)).toEqual(itemsOf(spec));
  });

  it('writes PP_GOXRES digit by digit (§3.1.3.2)', () => {
    const result = (r: Partial<Parameters<typeof GOX.encode>[0]>): string =>
      itemsOf(
        answer(GOX, {
          decision: 'approvedOffline',
          signatureRequired: false,
          offlinePinVerified: false,
          onlinePinCaptured: false,
          deviceCvm: false,
          ...r,
        }),
      )[0]!.value.toString('latin1');
    expect(result({})).toBe('000000');
    expect(result({ decision: 'declined' })).toBe('100000');
    expect(result({ offlinePinVerified: true, signatureRequired: true })).toBe('011000');
    expect(result({ decision: 'goOnline', deviceCvm: true })).toBe('200100');
  });
});

describe('FCX (§3.7.4, §6.9.4)', () => {
  const FCX059 = hex(`46 43 58 30 35 39 00 05 00 1E 91 08 A1 02 DB 6D 41 C6 79 63 72 12 9F 18 00 86 0D 84 24 00 00 08
    A0 71 54 4A 23 76 1A A1 00 04 00 07 95 9F 26 9F 27 9F 10 00 1C 00 02 59 33 00 19 00 04 30 30 30 30`);

  it('reads the §3.7.4 example: approved with ARC "Y3", issuer authentication data and a script, four tags', () => {
    const request = decode(FCX, FCX059);
    expect(request).toMatchObject({ outcome: 'approved', arc: 'Y3', tagList: ['95', '9F26', '9F27', '9F10'] });
    expect(request.emvData?.map((object) => object.tag)).toEqual(['91', '72']);
  });

  it('reads the TRACE\'s FCX: FCXOPT "0000", ARC "00", 8A and 89', () => {
    const fcx = abecs('FCX', [
      [0x19, '0000'],
      [0x1c, '00'],
      [0x05, cat(hex('8A 02'), '00', hex('89 06'), '062501')],
    ]);
    expect(decode(FCX, fcx)).toMatchObject({ outcome: 'approved', arc: '00', emvData: [{ tag: '8A' }, { tag: '89' }] });
  });

  it('answers ST_MANDAT without SPE_FCXOPT, or without SPE_ARC after an approval or denial (MD)', () => {
    expect(refusal(FCX, 'FCX')).toBe(ST.MANDAT);
    expect(refusal(FCX, abecs('FCX', [[0x19, '1000']]))).toBe(ST.MANDAT);
    expect(decode(FCX, abecs('FCX', [[0x19, '2000']]))).toEqual({ outcome: 'noHostResponse' });
    expect(
      refusal(
        FCX,
        abecs('FCX', [
          [0x19, '3000'],
          [0x1c, '00'],
        ]),
      ),
    ).toBe(ST.INVPARM);
  });

  it('writes the items of the §3.7.4 answer — PP_FCXRES under its id 8058h (the example prints 8056h, PP_GOXRES)', () => {
    const spec = hex(`46 43 58 30 30 30 30 35 35 80 56 00 03 30 30 30 80 59 00 05 20 00 00 00 00 80 54 00 23 95 05 00
      80 00 00 00 9F 26 08 95 24 B3 FC 02 5E 51 72 9F 27 01 40 9F 10 0A 7D 89 5F FF F0 15 D7 72 FB C9`);
    const ours = answer(FCX, {
      decision: 'approved',
      emvData: hex(
        '95 05 00 80 00 00 00 9F 26 08 95 24 B3 FC 02 5E 51 72 9F 27 01 40 9F 10 0A 7D 89 5F FF F0 15 D7 72 FB C9',
      ),
      issuerScriptResults: hex('20 00 00 00 00'),
    });
    expect(ours.subarray(0, 9)).toEqual(spec.subarray(0, 9));
    const renamed = itemsOf(spec)
      .map((entry) => (entry.id === 0x8056 ? { ...entry, id: 0x8058 } : entry))
      .sort((a, b) => a.id - b.id);
    expect(itemsOf(ours)).toEqual(renamed);
  });

  it('writes PP_ISRESULTS only when scripts came (§3.7.4) and PP_FCXRES "1xx" for a decline', () => {
    expect(answer(FCX, { decision: 'declined' })).toEqual(cat('FCX000007', hex('80 58 00 03'), '100'));
    expect(
      answer(FCX, { decision: 'approved', issuerScriptResults: Buffer.alloc(0), emvData: Buffer.alloc(0) }),
    ).toEqual(cat('FCX000011', hex('80 58 00 03'), '000', hex('80 54 00 00')));
  });
});
