/**
 * CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR),
 * the checksum of field 63 of a Pix BR Code (BCB "Manual de Padrões para Iniciação do Pix"),
 * written as four upper-case hex digits. Check value: "123456789" → 29B1.
 */
import { crc16, CRC16_CCITT_FALSE_INITIAL } from '../../../lib/crc16.js';

export function crc16Ccitt(text: string): string {
  return crc16(Buffer.from(text, 'utf8'), CRC16_CCITT_FALSE_INITIAL).toString(16).toUpperCase().padStart(4, '0');
}
