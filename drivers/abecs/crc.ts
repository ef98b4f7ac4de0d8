/**
 * CRC-16/XMODEM: polynomial 0x1021, initial value 0x0000, no reflection, no final XOR
 * (abecs.md §1.4; check value CRC("123456789") = 0x31C3). Table-driven, one lookup per byte.
 */
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

/** CRC of `data`, continuing from `crc` (pass a previous result to checksum data in pieces). */
export function crc16Xmodem(data: Uint8Array, crc = 0): number {
  let value = crc & 0xffff;
  for (let i = 0; i < data.length; i++) {
    value = ((value << 8) & 0xffff) ^ TABLE[((value >> 8) ^ data[i]!) & 0xff]!;
  }
  return value;
}
