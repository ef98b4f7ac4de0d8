/**
 * NTM — notification packets (abecs.md §1.7): during a blocking command the PINPAD may send
 * `NTM` + "000" + RSP_LEN1 (N3, "000"–"032") + NTM_MSG (S..32, 2×16) before the real response,
 * e.g. "SELECIONADO:    CREDITO" when an application is chosen. They are not responses: the host
 * shows the text to the operator and keeps waiting.
 */
import { InvalidArgumentError } from '../../errors.js';
import { AbecsFormatError } from '../format-error.js';
import { DISPLAY_SIZE, formatDisplay2x16, parseDisplay2x16 } from '../text.js';

export const NTM_ID = 'NTM';

export interface Notification {
  /** NTM_MSG as sent. */
  readonly text: string;
  /** The two display lines, trimmed. */
  readonly lines: [string, string];
}

/** True when PKTDATA is a notification rather than a response. */
export function isNotificationPacket(pkt: Uint8Array): boolean {
  return pkt.length >= 3 && pkt[0] === 0x4e && pkt[1] === 0x54 && pkt[2] === 0x4d;
}

/** PKTDATA of a notification carrying `text` laid out on 2×16 (PINPAD side: the simulator). */
export function encodeNotification(text: string): Buffer {
  const message = formatDisplay2x16(text);
  if (message.length !== DISPLAY_SIZE) throw new InvalidArgumentError('A notification is 32 characters.');
  return Buffer.from(`${NTM_ID}000${String(message.length).padStart(3, '0')}${message}`, 'latin1');
}

function malformed(detail: string): AbecsFormatError {
  return new AbecsFormatError('MALFORMED_RESPONSE', `Malformed NTM notification: ${detail}.`);
}

export function decodeNotification(pkt: Uint8Array): Notification {
  const data = Buffer.from(pkt.buffer, pkt.byteOffset, pkt.byteLength);
  if (!isNotificationPacket(data)) throw malformed('it does not start with "NTM"');
  if (data.length === 6 && data.toString('latin1', 3, 6) === '000') {
    return { text: '', lines: ['', ''] };
  }
  const header = data.toString('latin1', 3, 9);
  if (!/^000[0-9]{3}$/.test(header)) throw malformed('expected status "000" and an N3 length');
  const length = Number(header.slice(3));
  if (length > DISPLAY_SIZE) throw malformed(`the message has ${length} bytes; at most ${DISPLAY_SIZE}`);
  if (data.length !== 9 + length) throw malformed(`the message declares ${length} bytes, ${data.length - 9} follow`);
  const text = data.toString('latin1', 9);
  return { text, lines: parseDisplay2x16(text) };
}
