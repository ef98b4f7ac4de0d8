/**
 * The QR code and barcode libraries, loaded on the first document that has one: a card receipt
 * has neither, and together they cost the agent some 18 MB of memory at every start. Both are
 * CommonJS packages, so a synchronous `require` keeps the encoders synchronous.
 */
import { createRequire } from 'node:module';
import type BwipJs from 'bwip-js';
import type QRCode from 'qrcode';

const require = createRequire(import.meta.url);
let qrcode: typeof QRCode | undefined;
let bwipjs: typeof BwipJs | undefined;

export function qrcodeLibrary(): typeof QRCode {
  return (qrcode ??= require('qrcode') as typeof QRCode);
}

export function bwipLibrary(): typeof BwipJs {
  return (bwipjs ??= require('bwip-js') as typeof BwipJs);
}
