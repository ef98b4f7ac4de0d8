/**
 * CRC-16/CCITT-FALSE, the checksum of field 63 of a Pix BR Code: it lives with the BR Code's
 * rules in main/contract/brcode.ts, which the agent uses as well; the sandbox's name for it stays.
 */
export { crc16Ccitt } from '../../contract/brcode.js';
