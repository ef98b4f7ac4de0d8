/**
 * The PNG image of a Pix QR code (the `qr_code_url` of a bolepix), made with the `qrcode`
 * package: error correction M, as payment QR codes commonly use, and a 4-module quiet zone.
 */

export const PIX_QR_SCALE = 8;

export async function renderPixQrPng(payload: string): Promise<Buffer> {
  if (payload.length === 0) throw new Error('Pix payload is empty');
  // Loaded for the first QR image asked for, not at every start of the sandbox.
  const { default: QRCode } = await import('qrcode');
  return QRCode.toBuffer(payload, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: PIX_QR_SCALE });
}

/** The public link of a bolepix's QR code PNG (served by routes/documents.ts), for `pix.qr_code_url`. */
export const pixQrPngUrl = (baseUrl: string, transactionId: string): string => `${baseUrl}/pix/${transactionId}.png`;
