import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { crc16Xmodem } from '../../../drivers/abecs/crc.js';

describe('crc16Xmodem', () => {
  it('gives the CRC-16/XMODEM check value 0x31C3 for "123456789"', () => {
    expect(crc16Xmodem(Buffer.from('123456789'))).toBe(0x31c3);
  });

  it('is 0 for no data (initial value 0x0000, no final XOR)', () => {
    expect(crc16Xmodem(Buffer.alloc(0))).toBe(0);
  });

  it('matches the spec example OPN + ETB = A8A9', () => {
    expect(crc16Xmodem(Buffer.from([0x4f, 0x50, 0x4e, 0x17]))).toBe(0xa8a9);
  });

  it('can be computed in pieces', () => {
    fc.assert(
      fc.property(fc.uint8Array(), fc.uint8Array(), (a, b) => {
        const whole = crc16Xmodem(Buffer.concat([a, b]));
        expect(crc16Xmodem(b, crc16Xmodem(a))).toBe(whole);
      }),
    );
  });

  it('agrees with a bit-by-bit reference implementation', () => {
    const reference = (data: Uint8Array): number => {
      let crc = 0;
      for (const byte of data) {
        crc ^= byte << 8;
        for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
      }
      return crc;
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (data) => crc16Xmodem(data) === reference(data)));
  });
});
