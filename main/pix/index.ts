/**
 * Pix at the counter, the parts that need no PINPAD (docs/pix.md): the QR image for a PINPAD's
 * graphic display and for the window, and the watch that learns a bolepix was paid.
 */
export {
  renderPinpadQr,
  QrImageError,
  QUIET_ZONE_MODULES,
  type Box,
  type MediaFormat,
  type PinpadQrImage,
  type PinpadQrOptions,
  type PinpadScreen,
  type QrImageErrorCode,
} from './qr-image.js';
export { pinpadScreenFromGix, type GixDisplayItems } from './pinpad-screen.js';
export { renderPixQrSvg, type PixQrSvg } from './qr-svg.js';
export {
  watchBolepix,
  PixWatchError,
  type BolepixSource,
  type PaidVia,
  type PixWatch,
  type PixWatchOptions,
  type PixWatchOutcome,
  type PixWatchUpdate,
} from './payment-watch.js';
export { BrCodeError, checkBrCode, type BrCodeErrorCode, type CheckedBrCode } from '../contract/brcode.js';
