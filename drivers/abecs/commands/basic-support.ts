/**
 * Small pieces shared by the basic command codecs: picking the data block of a fixed-field
 * command, checking response statuses, and reading TLV values with errors that name the
 * parameter (never its value: some values are card data or PIN blocks).
 */
import type { CommandCodec, CommandEnvelope, NoData, ResponseEnvelope } from '../codec.js';
import { FieldWriter } from '../fields.js';
import { DISPLAY_SIZE, formatDisplay2x16, normalizeDisplay2x16 } from '../text.js';
import { nonEmptyBlocks } from '../envelope.js';
import { AbecsFormatError, type MalformedStatus } from '../format-error.js';
import { AbecsStatusError } from '../status.js';
import { TlvList, hexId, type Tlv } from '../tlv.js';
import { InvalidArgumentError } from '../../errors.js';

type Direction = 'MALFORMED_COMMAND' | 'MALFORMED_RESPONSE';

export function malformedCommand(id: string, detail: string, status: MalformedStatus = 11): AbecsFormatError {
  return new AbecsFormatError('MALFORMED_COMMAND', `Malformed ${id} command: ${detail}.`, status);
}

export function malformedResponse(id: string, detail: string): AbecsFormatError {
  return new AbecsFormatError('MALFORMED_RESPONSE', `Malformed ${id} response: ${detail}.`);
}

/** The data block of a fixed-field command; undefined for a bare `XXX` or `XXX000`. */
export function commandBlock(cmd: CommandEnvelope): Buffer | undefined {
  const blocks = nonEmptyBlocks(cmd.blocks);
  if (blocks.length > 1) throw malformedCommand(cmd.id, `expected one data block, got ${blocks.length}`);
  return blocks[0];
}

/**
 * Throws AbecsStatusError when the status is neither ST_OK nor one of `resultStatuses`. The link
 * layer normally handles error statuses before a codec sees them; this keeps a codec from
 * reading an error response as a result when it is called directly.
 */
export function expectResultStatus(rsp: ResponseEnvelope, resultStatuses: readonly number[] = []): void {
  if (rsp.status !== 0 && !resultStatuses.includes(rsp.status)) throw AbecsStatusError.from(rsp.id, rsp.status);
}

/** The data block of a fixed-field response; undefined when the PINPAD sent none. */
export function responseBlock(rsp: ResponseEnvelope): Buffer | undefined {
  expectResultStatus(rsp);
  const blocks = nonEmptyBlocks(rsp.blocks);
  if (blocks.length > 1) throw malformedResponse(rsp.id, `expected one data block, got ${blocks.length}`);
  return blocks[0];
}

export function okResponse(id: string, blocks: readonly Buffer[] = []): ResponseEnvelope {
  return { id, status: 0, blocks };
}

export function latin1(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}

/** TLV builders for the host → PINPAD value formats. */
export const tlv = {
  x1(id: number, name: string, value: number): Tlv {
    if (!Number.isInteger(value) || value < 0 || value > 0xff) {
      throw new InvalidArgumentError(`${name} must be an integer from 0 to 255, got ${value}.`);
    }
    return { id, value: Buffer.of(value) };
  },
  x2(id: number, name: string, value: number): Tlv {
    if (!Number.isInteger(value) || value < 0 || value > 0xffff) {
      throw new InvalidArgumentError(`${name} must be an integer from 0 to 65535, got ${value}.`);
    }
    const buf = Buffer.alloc(2);
    buf.writeUInt16BE(value, 0);
    return { id, value: buf };
  },
  text(id: number, value: string): Tlv {
    return { id, value: latin1(value) };
  },
};

/** Reads TLV values of one command or response, raising errors in the right direction. */
export class TlvFields {
  readonly #what: string;
  readonly #code: Direction;

  private constructor(
    readonly list: TlvList,
    what: string,
    code: Direction,
  ) {
    this.#what = what;
    this.#code = code;
  }

  static command(cmd: CommandEnvelope): TlvFields {
    return new TlvFields(TlvList.fromBlocks(cmd.blocks, 'MALFORMED_COMMAND'), `${cmd.id} command`, 'MALFORMED_COMMAND');
  }

  static response(rsp: ResponseEnvelope, resultStatuses: readonly number[] = []): TlvFields {
    expectResultStatus(rsp, resultStatuses);
    return new TlvFields(
      TlvList.fromBlocks(rsp.blocks, 'MALFORMED_RESPONSE'),
      `${rsp.id} response`,
      'MALFORMED_RESPONSE',
    );
  }

  error(detail: string, status: MalformedStatus = 11): AbecsFormatError {
    return new AbecsFormatError(this.#code, `Malformed ${this.#what}: ${detail}.`, status);
  }

  /** A mandatory value: a missing one is ST_MANDAT (019) for a command. */
  require<T>(value: T | undefined, name: string): T {
    if (value === undefined) throw this.error(`the mandatory parameter ${name} is missing`, 19);
    return value;
  }

  raw(id: number): Buffer | undefined {
    return this.list.get(id);
  }

  x1(id: number, name: string): number | undefined {
    const value = this.list.get(id);
    if (value === undefined) return undefined;
    if (value.length !== 1) throw this.error(`${name} (${hexId(id)}) must be 1 byte, got ${value.length}`);
    return value[0]!;
  }

  x2(id: number, name: string): number | undefined {
    const value = this.list.get(id);
    if (value === undefined) return undefined;
    if (value.length !== 2) throw this.error(`${name} (${hexId(id)}) must be 2 bytes, got ${value.length}`);
    return value.readUInt16BE(0);
  }

  /** An A/S value as Latin-1 text, checked against its maximum length. */
  text(id: number, name: string, maxLength: number): string | undefined {
    const value = this.list.get(id);
    if (value === undefined) return undefined;
    if (value.length > maxLength) {
      throw this.error(`${name} (${hexId(id)}) takes at most ${maxLength} bytes, got ${value.length}`);
    }
    return value.toString('latin1');
  }

  /** An N value of exactly `length` digits. */
  digits(id: number, name: string, length: number): string | undefined {
    const value = this.text(id, name, length);
    if (value === undefined) return undefined;
    if (value.length !== length || !/^[0-9]*$/.test(value)) {
      throw this.error(`${name} (${hexId(id)}) must be ${length} digits`);
    }
    return value;
  }
}

/** Printable ASCII (20h–7Eh), the A field alphabet. */
export function isPrintableAscii(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text);
}

/** A request carrying one 2×16 message (DSP, RMC). */
export interface DisplayMessageRequest {
  /** ≤ 32 characters; "\n" splits the lines. */
  readonly message: string;
  /** Send accented letters without their accents, for PINPADs without ISO-8859-1 (S220 §7.3.2). */
  readonly stripAccents?: boolean;
}

/**
 * The codec of a command whose only parameter is a 2×16 S32 message and whose answer carries no
 * data: DSP and RMC differ only in their id, field name and blocking flag.
 */
export function displayMessageCommand(
  id: string,
  field: string,
  blocking: boolean,
): CommandCodec<DisplayMessageRequest, NoData> {
  return {
    id,
    blocking,

    encodeRequest(req) {
      const text = formatDisplay2x16(req.message, req.stripAccents ? { stripAccents: true } : {});
      const block = new FieldWriter().s(field, text, DISPLAY_SIZE).toBuffer();
      return { id, blocks: [block] };
    },

    decodeRequest(cmd) {
      // PINPAD robustness (S220 §6.5.4): short messages are padded, excess ignored, controls blank.
      const block = commandBlock(cmd);
      return { message: normalizeDisplay2x16(block ? block.toString('latin1') : '') };
    },

    encodeResponse() {
      return okResponse(id);
    },

    decodeResponse(rsp) {
      expectResultStatus(rsp);
      return {};
    },
  };
}
