/**
 * Command and response envelopes ⇄ PKTDATA bytes (abecs.md §2.2):
 * command = CMD_ID (A3) + { CMD_LEN (N3) + CMD_BLK }*, response = RSP_ID (A3) + RSP_STAT (N3)
 * + { RSP_LEN (N3) + RSP_BLK }*. An error response is exactly id + status, never data.
 */
import { InvalidArgumentError } from '../errors.js';
import type { CommandEnvelope, ResponseEnvelope } from './codec.js';
import { MAX_BLOCK } from './tlv.js';
import { AbecsFormatError } from './format-error.js';

const ID = /^[A-Z]{3}$/;

function lengthPrefix(length: number): Buffer {
  return Buffer.from(String(length).padStart(3, '0'), 'latin1');
}

function encodeBlocks(blocks: readonly Buffer[]): Buffer[] {
  const parts: Buffer[] = [];
  for (const block of blocks) {
    if (block.length > MAX_BLOCK) {
      throw new InvalidArgumentError(`A data block holds at most ${MAX_BLOCK} bytes; this one has ${block.length}.`);
    }
    parts.push(lengthPrefix(block.length), block);
  }
  return parts;
}

function checkId(id: string): void {
  if (!ID.test(id)) throw new InvalidArgumentError(`"${id}" is not a command id (three capital letters).`);
}

export function encodeCommandPacket(cmd: CommandEnvelope): Buffer {
  checkId(cmd.id);
  return Buffer.concat([Buffer.from(cmd.id, 'latin1'), ...encodeBlocks(cmd.blocks)]);
}

export function encodeResponsePacket(rsp: ResponseEnvelope): Buffer {
  checkId(rsp.id);
  if (!Number.isInteger(rsp.status) || rsp.status < 0 || rsp.status > 999) {
    throw new InvalidArgumentError(`Status ${rsp.status} is not an N3 status code.`);
  }
  const blocks = rsp.status === 0 ? encodeBlocks(rsp.blocks) : [];
  return Buffer.concat([Buffer.from(rsp.id, 'latin1'), lengthPrefix(rsp.status), ...blocks]);
}

function readId(pkt: Buffer, code: 'MALFORMED_RESPONSE' | 'MALFORMED_COMMAND'): string {
  const id = pkt.subarray(0, 3).toString('latin1');
  if (pkt.length < 3 || !ID.test(id)) {
    throw new AbecsFormatError(code, 'Malformed packet: it does not start with a three-letter id.');
  }
  return id;
}

function readBlocks(pkt: Buffer, start: number, code: 'MALFORMED_RESPONSE' | 'MALFORMED_COMMAND'): Buffer[] {
  const blocks: Buffer[] = [];
  let at = start;
  while (at < pkt.length) {
    const lengthText = pkt.subarray(at, at + 3).toString('latin1');
    if (!/^[0-9]{3}$/.test(lengthText)) {
      throw new AbecsFormatError(code, `Malformed packet: expected an N3 block length at offset ${at}.`);
    }
    const length = Number(lengthText);
    if (at + 3 + length > pkt.length) {
      throw new AbecsFormatError(
        code,
        `Malformed packet: a block declares ${length} bytes, only ${pkt.length - at - 3} follow.`,
      );
    }
    blocks.push(pkt.subarray(at + 3, at + 3 + length));
    at += 3 + length;
  }
  return blocks;
}

/** Parses a command (PINPAD side). `XXX` and `XXX000` both give one or zero empty blocks. */
export function decodeCommandPacket(pkt: Buffer): CommandEnvelope {
  const id = readId(pkt, 'MALFORMED_COMMAND');
  return { id, blocks: readBlocks(pkt, 3, 'MALFORMED_COMMAND') };
}

/** Parses a response (host side). Data after an error status is ignored, as the spec forbids it. */
export function decodeResponsePacket(pkt: Buffer): ResponseEnvelope {
  const id = readId(pkt, 'MALFORMED_RESPONSE');
  const statusText = pkt.subarray(3, 6).toString('latin1');
  if (!/^[0-9]{3}$/.test(statusText)) {
    throw new AbecsFormatError('MALFORMED_RESPONSE', `Malformed ${id} response: no N3 status after the id.`);
  }
  const status = Number(statusText);
  return { id, status, blocks: status === 0 ? readBlocks(pkt, 6, 'MALFORMED_RESPONSE') : [] };
}

/** The blocks with empty ones removed: `CLO000` and `CLO000000` mean the same. */
export function nonEmptyBlocks(blocks: readonly Buffer[]): Buffer[] {
  return blocks.filter((block) => block.length > 0);
}
