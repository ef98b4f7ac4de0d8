/**
 * The barcode library (bwip-js draws both the barcodes and the QR codes), loaded on the first
 * document that has one: a card receipt has none, and it costs the agent some 10 MB of memory at
 * every start. It is a CommonJS package, so a synchronous `require` keeps the encoders synchronous.
 */
import { createRequire } from 'node:module';
import type BwipJs from 'bwip-js';

const require = createRequire(import.meta.url);
let bwipjs: typeof BwipJs | undefined;

export function bwipLibrary(): typeof BwipJs {
  return (bwipjs ??= require('bwip-js') as typeof BwipJs);
}
