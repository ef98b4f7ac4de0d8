import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gtkCommand, packDigits, unpackDigits, type GtkResult } from '../../../../drivers/abecs/commands/gtk.js';
import {
  decodeCommandPacket,
  encodeCommandPacket,
  encodeResponsePacket,
  decodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import { bytesOf, expectFormatError, garbageProperties, responseRoundTrip } from './codec-properties.js';

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
      gtkCommand.encodeRequest({ tracks: { pan: true }, encryption: { method: 'mkwkEcb', keyIndex: 1 } }),
    ).toThrow(/working key/);
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
    it('decodeResponse(encodeResponse(y)) is y', () =>
      responseRoundTrip(
        gtkCommand,
        fc.record({ pan: bytesOf(16, 1), track2: bytesOf(28, 1), ksns: fc.record({ pan: ksn, track2: ksn }) }),
      ));
    garbageProperties(gtkCommand);
  });
});
