/**
 * The packets of secure communication (S220 §5.2.2; abecs.md §5). Once a secure OPN set the
 * 16-byte key KSEC, commands and answers travel as
 *
 *   PKTDATA = DC2 | AES-CBC(KSEC, IV = 0) of ( DATALEN X2 | DATACRC X2 | CLRDATA | 00h fill )
 *
 * with DATALEN the length of CLRDATA (at most 2044 bytes), DATACRC its CRC-16 (the link layer's,
 * S220 §7.2) and the fill making the whole a multiple of 16 bytes (§5.2.2.1). A received packet
 * passes three checks (§5.2.2.2): its length after DC2 is a multiple of 16, DATALEN fits in it,
 * and the CRC matches; one that fails is ERR009 (§6.3.2).
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { crc16 } from './crc.js';
import { DC2 } from './frame.js';

/** KSEC: AES-128 (S220 §5.2.1: "uma chave KSEC (16 bytes)"). */
export const KSEC_BYTES = 16;
/** Largest CLRDATA (§5.2.2: "até 2044 bytes"). */
export const MAX_CLEAR_DATA = 2044;
const BLOCK = 16;
const HEADER = 4;
const ZERO_IV = Buffer.alloc(BLOCK);

/** The encrypted PKTDATA (DC2 first) carrying `clear`. */
export function sealPacket(ksec: Buffer, clear: Buffer): Buffer {
  if (clear.length > MAX_CLEAR_DATA)
    throw new RangeError(`CLRDATA holds at most ${MAX_CLEAR_DATA} bytes, not ${clear.length}.`);
  const header = Buffer.alloc(HEADER);
  header.writeUInt16BE(clear.length, 0);
  header.writeUInt16BE(crc16(clear), 2);
  const body = Buffer.concat([header, clear]);
  const filled = Buffer.concat([body, Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK)]);
  const cipher = createCipheriv('aes-128-cbc', ksec, ZERO_IV).setAutoPadding(false);
  return Buffer.concat([Buffer.of(DC2), cipher.update(filled), cipher.final()]);
}

/** CLRDATA of an encrypted PKTDATA, or undefined when it fails a check of §5.2.2.2. */
export function openPacket(ksec: Buffer, pktdata: Uint8Array): Buffer | undefined {
  const encrypted = Buffer.from(pktdata.subarray(1));
  if (pktdata[0] !== DC2 || encrypted.length === 0 || encrypted.length % BLOCK !== 0) return undefined;
  const decipher = createDecipheriv('aes-128-cbc', ksec, ZERO_IV).setAutoPadding(false);
  const body = Buffer.concat([decipher.update(encrypted), decipher.final()]);
  const length = body.readUInt16BE(0);
  // "DATALEN deve ser coerente (menor do que o tamanho de PKTDATA, excluindo-se os 5 bytes…)".
  if (length > encrypted.length - HEADER || length > MAX_CLEAR_DATA) return undefined;
  const clear = body.subarray(HEADER, HEADER + length);
  return crc16(clear) === body.readUInt16BE(2) ? Buffer.from(clear) : undefined;
}
