import bwipjs from 'bwip-js';
import { describe, expect, it } from 'vitest';
import { pixCopyAndPaste } from '../../../../main/sandbox/pix/brcode.js';
import { PIX_QR_SCALE, renderPixQrPng } from '../../../../main/sandbox/pix/qr.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the IHDR chunk, which a PNG must start with. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('Pix QR PNG', () => {
  it('is a square PNG sized for the payload modules plus a 4-module quiet zone', async () => {
    const payload = pixCopyAndPaste({
      key: '123e4567-e12b-12d1-a456-426655440000',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      amountCentavos: 12_345,
    });
    const png = await renderPixQrPng(payload);
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    const symbol = bwipjs.raw('qrcode', payload, 'eclevel=M')[0];
    const modules = symbol && 'pixx' in symbol ? symbol.pixx : 0;
    expect(modules).toBeGreaterThanOrEqual(21);
    expect(pngSize(png)).toEqual({ width: (modules + 8) * PIX_QR_SCALE, height: (modules + 8) * PIX_QR_SCALE });
  });

  it('grows with a longer payload', async () => {
    const short = pngSize(await renderPixQrPng('0002'));
    const long = pngSize(await renderPixQrPng('0002'.repeat(60)));
    expect(long.width).toBeGreaterThan(short.width);
  });

  it('refuses an empty payload', async () => {
    await expect(renderPixQrPng('')).rejects.toThrow(/empty/);
  });
});
