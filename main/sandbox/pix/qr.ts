/**
 * The PNG image of a Pix QR code (the `qr_code_url` of a bolepix), made with bwip-js: error
 * correction M, as payment QR codes commonly use, black modules on an opaque white ground with a
 * 4-module quiet zone.
 */

/** Pixels per QR module. */
export const PIX_QR_SCALE = 8;

/** bwip-js draws a QR module 2 points wide, and scales points and padding alike. */
const BWIP_POINTS_PER_MODULE = 2;

export async function renderPixQrPng(payload: string): Promise<Buffer> {
  if (payload.length === 0) throw new Error('Pix payload is empty');
  // Loaded for the first QR image asked for, not at every start of the sandbox.
  const { default: bwipjs } = await import('bwip-js');
  // `eclevel` is the QR encoder's own option, which bwip-js's types do not list.
  const options = {
    bcid: 'qrcode',
    text: payload,
    eclevel: 'M',
    scale: PIX_QR_SCALE / BWIP_POINTS_PER_MODULE,
    padding: 4 * BWIP_POINTS_PER_MODULE,
    // bwip-js leaves the background transparent: on a dark page a reader would see no quiet zone.
    backgroundcolor: 'FFFFFF',
  };
  return bwipjs.toBuffer(options);
}

/** The public link of a bolepix's QR code PNG (served by routes/documents.ts), for `pix.qr_code_url`. */
export const pixQrPngUrl = (baseUrl: string, transactionId: string): string => `${baseUrl}/pix/${transactionId}.png`;
