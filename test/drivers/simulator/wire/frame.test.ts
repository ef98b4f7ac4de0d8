/**
 * The frames of S220 §2.2 as the PINPAD sends and receives them: SYN, PKTDATA with DC3
 * substitution, ETB, a raw big-endian CRC. Worked frames from abecs.md §1.5 and S220 §2.2.2.
 */
import { describe, expect, it } from 'vitest';
import {
  CAN,
  ETB,
  FrameReceiver,
  MAX_PKTDATA,
  NAK,
  SYN,
  encodeFrame,
  type ReceivedItem,
} from '../../../../drivers/simulator/wire/frame.js';
import { crc16 } from '../../../../drivers/simulator/wire/crc.js';
import { cat, GCX062, hex, latin1 } from './bytes.js';

const GCX062_WIRE = hex(`16 47 43 58 30 36 32 00 12 00 08 30 32 30 31 30 32 30 34 00 13 33 00 0C ${'30 '.repeat(11)}31
  00 15 00 06 32 35 31 31 31 31 00 13 36 00 06 31 37 33 36 34 37 00 13 37 00 05 31 30 30 30 30 00 21 00 01 00 17 AF 70`);

const DSP032 = latin1('DSP032    OPERAÇÃO       FINALIZADA   ');
const DSP032_WIRE = hex(`16 44 53 50 30 33 32 20 20 20 20 4F 50 45 52 41 C7 C3 4F 20 20 20 20 20 20 20 46 49 4E 41 4C 49
  5A 41 44 41 20 20 20 17 52 13`);

const packet = (data: Buffer): ReceivedItem => ({ kind: 'packet', data });

describe('encodeFrame (what the PINPAD sends)', () => {
  it.each([
    ['the response DSP000 (§2.2.2.2)', latin1('DSP000'), hex('16 44 53 50 30 30 30 17 39 63')],
    ['the response CLO000', latin1('CLO000'), hex('16 43 4C 4F 30 30 30 17 9E 03')],
    [
      'the notification NTM000032 "SELECIONADO:    CREDITO" (TRACE)',
      latin1('NTM000032SELECIONADO:    CREDITO         '),
      hex(`16 4E 54 4D 30 30 30 30 33 32 53 45 4C 45 43 49 4F 4E 41 44 4F 3A 20 20 20 20 43 52 45 44 49 54 4F
        20 20 20 20 20 20 20 20 20 17 FE DC`),
    ],
    ['OPN (§2.2.2.1)', latin1('OPN'), hex('16 4F 50 4E 17 A8 A9')],
  ])('frames %s', (_name, pktdata, wire) => {
    expect(encodeFrame(pktdata)).toEqual(wire);
  });

  it('sends the CRC raw even when it is 13h (DSP032 of §2.2.2.2 ends 52 13)', () => {
    expect(encodeFrame(DSP032)).toEqual(DSP032_WIRE);
  });

  it('substitutes 13h, 16h and 17h inside PKTDATA with DC3 + byte + 20h (the TRACE GCX062)', () => {
    expect(encodeFrame(GCX062)).toEqual(GCX062_WIRE);
    const crc = crc16(Buffer.of(0x13, 0x16, 0x17, 0x18, ETB));
    expect(encodeFrame(Buffer.of(0x13, 0x16, 0x17, 0x18))).toEqual(
      cat(hex('16 13 33 13 36 13 37 18 17'), Buffer.of(crc >> 8, crc & 0xff)),
    );
  });

  it('refuses a PKTDATA over 2049 bytes (§2.2.1)', () => {
    expect(encodeFrame(Buffer.alloc(MAX_PKTDATA, 0x41)).length).toBeGreaterThan(MAX_PKTDATA);
    expect(() => encodeFrame(Buffer.alloc(MAX_PKTDATA + 1, 0x41))).toThrow(RangeError);
  });
});

describe('FrameReceiver (what the PINPAD receives, §6.2.1)', () => {
  it("reads the spec's command frames", () => {
    const receiver = new FrameReceiver();
    expect(receiver.push(hex('16 4F 50 4E 17 A8 A9'))).toEqual([packet(latin1('OPN'))]);
    expect(receiver.push(hex('16 47 49 58 30 30 30 17 7F 4A'))).toEqual([packet(latin1('GIX000'))]);
    expect(receiver.push(hex('16 47 49 4E 30 30 32 30 30 17 EE CA'))).toEqual([packet(latin1('GIN00200'))]);
    expect(receiver.push(DSP032_WIRE)).toEqual([packet(DSP032)]);
    expect(receiver.push(hex('16 47 43 44 30 31 36 00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09 17 C1 42'))).toEqual(
      [packet(cat('GCD016', hex('00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09')))],
    );
  });

  it('undoes the DC3 substitution and reads the CRC raw (GCX062)', () => {
    expect(new FrameReceiver().push(GCX062_WIRE)).toEqual([packet(GCX062)]);
  });

  it('reports a wrong CRC as an error (the corrupted OPN of §2.2.2.1, answered NAK)', () => {
    expect(new FrameReceiver().push(hex('16 4F 50 4E 17 00 00'))).toEqual([{ kind: 'error', reason: 'crc' }]);
  });

  it('reports a DC3 followed by anything but 33h, 36h or 37h as an error', () => {
    expect(new FrameReceiver().push(hex('16 47 13 41 49 58 17 00 00'))).toEqual([
      { kind: 'error', reason: 'substitution' },
    ]);
  });

  it('reports a raw SYN inside a packet as an error (only DC3 36h may stand for it)', () => {
    expect(new FrameReceiver().push(cat(hex('16 47 49'), encodeFrame(latin1('GIX000'))))).toEqual([
      { kind: 'error', reason: 'syn-in-packet' },
    ]);
  });

  it('reports a PKTDATA over 2049 bytes as an overflow', () => {
    const items = new FrameReceiver().push(Buffer.concat([Buffer.of(SYN), Buffer.alloc(MAX_PKTDATA + 1, 0x41)]));
    expect(items).toEqual([{ kind: 'error', reason: 'overflow' }]);
  });

  it('stops at an error: the rest of the chunk belongs to the purge', () => {
    const receiver = new FrameReceiver();
    expect(receiver.push(cat(hex('16 4F 50 4E 17 00 00'), encodeFrame(latin1('GIX000'))))).toEqual([
      { kind: 'error', reason: 'crc' },
    ]);
    expect(receiver.receiving).toBe(false);
  });

  it('reports the bytes outside a packet as they are: CAN, NAK, noise', () => {
    expect(
      new FrameReceiver().push(Buffer.concat([Buffer.of(CAN, NAK, 0x00, 0x41), encodeFrame(latin1('GIX000'))])),
    ).toEqual([
      { kind: 'byte', byte: CAN },
      { kind: 'byte', byte: NAK },
      { kind: 'byte', byte: 0x00 },
      { kind: 'byte', byte: 0x41 },
      packet(latin1('GIX000')),
    ]);
  });

  it('takes CAN and NAK inside a packet as data', () => {
    expect(new FrameReceiver().push(encodeFrame(Buffer.of(0x47, CAN, NAK)))).toEqual([
      packet(Buffer.of(0x47, CAN, NAK)),
    ]);
  });

  it('assembles a packet fed one byte at a time and says when it is mid-packet', () => {
    const receiver = new FrameReceiver();
    const items: ReceivedItem[] = [];
    const wire = GCX062_WIRE;
    for (let i = 0; i < wire.length; i++) {
      items.push(...receiver.push(wire.subarray(i, i + 1)));
      if (i < wire.length - 1) expect(receiver.receiving).toBe(true);
    }
    expect(items).toEqual([packet(GCX062)]);
    expect(receiver.receiving).toBe(false);
  });

  it('forgets a packet in progress on reset (inter-byte timeout)', () => {
    const receiver = new FrameReceiver();
    receiver.push(hex('16 4F 50'));
    receiver.reset();
    expect(receiver.receiving).toBe(false);
    expect(receiver.push(hex('4E 17 A8 A9'))).toEqual([0x4e, ETB, 0xa8, 0xa9].map((byte) => ({ kind: 'byte', byte })));
  });
});
