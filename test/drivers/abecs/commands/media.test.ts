/**
 * The multimedia codecs (abecs.md §3.18, S220 §3.4): the bytes on the wire against the spec's own
 * examples where it gives them (MLI, the start of MLR, MLE, LMF, DSI), the A8 name and the B10
 * SPE_MFINFO, how a file is cut into MLR packets, and what is refused before anything is sent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../../drivers/errors.js';
import { dmfCommand } from '../../../../drivers/abecs/commands/dmf.js';
import { dsiCommand } from '../../../../drivers/abecs/commands/dsi.js';
import { lmfCommand } from '../../../../drivers/abecs/commands/lmf.js';
import { looksLike, mediaFileName, mlrPackets, MLR_CHUNK } from '../../../../drivers/abecs/commands/media-support.js';
import { mleCommand } from '../../../../drivers/abecs/commands/mle.js';
import { mliCommand } from '../../../../drivers/abecs/commands/mli.js';
import { mlrCommand } from '../../../../drivers/abecs/commands/mlr.js';
import { decodeResponsePacket, encodeCommandPacket } from '../../../../drivers/abecs/envelope.js';
import { PP, SPE } from '../../../../drivers/abecs/ids.js';
import { checkGarbage, checkRequestRoundTrip, checkResponseRoundTrip, fromHex, hex } from './basic-arbitraries.js';

const packetHex = (envelope: Parameters<typeof encodeCommandPacket>[0]): string => hex(encodeCommandPacket(envelope));
const name = fc.stringMatching(/^[A-Z0-9]{1,8}$/);

describe('media file names (SPE_MFNAME / PP_MFNAME, A8)', () => {
  it('are 1–8 letters or digits, sent upper case and space padded', () => {
    expect(mediaFileName('QRCODE01')).toBe('QRCODE01');
    expect(mediaFileName('pix1')).toBe('PIX1    ');
    for (const bad of ['', 'QRCODE012', 'qr.png', 'PIX 1', 'AÇÃO', '../x'])
      expect(() => mediaFileName(bad), bad).toThrow(InvalidArgumentError);
  });
});

describe('MLI codec', () => {
  it('writes the spec example byte for byte: QRCODE01, PNG of 3 334 bytes, CRC F211h (S220 §3.4.1)', () => {
    const cmd = mliCommand.encodeRequest({ name: 'QRCODE01', size: 3334, crc: 0xf211, type: 'png' });
    expect(packetHex(cmd)).toBe(
      '4D 4C 49 30 32 36 00 1E 00 08 51 52 43 4F 44 45 30 31 00 1F 00 0A 00 00 0D 06 F2 11 01 00 00 00',
    );
  });

  it('codes the type as SPE_MFINFO B1: 01h PNG, 02h JPG, 03h GIF, then B3 RUF 000000h', () => {
    const info = (type: 'png' | 'jpg' | 'gif'): string =>
      hex(mliCommand.encodeRequest({ name: 'A', size: 1, crc: 0, type }).blocks[0]!.subarray(16));
    expect([info('png'), info('jpg'), info('gif')]).toEqual([
      '00 00 00 01 00 00 01 00 00 00',
      '00 00 00 01 00 00 02 00 00 00',
      '00 00 00 01 00 00 03 00 00 00',
    ]);
  });

  it('refuses a size, CRC or type SPE_MFINFO cannot carry', () => {
    expect(() => mliCommand.encodeRequest({ name: 'A', size: 2 ** 32, crc: 0, type: 'png' })).toThrow(/size/);
    expect(() => mliCommand.encodeRequest({ name: 'A', size: 1, crc: 0x10000, type: 'png' })).toThrow(/CRC/);
    expect(() => mliCommand.encodeRequest({ name: 'A', size: 1, crc: 0, type: 'bmp' as 'png' })).toThrow(
      /png, jpg, gif/,
    );
  });

  it('round-trips requests and results, and only ever throws AbecsFormatError on garbage', () => {
    checkRequestRoundTrip(
      mliCommand,
      fc.record({
        name,
        size: fc.integer({ min: 0, max: 0xffffffff }),
        crc: fc.integer({ min: 0, max: 0xffff }),
        type: fc.constantFrom('png' as const, 'jpg' as const, 'gif' as const),
      }),
    );
    checkResponseRoundTrip(mliCommand, fc.constant({}));
    checkGarbage(mliCommand, [SPE.MFNAME, SPE.MFINFO]);
  });
});

describe('MLR codec', () => {
  it('puts each SPE_DATAIN in a block of its own, as the spec example\'s "MLR436…436…"', () => {
    const png = fromHex('89 50 4E 47 0D 0A 1A 0A 00 00 00 0D 49 48 44 52');
    const first = Buffer.concat([png, Buffer.alloc(432 - png.length, 0x41)]);
    const cmd = mlrCommand.encodeRequest({ chunks: [first, Buffer.alloc(432, 0x42)] });
    const packet = encodeCommandPacket(cmd);
    expect(hex(packet.subarray(0, 26))).toBe(
      '4D 4C 52 34 33 36 00 0F 01 B0 89 50 4E 47 0D 0A 1A 0A 00 00 00 0D 49 48 44 52',
    );
    expect(packet.subarray(3 + 3 + 436, 3 + 3 + 436 + 7).toString('latin1')).toBe('436\x00\x0f\x01\xb0');
    expect(packet.length).toBe(3 + 2 * (3 + 436));
  });

  it('cuts a file into packets of two 995-byte pieces, the last ones shorter, and never an empty piece', () => {
    const file = Buffer.from(Array.from({ length: 4000 }, (_, i) => i % 251));
    const packets = mlrPackets(file);
    expect(packets.map((chunks) => chunks.map((chunk) => chunk.length))).toEqual([[995, 995], [995, 995], [20]]);
    expect(Buffer.concat(packets.flat())).toEqual(file);
    for (const chunks of packets)
      expect(encodeCommandPacket(mlrCommand.encodeRequest({ chunks })).length).toBeLessThanOrEqual(2044);
    expect(mlrPackets(Buffer.alloc(MLR_CHUNK * 2)).length).toBe(1);
    expect(mlrPackets(Buffer.alloc(0))).toEqual([]);
  });

  it('refuses no piece, three pieces, an empty one or one over 995 bytes', () => {
    for (const chunks of [
      [],
      [Buffer.alloc(1), Buffer.alloc(1), Buffer.alloc(1)],
      [Buffer.alloc(0)],
      [Buffer.alloc(996)],
    ])
      expect(() => mlrCommand.encodeRequest({ chunks })).toThrow(InvalidArgumentError);
  });

  it('round-trips requests and results, and only ever throws AbecsFormatError on garbage', () => {
    const chunk = fc.uint8Array({ minLength: 1, maxLength: 995 }).map((bytes) => Buffer.from(bytes));
    checkRequestRoundTrip(mlrCommand, fc.record({ chunks: fc.array(chunk, { minLength: 1, maxLength: 2 }) }));
    checkResponseRoundTrip(mlrCommand, fc.constant({}));
    checkGarbage(mlrCommand, [SPE.DATAIN]);
  });
});

describe('MLE, LMF, DMF and DSI codecs', () => {
  it('sends MLE and LMF bare, as the spec examples do', () => {
    expect(packetHex(mleCommand.encodeRequest({}))).toBe('4D 4C 45');
    expect(packetHex(lmfCommand.encodeRequest({}))).toBe('4C 4D 46');
  });

  it("reads the spec's LMF answer: five names, padding trimmed (S220 §3.4.4)", () => {
    const raw = fromHex(`4C 4D 46 30 30 30 30 36 30 80 5E 00 08 53 49 47
      4E 41 4C 53 20 80 5E 00 08 50 52 45 53 54 4F 20
      20 80 5E 00 08 51 52 43 4F 44 45 30 31 80 5E 00
      08 46 45 45 44 42 41 43 4B 80 5E 00 08 4D 4F 56
      4E 50 49 43 54`);
    expect(lmfCommand.decodeResponse(decodeResponsePacket(raw))).toEqual({
      names: ['SIGNALS', 'PRESTO', 'QRCODE01', 'FEEDBACK', 'MOVNPICT'],
    });
    expect(lmfCommand.decodeResponse(decodeResponsePacket(Buffer.from('LMF000')))).toEqual({ names: [] });
  });

  it('writes the spec\'s DSI example: "DSI012" + 001Eh "QRCODE01" (S220 §3.4.6)', () => {
    expect(packetHex(dsiCommand.encodeRequest({ name: 'qrcode01' }))).toBe(
      '44 53 49 30 31 32 00 1E 00 08 51 52 43 4F 44 45 30 31',
    );
  });

  it('deletes several files in one DMF, each as a SPE_MFNAME', () => {
    expect(encodeCommandPacket(dmfCommand.encodeRequest({ names: ['MOVNPICT', 'testecho'] })).toString('latin1')).toBe(
      'DMF024\x00\x1e\x00\x08MOVNPICT\x00\x1e\x00\x08TESTECHO',
    );
    expect(() => dmfCommand.encodeRequest({ names: [] })).toThrow(InvalidArgumentError);
    expect(() => dmfCommand.encodeRequest({ names: ['OK', 'not ok'] })).toThrow(InvalidArgumentError);
  });

  it('round-trip, and only ever throw AbecsFormatError on garbage', () => {
    checkRequestRoundTrip(dsiCommand, fc.record({ name }));
    checkRequestRoundTrip(dmfCommand, fc.record({ names: fc.array(name, { minLength: 1, maxLength: 20 }) }));
    checkResponseRoundTrip(lmfCommand, fc.record({ names: fc.array(name, { maxLength: 40 }) }));
    checkGarbage(mleCommand, [SPE.MFNAME]);
    checkGarbage(lmfCommand, [PP.MFNAME]);
    checkGarbage(dmfCommand, [SPE.MFNAME]);
    checkGarbage(dsiCommand, [SPE.MFNAME]);
  });
});

describe('file types', () => {
  it('tell a PNG, a JPEG and a GIF by their first bytes', () => {
    const png = fromHex('89 50 4E 47 0D 0A 1A 0A 00');
    const jpg = fromHex('FF D8 FF E0 00 10');
    const gif = Buffer.from('GIF89a\x01\x00', 'latin1');
    expect([looksLike('png', png), looksLike('jpg', jpg), looksLike('gif', gif)]).toEqual([true, true, true]);
    expect([looksLike('png', jpg), looksLike('jpg', gif), looksLike('gif', png)]).toEqual([false, false, false]);
  });
});
