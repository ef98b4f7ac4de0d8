import type { DeviceCommand, Reading } from '../../../../drivers/simulator/wire/command.js';
import { LENIENT } from '../../../../drivers/simulator/wire/command.js';
import { WireStatusError } from '../../../../drivers/simulator/wire/errors.js';
import { decodeCommandPacket, encodeResponsePacket } from '../../../../drivers/simulator/wire/packet.js';

/** Writing the spec's examples down: hex dumps (spaces and line breaks ignored) and Latin-1 text. */
export const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');
export const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');
export const cat = (...parts: Array<Buffer | string>): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? latin1(part) : part)));


/** A command's PKTDATA as the PINPAD reads it. */
export function decode<Req>(command: DeviceCommand<Req, unknown>, pktdata: Buffer | string, reading: Reading = LENIENT): Req {
  return command.decode(decodeCommandPacket(typeof pktdata === 'string' ? latin1(pktdata) : pktdata), reading);
}

/** The status a command's PKTDATA is refused with (undefined when accepted). */
export function refusal(command: DeviceCommand<unknown, unknown>, pktdata: Buffer | string, reading: Reading = LENIENT): number | undefined {
  try {
    decode(command, pktdata, reading);
  } catch (error) {
    if (error instanceof WireStatusError) return error.status;
    throw error;
  }
  return undefined;
}

/** The response PKTDATA the PINPAD writes for `result`. */
export function answer<Res>(command: DeviceCommand<unknown, Res>, result: Res): Buffer {
  return encodeResponsePacket({ id: command.id, ...command.encode(result) });
}
