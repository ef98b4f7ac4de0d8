/**
 * The application envelope inside PKTDATA (S220 §2.3): CMD_ID + N3-length blocks in, RSP_ID +
 * RSP_STAT + blocks out, six bytes for an error, "ERR010" for an unknown command, NTM for
 * notifications.
 */
import { describe, expect, it } from 'vitest';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeNotification,
  encodeResponsePacket,
  EnvelopeError,
  expectNoParameters,
  notificationText,
  readCommandId,
} from '../../../../drivers/simulator/wire/packet.js';
import { WireStatusError } from '../../../../drivers/simulator/wire/errors.js';
import { cat, hex, latin1 } from './bytes.js';

describe('commands as the PINPAD reads them (§2.3.1)', () => {
  it('reads a bare command and the same with an empty block (OPN, OPN000: §6.4.1)', () => {
    expect(decodeCommandPacket(latin1('OPN'))).toEqual({ id: 'OPN', blocks: [] });
    expect(decodeCommandPacket(latin1('OPN000'))).toEqual({ id: 'OPN', blocks: [Buffer.alloc(0)] });
  });

  it("reads the N3-length blocks (GIN00200, the GCD016 of §2.2.2.3, GOC's three blocks)", () => {
    expect(decodeCommandPacket(latin1('GIN00200'))).toEqual({ id: 'GIN', blocks: [latin1('00')] });
    expect(decodeCommandPacket(cat('GCD016', hex('00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09')))).toEqual({
      id: 'GCD',
      blocks: [hex('00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09')],
    });
    expect(decodeCommandPacket(latin1('GOC003abc002de003000')).blocks).toEqual([
      latin1('abc'),
      latin1('de'),
      latin1('000'),
    ]);
  });

  it('refuses block lengths that are not three digits, or blocks that run past the packet', () => {
    for (const bad of ['GCX0A0xyz', 'GCX050xxxxxxxxxx', 'GIN00', 'GIN0020']) {
      let error: unknown;
      try {
        decodeCommandPacket(latin1(bad));
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(EnvelopeError);
      expect((error as EnvelopeError).id).toBe(bad.slice(0, 3));
    }
  });

  it('names no CMD_ID when the first three bytes are not an A3 field', () => {
    expect(readCommandId(latin1('GI'))).toBeUndefined();
    expect(readCommandId(hex('12 00 14 8D'))).toBeUndefined();
    expect(readCommandId(latin1('XYZ0A0'))).toBe('XYZ');
    expect(() => decodeCommandPacket(hex('12 EA 22'))).toThrow(EnvelopeError);
  });

  it('accepts data in a parameterless command unless the reading is strict', () => {
    expect(() => expectNoParameters(decodeCommandPacket(latin1('GKY000')), true)).not.toThrow();
    expect(() => expectNoParameters(decodeCommandPacket(latin1('GKY0011')), false)).not.toThrow();
    expect(() => expectNoParameters(decodeCommandPacket(latin1('GKY0011')), true)).toThrow(WireStatusError);
  });
});

describe('responses as the PINPAD writes them (§2.3.2, §2.3.4)', () => {
  it('writes RSP_ID, RSP_STAT and the blocks with their N3 lengths', () => {
    expect(encodeResponsePacket({ id: 'DSP', status: 0, blocks: [] })).toEqual(latin1('DSP000'));
    expect(encodeResponsePacket({ id: 'GTS', status: 0, blocks: [latin1('XEMVST0003')] })).toEqual(
      latin1('GTS000010XEMVST0003'),
    );
    expect(encodeResponsePacket({ id: 'GKY', status: 13, blocks: [] })).toEqual(latin1('GKY013'));
    expect(encodeResponsePacket({ id: 'ERR', status: 10, blocks: [] })).toEqual(latin1('ERR010'));
  });

  it('never writes data with a status other than 000', () => {
    expect(() => encodeResponsePacket({ id: 'GIX', status: 11, blocks: [latin1('x')] })).toThrow(RangeError);
  });

  it('refuses a block over 999 bytes and an id that is not three characters', () => {
    expect(() => encodeResponsePacket({ id: 'GIX', status: 0, blocks: [Buffer.alloc(1000)] })).toThrow(RangeError);
    expect(() => encodeResponsePacket({ id: 'GX', status: 0, blocks: [] })).toThrow(RangeError);
  });

  it('reads a recorded response back (the replay): the GIX000151 of §3.2.4', () => {
    const data = cat('GIX000151', hex('80 01 00 0C'), '991274366155', Buffer.alloc(135, 0x20));
    expect(decodeResponsePacket(data)).toEqual({ id: 'GIX', status: 0, blocks: [data.subarray(9)] });
    expect(decodeResponsePacket(latin1('GCX070'))).toEqual({ id: 'GCX', status: 70, blocks: [] });
    expect(() => decodeResponsePacket(latin1('GCXOK!'))).toThrow(EnvelopeError);
  });
});

describe('notifications (§2.3.3)', () => {
  it('writes NTM, "000" and the N3 length before NTM_MSG (the GPN example of §3.3.11)', () => {
    const message = 'RG: últimos 2   dígitos:        ';
    expect(encodeNotification(message)).toEqual(
      hex(`4E 54 4D 30 30 30 30 33 32 52 47 3A 20 FA 6C 74 69 6D 6F 73 20 32 20 20 20 64 ED 67 69 74 6F 73
        3A 20 20 20 20 20 20 20 20`),
    );
    expect(notificationText(encodeNotification(message))).toBe(message);
  });

  it('holds at most 32 characters', () => {
    expect(encodeNotification('')).toEqual(latin1('NTM000000'));
    expect(() => encodeNotification('X'.repeat(33))).toThrow(RangeError);
  });
});
