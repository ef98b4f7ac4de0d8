/**
 * The masking rule of trace/mask.ts, packet by packet: what survives of card data (masked PAN,
 * expiry, service code), what is zeroed (PIN blocks, KSNs, cryptograms), what is removed (the
 * name, EMV card-data objects), and that every cleaned packet still decodes with its codec.
 */
import { describe, expect, it } from 'vitest';
import { cexCommand } from '../../../../drivers/abecs/commands/cex.js';
import { gcdCommand } from '../../../../drivers/abecs/commands/gcd.js';
import { mnuCommand } from '../../../../drivers/abecs/commands/mnu.js';
import { gcrCommand, type GcrResult } from '../../../../drivers/abecs/commands/gcr.js';
import { gcxCommand, type GcxResult } from '../../../../drivers/abecs/commands/gcx.js';
import { gixCommand } from '../../../../drivers/abecs/commands/gix.js';
import { gocCommand } from '../../../../drivers/abecs/commands/goc.js';
import { goxCommand } from '../../../../drivers/abecs/commands/gox.js';
import { gpnCommand } from '../../../../drivers/abecs/commands/gpn.js';
import { decodeEmvTlv, encodeEmvTlv } from '../../../../drivers/abecs/emv.js';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import { PP, ppKsnTdesPin } from '../../../../drivers/abecs/ids.js';
import { encodeTlv } from '../../../../drivers/abecs/tlv.js';
import { maskPacket } from '../../../../drivers/abecs/trace/mask.js';
import { maskEmvData, maskPanText, maskTrackText } from '../../../../drivers/abecs/trace/mask-values.js';

const PAN = '4111111111111111';
const MASKED = '411111******1111';
const NAME = 'TESTE/VISA CREDITO';
const PIN_BLOCK = '1A2B3C4D5E6F7081';
const KSN = 'FFFF9876543210E00001';

/** EMV objects in the order given ("tag=hex" pairs: object keys would reorder numeric tags). */
const emv = (...items: string[]): Buffer =>
  encodeEmvTlv(items.map((item) => ({ tag: item.split('=')[0]!, value: Buffer.from(item.split('=')[1]!, 'hex') })));

function maskedResponse(rsp: Parameters<typeof encodeResponsePacket>[0]): Buffer {
  const masked = maskPacket('pinpad', encodeResponsePacket(rsp));
  expect(masked.data).toBeDefined();
  return masked.data!;
}

describe('masking values', () => {
  it('keeps the first 6 and last 4 digits of a PAN', () => {
    expect(maskPanText(PAN)).toBe(MASKED);
    expect(maskPanText(MASKED)).toBe(MASKED);
    expect(maskPanText('12345678')).toBe('********');
  });

  it('reduces tracks to the masked PAN, expiry and service code', () => {
    expect(maskTrackText(`;${PAN}=30122011234567890?`)).toBe(`;${MASKED}=30122010000000000?`);
    expect(maskTrackText(`${PAN}D3012201999`)).toBe(`${MASKED}D3012201000`);
    expect(maskTrackText(`%B${PAN}^${NAME}^3012201123456?`)).toBe(
      `%B${MASKED}^${' '.repeat(NAME.length)}^3012201000000?`,
    );
    // Another layout (a track 3 with its sentinel): a masked PAN-looking run, everything else zeroed.
    expect(maskTrackText(`!01${PAN}=7240ABC`)).toBe('!014111********1111=0000000');
  });

  it('removes card-data EMV objects and zeroes cryptograms, keeping the rest', () => {
    const data = emv(
      '5A=4111111111111111',
      '57=4111111111111111D30122011',
      '5F20=54455354',
      '9F26=1122334455667788',
      '9F27=80',
      '95=0000008000',
      '9F37=AABBCCDD',
    );
    const items = decodeEmvTlv(maskEmvData(data));
    expect(items.map((i) => i.tag)).toEqual(['9F26', '9F27', '95', '9F37']);
    expect(items[0]!.value.toString('hex')).toBe('0000000000000000');
    expect(items[1]!.value.toString('hex')).toBe('80');
    expect(items[2]!.value.toString('hex')).toBe('0000008000');
    expect(items[3]!.value.toString('hex')).toBe('00000000');
    // Templates are cleaned inside; data that is not BER-TLV is zeroed whole.
    const template = maskEmvData(emv(`70=${emv('5A=4111111111111111', '9F08=0002').toString('hex')}`));
    expect(decodeEmvTlv(decodeEmvTlv(template)[0]!.value).map((i) => i.tag)).toEqual(['9F08']);
    expect(maskEmvData(Buffer.from('9F2608AABB', 'hex'))).toEqual(Buffer.alloc(5));
  });
});

describe('masking packets', () => {
  it('GCX: PAN masked, tracks reduced, name removed, EMV cleaned; still a GCX answer', () => {
    const read: GcxResult = {
      cardType: 'chip',
      cardTypeCode: '03',
      aidTableInfo: [{ acquirer: 1, record: '01', appType: 1 }],
      pan: PAN,
      panSequence: '00',
      track1: `B${PAN}^${NAME}^3012201`,
      track2: `${PAN}=3012201`,
      cardholderName: NAME,
      applicationLabel: 'CREDITO',
      issuerCountry: '076',
      expiry: '301231',
      emvData: emv('9F26=1122334455667788', '9F27=80', '5A=4111111111111111'),
    };
    const masked = maskedResponse(gcxCommand.encodeResponse(read));
    const decoded = gcxCommand.decodeResponse(decodeResponsePacket(masked));
    expect(decoded).toMatchObject({
      cardType: 'chip',
      pan: MASKED,
      track2: `${MASKED}=3012201`,
      expiry: '301231',
      applicationLabel: 'CREDITO',
    });
    expect(decoded.track1).toBe(`B${MASKED}^${' '.repeat(NAME.length)}^3012201`);
    expect(decoded.cardholderName).toBeUndefined();
    expect(decodeEmvTlv(decoded.emvData!).map((i) => `${i.tag}=${i.value.toString('hex')}`)).toEqual([
      '9F26=0000000000000000',
      '9F27=80',
    ]);
    expect(masked.toString('latin1')).not.toContain(PAN);
  });

  it('GOX and GPN: PIN block and KSN zeroed, same length; GPN keeps the PAN masked', () => {
    const gox = maskedResponse(
      goxCommand.encodeResponse({
        decision: 'goOnline',
        signatureRequired: false,
        offlinePinVerified: false,
        onlinePinCaptured: true,
        deviceCvm: false,
        pinBlock: PIN_BLOCK,
        ksn: KSN,
      }),
    );
    expect(goxCommand.decodeResponse(decodeResponsePacket(gox))).toMatchObject({
      decision: 'goOnline',
      pinBlock: '0'.repeat(16),
      ksn: '0'.repeat(20),
    });
    const gpn = maskedResponse(gpnCommand.encodeResponse({ pinBlock: PIN_BLOCK, ksn: KSN }));
    expect(gpnCommand.decodeResponse(decodeResponsePacket(gpn))).toEqual({
      pinBlock: '0'.repeat(16),
      ksn: '0'.repeat(20),
    });
    const command = encodeCommandPacket(
      gpnCommand.encodeRequest({
        method: 'dukpt',
        keyIndex: 1,
        pan: PAN,
        minDigits: 4,
        maxDigits: 12,
        message: 'SENHA:',
      }),
    );
    const cleaned = maskPacket('host', command);
    expect(cleaned.id).toBe('GPN');
    expect(cleaned.data!.length).toBe(command.length);
    expect(cleaned.data!.toString('latin1')).toContain(MASKED);
    expect(cleaned.data!.toString('latin1')).not.toContain(PAN);
  });

  it('GCR and GOC (legacy): fields cleaned in place, still decodable', () => {
    const gcr: GcrResult = {
      cardType: 'magstripe',
      cardTypeCode: '00',
      chipStatus: 0,
      appType: 1,
      acquirer: 1,
      record: '01',
      track1: `B${PAN}^${NAME}^30122011234`,
      track2: `${PAN}=30122011234`,
      track3: '',
      pan: '',
      panSequence: '00',
      applicationLabel: 'CREDITO',
      serviceCode: '201',
      cardholderName: NAME,
      expiry: '301231',
      issuerCountry: '076',
      acquirerData: '',
    };
    const masked = gcrCommand.decodeResponse(decodeResponsePacket(maskedResponse(gcrCommand.encodeResponse(gcr))));
    expect(masked).toMatchObject({
      track2: `${MASKED}=30122010000`,
      cardholderName: '',
      serviceCode: '201',
      expiry: '301231',
    });
    const goc = maskedResponse(
      gocCommand.encodeResponse({
        decision: 'goOnline',
        signatureRequired: false,
        offlinePinVerified: false,
        offlinePinErrors: 0,
        pinBlocked: false,
        onlinePinCaptured: true,
        pinBlock: PIN_BLOCK,
        ksn: KSN,
        emvData: emv('9F26=1122334455667788'),
      }),
    );
    expect(gocCommand.decodeResponse(decodeResponsePacket(goc))).toMatchObject({
      pinBlock: '0'.repeat(16),
      ksn: '0'.repeat(20),
      emvData: emv('9F26=0000000000000000'),
    });
  });

  it('CEX tracks and GIX slot KSNs; identification kept', () => {
    const cex = maskedResponse(
      cexCommand.encodeResponse({ event: 'cardSwiped', tracks: { track2: `${PAN}=3012201` } }),
    );
    expect(cexCommand.decodeResponse(decodeResponsePacket(cex))).toEqual({
      event: 'cardSwiped',
      tracks: { track2: `${MASKED}=3012201` },
    });
    const gix = encodeResponsePacket({
      id: 'GIX',
      status: 0,
      blocks: [
        Buffer.concat([
          encodeTlv(PP.SERNUM, Buffer.from('SN123')),
          encodeTlv(ppKsnTdesPin(1), Buffer.from(KSN, 'hex')),
          encodeTlv(0x8099, Buffer.from('VENDOR')),
        ]),
      ],
    });
    const masked = decodeResponsePacket(maskPacket('pinpad', gix).data!);
    expect(gixCommand.decodeResponse(masked)).toMatchObject({ serialNumber: 'SN123' });
    expect(masked.blocks[0]!.toString('hex')).toContain(`910100 0a${'00'.repeat(10)}`.replace(' ', ''));
    expect(masked.blocks[0]!.toString('latin1')).not.toContain('VENDOR');
  });

  it("GCD: what the customer typed (a CPF, a card's last digits, its security code) zeroed, same length; MNU's choice kept", () => {
    for (const typed of ['52998224725', '1111', '123']) {
      const masked = maskedResponse(gcdCommand.encodeResponse({ value: typed }));
      expect(gcdCommand.decodeResponse(decodeResponsePacket(masked))).toEqual({ value: '0'.repeat(typed.length) });
      expect(masked.toString('latin1')).not.toContain(typed);
    }
    const menu = maskedResponse(mnuCommand.encodeResponse({ index: 2 }));
    expect(mnuCommand.decodeResponse(decodeResponsePacket(menu))).toEqual({ index: 2 });
  });

  it('keeps only id, status and length of what it cannot clean', () => {
    expect(maskPacket('pinpad', Buffer.from('CHP000010ABCDEF0123', 'latin1'))).toEqual({ id: 'CHP', status: '000' });
    expect(maskPacket('host', Buffer.from('\x12encrypted', 'latin1'))).toEqual({});
    expect(maskPacket('pinpad', Buffer.from('GCX000005', 'latin1'))).toEqual({ id: 'GCX', status: '000' });
    // Error answers carry nothing to clean; NTM and DSP are kept as they are.
    expect(maskPacket('pinpad', Buffer.from('GCX013', 'latin1')).data?.toString('latin1')).toBe('GCX013');
    expect(maskPacket('pinpad', Buffer.from('NTM000007SENHA:X', 'latin1')).data?.toString('latin1')).toBe(
      'NTM000007SENHA:X',
    );
    const dsp = Buffer.from(`DSP032${'VALOR: R$ 10,00'.padEnd(32)}`, 'latin1');
    expect(decodeCommandPacket(maskPacket('host', dsp).data!)).toEqual(decodeCommandPacket(dsp));
  });
});
