import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc16, CRC16_CCITT_FALSE_INITIAL, CRC16_XMODEM_INITIAL } from '../../lib/crc16.js';

/** Bit by bit, straight from the definition (polynomial 0x1021, MSB first, no reflection). */
function reference(data: Uint8Array, initial: number): number {
  let crc = initial;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

const CHECK = Buffer.from('123456789', 'ascii');

describe('crc16', () => {
  it('is CRC-16/XMODEM from 0x0000: check value 0x31C3', () => {
    expect(crc16(CHECK, CRC16_XMODEM_INITIAL)).toBe(0x31c3);
  });

  it('is CRC-16/CCITT-FALSE from 0xFFFF: check value 0x29B1', () => {
    expect(crc16(CHECK, CRC16_CCITT_FALSE_INITIAL)).toBe(0x29b1);
  });

  it('of nothing is the initial value', () => {
    expect(crc16(new Uint8Array(0), CRC16_XMODEM_INITIAL)).toBe(0);
    expect(crc16(new Uint8Array(0), CRC16_CCITT_FALSE_INITIAL)).toBe(0xffff);
  });

  it('continues from a previous result, so data can be checksummed in pieces', () => {
    fc.assert(
      fc.property(fc.uint8Array(), fc.uint8Array(), fc.integer({ min: 0, max: 0xffff }), (a, b, initial) => {
        expect(crc16(b, crc16(a, initial))).toBe(crc16(Buffer.concat([a, b]), initial));
      }),
    );
  });

  it('matches the bitwise definition for any data and initial value', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 0, max: 0xffff }), (data, initial) => {
        expect(crc16(data, initial)).toBe(reference(data, initial));
      }),
    );
  });
});
