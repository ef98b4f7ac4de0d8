/**
 * GIN — get info (abecs.md §3.3), obsolete (GIX replaces it) but the only identification a
 * BibComp-era PINPAD understands. `GIN002` + GIN_ACQIDX N2.
 *
 * Acquirer "00" answers the general 100-byte layout, decoded into named fields. Other indexes
 * answer 42 bytes whose layout depends on the acquirer (02 Redecard, 03 Cielo, others generic);
 * every known layout has the Abecs application version at offset 20 (13 bytes) and the spec
 * version at offset 33 (4 bytes), so those are decoded, `name` is the first 20 bytes (for 02/03
 * it runs into the kernel versions) and `raw` keeps everything. The response does not say which
 * index was asked for, so the 100-byte length is what selects the general layout.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { CommandCodec } from '../codec.js';
import { FieldReader, FieldWriter } from '../fields.js';
import {
  commandBlock,
  latin1,
  malformedCommand,
  malformedResponse,
  okResponse,
  responseBlock,
} from './basic-support.js';

const ID = 'GIN';
const GENERAL_LENGTH = 100;

export interface GinRequest {
  /** GIN_ACQIDX: 0 = general information, 1–99 = an acquirer's application. */
  readonly acquirer: number;
}

export interface GinGeneralInfo {
  readonly kind: 'general';
  readonly manufacturer: string;
  /** "name;memory", e.g. "PP X-1;10MB". */
  readonly model: string;
  readonly contactless: boolean;
  /** GIN_SOVER: operating system / firmware version. */
  readonly firmware: string;
  /** "V.VV", e.g. "2.12". */
  readonly specVersion: string;
  /** "VVV.VV YYMMDD". */
  readonly managerVersion: string;
  readonly serialNumber: string;
}

export interface GinAcquirerInfo {
  readonly kind: 'acquirer';
  /** The whole answer as sent (Latin-1). */
  readonly raw: string;
  readonly name: string;
  readonly appVersion: string;
  readonly specVersion: string;
}

export type GinResult = GinGeneralInfo | GinAcquirerInfo;

export const ginCommand: CommandCodec<GinRequest, GinResult> = {
  id: ID,
  blocking: false,

  encodeRequest(req) {
    if (!Number.isInteger(req.acquirer) || req.acquirer < 0 || req.acquirer > 99) {
      throw new InvalidArgumentError(`GIN_ACQIDX must be an integer from 0 to 99, got ${req.acquirer}.`);
    }
    return { id: ID, blocks: [new FieldWriter().n('GIN_ACQIDX', req.acquirer, 2).toBuffer()] };
  },

  decodeRequest(cmd) {
    const block = commandBlock(cmd);
    if (!block) throw malformedCommand(ID, 'GIN_ACQIDX is missing', 19);
    const r = new FieldReader(block, 'GIN command', 'MALFORMED_COMMAND');
    const acquirer = r.n('GIN_ACQIDX', 2);
    r.end();
    return { acquirer };
  },

  encodeResponse(res) {
    if (res.kind === 'acquirer') {
      if (res.raw.length === GENERAL_LENGTH) {
        throw new InvalidArgumentError('An acquirer GIN answer cannot have 100 bytes, the size of the general one.');
      }
      if (res.raw.length === 0) throw new InvalidArgumentError('An acquirer GIN answer cannot be empty.');
      return okResponse(ID, [new FieldWriter().s('GIN answer', res.raw, res.raw.length).toBuffer()]);
    }
    const block = new FieldWriter()
      .s('GIN_MNAME', res.manufacturer, 20)
      .s('GIN_MODEL', res.model, 19)
      .a('GIN_CTLSSUP', res.contactless ? 'C' : ' ', 1)
      .s('GIN_SOVER', res.firmware, 20)
      .s('GIN_SPECVER', res.specVersion, 4)
      .s('GIN_MANVER', res.managerVersion, 16)
      .s('GIN_SERNUM', res.serialNumber, 20)
      .toBuffer();
    return okResponse(ID, [block]);
  },

  decodeResponse(rsp) {
    const block = responseBlock(rsp);
    if (!block) throw malformedResponse(ID, 'no data block');
    if (block.length !== GENERAL_LENGTH) {
      const raw = block.toString('latin1');
      const field = (start: number, end: number): string => raw.slice(start, end).trimEnd();
      return { kind: 'acquirer', raw, name: field(0, 20), appVersion: field(20, 33), specVersion: field(33, 37) };
    }
    const r = new FieldReader(block, 'GIN response');
    return {
      kind: 'general',
      manufacturer: r.text('GIN_MNAME', 20),
      model: r.text('GIN_MODEL', 19),
      contactless: r.textRaw('GIN_CTLSSUP', 1) === 'C',
      firmware: r.text('GIN_SOVER', 20),
      specVersion: r.text('GIN_SPECVER', 4),
      managerVersion: r.text('GIN_MANVER', 16),
      serialNumber: r.text('GIN_SERNUM', 20),
    };
  },
};

/** Builds the generic acquirer layout (name A20, app version A13, spec version A4, RUF). */
export function ginAcquirerInfo(name: string, appVersion: string, specVersion: string): GinAcquirerInfo {
  const raw = new FieldWriter()
    .s('name', name, 20)
    .s('appVersion', appVersion, 13)
    .s('specVersion', specVersion, 4)
    .raw(latin1('   00'))
    .toBuffer()
    .toString('latin1');
  return {
    kind: 'acquirer',
    raw,
    name: name.trimEnd(),
    appVersion: appVersion.trimEnd(),
    specVersion: specVersion.trimEnd(),
  };
}
