/**
 * CRC-16 with polynomial 0x1021, no reflection and no final XOR: the family both the ABECS link
 * and the Pix BR Code use. They differ only in the initial value, the parameter here:
 * - CRC-16/XMODEM, initial 0x0000 (ABECS frames, abecs.md §1.4): check value 0x31C3;
 * - CRC-16/CCITT-FALSE, initial 0xFFFF (field 63 of a Pix BR Code, BCB "Manual de Padrões para
 *   Iniciação do Pix"): check value 0x29B1.
 * (Check value: the CRC of the ASCII bytes "123456789".) Table-driven, one lookup per byte.
 */
export const CRC16_XMODEM_INITIAL = 0x0000;
export const CRC16_CCITT_FALSE_INITIAL = 0xffff;

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
    table[byte] = crc;
  }
  return table;
})();

/**
 * CRC of `data` starting from `initial`: the variant's initial value, or a previous result to
 * checksum data in pieces (no final XOR, so a result is also the state to continue from).
 */
export function crc16(data: Uint8Array, initial: number): number {
  let value = initial & 0xffff;
  for (let i = 0; i < data.length; i++) {
    value = ((value << 8) & 0xffff) ^ TABLE[((value >> 8) ^ data[i]!) & 0xff]!;
  }
  return value;
}
