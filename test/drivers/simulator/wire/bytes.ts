import type { DeviceCommand, Reading } from '../../../../drivers/simulator/wire/command.js';
import { LENIENT } from '../../../../drivers/simulator/wire/command.js';
import { WireStatusError } from '../../../../drivers/simulator/wire/errors.js';
import { decodeCommandPacket, encodeResponsePacket } from '../../../../drivers/simulator/wire/packet.js';

/** Writing the spec's examples down: hex dumps (spaces and line breaks ignored) and Latin-1 text. */
export const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');
export const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');
export const cat = (...parts: Array<Buffer | string>): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? latin1(part) : part)));

/** The status `run` is refused with (a WireStatusError), undefined when it runs through. */
export function statusOf(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof WireStatusError) return error.status;
    throw error;
  }
  return undefined;
}

/** The TRACE's GCX062 PKTDATA (abecs.md §1.5): parameter ids 0013h, 0016h and 0017h need DC3 on the wire. */
export const GCX062 = cat(
  'GCX062',
  hex('00 12 00 08'),
  '02010204',
  hex('00 13 00 0C'),
  '000000000001',
  hex('00 15 00 06'),
  '251111',
  hex('00 16 00 06'),
  '173647',
  hex('00 17 00 05'),
  '10000',
  hex('00 21 00 01 00'),
);

/** A command's PKTDATA as the PINPAD reads it. */
export function decode<Req>(
  command: DeviceCommand<Req, unknown>,
  pktdata: Buffer | string,
  reading: Reading = LENIENT,
): Req {
  return command.decode(decodeCommandPacket(typeof pktdata === 'string' ? latin1(pktdata) : pktdata), reading);
}

/** The status a command's PKTDATA is refused with (undefined when accepted). */
export function refusal(
  command: DeviceCommand<unknown, unknown>,
  pktdata: Buffer | string,
  reading: Reading = LENIENT,
): number | undefined {
  return statusOf(() => decode(command, pktdata, reading));
}

/** The response PKTDATA the PINPAD writes for `result`. */
export function answer<Res>(command: DeviceCommand<unknown, Res>, result: Res): Buffer {
  return encodeResponsePacket({ id: command.id, ...command.encode(result) });
}
