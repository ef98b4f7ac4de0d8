/**
 * Masks one ABECS packet for a trace, so card data never reaches the file. The rule:
 *
 * 1. Only packets we know are kept. An encrypted packet (DC2), one without a readable id, and a
 *    command or response this module has no rule for (CHP, CKE, ENB, GDU, GEN…) keep their id,
 *    status and length only — no data.
 * 2. Abecs TLV packets (GIX, CEX, GCX, GOX, FCX, GTK, EBX…) are cleaned parameter by parameter,
 *    keeping every parameter's id (and its length where the format allows):
 *    - PP_PAN: first 6 / last 4, '*' between;
 *    - tracks (PP_TRK1INC/2INC/3INC; PP_TRACK1/2/3 when in clear text): masked PAN, expiry and
 *      service code, name blanked, discretionary data zeroed; binary (packed or encrypted) track
 *      values are zeroed;
 *    - PP_PINBLK, PP_KSN, PP_ENCPAN, PP_TRKnKSN, PP_ENCPANKSN, PP_ENCKRAND, PP_KSNTDESPnn /
 *      PP_KSNTDESDnn, EBX's SPE_DATAIN / PP_DATAOUT, working keys (SPE_WKENC): zeros;
 *    - PP_EMVDATA / SPE_EMVDATA: card-data objects removed, cryptograms zeroed (mask-values.ts);
 *    - PP_CHNAME: removed;
 *    - GCD's answer, PP_VALUE (what the cardholder typed: a CPF, a card's last digits or security
 *      code): each character "0", so the length stays and no document or card datum does;
 *    - any parameter id the spec does not list: zeroed (it might be a vendor's card data).
 * 3. Legacy fixed-field packets with card data are cleaned field by field: GCR's answer (tracks,
 *    PAN, name, acquirer data), GOC (working key; PIN block, KSN, EMV data), FNC (issuer and card
 *    EMV data), GPN (working key and PAN; PIN block and KSN), OPN's encrypted session key.
 * 4. Packets without card data (OPN, CLO, DSP, DEX, GIN, GKY, RMC, GTS, TLI/TLR/TLE, CNG, NTM,
 *    GCR's command, error answers) are kept as they are.
 *
 * Whatever goes wrong while cleaning, the packet falls back to rule 1: a trace may lose data,
 * never leak it.
 */
import { DC2 } from '../frame.js';
import { decodeCommandPacket, decodeResponsePacket, encodeCommandPacket, encodeResponsePacket } from '../envelope.js';
import { PP, SPE } from '../ids.js';
import { decodeTlvBlock, encodeTlv } from '../tlv.js';
import { gcrCommand } from '../commands/gcr.js';
import { gocCommand } from '../commands/goc.js';
import { fncCommand } from '../commands/fnc.js';
import type { TraceDirection } from './format.js';
import { maskEmvData, maskPanText, maskTrackText, zeroBytes, zeroText } from './mask-values.js';
import { commandIds } from '../command-table.js';

export interface MaskedPacket {
  /** The three-letter id, when the packet has a readable one. */
  readonly id?: string;
  /** RSP_STAT of a PINPAD packet. */
  readonly status?: string;
  /** The cleaned PKTDATA; absent when the packet could not be cleaned safely. */
  readonly data?: Buffer;
}

/** The Abecs (TLV) commands of S220 §3.1.3: each parameter masked by what it holds. */
const TLV_COMMANDS = commandIds((command) => command.trace === 'tlv');

/** Fixed-field packets that carry no card data either way. */
const PLAIN_COMMANDS = commandIds((command) => command.trace === 'plain');

const ZEROED_PARAMS: ReadonlySet<number> = new Set([
  PP.PINBLK,
  PP.KSN,
  PP.ENCPAN,
  PP.TRK1KSN,
  PP.TRK2KSN,
  PP.TRK3KSN,
  PP.ENCPANKSN,
  PP.ENCKRAND,
  PP.DATAOUT,
  SPE.DATAIN,
  SPE.WKENC,
]);
const TRACK_TEXT_PARAMS: ReadonlySet<number> = new Set([PP.TRK1INC, PP.TRK2INC, PP.TRK3INC]);
const TRACK_PARAMS: ReadonlySet<number> = new Set([PP.TRACK1, PP.TRACK2, PP.TRACK3]);
const EMV_PARAMS: ReadonlySet<number> = new Set([PP.EMVDATA, SPE.EMVDATA]);
/** Every id the spec lists (abecs.md §2.4, §2.5) plus the PPC-930's reserved key maps. */
const KNOWN_PARAMS: ReadonlySet<number> = new Set([
  ...Object.values(SPE),
  ...Object.values(PP),
  0x8017,
  0x8030,
  0x8031,
  0x8034,
]);

/** PP_KSNTDESPnn / PP_KSNTDESDnn (9100h–9163h, 9200h–9263h): the KSN of each DUKPT slot. */
function isSlotKsn(id: number): boolean {
  const slot = id & 0xff;
  return (id >> 8 === 0x91 || id >> 8 === 0x92) && slot <= 99;
}

/** PP_TABVERnn (9300h–9363h). */
function isTableVersion(id: number): boolean {
  return id >> 8 === 0x93 && (id & 0xff) <= 99;
}

function isPrintable(value: Buffer): boolean {
  return value.every((byte) => byte >= 0x20 && byte <= 0x7e);
}

/** One TLV parameter's value as the trace keeps it; undefined drops the parameter. */
function maskParam(id: number, value: Buffer): Buffer | undefined {
  if (id === PP.CHNAME) return undefined;
  if (id === PP.PAN) return Buffer.from(maskPanText(value.toString('latin1')), 'latin1');
  if (TRACK_TEXT_PARAMS.has(id) || (TRACK_PARAMS.has(id) && isPrintable(value))) {
    return Buffer.from(maskTrackText(value.toString('latin1')), 'latin1');
  }
  if (EMV_PARAMS.has(id)) return maskEmvData(value);
  if (ZEROED_PARAMS.has(id) || TRACK_PARAMS.has(id) || isSlotKsn(id)) return zeroBytes(value);
  if (KNOWN_PARAMS.has(id) || isTableVersion(id)) return value;
  return zeroBytes(value);
}

/** GCD's answer: PP_VALUE is what the cardholder typed at a fixed prompt (CPF, CNPJ, phone, security code…). */
function maskTypedValue(id: number, value: Buffer): Buffer | undefined {
  return id === PP.VALUE ? Buffer.from(zeroText(value.toString('latin1')), 'latin1') : maskParam(id, value);
}

function maskTlvBlock(
  block: Buffer,
  code: 'MALFORMED_RESPONSE' | 'MALFORMED_COMMAND',
  mask: (id: number, value: Buffer) => Buffer | undefined = maskParam,
): Buffer {
  const parts: Buffer[] = [];
  for (const { id, value } of decodeTlvBlock(block, code)) {
    const masked = mask(id, value);
    if (masked !== undefined) parts.push(encodeTlv(id, masked));
  }
  return Buffer.concat(parts);
}

/** Replaces `length` characters at `at` of a fixed-field block (same length, so offsets hold). */
function overwrite(block: Buffer, at: number, length: number, replace: (text: string) => string): void {
  if (block.length < at + length) throw new RangeError('the block is shorter than its fixed fields');
  const text = replace(block.subarray(at, at + length).toString('latin1'));
  block.write(text, at, length, 'latin1');
}

/** GPN command: METHOD N1, KEYIDX N2, WKENC H32, PANLEN N2, PAN A19, … */
function maskGpnCommand(blocks: readonly Buffer[]): Buffer[] {
  const block = Buffer.from(blocks[0] ?? Buffer.alloc(0));
  overwrite(block, 3, 32, zeroText);
  const panLength = Number(block.subarray(35, 37).toString('latin1'));
  if (!Number.isInteger(panLength) || panLength > 19) throw new RangeError('GPN_PANLEN is out of range');
  overwrite(block, 37, panLength, maskPanText);
  return [block, ...blocks.slice(1)];
}

/** GPN answer: PINBLK H16, KSN H20. */
function maskGpnResponse(blocks: readonly Buffer[]): Buffer[] {
  const block = Buffer.from(blocks[0] ?? Buffer.alloc(0));
  overwrite(block, 0, 36, zeroText);
  return [block];
}

/** GOC block 1: AMOUNT N12, CASHBACK N12, EXCLIST, CONNECT, RUF1, METHOD N1 each, KEYIDX N2, WKENC H32, … */
function maskGocCommand(blocks: readonly Buffer[]): Buffer[] {
  const block = Buffer.from(blocks[0] ?? Buffer.alloc(0));
  overwrite(block, 30, 32, zeroText);
  return [block, ...blocks.slice(1)];
}

/** OPN answer of a secure open: CRKSLEN N3 + CRKSEC H.. (the session key, encrypted). */
function maskOpnResponse(blocks: readonly Buffer[]): Buffer[] {
  return blocks.map((block) => {
    const copy = Buffer.from(block);
    if (copy.length > 3) overwrite(copy, 3, copy.length - 3, zeroText);
    return copy;
  });
}

function maskCommandBlocks(id: string, blocks: readonly Buffer[]): Buffer[] | undefined {
  if (TLV_COMMANDS.has(id)) return blocks.map((block) => maskTlvBlock(block, 'MALFORMED_COMMAND'));
  switch (id) {
    case 'GPN':
      return maskGpnCommand(blocks);
    case 'GOC':
      return maskGocCommand(blocks);
    case 'FNC': {
      const req = fncCommand.decodeRequest({ id, blocks });
      return [...fncCommand.encodeRequest({ ...req, issuerData: maskEmvData(req.issuerData) }).blocks];
    }
    // The card reading's parameters and the host's public key: no card data.
    case 'GCR':
    case 'OPN':
      return [...blocks];
    default:
      return PLAIN_COMMANDS.has(id) ? [...blocks] : undefined;
  }
}

function maskResponseBlocks(id: string, status: number, blocks: readonly Buffer[]): Buffer[] | undefined {
  if (id === 'GCD') return blocks.map((block) => maskTlvBlock(block, 'MALFORMED_RESPONSE', maskTypedValue));
  if (TLV_COMMANDS.has(id)) return blocks.map((block) => maskTlvBlock(block, 'MALFORMED_RESPONSE'));
  const rsp = { id, status, blocks };
  switch (id) {
    case 'GCR': {
      const res = gcrCommand.decodeResponse(rsp);
      return [
        ...gcrCommand.encodeResponse({
          ...res,
          track1: maskTrackText(res.track1),
          track2: maskTrackText(res.track2),
          track3: maskTrackText(res.track3),
          pan: maskPanText(res.pan),
          cardholderName: '',
          acquirerData: zeroText(res.acquirerData),
        }).blocks,
      ];
    }
    case 'GOC': {
      const res = gocCommand.decodeResponse(rsp);
      return [
        ...gocCommand.encodeResponse({
          ...res,
          pinBlock: zeroText(res.pinBlock),
          ksn: zeroText(res.ksn),
          emvData: maskEmvData(res.emvData),
          ...(res.acquirerData !== undefined ? { acquirerData: zeroText(res.acquirerData) } : {}),
        }).blocks,
      ];
    }
    case 'FNC': {
      const res = fncCommand.decodeResponse(rsp);
      return [...fncCommand.encodeResponse({ ...res, emvData: maskEmvData(res.emvData) }).blocks];
    }
    case 'GPN':
      return maskGpnResponse(blocks);
    case 'OPN':
      return maskOpnResponse(blocks);
    default:
      return PLAIN_COMMANDS.has(id) ? [...blocks] : undefined;
  }
}

function readableId(pktdata: Buffer): string | undefined {
  if (pktdata.length < 3 || pktdata[0] === DC2) return undefined;
  const id = pktdata.subarray(0, 3).toString('latin1');
  return /^[A-Z]{3}$/.test(id) ? id : undefined;
}

/** The packet as a trace may keep it (see the rule above). Never throws. */
export function maskPacket(dir: TraceDirection, pktdata: Buffer): MaskedPacket {
  const id = readableId(pktdata);
  if (id === undefined) return {};
  if (dir === 'host') {
    try {
      const cmd = decodeCommandPacket(pktdata);
      const blocks = maskCommandBlocks(id, cmd.blocks);
      return blocks === undefined ? { id } : { id, data: encodeCommandPacket({ id, blocks }) };
    } catch {
      return { id };
    }
  }
  const statusText = pktdata.subarray(3, 6).toString('latin1');
  if (!/^[0-9]{3}$/.test(statusText)) return { id };
  // NTM carries the text the PINPAD shows, "NTM000" + N3 + text: not an envelope with blocks.
  if (id === 'NTM') return { id, status: statusText, data: Buffer.from(pktdata) };
  try {
    const rsp = decodeResponsePacket(pktdata);
    // An error answer is id + status only (S220 §2.3.2): whatever followed is dropped.
    if (rsp.status !== 0)
      return { id, status: statusText, data: encodeResponsePacket({ id, status: rsp.status, blocks: [] }) };
    const blocks = maskResponseBlocks(id, rsp.status, rsp.blocks);
    if (blocks === undefined) return { id, status: statusText };
    return { id, status: statusText, data: encodeResponsePacket({ id, status: rsp.status, blocks }) };
  } catch {
    return { id, status: statusText };
  }
}
