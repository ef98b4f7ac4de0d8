/**
 * From what the PINPAD returns (GCX and GOX answers, passed through the real codecs so they have
 * the wire's shape) to the masked card and the authorization request.
 */
import { describe, expect, it } from 'vitest';
import { gcxCommand, type GcxResult } from '../../../drivers/abecs/commands/gcx.js';
import { goxCommand, type GoxResult } from '../../../drivers/abecs/commands/gox.js';
import { decodeEmvTlv, encodeEmvTlv } from '../../../drivers/abecs/emv.js';
import { TerminalAuthorizationRequestV2 } from '../../../main/contract/terminal-v2.js';
import { schemaViolations } from '../../../main/contract/rules.js';
import {
  CARD_DATA_TAGS,
  CardDataError,
  cardSaleData,
  cardholderVerificationOf,
  emvDataHex,
  entryModeOf,
  expirationOf,
  maskPan,
  serviceCodeOf,
  summarizeCardRead,
  type CardSaleData,
} from '../../../main/pinpad/card-data.js';
import { thrown } from '../../helpers/thrown.js';

const PAN = '4111111111111111';

/** A GCX answer as the driver decodes it from the wire. */
function gcx(result: GcxResult): GcxResult {
  return gcxCommand.decodeResponse(gcxCommand.encodeResponse(result));
}

function gox(result: GoxResult): GoxResult {
  return goxCommand.decodeResponse(goxCommand.encodeResponse(result));
}

/** EMV data from [tag, hex value] pairs, in order. */
const emv = (...items: Array<[tag: string, hex: string]>): Buffer =>
  encodeEmvTlv(items.map(([tag, hex]) => ({ tag, value: Buffer.from(hex, 'hex') })));

const chipRead = (overrides: Partial<GcxResult> = {}): GcxResult =>
  gcx({
    cardType: 'chip',
    cardTypeCode: '03',
    aidTableInfo: [{ acquirer: 1, record: '01', appType: 1 }],
    pan: '411111******1111',
    panSequence: '01',
    track2: '411111******1111=3012201',
    cardholderName: 'TESTE/VISA CREDITO',
    applicationLabel: 'CREDITO',
    issuerCountry: '076',
    expiry: '301231',
    emvData: emv(['9F27', '80'], ['9A', '250101']),
    ...overrides,
  });

const onlinePin = (overrides: Partial<GoxResult> = {}): GoxResult =>
  gox({
    decision: 'goOnline',
    signatureRequired: false,
    offlinePinVerified: false,
    onlinePinCaptured: true,
    deviceCvm: false,
    pinBlock: '0123456789ABCDEF',
    ksn: 'FFFF9876543210E00001',
    emvData: emv(['9F26', '1122334455667788'], ['9F27', '80'], ['95', '0000000000']),
    ...overrides,
  });

/** GTK's answer as the sale session hands it on (the payload's value does not matter here). */
const SEALED = {
  format: 'track2',
  method: 'dukpt_tdes_ecb',
  key_slot: 2,
  ksn: 'FF82000012345E000001',
  payload: '00112233445566778899AABBCCDDEEFF',
} as const;
const PPC930 = { model: 'GERTEC PPC-930', table_versions: { '01': '2611260001' } };

/** A terminal channel v2 request once the payment adds the PINPAD's serial number. */
function expectValidRequest(data: CardSaleData): void {
  const { terminal, ...card } = data.authorization;
  expect(
    schemaViolations(TerminalAuthorizationRequestV2, {
      ...card,
      terminal: { serial_number: 'PB0000012345', ...terminal },
    }),
  ).toEqual([]);
}

describe('a chip card read and its PIN', () => {
  it('becomes the masked card and a valid terminal channel v2 request', () => {
    const data = cardSaleData(
      summarizeCardRead(chipRead()),
      { chip: onlinePin(), encryptedCardData: SEALED, pinMethod: { method: 'dukpt', slot: 2 }, acquirer: 1 },
      PPC930,
    );
    expect(data.card).toEqual({
      brand: 'visa',
      maskedPan: '411111******1111',
      entryMode: 'chip',
      verification: 'online_pin',
    });
    expect(data.authorization).toEqual({
      terminal: PPC930,
      entry_mode: 'chip',
      pos_entry_mode: '051',
      acquirer: '01',
      card: {
        brand: 'visa',
        first6_digits: '411111',
        last4_digits: '1111',
        pan_length: 16,
        expiration: '3012',
        pan_sequence_number: '01',
        service_code: '201',
      },
      cardholder_verification: 'online_pin',
      encrypted_card_data: SEALED,
      pin_block: {
        format: 'iso_0',
        method: 'dukpt',
        key_slot: 2,
        ksn: 'FFFF9876543210E00001',
        block: '0123456789ABCDEF',
      },
      emv_data: '9F260811223344556677889F2701809505' + '0000000000',
    });
    expectValidRequest(data);
  });

  it('names a contactless chip read 071 and keeps the PIN-less tap without a PIN block', () => {
    const tap = chipRead({ cardType: 'contactlessChip', cardTypeCode: '06' });
    const data = cardSaleData(summarizeCardRead(tap), {
      chip: onlinePin({ onlinePinCaptured: false, pinBlock: undefined, ksn: undefined }),
      encryptedCardData: SEALED,
      acquirer: 1,
    });
    expect(data.authorization).toMatchObject({
      entry_mode: 'contactless_chip',
      pos_entry_mode: '071',
      cardholder_verification: 'none',
    });
    expect(data.authorization.pin_block).toBeUndefined();
    expectValidRequest(data);
  });

  it('masks a PAN that arrives in clear and keeps nothing of it beyond first 6 / last 4', () => {
    const read = chipRead({ pan: PAN, track2: `${PAN}=3012201`, track1: `B${PAN}^TESTE/VISA^3012201` });
    const summary = summarizeCardRead(read);
    const data = cardSaleData(summary, { chip: onlinePin(), pinMethod: { method: 'dukpt', slot: 1 } });
    expect(data.card.maskedPan).toBe('411111******1111');
    for (const kept of [summary, data]) {
      const json = JSON.stringify(kept);
      expect(json).not.toContain(PAN);
      expect(json).not.toContain('TESTE');
      expect(json).not.toContain('3012201');
    }
  });

  it('takes the brand from the application label when the BIN is not listed', () => {
    const read = chipRead({ pan: '498765******4321', applicationLabel: 'ELO CREDITO' });
    expect(cardSaleData(summarizeCardRead(read)).card.brand).toBe('elo');
  });

  it("prefers GOX's EMV data (the first GENERATE AC) and falls back to the read's", () => {
    const summary = summarizeCardRead(chipRead());
    expect(
      cardSaleData(summary, { chip: onlinePin(), pinMethod: { method: 'dukpt', slot: 1 } }).authorization.emv_data,
    ).toMatch(/^9F2608/);
    const noData = onlinePin({ emvData: Buffer.alloc(0) });
    expect(
      cardSaleData(summary, { chip: noData, pinMethod: { method: 'dukpt', slot: 1 } }).authorization.emv_data,
    ).toBe('9F2701809A03250101');
  });

  it('drops EMV objects holding the PAN, tracks or the name even when the PINPAD sends them', () => {
    const leaky = onlinePin({
      emvData: emv(
        ['5A', PAN],
        ['57', `${PAN}D3012201`],
        ['5F20', Buffer.from('TESTE').toString('hex')],
        ['9F27', '80'],
      ),
    });
    const hex = cardSaleData(summarizeCardRead(chipRead()), { chip: leaky, pinMethod: { method: 'dukpt', slot: 1 } })
      .authorization.emv_data!;
    expect(decodeEmvTlv(Buffer.from(hex, 'hex')).map((item) => item.tag)).toEqual(['9F27']);
    expect(hex).not.toContain(PAN);
  });

  it('fails with INCOMPLETE_PIN_BLOCK when an online PIN comes without its KSN or its key slot', () => {
    const error = thrown(() =>
      cardSaleData(summarizeCardRead(chipRead()), {
        chip: onlinePin({ ksn: undefined }),
        pinMethod: { method: 'dukpt', slot: 1 },
      }),
    );
    expect(error).toBeInstanceOf(CardDataError);
    expect(error).toMatchObject({ code: 'INCOMPLETE_PIN_BLOCK' });
    expect(thrown(() => cardSaleData(summarizeCardRead(chipRead()), { chip: onlinePin() }))).toMatchObject({
      code: 'INCOMPLETE_PIN_BLOCK',
    });
  });
});

describe('entry modes', () => {
  it('names each card type as the API does', () => {
    expect(entryModeOf(chipRead())).toBe('chip');
    expect(entryModeOf(chipRead({ cardType: 'contactlessChip', cardTypeCode: '06' }))).toBe('contactless_chip');
    const ctlsStripe = gcx({
      cardType: 'contactlessMagstripe',
      cardTypeCode: '05',
      track2: '411111******1111=3012201',
    });
    expect(entryModeOf(ctlsStripe)).toBe('contactless_magstripe');
  });

  it('tells a swipe from a swipe after a chip error', () => {
    const swipe = (iccStatus: number): GcxResult =>
      gcx({ cardType: 'magstripe', cardTypeCode: '00', iccStatus, track2: '401288******1881=3012101' });
    expect(entryModeOf(swipe(0))).toBe('magstripe');
    expect(entryModeOf(swipe(2))).toBe('magstripe');
    expect(entryModeOf(swipe(1))).toBe('magstripe_fallback');
    expect(entryModeOf(swipe(0), { afterChipError: true })).toBe('magstripe_fallback');
  });

  it('refuses a card type outside Abecs 2.x', () => {
    const error = thrown(() => entryModeOf(gcx({ cardType: 'other', cardTypeCode: '02', pan: '411111******1111' })));
    expect(error).toMatchObject({ code: 'UNSUPPORTED_CARD_TYPE' });
  });
});

describe('a swiped card', () => {
  const swipe = gcx({
    cardType: 'magstripe',
    cardTypeCode: '00',
    iccStatus: 0,
    track1: 'B401288******1881^TESTE/VISA TARJA^3012101',
    track2: '401288******1881=3012101',
    issuerCountry: '076',
  });

  it('takes the digits, the expiry and the service code from track 2 and keeps no track', () => {
    const summary = summarizeCardRead(swipe);
    expect(summary).toMatchObject({ first6: '401288', last4: '1881', expiration: '3012', serviceCode: '101' });
    const data = cardSaleData(summary, { encryptedCardData: SEALED });
    expect(data.card).toEqual({
      brand: 'visa',
      maskedPan: '401288******1881',
      entryMode: 'magstripe',
      verification: 'none',
    });
    expect(data.authorization).toEqual({
      terminal: { table_versions: {} },
      entry_mode: 'magstripe',
      pos_entry_mode: '901',
      card: {
        brand: 'visa',
        first6_digits: '401288',
        last4_digits: '1881',
        pan_length: 16,
        expiration: '3012',
        service_code: '101',
      },
      cardholder_verification: 'none',
      encrypted_card_data: SEALED,
    });
    expect(JSON.stringify(data)).not.toContain('TARJA');
    expectValidRequest(data);
  });

  it('carries the PIN typed with GPN as an online PIN', () => {
    const data = cardSaleData(summarizeCardRead(swipe), {
      swipedPin: { pinBlock: 'abcdef0123456789', ksn: 'ffff9876543210e00002' },
      pinMethod: { method: 'dukpt', slot: 1 },
      encryptedCardData: SEALED,
    });
    expect(data.authorization.cardholder_verification).toBe('online_pin');
    expect(data.authorization.pin_block).toEqual({
      format: 'iso_0',
      method: 'dukpt',
      key_slot: 1,
      ksn: 'FFFF9876543210E00002',
      block: 'ABCDEF0123456789',
    });
    expectValidRequest(data);
  });

  it('names a swipe after a chip failure 801 (fallback), a contactless magnetic stripe 911', () => {
    const fallback = summarizeCardRead(
      gcx({ cardType: 'magstripe', cardTypeCode: '00', iccStatus: 1, track2: '401288******1881=3012201' }),
    );
    expect(cardSaleData(fallback, { encryptedCardData: SEALED }).authorization).toMatchObject({
      entry_mode: 'magstripe_fallback',
      pos_entry_mode: '801',
    });
    const tapped = summarizeCardRead(
      gcx({ cardType: 'contactlessMagstripe', cardTypeCode: '05', track2: '401288******1881=3012201' }),
    );
    const data = cardSaleData(tapped, { encryptedCardData: SEALED });
    expect(data.authorization).toMatchObject({ entry_mode: 'contactless_magstripe', pos_entry_mode: '911' });
    expect(data.authorization.emv_data).toBeUndefined();
    expectValidRequest(data);
  });

  it('masks a track that arrives in clear', () => {
    const clear = gcx({ cardType: 'magstripe', cardTypeCode: '00', iccStatus: 0, track2: '4012888888881881=3012101' });
    const data = cardSaleData(summarizeCardRead(clear));
    expect(data.card.maskedPan).toBe('401288******1881');
    expect(JSON.stringify(data)).not.toContain('4012888888881881');
  });

  it('is UNREADABLE_CARD when neither the PAN nor a track gives the digits', () => {
    const error = thrown(() => summarizeCardRead(gcx({ cardType: 'magstripe', cardTypeCode: '00', iccStatus: 0 })));
    expect(error).toBeInstanceOf(CardDataError);
    expect(error).toMatchObject({ code: 'UNREADABLE_CARD' });
    expect(thrown(() => summarizeCardRead(chipRead({ pan: '4111*******', track2: undefined })))).toMatchObject({
      code: 'UNREADABLE_CARD',
    });
  });
});

describe('cardholderVerificationOf', () => {
  const result = (fields: Partial<GoxResult>): GoxResult => ({
    decision: 'goOnline',
    signatureRequired: false,
    offlinePinVerified: false,
    onlinePinCaptured: false,
    deviceCvm: false,
    ...fields,
  });

  it('says which method verified the cardholder', () => {
    expect(cardholderVerificationOf(result({ onlinePinCaptured: true }))).toBe('online_pin');
    expect(cardholderVerificationOf(result({ offlinePinVerified: true }))).toBe('offline_pin');
    expect(cardholderVerificationOf(result({ signatureRequired: true }))).toBe('signature');
    expect(cardholderVerificationOf(result({ deviceCvm: true }))).toBe('none');
    expect(cardholderVerificationOf(result({}))).toBe('none');
    expect(cardholderVerificationOf(null)).toBe('none');
    expect(cardholderVerificationOf(null, { pinBlock: '00', ksn: '00' })).toBe('online_pin');
  });
});

describe('small pieces', () => {
  it('masks PANs of every length, keeping first 6 and last 4', () => {
    expect(maskPan('4111111111111')).toBe('411111***1111');
    expect(maskPan('6362970000457013')).toBe('636297******7013');
    expect(maskPan('5066991111111118123')).toBe('506699*********8123');
    expect(maskPan('506699*********8123')).toBe('506699*********8123');
    expect(thrown(() => maskPan('41111111'))).toMatchObject({ code: 'UNREADABLE_CARD' });
  });

  it('turns the expiry YYMMDD into YYMM, from the track when PP_CARDEXP is missing', () => {
    expect(expirationOf({ expiry: '301231' })).toBe('3012');
    expect(expirationOf({ track2: '401288******1881=2811101' })).toBe('2811');
    expect(expirationOf({ track2: '401288******1881' })).toBeUndefined();
    expect(expirationOf({})).toBeUndefined();
  });

  it('reads the service code after the expiry on track 2', () => {
    expect(serviceCodeOf({ track2: '401288******1881=3012201' })).toBe('201');
    expect(serviceCodeOf({ track2: '401288******1881=30' })).toBeUndefined();
    expect(serviceCodeOf({})).toBeUndefined();
  });

  it('writes EMV data as upper-case hex and refuses data that is not BER-TLV', () => {
    expect(emvDataHex(Buffer.from('9f2701ab', 'hex'))).toBe('9F2701AB');
    expect(emvDataHex(Buffer.alloc(0))).toBeUndefined();
    expect(emvDataHex(emv(['5A', PAN]))).toBeUndefined();
    expect(thrown(() => emvDataHex(Buffer.from('9F2705AB', 'hex')))).toMatchObject({ code: 'MALFORMED_EMV_DATA' });
  });

  it('lists the EMV objects that carry card data', () => {
    for (const tag of ['5A', '57', '56', '5F20', '9F6B', '9F1F', '9F20', '9F0B'])
      expect(CARD_DATA_TAGS.has(tag)).toBe(true);
  });
});
