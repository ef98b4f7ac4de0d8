/**
 * The simulated PINPAD's multimedia (S220 §3.4, §6.6; abecs.md §3.18), specified from the spec
 * with packets built byte by byte: a graphic PINPAD (the PPC-930 profile: 240 × 320, PNG and JPG,
 * PP_MFSUP "11") loads a file in a temporary area (MLI, MLR), stores it only when its size and
 * CRC match SPE_MFINFO (MLE), within its media memory; lists (LMF), deletes (DMF) and shows it
 * (DSI) in place of the text; a text-only PINPAD does not know these commands (ERR010).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { crc16Xmodem } from '../../../drivers/abecs/crc.js';
import { encodePng, patternPng } from '../../helpers/png.js';
import { abecs, head, latin1, rawSetup, responseItems, tlv, type RawHost } from './raw-host.js';
import type { PinpadSimulator, PinpadSimulatorOptions } from '../../../drivers/simulator/index.js';

const SPE_DATAIN = 0x000f;
const SPE_MFNAME = 0x001e;
const SPE_MFINFO = 0x001f;
const PP_MFNAME = 0x805e;

const name = (text: string): Buffer => tlv(SPE_MFNAME, text.padEnd(8, ' '));

/** SPE_MFINFO B10: X4 size, B2 CRC, B1 type (01h PNG, 02h JPG, 03h GIF), B3 RUF. */
function info(file: Buffer, type: number, overrides: { size?: number; crc?: number } = {}): Buffer {
  const value = Buffer.alloc(10);
  value.writeUInt32BE(overrides.size ?? file.length, 0);
  value.writeUInt16BE(overrides.crc ?? crc16Xmodem(file), 4);
  value[6] = type;
  return tlv(SPE_MFINFO, value);
}

/** MLR with each SPE_DATAIN in a block of its own (CMD_LENn N3 + block). */
function mlr(...chunks: Buffer[]): Buffer {
  return Buffer.concat([
    latin1('MLR'),
    ...chunks.map((chunk) => {
      const block = tlv(SPE_DATAIN, chunk);
      return Buffer.concat([latin1(String(block.length).padStart(3, '0')), block]);
    }),
  ]);
}

/** Sends the file in MLR packets of up to two 995-byte SPE_DATAIN; returns the answers' heads. */
async function sendData(host: RawHost, file: Buffer): Promise<string[]> {
  const answers: string[] = [];
  for (let at = 0; at < file.length; at += 1990) {
    const first = file.subarray(at, Math.min(at + 995, file.length));
    const second = file.subarray(at + 995, Math.min(at + 1990, file.length));
    answers.push(head(await host.exchange(second.length > 0 ? mlr(first, second) : mlr(first))));
  }
  return answers;
}

async function load(host: RawHost, fileName: string, file: Buffer, type = 0x01): Promise<string[]> {
  const answers = [head(await host.exchange(abecs('MLI', name(fileName), info(file, type))))];
  answers.push(...(await sendData(host, file)));
  answers.push(head(await host.exchange('MLE')));
  return answers;
}

const listed = (raw: Buffer): string[] => {
  const names: string[] = [];
  for (let at = 9; at + 4 <= raw.length;) {
    const id = raw.readUInt16BE(at);
    const size = raw.readUInt16BE(at + 2);
    if (id === PP_MFNAME) names.push(raw.subarray(at + 4, at + 4 + size).toString('latin1'));
    at += 4 + size;
  }
  return names;
};

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function setup(options: PinpadSimulatorOptions = {}): Promise<{ sim: PinpadSimulator; host: RawHost }> {
  const rig = await rawSetup({ profile: 'ppc930', ...options });
  cleanup = rig.close;
  return rig;
}

const qr = patternPng(200, 200, 1);

describe('loading a file (MLI, MLR, MLE)', () => {
  it('stores a PNG sent in several MLR packets, lists it upper case and shows exactly its bytes', async () => {
    const { sim, host } = await setup();
    expect(qr.length).toBeGreaterThan(1990); // more than one MLR packet
    expect(new Set(await load(host, 'pix1', qr))).toEqual(new Set(['MLI000', 'MLR000', 'MLE000']));
    expect(listed(await host.exchange('LMF'))).toEqual(['PIX1    ']);
    expect(head(await host.exchange(abecs('DSI', name('PIX1'))))).toBe('DSI000');
    expect(sim.display.image).toMatchObject({ name: 'PIX1', format: 'png', width: 200, height: 200 });
    expect(sim.display.image?.bytes.equals(qr)).toBe(true);
    expect(sim.display.lines.every((line) => line === '')).toBe(true);
  });

  it('refuses at MLE a file whose CRC differs from SPE_MFINFO (ST_MFERR), and stores nothing', async () => {
    const { sim, host } = await setup();
    const crc = crc16Xmodem(qr) ^ 0x0001;
    expect(head(await host.exchange(abecs('MLI', name('PIX1'), info(qr, 0x01, { crc }))))).toBe('MLI000');
    await sendData(host, qr);
    expect(head(await host.exchange('MLE'))).toBe('MLE102');
    expect(listed(await host.exchange('LMF'))).toEqual([]);
    expect(sim.mediaMemoryUsed).toBe(0);
  });

  it('refuses at MLE a file shorter or longer than SPE_MFINFO says (ST_MFERR)', async () => {
    const { host } = await setup();
    for (const size of [qr.length + 1, qr.length - 1]) {
      expect(head(await host.exchange(abecs('MLI', name('PIX1'), info(qr, 0x01, { size }))))).toBe('MLI000');
      await sendData(host, qr);
      expect(head(await host.exchange('MLE'))).toBe('MLE102');
    }
    expect(listed(await host.exchange('LMF'))).toEqual([]);
  });

  it('answers ST_INTERR to the MLR that does not fit its media memory; MLE then frees the partial file', async () => {
    const { sim, host } = await setup({ mediaMemoryBytes: 3000 });
    expect(head(await host.exchange(abecs('MLI', name('BIG'), info(qr, 0x01))))).toBe('MLI000');
    expect(head(await host.exchange(mlr(qr.subarray(0, 995), qr.subarray(995, 1990))))).toBe('MLR000');
    expect(head(await host.exchange(mlr(qr.subarray(1990, 2985), qr.subarray(2985, 3980))))).toBe('MLR040');
    expect(sim.mediaMemoryUsed).toBe(1990);
    expect(head(await host.exchange('MLE'))).toBe('MLE102');
    expect(sim.mediaMemoryUsed).toBe(0);
    const small = encodePng(8, 8, () => [0, 0, 0]);
    expect(await load(host, 'SMALL', small)).toEqual(['MLI000', 'MLR000', 'MLE000']);
    expect(sim.mediaMemoryUsed).toBe(small.length);
  });

  it('counts stored files against the memory, and a file replacing one of its name only once', async () => {
    const file = encodePng(40, 40, (x, y) => [x * 6, y * 6, 0]);
    const { sim, host } = await setup({ mediaMemoryBytes: file.length * 2 });
    expect((await load(host, 'A', file)).at(-1)).toBe('MLE000');
    expect((await load(host, 'A', file)).at(-1)).toBe('MLE000');
    expect((await load(host, 'B', file)).at(-1)).toBe('MLE000');
    expect(await load(host, 'C', file)).toContain('MLR040');
    expect(
      sim
        .mediaFiles()
        .map((f) => f.name)
        .sort(),
    ).toEqual(['A', 'B']);
  });

  it('does not judge the type at load: a GIF (not in the PPC-930\'s PP_MFSUP "11") loads, and DSI refuses it (ST_MFERRFMT)', async () => {
    const { host } = await setup();
    const gif = Buffer.concat([latin1('GIF89a'), Buffer.from([10, 0, 10, 0, 0, 0, 0]), latin1(';')]);
    expect(await load(host, 'ANIM', gif, 0x03)).toEqual(['MLI000', 'MLR000', 'MLE000']);
    expect(head(await host.exchange(abecs('DSI', name('ANIM'))))).toBe('DSI101');
  });

  it('shows at DSI only what its display takes: a RUF type, bytes not of their type, an image larger than 240 × 320 are ST_MFERRFMT', async () => {
    const { sim, host } = await setup();
    await load(host, 'RUF', qr, 0x00);
    await load(host, 'NOTJPG', qr, 0x02);
    await load(
      host,
      'WIDE',
      encodePng(241, 10, () => [0, 0, 0]),
    );
    await load(
      host,
      'TALL',
      encodePng(10, 321, () => [0, 0, 0]),
    );
    await load(
      host,
      'FITS',
      encodePng(240, 320, () => [255, 255, 255]),
    );
    for (const file of ['RUF', 'NOTJPG', 'WIDE', 'TALL'])
      expect(head(await host.exchange(abecs('DSI', name(file)))), file).toBe('DSI101');
    expect(sim.display.image).toBeUndefined();
    expect(head(await host.exchange(abecs('DSI', name('FITS'))))).toBe('DSI000');
    expect(sim.display.image).toMatchObject({ width: 240, height: 320 });
  });

  it('shows a JPEG whose frame header (SOF0) fits the display, and refuses one that does not', async () => {
    const { sim, host } = await setup();
    // SOI, an APP0 segment, then SOF0: length 0011h, precision 8, lines, samples per line, 3 components.
    const jpeg = (lines: number, columns: number): Buffer => {
      const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
      sof.writeUInt16BE(lines, 5);
      sof.writeUInt16BE(columns, 7);
      const app0 = Buffer.concat([Buffer.from([0xff, 0xe0, 0x00, 0x10]), latin1('JFIF\0'), Buffer.alloc(9)]);
      return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
    };
    await load(host, 'PHOTO', jpeg(320, 240), 0x02);
    await load(host, 'WIDE', jpeg(240, 320), 0x02);
    expect(head(await host.exchange(abecs('DSI', name('PHOTO'))))).toBe('DSI000');
    expect(sim.display.image).toMatchObject({ format: 'jpg', width: 240, height: 320 });
    expect(head(await host.exchange(abecs('DSI', name('WIDE'))))).toBe('DSI101');
  });

  it('reads SPE_MFNAME as A8 letters and digits, and SPE_MFINFO of at least 7 bytes (S220 §6.6.1)', async () => {
    const { host } = await setup();
    const sevenBytes = tlv(SPE_MFINFO, Buffer.from([0, 0, 0, 1, 0, 0, 1]));
    expect(head(await host.exchange(abecs('MLI', name('OK'), sevenBytes)))).toBe('MLI000');
    expect(head(await host.exchange(abecs('MLI', name('QR.CODE'), info(qr, 1))))).toBe('MLI011');
    expect(head(await host.exchange(abecs('MLI', tlv(SPE_MFNAME, 'QR'), info(qr, 1))))).toBe('MLI011');
    expect(head(await host.exchange(abecs('MLI', name('ÇÃO'), info(qr, 1))))).toBe('MLI011');
    expect(head(await host.exchange(abecs('MLI', name('PIX1'), tlv(SPE_MFINFO, Buffer.alloc(6)))))).toBe('MLI011');
    expect(head(await host.exchange(abecs('MLI', name('PIX1'))))).toBe('MLI019');
    expect(head(await host.exchange(abecs('MLI', info(qr, 1))))).toBe('MLI019');
  });

  it('answers ST_INVCALL to MLR and MLE without an MLI, ST_MANDAT to an MLR without SPE_DATAIN', async () => {
    const { host } = await setup();
    expect(head(await host.exchange(mlr(Buffer.from('x'))))).toBe('MLR010');
    expect(head(await host.exchange('MLE'))).toBe('MLE010');
    await host.exchange(abecs('MLI', name('PIX1'), info(qr, 1)));
    expect(head(await host.exchange(abecs('MLR', name('PIX1'))))).toBe('MLR019');
    expect(head(await host.exchange('MLE'))).toBe('MLE102');
    expect(head(await host.exchange('MLE'))).toBe('MLE010');
  });

  it('drops an unfinished load at the next MLI (S220 §6.6.1): nothing of it is ever listed or shown', async () => {
    const { sim, host } = await setup();
    await host.exchange(abecs('MLI', name('HALF'), info(qr, 1)));
    await host.exchange(mlr(qr.subarray(0, 995)));
    expect(listed(await host.exchange('LMF'))).toEqual([]);
    expect(head(await host.exchange(abecs('DSI', name('HALF'))))).toBe('DSI100');
    const small = encodePng(8, 8, () => [0, 0, 0]);
    expect(await load(host, 'SMALL', small)).toEqual(['MLI000', 'MLR000', 'MLE000']);
    expect(sim.mediaMemoryUsed).toBe(small.length);
    expect(listed(await host.exchange('LMF'))).toEqual(['SMALL   ']);
  });
});

describe('listing, deleting and showing', () => {
  it('lists nothing on a PINPAD with no file, without error', async () => {
    const { host } = await setup();
    expect((await host.exchange('LMF')).toString('latin1')).toBe('LMF000');
  });

  it('deletes the names given, ignoring absent and malformed ones (S220 §6.6.5); no name is ST_MANDAT', async () => {
    const { host } = await setup();
    const small = encodePng(8, 8, () => [0, 0, 0]);
    for (const file of ['A1', 'B2', 'C3']) await load(host, file, small);
    expect(head(await host.exchange(abecs('DMF', name('a1'), name('GONE'), tlv(SPE_MFNAME, 'C3'), name('C3'))))).toBe(
      'DMF000',
    );
    expect(listed(await host.exchange('LMF'))).toEqual(['B2      ']);
    expect(head(await host.exchange(abecs('DMF', tlv(SPE_MFNAME, 'B2'))))).toBe('DMF000');
    expect(listed(await host.exchange('LMF'))).toEqual(['B2      ']);
    expect(head(await host.exchange('DMF'))).toBe('DMF019');
  });

  it('answers ST_MFNFOUND to DSI of a file it does not hold, ST_MANDAT without a name', async () => {
    const { host } = await setup();
    expect(head(await host.exchange(abecs('DSI', name('NONE'))))).toBe('DSI100');
    expect(head(await host.exchange('DSI'))).toBe('DSI019');
  });

  it('replaces the image with the text of the next display command (DSP, DEX, CLO, OPN)', async () => {
    const { sim, host } = await setup();
    await load(host, 'PIX1', qr);
    const show = async (): Promise<void> => {
      expect(head(await host.exchange(abecs('DSI', name('PIX1'))))).toBe('DSI000');
      expect(sim.display.image?.name).toBe('PIX1');
    };
    await show();
    await host.exchange(`DSP032${'PIX RECEBIDO'.padEnd(32)}`);
    expect(sim.display).toEqual({ lines: ['PIX RECEBIDO', '', '', '', '', '', '', ''] });
    await show();
    await host.exchange('DEX012009OBRIGADO!');
    expect(sim.display.image).toBeUndefined();
    await show();
    await host.exchange(`CLO032${' '.repeat(32)}`);
    expect(sim.display.image).toBeUndefined();
    await show();
    await host.exchange('OPN');
    expect(sim.display.image).toBeUndefined();
  });

  it('keeps its files across CLO and OPN (non-volatile, S220 §3.4.1), and CLX shows one by SPE_MFNAME', async () => {
    const { sim, host } = await setup();
    await load(host, 'LOGO', qr);
    await host.exchange(`CLO032${' '.repeat(32)}`);
    await host.exchange('OPN');
    expect(listed(await host.exchange('LMF'))).toEqual(['LOGO    ']);
    expect(head(await host.exchange(abecs('CLX', tlv(0x001b, 'CAIXA LIVRE'), name('LOGO'))))).toBe('CLX000');
    expect(sim.display.image?.name).toBe('LOGO');
    await host.exchange(abecs('CLX', tlv(0x001b, 'CAIXA LIVRE'), name('NONE')));
    expect(sim.display).toEqual({ lines: ['CAIXA LIVRE', '', '', '', '', '', '', ''] });
  });
});

describe('which PINPADs have multimedia', () => {
  it('a text-only PINPAD answers every multimedia command ERR010, as an unknown one (S220 §3.4)', async () => {
    for (const profile of ['training', 'strict', 'legacy'] as const) {
      const { host } = await setup({ profile });
      for (const packet of [
        abecs('MLI', name('PIX1'), info(qr, 1)),
        mlr(qr.subarray(0, 10)),
        latin1('MLE'),
        latin1('LMF'),
        abecs('DMF', name('PIX1')),
        abecs('DSI', name('PIX1')),
      ])
        expect((await host.exchange(packet)).toString('latin1'), `${profile} ${packet.subarray(0, 3).toString()}`).toBe(
          'ERR010',
        );
      await cleanup?.();
      cleanup = undefined;
    }
  });

  it('GIX reports PP_DSPGRSZ and PP_MFSUP on the graphic PPC-930 only', async () => {
    const ask = abecs('GIX', tlv(0x0001, Buffer.from([0x80, 0x05, 0x80, 0x21, 0x80, 0x22])));
    const ppc930 = await setup();
    const items = responseItems(await ppc930.host.exchange(ask));
    expect([...items].map(([id, value]) => [id, value.toString('latin1')])).toEqual([
      [0x8005, '1200000000'],
      [0x8021, '03200240'],
      [0x8022, '11'],
    ]);
    await cleanup?.();
    const training = await setup({ profile: 'training' });
    expect([...responseItems(await training.host.exchange(ask)).keys()]).toEqual([0x8005]);
    expect([...responseItems(await training.host.exchange('GIX000')).keys()]).not.toContain(0x8021);
  });
});
