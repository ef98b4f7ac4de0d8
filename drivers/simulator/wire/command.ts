/**
 * How the wire layer describes one command: how the PINPAD reads the request (`decode`, strictly:
 * a malformed field is ST_INVPARM, a missing mandatory one ST_MANDAT) and how it writes its
 * answer (`encode`: RSP_STAT and the data blocks).
 */
import { WireStatusError } from './errors.js';
import type { CommandPacket } from './packet.js';
import { ST } from './statuses.js';
import { Params } from './tlv.js';

/** How literally the device reads what the spec leaves open or contradicts (abecs.md §8.14). */
export interface Reading {
  /** The strict profile: the strict side of every inconsistency, no tolerance beyond the spec's. */
  readonly strict: boolean;
  /** The device's PP_SPECVER ("2.20", "2.12", "1.08"): 2.20 fields exist from 2.20 only. */
  readonly specVersion: string;
}

export const LENIENT: Reading = Object.freeze({ strict: false, specVersion: '2.20' });
export const STRICT: Reading = Object.freeze({ strict: true, specVersion: '2.20' });

/** RSP_STAT and the data blocks of an answer (the id is the command's). */
export interface Reply {
  readonly status: number;
  readonly blocks: readonly Buffer[];
}

export interface DeviceCommand<Req, Res> {
  /** CMD_ID. */
  readonly id: string;
  /** Waits for the cardholder (S220 ch. 3 legend boxes; abecs.md §3.1). */
  readonly blocking: boolean;
  /** An Abecs (TLV) command (S220 §3.1.3): unknown to a BibComp PINPAD. */
  readonly abecs: boolean;
  decode(packet: CommandPacket, reading: Reading): Req;
  encode(result: Res): Reply;
}

export const okReply = (blocks: readonly Buffer[] = []): Reply => ({ status: ST.OK, blocks });

/** The one block of a fixed-field command: none is ST_MANDAT, an extra one ST_INVPARM (strict). */
export function onlyBlock(packet: CommandPacket, reading: Reading): Buffer {
  const block = packet.blocks[0];
  if (block === undefined || (block.length === 0 && packet.blocks.length === 1)) {
    throw new WireStatusError(ST.MANDAT, `${packet.id}: the command's fields are missing.`);
  }
  if (reading.strict && packet.blocks.length > 1) {
    throw new WireStatusError(ST.INVPARM, `${packet.id} has one block, not ${packet.blocks.length}.`);
  }
  return block;
}

/** The parameters of an Abecs command (ST_INVPARM when their structure is broken). */
export function paramsOf(packet: CommandPacket): Params {
  return Params.decode(packet.id, packet.blocks);
}

/** Whether the device's spec version is at least `version` ("2.20" ≥ "2.12"). */
export function specAtLeast(reading: Reading, version: string): boolean {
  return Number(reading.specVersion) >= Number(version);
}

/** Card types of PP_CARDTYPE / GCR_CARDTYPE. */
export type CardTypeCode = '00' | '03' | '05' | '06';

/** Decision of the first Generate AC (GOC_DECISION, PP_GOXRES d1). */
export type ChipDecision = 'approvedOffline' | 'declined' | 'goOnline';

/**
 * PIN encryption (GPN_METHOD, GOC_METHOD, SPE_MTHDPIN): "0" MK/WK:DES, "1" MK/WK:TDES,
 * "2" DUKPT:DES, "3" DUKPT:TDES (S220 §3.1.3.1). The DES methods are obsolete (§5.1).
 */
export type PinMethod = 'mkwkDes' | 'mkwk' | 'dukptDes' | 'dukpt';

const PIN_METHODS: Readonly<Record<string, PinMethod>> = { '0': 'mkwkDes', '1': 'mkwk', '2': 'dukptDes', '3': 'dukpt' };

export function pinMethodOf(digit: string, where: string): PinMethod {
  const method = PIN_METHODS[digit];
  if (method === undefined) throw new WireStatusError(ST.INVPARM, `${where}: PIN method "${digit}" is not 0–3.`);
  return method;
}

/** An AID table record named by TAB_ACQ + TAB_RECIDX (GCR_IDAPPn, SPE_AIDLIST "AARR"). */
export interface AidRef {
  readonly acquirer: number;
  readonly record: string;
}

/** One PP_AIDTABINFO entry (A6): TAB_ACQ N2 + TAB_RECIDX A2 + T1_APPTYPE N2. */
export interface AidTableInfo extends AidRef {
  readonly appType: number;
}

/** "AARR" → a record reference; ST_INVPARM when TAB_ACQ is not 01–99 or TAB_RECIDX not A2. */
export function aidRefOf(text: string, where: string): AidRef {
  if (!/^(?:0[1-9]|[1-9][0-9])[\x20-\x7e]{2}$/.test(text)) {
    throw new WireStatusError(ST.INVPARM, `${where}: "${text}" is not a TAB_ACQ (01–99) + TAB_RECIDX reference.`);
  }
  return { acquirer: Number(text.slice(0, 2)), record: text.slice(2) };
}

/** SPE_PANMASK "eedd": digits left open on the left (ee) and on the right (dd). */
export interface PanMask {
  readonly left: number;
  readonly right: number;
}
