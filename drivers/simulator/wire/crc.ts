/**
 * The link layer's CRC (S220 §7.2; abecs.md §1.4): CRC-16-CCITT, polynomial x^16 + x^12 + x^5 + 1
 * (1021h), initial value 0000h, bits taken most significant first, no final XOR — the spec's C
 * routine, which the catalogue calls CRC-16/XMODEM (check value of "123456789": 31C3h).
 */
export const CRC_POLYNOMIAL = 0x1021;

/** CRC of `data`, continuing from `crc` (0 to start). */
export function crc16(data: Uint8Array, crc = 0): number {
  let value = crc & 0xffff;
  for (const byte of data) {
    let shifted = byte << 8;
    for (let bit = 0; bit < 8; bit++, shifted <<= 1) {
      value = (value ^ shifted) & 0x8000 ? ((value << 1) ^ CRC_POLYNOMIAL) & 0xffff : (value << 1) & 0xffff;
    }
  }
  return value;
}
