import { describe, expect, it } from 'vitest';
import { BrCodeError } from '../../../main/contract/brcode.js';
import { renderPixQrSvg } from '../../../main/pix/qr-svg.js';
import { pixCopyAndPaste } from '../../../main/sandbox/pix/brcode.js';
import { readQr } from '../../helpers/qr-decode.js';
import { thrown } from '../../helpers/thrown.js';

/** Paints the SVG's rectangles (one unit a module) at `scale` pixels a unit, as a browser would, into RGBA. */
function rasterize(svg: string, scale: number): { rgba: Uint8ClampedArray; side: number } {
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  const units = Number(viewBox?.[1]);
  const side = units * scale;
  const rgba = new Uint8ClampedArray(side * side * 4).fill(255);
  const path = /<path fill="#000" d="([^"]*)"/.exec(svg)?.[1] ?? '';
  for (const run of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    const [x, y, length] = [Number(run[1]), Number(run[2]), Number(run[3])];
    for (let py = y * scale; py < (y + 1) * scale; py++) {
      for (let px = x * scale; px < (x + length) * scale; px++)
        rgba.fill(0, (py * side + px) * 4, (py * side + px) * 4 + 3);
    }
  }
  return { rgba, side };
}

describe("the Pix QR for the cashier's window", () => {
  const code = pixCopyAndPaste({
    key: '4f0b8c1e-7a3d-4e92-b5c6-2d9e8f1a7b30',
    merchantName: 'Loja Centro',
    merchantCity: 'SAO PAULO',
    amountCentavos: 15_000,
    txid: 'abc',
  });

  it('is an SVG on a white ground with the quiet zone that reads back as the BR Code', () => {
    const qr = renderPixQrSvg(code);
    expect(qr.svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 (\d+) \1"/);
    expect(qr.svg).toContain(`<rect width="${qr.sideModules}" height="${qr.sideModules}" fill="#fff"/>`);
    const { rgba, side } = rasterize(qr.svg, 4);
    expect(readQr(rgba, side, side)).toBe(code);
    expect(Buffer.from(qr.dataUrl.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toBe(qr.svg);
  });

  it('refuses a payload that is not a Pix BR Code', () => {
    expect(thrown(() => renderPixQrSvg('hello'))).toBeInstanceOf(BrCodeError);
  });
});
