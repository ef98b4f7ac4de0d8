import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AbecsFrameParser,
  encodeFrame,
  FrameDecoder,
  FrameError,
  MAX_PKTDATA,
  type DecodedItem,
} from '../../../drivers/abecs/frame.js';

const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');

/** Worked frames of abecs.md §1.5: packet data → bytes on the wire. */
const WORKED_FRAMES: Array<[string, Buffer, string]> = [
  ['command OPN', ascii('OPN'), '16 4F 50 4E 17 A8 A9'],
  ['response DSP000', ascii('DSP000'), '16 44 53 50 30 30 30 17 39 63'],
  ['command OPN000', ascii('OPN000'), '16 4F 50 4E 30 30 30 17 77 5E'],
  ['command GIX000', ascii('GIX000'), '16 47 49 58 30 30 30 17 7F 4A'],
  ['command GIN00200', ascii('GIN00200'), '16 47 49 4E 30 30 32 30 30 17 EE CA'],
  ['response CLO000', ascii('CLO000'), '16 43 4C 4F 30 30 30 17 9E 03'],
  [
    'command DSP032 with Latin-1 text and a raw 13h CRC byte',
    ascii('DSP032    OPERAÇÃO       FINALIZADA   '),
    '16 44 53 50 30 33 32 20 20 20 20 4F 50 45 52 41 C7 C3 4F 20 20 20 20 20 20 20 46 49 4E 41 4C 49 5A 41 44 41 20 20 20 17 52 13',
  ],
  [
    'blocking GCD with TLV parameters',
    hex('47 43 44 30 31 36 00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09'),
    '16 47 43 44 30 31 36 00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09 17 C1 42',
  ],
  [
    'notification NTM',
    ascii('NTM000032SELECIONADO:    CREDITO         '),
    '16 4E 54 4D 30 30 30 30 33 32 53 45 4C 45 43 49 4F 4E 41 44 4F 3A 20 20 20 20 43 52 45 44 49 54 4F 20 20 20 20 20 20 20 20 20 17 FE DC',
  ],
];

// GCX062 of abecs.md §1.5: parameter ids 0013h, 0016h and 0017h must be DC3-escaped.
const GCX_LOGICAL = hex(
  '47 43 58 30 36 32 00 12 00 08 30 32 30 31 30 32 30 34 00 13 00 0C 303030303030303030303031' +
    '00 15 00 06 32 35 31 31 31 31 00 16 00 06 31 37 33 36 34 37 00 17 00 05 31 30 30 30 30 00 21 00 01 00',
);
const GCX_WIRE = hex(
  '16 47 43 58 30 36 32 00 12 00 08 30 32 30 31 30 32 30 34 00 13 33 00 0C 303030303030303030303031' +
    '00 15 00 06 32 35 31 31 31 31 00 13 36 00 06 31 37 33 36 34 37 00 13 37 00 05 31 30 30 30 30 00 21 00 01 00 17 AF 70',
);

function decodeAll(bytes: Uint8Array): DecodedItem[] {
  return new FrameDecoder().push(bytes);
}

describe('encodeFrame', () => {
  it.each(WORKED_FRAMES)('reproduces the worked frame: %s', (_name, data, wire) => {
    expect(encodeFrame(data)).toEqual(hex(wire));
  });

  it('escapes 13h, 16h and 17h inside the data and computes the CRC over the unescaped bytes (GCX062)', () => {
    expect(encodeFrame(GCX_LOGICAL)).toEqual(GCX_WIRE);
  });

  it('never escapes the CRC bytes', () => {
    const wire = encodeFrame(ascii('DSP032    OPERAÇÃO       FINALIZADA   '));
    expect(wire.subarray(-3)).toEqual(hex('17 52 13'));
  });

  it('refuses empty and oversized packets with a clear error', () => {
    expect(() => encodeFrame(Buffer.alloc(0))).toThrow(FrameError);
    expect(() => encodeFrame(Buffer.alloc(MAX_PKTDATA + 1, 0x41))).toThrow(/at most 2049 bytes/);
    expect(encodeFrame(Buffer.alloc(MAX_PKTDATA, 0x41)).length).toBe(MAX_PKTDATA + 4);
  });
});

describe('FrameDecoder', () => {
  it.each(WORKED_FRAMES)('decodes the worked frame: %s', (_name, data, wire) => {
    expect(decodeAll(hex(wire))).toEqual([{ kind: 'packet', data }]);
  });

  it('un-escapes DC3 sequences (GCX062)', () => {
    expect(decodeAll(GCX_WIRE)).toEqual([{ kind: 'packet', data: GCX_LOGICAL }]);
  });

  it('reports a corrupted CRC (the spec example the PINPAD answers with NAK)', () => {
    expect(decodeAll(hex('16 4F 50 4E 17 00 00'))).toEqual([{ kind: 'error', reason: 'crc' }]);
  });

  it('reports bytes outside packets one by one (ACK, NAK, EOT, noise)', () => {
    expect(decodeAll(hex('06 15 04 41'))).toEqual([
      { kind: 'byte', byte: 0x06 },
      { kind: 'byte', byte: 0x15 },
      { kind: 'byte', byte: 0x04 },
      { kind: 'byte', byte: 0x41 },
    ]);
  });

  it('separates an ACK and a response arriving in one chunk', () => {
    expect(decodeAll(hex('06 16 44 53 50 30 30 30 17 39 63'))).toEqual([
      { kind: 'byte', byte: 0x06 },
      { kind: 'packet', data: ascii('DSP000') },
    ]);
  });

  it('reports an invalid escape, a raw SYN inside a packet, and an overflow', () => {
    expect(decodeAll(hex('16 41 13 41 17 00 00'))[0]).toEqual({ kind: 'error', reason: 'escape' });
    expect(decodeAll(hex('16 41 16'))[0]).toEqual({ kind: 'error', reason: 'syntax' });
    const huge = Buffer.concat([hex('16'), Buffer.alloc(MAX_PKTDATA + 1, 0x41)]);
    expect(decodeAll(huge)[0]).toEqual({ kind: 'error', reason: 'overflow' });
  });

  it('knows when it is in the middle of a packet, and reset() drops it', () => {
    const decoder = new FrameDecoder();
    decoder.push(hex('16 4F 50'));
    expect(decoder.receiving).toBe(true);
    decoder.reset();
    expect(decoder.receiving).toBe(false);
    expect(decoder.push(hex('16 4F 50 4E 17 A8 A9'))).toEqual([{ kind: 'packet', data: ascii('OPN') }]);
  });

  it('decodes what encodeFrame encodes, for any data and any chunking', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: MAX_PKTDATA }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 20 }),
        (data, cuts) => {
          const wire = encodeFrame(data);
          const decoder = new FrameDecoder();
          const items: DecodedItem[] = [];
          let at = 0;
          for (let i = 0; at < wire.length; i++) {
            const size = cuts[i % cuts.length]!;
            items.push(...decoder.push(wire.subarray(at, at + size)));
            at += size;
          }
          expect(items).toEqual([{ kind: 'packet', data: Buffer.from(data) }]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws on random garbage and always returns to a usable state', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (garbage) => {
        const decoder = new FrameDecoder();
        decoder.push(garbage);
        decoder.reset();
        expect(decoder.push(hex('16 4F 50 4E 17 A8 A9'))).toEqual([{ kind: 'packet', data: ascii('OPN') }]);
      }),
      { numRuns: 300 },
    );
  });

  it('detects any single-byte corruption of a frame', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (data, position, flip) => {
          const wire = Buffer.from(encodeFrame(data));
          const at = 1 + (position % (wire.length - 1));
          wire[at] = wire[at]! ^ flip;
          const packets = decodeAll(wire).filter((item) => item.kind === 'packet');
          expect(packets.some((p) => p.kind === 'packet' && Buffer.compare(p.data, Buffer.from(data)) === 0)).toBe(
            false,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('AbecsFrameParser', () => {
  it('is a stream: bytes in, decoded items out', async () => {
    const parser = new AbecsFrameParser();
    const items: DecodedItem[] = [];
    parser.on('data', (item: DecodedItem) => items.push(item));
    parser.write(hex('06 16 44 53 50'));
    parser.write(hex('30 30 30 17 39 63 04'));
    parser.end();
    await new Promise((resolve) => parser.on('end', resolve));
    expect(items).toEqual([
      { kind: 'byte', byte: 0x06 },
      { kind: 'packet', data: ascii('DSP000') },
      { kind: 'byte', byte: 0x04 },
    ]);
  });
});
