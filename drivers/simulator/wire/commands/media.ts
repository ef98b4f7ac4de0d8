/**
 * Multimedia commands (S220 §3.4, §6.6; abecs.md §3.18), all Abecs (TLV) and non-blocking: MLI,
 * MLR, MLE load a file, LMF lists, DMF deletes, DSI shows one. Optional in the spec: a PINPAD
 * without them answers ERR010 like any unknown command (§3.4), which the session does for a
 * profile with no graphic display.
 *
 * SPE_MFNAME is A8: eight ASCII characters, letters and digits left aligned and space padded
 * (the spec's LMF example lists "SIGNALS " and "PRESTO  "), not case sensitive (§6.6.4).
 */
import { okReply, paramsOf, type DeviceCommand } from '../command.js';
import { invalid } from '../fields.js';
import { PP, SPE } from '../ids.js';
import { expectNoParameters } from '../packet.js';
import { abecsReply } from './control.js';

export const MFNAME_LENGTH = 8;

/** A SPE_MFNAME value, upper-cased and trimmed; undefined when it is no A8 name. */
export function mediaNameOf(value: Buffer): string | undefined {
  const text = value.toString('latin1');
  if (value.length !== MFNAME_LENGTH || !/^[A-Za-z0-9]+ *$/.test(text)) return undefined;
  return text.trimEnd().toUpperCase();
}

function requiredName(command: string, value: Buffer | undefined): string {
  if (value === undefined) throw invalid(`${command}: SPE_MFNAME is missing.`);
  const name = mediaNameOf(value);
  if (name === undefined) throw invalid(`${command}: SPE_MFNAME is not A8 letters and digits.`);
  return name;
}

/** SPE_MFINFO B1 (§3.4.1): 01h PNG, 02h JPG, 03h GIF; any other value is RUF. */
export type MediaFormat = 'png' | 'jpg' | 'gif';
const FORMATS: Readonly<Record<number, MediaFormat>> = { 0x01: 'png', 0x02: 'jpg', 0x03: 'gif' };

export interface MliRequest {
  readonly name: string;
  /** X4. */
  readonly size: number;
  /** B2. */
  readonly crc: number;
  /** B1 as sent: the PINPAD must not judge it before the file is used (§6.6.1). */
  readonly typeCode: number;
  /** The format B1 names; undefined for a RUF value. */
  readonly format: MediaFormat | undefined;
}

/**
 * MLI (§3.4.1, §6.6.1): SPE_MFNAME and SPE_MFINFO, both M (ST_MANDAT when absent). SPE_MFINFO is
 * B10, yet "por uma questão de robustez, deve-se aceitar SPE_MFINFO com qualquer tamanho maior ou
 * igual a 7 bytes"; shorter is ST_INVPARM.
 */
export const MLI: DeviceCommand<MliRequest, Record<string, never>> = {
  id: 'MLI',
  blocking: false,
  abecs: true,
  decode(packet) {
    const params = paramsOf(packet);
    const rawName = params.require(params.first(SPE.MFNAME), 'SPE_MFNAME');
    const info = params.require(params.bytes(SPE.MFINFO, 'SPE_MFINFO', { min: 7 }), 'SPE_MFINFO');
    const name = requiredName('MLI', rawName);
    const typeCode = info[6]!;
    return { name, size: info.readUInt32BE(0), crc: info.readUInt16BE(4), typeCode, format: FORMATS[typeCode] };
  },
  encode: () => okReply(),
};

/** MLR (§3.4.2, §6.6.2): one or more SPE_DATAIN (B..995), concatenated in order; none is ST_MANDAT. */
export interface MlrRequest {
  readonly data: readonly Buffer[];
}

export const MLR: DeviceCommand<MlrRequest, Record<string, never>> = {
  id: 'MLR',
  blocking: false,
  abecs: true,
  decode(packet) {
    const params = paramsOf(packet);
    const data = params.all(SPE.DATAIN);
    params.require(data[0], 'SPE_DATAIN');
    return { data };
  },
  encode: () => okReply(),
};

/** MLE (§3.4.3, §6.6.3): no parameters. */
export const MLE: DeviceCommand<Record<string, never>, Record<string, never>> = {
  id: 'MLE',
  blocking: false,
  abecs: true,
  decode(packet, reading) {
    expectNoParameters(packet, reading.strict);
    return {};
  },
  encode: () => okReply(),
};

/** LMF (§3.4.4, §6.6.4): no parameters; PP_MFNAME (A8, upper case) once per stored file. */
export interface LmfResult {
  readonly names: readonly string[];
}

export const LMF: DeviceCommand<Record<string, never>, LmfResult> = {
  id: 'LMF',
  blocking: false,
  abecs: true,
  decode(packet, reading) {
    expectNoParameters(packet, reading.strict);
    return {};
  },
  encode: (result) =>
    abecsReply(
      result.names.map((name) => ({
        id: PP.MFNAME,
        value: Buffer.from(name.toUpperCase().padEnd(MFNAME_LENGTH, ' '), 'latin1'),
      })),
    ),
};

/**
 * DMF (§3.4.5, §6.6.5): SPE_MFNAME, repeated; none is ST_MANDAT. "Eventuais nomes inválidos
 * (tamanho incorreto ou caracteres fora da faixa permitida) ou desconhecidos devem simplesmente
 * ser desprezados": they are left out here, not refused.
 */
export interface DmfRequest {
  readonly names: readonly string[];
}

export const DMF: DeviceCommand<DmfRequest, Record<string, never>> = {
  id: 'DMF',
  blocking: false,
  abecs: true,
  decode(packet) {
    const params = paramsOf(packet);
    const values = params.all(SPE.MFNAME);
    params.require(values[0], 'SPE_MFNAME');
    return { names: values.map(mediaNameOf).filter((name): name is string => name !== undefined) };
  },
  encode: () => okReply(),
};

/** DSI (§3.4.6, §6.6.6): SPE_MFNAME, M. */
export interface DsiRequest {
  readonly name: string;
}

export const DSI: DeviceCommand<DsiRequest, Record<string, never>> = {
  id: 'DSI',
  blocking: false,
  abecs: true,
  decode(packet) {
    const params = paramsOf(packet);
    return { name: requiredName('DSI', params.require(params.first(SPE.MFNAME), 'SPE_MFNAME')) };
  },
  encode: () => okReply(),
};

/** The multimedia commands, what a PINPAD without the optional feature does not know (§3.4). */
export const MEDIA_COMMANDS: ReadonlySet<string> = new Set(['MLI', 'MLR', 'MLE', 'LMF', 'DMF', 'DSI']);
