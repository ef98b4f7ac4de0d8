import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  gtkCommand,
  packDigits,
  unpackDigits,
  type GtkEncryption,
  type GtkRequest,
  type GtkResult,
} from '../../../../drivers/abecs/commands/gtk.js';
import {
  decodeCommandPacket,
  encodeCommandPacket,
  encodeResponsePacket,
  decodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import {
  bytesOf,
  expectFormatError,
  garbageProperties,
  requestRoundTrip,
  responseRoundTrip,
} from './codec-properties.js';

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');

/** The real trace: Scope asks for the PAN and every track, clear ("1111"). */
const TRACE_REQUEST = Buffer.concat([Buffer.from('GTK008'), hex('0007 0004'), Buffer.from('1111')]);

describe('GTK codec', () => {
  it('is not blocking', () => {
    expect(gtkCommand.blocking).toBe(false);
  });

  it('encodes the trace request byte for byte', () => {
    const request = { tracks: { pan: true, track1: true, track2: true, track3: true } };
    expect(encodeCommandPacket(gtkCommand.encodeRequest(request))).toEqual(TRACE_REQUEST);
    expect(gtkCommand.decodeRequest(decodeCommandPacket(TRACE_REQUEST))).toEqual(request);
  });

  it('asks for DUKPT DAT#3 ECB under a data key slot: SPE_MTHDDAT "50", SPE_KEYIDX "02"', () => {
    const packet = encodeCommandPacket(
      gtkCommand.encodeRequest({
        tracks: { pan: true, track2: true },
        encryption: { method: 'dukptEcb', keyIndex: 2 },
      }),
    );
    expect(packet).toEqual(
      Buffer.concat([
        Buffer.from('GTK020'),
        hex('0007 0004'),
        Buffer.from('1010'),
        hex('0003 0002'),
        Buffer.from('50'),
        hex('0009 0002'),
        Buffer.from('02'),
      ]),
    );
    expect(gtkCommand.decodeRequest(decodeCommandPacket(packet))).toEqual({
      tracks: { pan: true, track1: false, track2: true, track3: false },
      encryption: { method: 'dukptEcb', keyIndex: 2 },
    });
  });

  it('reads SPE_TRACKS of any length, a missing or unknown character meaning "no" (S220 §6.5.12)', () => {
    const short = Buffer.concat([Buffer.from('GTK006'), hex('0007 0002'), Buffer.from('1X')]);
    expect(gtkCommand.decodeRequest(decodeCommandPacket(short)).tracks).toEqual({
      pan: true,
      track1: false,
      track2: false,
      track3: false,
    });
  });

  it('refuses a key-based method without its key slot (ST_MANDAT) and an odd SPE_OPNDIG (ST_INVPARM)', () => {
    const noSlot = Buffer.concat([
      Buffer.from('GTK014'),
      hex('0007 0004'),
      Buffer.from('0010'),
      hex('0003 0002'),
      Buffer.from('50'),
    ]);
    expectFormatError(() => gtkCommand.decodeRequest(decodeCommandPacket(noSlot)), { status: 19 });
    expect(() =>
      gtkCommand.encodeRequest({
        tracks: { pan: true },
        encryption: { method: 'dukptEcb', keyIndex: 1, openDigits: 3 },
      }),
    ).toThrow(/SPE_OPNDIG/);
    expect(() =>
      gtkCommand.encodeRequest({
        tracks: { pan: true },
        // What an untyped caller could send: MK/WK without its working key.
        encryption: { method: 'mkwkEcb', keyIndex: 1 } as unknown as GtkEncryption,
      }),
    ).toThrow(/working key/);
  });

  it('asks for MK/WK ECB with the working key under the data master key: "10", SPE_KEYIDX, SPE_WKENC', () => {
    const workingKey = hex('C2BCA24F3EF8F2EF1C0F07A97D38C338');
    const packet = encodeCommandPacket(
      gtkCommand.encodeRequest({
        tracks: { track2: true },
        encryption: { method: 'mkwkEcb', keyIndex: 2, workingKey },
      }),
    );
    expect(packet).toEqual(
      Buffer.concat([
        Buffer.from('GTK040'),
        hex('0007 0004'),
        Buffer.from('0010'),
        hex('0003 0002'),
        Buffer.from('10'),
        hex('0009 0002'),
        Buffer.from('02'),
        hex('000A 0010'),
        workingKey,
      ]),
    );
    expect(gtkCommand.decodeRequest(decodeCommandPacket(packet)).encryption).toEqual({
      method: 'mkwkEcb',
      keyIndex: 2,
      workingKey,
    });
  });

  describe('the random-key methods ("90" ECB, "91" CBC, S220 §5.4.2)', () => {
    const modulus = Buffer.concat([Buffer.of(0xc3), Buffer.alloc(254, 0x5a), Buffer.of(0x01)]);
    const exponent = hex('010001');

    it("send the host's RSA-2048 public key (SPE_PBKMOD B256, SPE_PBKEXP) and no key slot", () => {
      const packet = encodeCommandPacket(
        gtkCommand.encodeRequest({
          tracks: { pan: true, track2: true },
          encryption: { method: 'randomEcb', publicKey: { modulus, exponent } },
        }),
      );
      expect(packet).toEqual(
        Buffer.concat([
          Buffer.from('GTK281'),
          hex('0007 0004'),
          Buffer.from('1010'),
          hex('0003 0002'),
          Buffer.from('90'),
          hex('0024 0100'),
          modulus,
          hex('0025 0003'),
          exponent,
        ]),
      );
      expect(gtkCommand.decodeRequest(decodeCommandPacket(packet))).toEqual({
        tracks: { pan: true, track1: false, track2: true, track3: false },
        encryption: { method: 'randomEcb', publicKey: { modulus, exponent } },
      });
    });

    it('refuse a modulus that is not 256 bytes, and a "9x" request without the public key (ST_MANDAT)', () => {
      expect(() =>
        gtkCommand.encodeRequest({
          tracks: { pan: true },
          encryption: { method: 'randomCbc', publicKey: { modulus: modulus.subarray(0, 128), exponent } },
        }),
      ).toThrow(/SPE_PBKMOD must have exactly 256 bytes/);
      const noKey = Buffer.concat([
        Buffer.from('GTK014'),
        hex('0007 0004'),
        Buffer.from('1000'),
        hex('0003 0002'),
        Buffer.from('91'),
      ]);
      expectFormatError(() => gtkCommand.decodeRequest(decodeCommandPacket(noKey)), { status: 19 });
    });

    it('answer the encrypted random key in PP_ENCKRAND (8063h, B256) beside the fields, with no KSN', () => {
      const result: GtkResult = {
        pan: hex('F158F8C22E09591E'),
        track2: hex('00112233445566778899AABBCCDDEEFF'),
        encryptedKey: Buffer.alloc(256, 0x13),
      };
      const packet = encodeResponsePacket(gtkCommand.encodeResponse(result));
      expect(packet.includes(Buffer.concat([hex('8063 0100'), Buffer.alloc(256, 0x13)]))).toBe(true);
      expect(gtkCommand.decodeResponse(decodeResponsePacket(packet))).toEqual(result);
    });
  });

  it('carries each field with its KSN, and answers with no card field after an unreadable swipe', () => {
    const ksn = hex('FF01123456789AE00001');
    const result: GtkResult = {
      pan: hex('0011223344556677'),
      track2: hex('00112233445566778899AABBCCDDEEFF'),
      ksns: { pan: ksn, track2: ksn },
    };
    const packet = encodeResponsePacket(gtkCommand.encodeResponse(result));
    expect(gtkCommand.decodeResponse(decodeResponsePacket(packet))).toEqual(result);
    expect(gtkCommand.decodeResponse(decodeResponsePacket(Buffer.from('GTK000')))).toEqual({});
  });

  it('packs digits as S220 §5.4.2.2 shows: "=" as D, F filler to whole 8-byte blocks', () => {
    expect(packDigits('66733246732413=1512601234879534275432').toString('hex').toUpperCase()).toBe(
      '66733246732413D1512601234879534275432FFFFFFFFFFF',
    );
    expect(packDigits('4111111111111111').toString('hex').toUpperCase()).toBe('4111111111111111');
    expect(unpackDigits(packDigits('4012888888881881=30121010000'))).toBe('4012888888881881=30121010000');
    expect(() => packDigits('4111^')).toThrow();
  });

  describe('properties', () => {
    const ksn = bytesOf(10, 10);
    const blockOptions = fc.record(
      { iv: bytesOf(8, 8), openDigits: fc.constantFrom(0, 2, 4, 6, 8) },
      { requiredKeys: [] },
    );
    const slot = fc.integer({ min: 0, max: 99 });
    const encryption: fc.Arbitrary<GtkEncryption> = fc.oneof(
      fc
        .record({ method: fc.constantFrom('dukptEcb' as const, 'dukptCbc' as const), keyIndex: slot })
        .chain((base) => blockOptions.map((options) => ({ ...base, ...options }))),
      fc
        .record({
          method: fc.constantFrom('mkwkEcb' as const, 'mkwkCbc' as const),
          keyIndex: slot,
          workingKey: fc.oneof(bytesOf(8, 8), bytesOf(16, 16)),
        })
        .chain((base) => blockOptions.map((options) => ({ ...base, ...options }))),
      fc
        .record({
          method: fc.constantFrom('randomEcb' as const, 'randomCbc' as const),
          publicKey: fc.record({ modulus: bytesOf(256, 256), exponent: bytesOf(3, 1) }),
        })
        .chain((base) => blockOptions.map((options) => ({ ...base, ...options }))),
    );
    const tracks = fc.record({ pan: fc.boolean(), track1: fc.boolean(), track2: fc.boolean(), track3: fc.boolean() });
    it('decodeRequest(encodeRequest(x)) is x, for every method', () =>
      requestRoundTrip<GtkRequest>(gtkCommand, fc.record({ tracks, encryption }, { requiredKeys: ['tracks'] })));
    it('decodeResponse(encodeResponse(y)) is y', () =>
      responseRoundTrip(
        gtkCommand,
        fc.oneof(
          fc.record({ pan: bytesOf(16, 1), track2: bytesOf(28, 1), ksns: fc.record({ pan: ksn, track2: ksn }) }),
          fc.record({ track1: bytesOf(88, 1), track2: bytesOf(28, 1), encryptedKey: bytesOf(256, 256) }),
        ),
      ));
    garbageProperties(gtkCommand);
  });
});
