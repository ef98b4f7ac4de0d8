/**
 * A bolepix's Pix QR code put on a PINPAD (issue 38): drawn for its graphic display and loaded as
 * a media file of the agent's own, or — on a text-only PINPAD, or one whose screen or memory the
 * image does not fit — two lines telling the customer the QR is on the checkout's screen.
 *
 * Files: the agent names its QR images PIX_MEDIA_PREFIX + a counter ("PBQR0001"…) and owns every
 * file of that prefix: before loading one it deletes all of them it finds (LMF), so files of an
 * agent that stopped mid-show never pile up. Nothing else on the PINPAD is touched.
 *
 * Memory: GIX names the display's size (PP_DSPGRSZ) and formats (PP_MFSUP) but no free media
 * memory, and a PINPAD full of the acquirer's own images answers a load ST_MFFULL only after it
 * was sent. So the image is held to PIX_MEDIA_BUDGET_BYTES, far more than a QR takes (a 240 × 320
 * PNG of a BR Code is under 1 KB, docs/pix.md) and far less than any multimedia PINPAD holds.
 *
 * Every step runs through the registry's withMedia: brief, and yielding to a payment — a sale
 * started meanwhile aborts a load in flight, waits for it to end, and draws its own screens.
 */
import { AbecsStatusError } from '../../drivers/abecs/status.js';
import type { Centavos } from '../core/money.js';
import { amountLine } from './display-text.js';
import type { PinpadRegistry } from './registry.js';
import { QrImageError, renderPinpadQr, type PinpadQrImage } from '../pix/index.js';

/** The prefix of the agent's own media files (A8 names: the prefix and a 4-digit counter). */
export const PIX_MEDIA_PREFIX = 'PBQR';

/** The most bytes a QR image may take on a PINPAD (GIX reports no free media memory). */
export const PIX_MEDIA_BUDGET_BYTES = 16 * 1024;

/** What a text-only PINPAD shows while the QR is on the checkout's screen (2 × 16, pt-BR). */
export const PIX_TEXT_ONLY = 'PAGUE COM PIX\nQR NA TELA';

/** What the PINPAD shows once the bolepix is paid: this line and the amount. */
export const PIX_PAID_LINE = 'PIX RECEBIDO';

export function pixPaidText(amount: Centavos): string {
  return `${PIX_PAID_LINE}\n${amountLine(amount)}`;
}

/**
 * How the QR went onto the PINPAD: as an image file (its bytes as loaded, so the window can mirror
 * exactly what the PINPAD shows), or as text pointing at the checkout's screen (its two lines).
 */
export type PixOnPinpad =
  | {
      readonly kind: 'image';
      readonly name: string;
      readonly format: PinpadQrImage['format'];
      /** The file as loaded and shown (DSI). */
      readonly file: Uint8Array;
      /** Its size in pixels (the screen's). */
      readonly width: number;
      readonly height: number;
    }
  | {
      readonly kind: 'text';
      readonly why: 'text_only' | 'image_unfit' | 'image_refused';
      readonly detail: string;
      /** The lines shown (PIX_TEXT_ONLY). */
      readonly lines: readonly string[];
    };

const TEXT_ONLY_LINES = PIX_TEXT_ONLY.split('\n');

let counter = 0;

/** The next file name of the agent's own: PBQR0001… (wraps after 9999: stale files are deleted first). */
function nextName(): string {
  counter = (counter % 9999) + 1;
  return `${PIX_MEDIA_PREFIX}${String(counter).padStart(4, '0')}`;
}

/** Whether a name the PINPAD lists is one of the agent's QR files. */
export function isPixMediaName(name: string): boolean {
  return new RegExp(`^${PIX_MEDIA_PREFIX}[0-9]{4}$`).test(name.trim().toUpperCase());
}

/**
 * Shows `brCode` on PINPAD `serial`, the amount under it. Rejects with the PINPAD's error (a sale
 * took the PINPAD: the driver's CANCELLED; BUSY; unplugged); a QR the screen or memory cannot
 * hold falls back to text.
 */
export async function showPixOnPinpad(
  pinpads: PinpadRegistry,
  serial: string,
  brCode: string,
  amount: Centavos,
): Promise<PixOnPinpad> {
  const support = await pinpads.withMedia(serial, (pinpad) => pinpad.mediaSupport());
  if (support === null) {
    await pinpads.display(serial, PIX_TEXT_ONLY);
    return {
      kind: 'text',
      why: 'text_only',
      detail: 'The PINPAD has no graphic display that takes PNG or GIF.',
      lines: TEXT_ONLY_LINES,
    };
  }
  let image;
  try {
    image = renderPinpadQr(
      brCode,
      { width: support.width, height: support.height, formats: support.formats, maxBytes: PIX_MEDIA_BUDGET_BYTES },
      { caption: amountLine(amount) },
    );
  } catch (error) {
    // BR_CODE_INVALID was checked before; anything else is this PINPAD's screen or formats.
    if (!(error instanceof QrImageError) || error.code === 'BR_CODE_INVALID') throw error;
    await pinpads.display(serial, PIX_TEXT_ONLY);
    return { kind: 'text', why: 'image_unfit', detail: `${error.code}: ${error.message}`, lines: TEXT_ONLY_LINES };
  }
  const name = nextName();
  try {
    await pinpads.withMedia(serial, async (pinpad, signal) => {
      const stale = (await pinpad.listMedia()).filter(isPixMediaName);
      if (stale.length > 0) await pinpad.deleteMedia(stale);
      await pinpad.loadMedia(name, image.format, image.bytes, { signal });
      await pinpad.displayImage(name);
    });
  } catch (error) {
    // The PINPAD refused the file (no room: ST_INTERR; a format or size it does not show): the
    // customer still pays, from the checkout's screen. A sale taking the PINPAD, a lost link: the caller's.
    if (!(error instanceof AbecsStatusError)) throw error;
    await pinpads.display(serial, PIX_TEXT_ONLY);
    return { kind: 'text', why: 'image_refused', detail: `${error.code}: ${error.message}`, lines: TEXT_ONLY_LINES };
  }
  return { kind: 'image', name, format: image.format, file: image.bytes, width: image.width, height: image.height };
}

/** Deletes the agent's QR file `name` (its show is over); a failure is left to the next show's clean-up. */
export async function forgetPixImage(pinpads: PinpadRegistry, serial: string, name: string): Promise<void> {
  await pinpads.withMedia(serial, (pinpad) => pinpad.deleteMedia(name)).catch(() => undefined);
}
