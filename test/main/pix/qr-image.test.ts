import { describe, expect, it } from 'vitest';
import { crc16Ccitt } from '../../../main/contract/brcode.js';
import { QrImageError, renderPinpadQr, type PinpadScreen } from '../../../main/pix/qr-image.js';
import { pixCopyAndPaste } from '../../../main/sandbox/pix/brcode.js';
import { decodeGif, decodePng, decodeQrGif, decodeQrPng, isBlack } from '../../helpers/qr-decode.js';
import { thrown } from '../../helpers/thrown.js';

/** A bolepix's BR Code as the sandbox issues it (static key, amount, txid). */
const bolepixCode = pixCopyAndPaste({
  key: '4f0b8c1e-7a3d-4e92-b5c6-2d9e8f1a7b30',
  merchantName: 'Loja Centro Comercio de Alimentos',
  merchantCity: 'SAO PAULO',
  amountCentavos: 15_000,
  txid: 'a1b2c3d4e5f60718293a4b5c6',
});
/** A dynamic code with a PSP location and a description: a longer payload, a larger symbol. */
const longCode = pixCopyAndPaste({
  locationUrl: 'pix.example.com.br/qr/v2/cobv/9d36b84fc70b478fb95c1272',
  merchantName: 'Supermercado Bom Preco Ltda',
  merchantCity: 'Belo Horizonte',
  amountCentavos: 1_234_567,
  txid: 'ZXCVBNMASDFGHJKLQWERTYUIO',
  description: 'Pedido 1001 caixa 3',
});
const shortCode = pixCopyAndPaste({ key: '+5511987654321', merchantName: 'Ana', merchantCity: 'RIO' });

const screen = (width: number, height: number, extra: Partial<PinpadScreen> = {}): PinpadScreen => ({
  width,
  height,
  formats: ['png', 'jpg'],
  maxBytes: 64 * 1024,
  ...extra,
});

describe("a bolepix's Pix QR on a PINPAD's graphic display", () => {
  it.each([
    ['320 × 240 (landscape)', 320, 240],
    ['240 × 320 (the PPC-930: PP_DSPGRSZ "03200240", lines first)', 240, 320],
    ['480 × 272', 480, 272],
    ['128 × 128 (the long dynamic code needs 130: refused below)', 128, 128],
  ])('on %s is a PNG of the screen size that decodes to exactly the BR Code', (_name, width, height) => {
    for (const code of width === 128 ? [shortCode, bolepixCode] : [shortCode, bolepixCode, longCode]) {
      const image = renderPinpadQr(code, screen(width, height));
      const png = decodePng(image.bytes);
      expect([png.width, png.height]).toEqual([width, height]);
      expect(decodeQrPng(image.bytes)).toBe(code);
      expect(image.bytes.length).toBeLessThanOrEqual(64 * 1024);
    }
  });

  it('is black and white, 1 bit a pixel, a few hundred bytes for a whole screen', () => {
    const image = renderPinpadQr(bolepixCode, screen(240, 320));
    const png = decodePng(image.bytes);
    expect({ bitDepth: png.bitDepth, colorType: png.colorType }).toEqual({ bitDepth: 1, colorType: 0 });
    expect(image.bytes.length).toBeLessThan(1500);
  });

  it('scales the code by a whole number of pixels a module, as large as the smaller side allows, with 4 modules of quiet zone', () => {
    const image = renderPinpadQr(bolepixCode, screen(320, 240));
    const side = (image.modules + 8) * image.modulePx;
    expect(side).toBeLessThanOrEqual(240);
    expect((image.modules + 8) * (image.modulePx + 1)).toBeGreaterThan(240);
    expect(image.qr).toEqual({
      x: Math.floor((320 - side) / 2),
      y: Math.floor((240 - side) / 2),
      width: side,
      height: side,
    });
    const png = decodePng(image.bytes);
    // The quiet zone is white all round; the first module of the symbol (a finder pattern's corner) is black, whole.
    const quiet = 4 * image.modulePx;
    for (let i = 0; i < side; i++) {
      for (let depth = 0; depth < quiet; depth++) {
        expect(isBlack(png, image.qr.x + i, image.qr.y + depth)).toBe(false);
        expect(isBlack(png, image.qr.x + depth, image.qr.y + i)).toBe(false);
      }
    }
    for (let dy = 0; dy < image.modulePx; dy++) {
      for (let dx = 0; dx < image.modulePx; dx++) {
        expect(isBlack(png, image.qr.x + quiet + dx, image.qr.y + quiet + dy)).toBe(true);
      }
    }
  });

  it('draws the amount under the code when asked, and the code still reads', () => {
    const image = renderPinpadQr(bolepixCode, screen(240, 320), { caption: 'R$ 150,00' });
    expect(image.caption).toBeDefined();
    const caption = image.caption!;
    expect(caption.y).toBeGreaterThanOrEqual(image.qr.y + image.qr.height);
    expect(caption.y + caption.height).toBeLessThanOrEqual(320);
    const png = decodePng(image.bytes);
    let blackInCaption = 0;
    for (let y = caption.y; y < caption.y + caption.height; y++) {
      for (let x = caption.x; x < caption.x + caption.width; x++) if (isBlack(png, x, y)) blackInCaption++;
    }
    expect(blackInCaption).toBeGreaterThan(50);
    expect(decodeQrPng(image.bytes)).toBe(bolepixCode);
  });

  it('takes a caption as Intl writes amounts (a no-break space) and with accents, drawn without them, smaller when too wide', () => {
    const image = renderPinpadQr(bolepixCode, screen(320, 240), { caption: 'Total à vista R$\u00a01.234,56' });
    // 25 glyphs are 149 font pixels: 3 pixels each would be 447, wider than 320, so 2.
    expect(image.caption!.width).toBe(('TOTAL A VISTA R$ 1.234,56'.length * 6 - 1) * 2);
    expect(decodeQrPng(image.bytes)).toBe(bolepixCode);
  });

  it('refuses a caption the PINPAD font cannot draw', () => {
    const error = thrown(() => renderPinpadQr(bolepixCode, screen(240, 320), { caption: 'R$ 150,00 ✓' }));
    expect(error).toBeInstanceOf(QrImageError);
    expect((error as QrImageError).code).toBe('CAPTION_UNSUPPORTED');
  });

  it('refuses a 128 × 64 screen: the code at 2 pixels a module does not fit', () => {
    const error = thrown(() => renderPinpadQr(bolepixCode, screen(128, 64)));
    expect(error).toBeInstanceOf(QrImageError);
    expect((error as QrImageError).code).toBe('SCREEN_TOO_SMALL');
    expect((error as Error).message).toMatch(/128 × 64/);
  });

  it('refuses the long dynamic code on 128 × 128, saying the pixels it needs', () => {
    const error = thrown(() => renderPinpadQr(longCode, screen(128, 128)));
    expect((error as QrImageError).code).toBe('SCREEN_TOO_SMALL');
    expect((error as Error).message).toMatch(/needs 130 × 130 pixels \(57 modules/);
  });

  it('fits 128 × 64 when the caller accepts 1-pixel modules, and it still decodes', () => {
    const image = renderPinpadQr(shortCode, screen(128, 64), { minModulePx: 1 });
    expect(image.modulePx).toBe(1);
    expect(decodeQrPng(image.bytes)).toBe(shortCode);
  });

  it('stays under the memory the PINPAD has: smaller modules when the largest does not fit, else MEMORY_TOO_LOW', () => {
    const largest = renderPinpadQr(longCode, screen(480, 480), { bitDepth: 8 });
    const limit = largest.bytes.length - 1;
    const smaller = renderPinpadQr(longCode, screen(480, 480, { maxBytes: limit }), { bitDepth: 8 });
    expect(smaller.bytes.length).toBeLessThanOrEqual(limit);
    expect(smaller.modulePx).toBeLessThan(largest.modulePx);
    expect(decodeQrPng(smaller.bytes)).toBe(longCode);

    const error = thrown(() => renderPinpadQr(longCode, screen(480, 480, { maxBytes: 100 })));
    expect((error as QrImageError).code).toBe('MEMORY_TOO_LOW');
    expect((error as Error).message).toMatch(/100 bytes free/);
  });

  it('writes 8 bits a pixel for a PINPAD whose decoder wants whole bytes', () => {
    const image = renderPinpadQr(bolepixCode, screen(320, 240), { bitDepth: 8 });
    expect(decodePng(image.bytes).bitDepth).toBe(8);
    expect(decodeQrPng(image.bytes)).toBe(bolepixCode);
  });

  it('is a two-colour GIF for a PINPAD that loads GIF and not PNG, and decodes to exactly the BR Code', () => {
    for (const [width, height] of [
      [240, 320],
      [320, 240],
      [128, 128],
    ] as const) {
      for (const code of [shortCode, bolepixCode]) {
        const image = renderPinpadQr(
          code,
          screen(width, height, { formats: ['jpg', 'gif'] }),
          width === 128 ? {} : { caption: 'R$ 150,00' },
        );
        expect({ format: image.format, mimeType: image.mimeType }).toEqual({ format: 'gif', mimeType: 'image/gif' });
        expect(image.bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
        const gif = decodeGif(image.bytes);
        expect({ width: gif.width, height: gif.height, frames: gif.frames }).toEqual({ width, height, frames: 1 });
        expect(decodeQrGif(image.bytes)).toBe(code);
        expect(image.bytes.length).toBeLessThan(4096);
      }
    }
  });

  it('draws the GIF pixel for pixel as the PNG', () => {
    const png = decodePng(renderPinpadQr(longCode, screen(480, 272), { caption: 'R$ 12.345,67' }).bytes);
    const gif = decodeGif(
      renderPinpadQr(longCode, screen(480, 272, { formats: ['gif'] }), { caption: 'R$ 12.345,67' }).bytes,
    );
    expect(Buffer.from(gif.rgba).equals(Buffer.from(png.rgba))).toBe(true);
  });

  it('prefers PNG when the PINPAD loads both', () => {
    expect(renderPinpadQr(bolepixCode, screen(320, 240, { formats: ['gif', 'png'] })).format).toBe('png');
  });

  it('refuses a PINPAD that loads neither PNG nor GIF (JPG only, nothing)', () => {
    for (const formats of [['jpg'], []] as const) {
      const error = thrown(() => renderPinpadQr(bolepixCode, screen(320, 240, { formats })));
      expect((error as QrImageError).code).toBe('NO_SUPPORTED_FORMAT');
    }
  });

  it('refuses a screen read wrong (zero, fractional, negative)', () => {
    for (const bad of [screen(0, 240), screen(320.5, 240), screen(320, 240, { maxBytes: -1 })]) {
      expect((thrown(() => renderPinpadQr(bolepixCode, bad)) as QrImageError).code).toBe('BAD_SCREEN');
    }
  });

  it('checks the BR Code before drawing it: a wrong CRC, a truncated field, not Pix', () => {
    const wrongCrc = bolepixCode.slice(0, -4) + (bolepixCode.endsWith('0000') ? '0001' : '0000');
    const truncated = bolepixCode.slice(0, 40);
    const notPixBody = bolepixCode.replace('br.gov.bcb.pix', 'br.gov.bcb.xyz').slice(0, -4);
    const notPix = notPixBody + crc16Ccitt(notPixBody);
    const cases = [
      [wrongCrc, 'BR_CODE_BAD_CRC'],
      [truncated, 'BR_CODE_BAD_FIELDS'],
      [notPix, 'BR_CODE_NOT_PIX'],
    ] as const;
    for (const [code, reason] of cases) {
      const error = thrown(() => renderPinpadQr(code, screen(320, 240)));
      expect(error).toBeInstanceOf(QrImageError);
      expect({ code: (error as QrImageError).code, reason: (error as QrImageError).reason }).toEqual({
        code: 'BR_CODE_INVALID',
        reason,
      });
    }
  });
});
