/**
 * Control commands (S220 §3.2, §6.4; abecs.md §3.2–§3.5): OPN, GIN, GIX, CLO, CLX.
 */
import { okReply, onlyBlock, paramsOf, type DeviceCommand, type Reply } from '../command.js';
import { FieldReader, formatA, formatH, formatN, invalid } from '../fields.js';
import { SPE } from '../ids.js';
import { expectNoParameters } from '../packet.js';
import { ST } from '../statuses.js';
import { fixedMessage } from '../text.js';
import { encodeTlvBlocks, type TlvItem } from '../tlv.js';

/** Largest PKTDATA of an Abecs command's exchange (S220 §3.1.3: "até 2044 bytes"). */
export const MAX_ABECS_PACKET = 2044;

/**
 * OPN (§3.2.1, §3.2.2, §6.4.1). Classic: no data, bare `OPN` or `OPN000`. Secure: OPN_OPMODE N1
 * "0", OPN_MODLEN N3 (bytes, "256"), OPN_MOD H, OPN_EXPLEN N1 (bytes), OPN_EXP H..6. Anything
 * else is ST_INVPARM.
 */
export interface OpnRequest {
  readonly publicKey?: { readonly modulus: Buffer; readonly exponent: Buffer };
}

/** The answer to a secure OPN from an Abecs PINPAD: CRKSEC; none for a classic one (or a pre-Abecs PINPAD). */
export interface OpnResult {
  /** OPN_CRKSEC: KSEC in the PKCS #1 block under the host's key, as long as OPN_MOD. */
  readonly crksec?: Buffer;
}

export const OPN: DeviceCommand<OpnRequest, OpnResult> = {
  id: 'OPN',
  blocking: false,
  abecs: false,
  decode(packet, reading) {
    if (packet.blocks.length === 0 || (packet.blocks.length === 1 && packet.blocks[0]!.length === 0)) return {};
    if (packet.blocks.length > 1) throw invalid('OPN has one block.');
    const fields = new FieldReader(packet.blocks[0]!, 'OPN');
    if (fields.digits(1, 'OPN_OPMODE') !== '0') throw invalid('OPN: OPN_OPMODE is "0".');
    const modulusLength = fields.number(3, 'OPN_MODLEN');
    if (modulusLength === 0 || (reading.strict && modulusLength !== 256))
      throw invalid(`OPN: OPN_MODLEN ${modulusLength} (fixed "256").`);
    const modulus = fields.hex(modulusLength * 2, 'OPN_MOD');
    const exponentLength = fields.number(1, 'OPN_EXPLEN');
    if (exponentLength < 1 || exponentLength > 3) throw invalid(`OPN: OPN_EXPLEN ${exponentLength} (H..6: 1–3 bytes).`);
    const exponent = fields.hex(exponentLength * 2, 'OPN_EXP');
    fields.end();
    return { publicKey: { modulus, exponent } };
  },
  // OPN_CRKSLEN N3 (bytes, "256") + OPN_CRKSEC H: the TRACE's "OPN000515256…".
  encode: (result) =>
    result.crksec === undefined
      ? okReply()
      : okReply([Buffer.from(formatN(result.crksec.length, 3) + formatH(result.crksec), 'latin1')]),
};

/** GIN (§3.2.3): GIN_ACQIDX N2, "fixo 002". */
export interface GinRequest {
  readonly acquirer: number;
}

/** The GIN answers: "00" general (100 bytes), "02" and "03" their own layouts, others a common one (42 bytes). */
export type GinResult =
  | {
      readonly kind: 'general';
      readonly manufacturer: string;
      /** "name;memory". */
      readonly model: string;
      readonly contactless: boolean;
      readonly firmware: string;
      readonly specVersion: string;
      /** "VVV.VV AAMMDD". */
      readonly managerVersion: string;
      readonly serialNumber: string;
    }
  | {
      readonly kind: 'acquirer02';
      readonly kernelVersion: string;
      readonly appVersion: string;
      readonly specVersion: string;
    }
  | {
      readonly kind: 'acquirer03';
      readonly kernelVersion: string;
      readonly contactlessVersion: string;
      readonly mastercardVersion: string;
      readonly visaVersion: string;
      readonly appVersion: string;
      readonly specVersion: string;
      /** GIN_DUKPT: a DUKPT:TDES:PIN key in slot 01. */
      readonly dukptSlot01: boolean;
    }
  | { readonly kind: 'acquirer'; readonly appVersion: string; readonly specVersion: string };

function ginData(result: GinResult): string {
  switch (result.kind) {
    case 'general':
      return (
        formatA(result.manufacturer, 20) +
        formatA(result.model, 19) +
        (result.contactless ? 'C' : ' ') +
        formatA(result.firmware, 20) +
        formatA(result.specVersion, 4) +
        formatA(result.managerVersion, 16) +
        formatA(result.serialNumber, 20)
      );
    case 'acquirer02':
      // GIN_ACQNAM A8 "Abecs", GIN_KRNLVER A12, GIN_APPVERS A13, GIN_SPECVER A4, RUF A3 spaces, RUF N2 "00".
      return (
        formatA('Abecs', 8) +
        formatA(result.kernelVersion, 12) +
        formatA(result.appVersion, 13) +
        formatA(result.specVersion, 4) +
        '   00'
      );
    case 'acquirer03':
      // A6 "Abecs", KRNLVER A4, CTLSVER A4, MCTLSVER A3, VCTLSVER A3, APPVERS A13, SPECVER A4, RUF A2, DUKPT A1, RUF N2.
      return (
        formatA('Abecs', 6) +
        formatA(result.kernelVersion, 4) +
        formatA(result.contactlessVersion, 4) +
        formatA(result.mastercardVersion, 3) +
        formatA(result.visaVersion, 3) +
        formatA(result.appVersion, 13) +
        formatA(result.specVersion, 4) +
        '  ' +
        (result.dukptSlot01 ? 'T' : ' ') +
        '00'
      );
    case 'acquirer':
      // GIN_ACQNAME A20 (fixed "Abecs"), GIN_APPVERS A13, GIN_SPECVER A4, RUF A3 spaces, RUF N2 "00".
      return formatA('Abecs', 20) + formatA(result.appVersion, 13) + formatA(result.specVersion, 4) + '   00';
  }
}

export const GIN: DeviceCommand<GinRequest, GinResult> = {
  id: 'GIN',
  blocking: false,
  abecs: false,
  decode(packet, reading) {
    const fields = new FieldReader(onlyBlock(packet, reading), 'GIN');
    const acquirer = fields.number(2, 'GIN_ACQIDX');
    fields.end();
    return { acquirer };
  },
  encode: (result) => okReply([Buffer.from(ginData(result), 'latin1')]),
};

/** GIX (§3.2.4, §6.4.3): SPE_IDLIST (B..128, up to 64 X2 ids). */
export interface GixRequest {
  /** Requested ids in order (repeats kept); undefined when SPE_IDLIST is absent. */
  readonly ids?: readonly number[];
}

export interface GixResult {
  readonly items: readonly TlvItem[];
}

/** Response data as blocks, or ST_RSPOVRFL when the packet would pass the protocol's limit. */
export function abecsReply(items: readonly TlvItem[]): Reply {
  const blocks = encodeTlvBlocks(items);
  const size = 6 + blocks.reduce((sum, block) => sum + 3 + block.length, 0);
  return size > MAX_ABECS_PACKET ? { status: ST.RSPOVRFL, blocks: [] } : okReply(blocks);
}

export const GIX: DeviceCommand<GixRequest, GixResult> = {
  id: 'GIX',
  blocking: false,
  abecs: true,
  decode(packet, reading) {
    const list = paramsOf(packet).bytes(SPE.IDLIST, 'SPE_IDLIST', reading.strict ? { max: 128 } : {});
    if (list === undefined) return {};
    if (list.length % 2 !== 0) throw invalid('GIX: SPE_IDLIST has an odd length.');
    const ids: number[] = [];
    for (let at = 0; at < list.length; at += 2) ids.push(list.readUInt16BE(at));
    return { ids };
  },
  encode: (result) => abecsReply(result.items),
};

/**
 * CLO (§3.2.6, §6.4.5): CLO_MSG S32, 2×16. "Eventuais inconsistências nos dados da mensagem não
 * devem causar erro": it is read as DSP_MSG is (S220 §6.5.5).
 */
export interface CloRequest {
  /** The 32-character message, normalised (controls as spaces, padded or cut). */
  readonly message: string;
}

export const CLO: DeviceCommand<CloRequest, Record<string, never>> = {
  id: 'CLO',
  blocking: false,
  abecs: false,
  decode: (packet) => ({ message: fixedMessage((packet.blocks[0] ?? Buffer.alloc(0)).toString('latin1')) }),
  encode: () => okReply(),
};

/** CLX (§3.2.7, §6.4.5): SPE_DSPMSG and SPE_MFNAME, both optional; no exception situation. */
export interface ClxRequest {
  readonly message?: string;
  readonly mediaFile?: string;
}

export const CLX: DeviceCommand<ClxRequest, Record<string, never>> = {
  id: 'CLX',
  blocking: false,
  abecs: true,
  decode(packet) {
    const params = paramsOf(packet);
    const message = params.first(SPE.DSPMSG)?.toString('latin1');
    const mediaFile = params.first(SPE.MFNAME)?.toString('latin1');
    return { ...(message === undefined ? {} : { message }), ...(mediaFile === undefined ? {} : { mediaFile }) };
  },
  encode: () => okReply(),
};

/** TLE, GKY and other commands without parameters: bare or with one empty block. */
export function noParameters(
  id: string,
  blocking: boolean,
): DeviceCommand<Record<string, never>, Record<string, never>> {
  return {
    id,
    blocking,
    abecs: false,
    decode(packet, reading) {
      expectNoParameters(packet, reading.strict);
      return {};
    },
    encode: () => okReply(),
  };
}
