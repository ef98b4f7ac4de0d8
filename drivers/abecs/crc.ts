/**
 * CRC-16/XMODEM: polynomial 0x1021, initial value 0x0000, no reflection, no final XOR
 * (abecs.md §1.4; check value CRC("123456789") = 0x31C3). The computation is lib/crc16.ts's,
 * shared with the Pix BR Code's CRC-16/CCITT-FALSE.
 */
import { crc16, CRC16_XMODEM_INITIAL } from '../../lib/crc16.js';

/** CRC of `data`, continuing from `crc` (pass a previous result to checksum data in pieces). */
export function crc16Xmodem(data: Uint8Array, crc = CRC16_XMODEM_INITIAL): number {
  return crc16(data, crc);
}
