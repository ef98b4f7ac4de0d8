/**
 * GIX — get info extended (abecs.md §3.4), TLV, non-blocking. The request carries an optional
 * SPE_IDLIST (X2 ids of the wanted PP_* items); without it the PINPAD returns every standard
 * item (the TRACE `GIX000` answer was 930 bytes). With no list the command is sent as `GIX000`,
 * as the Scope TEF does and the real PPC-930 accepted (S220 §6.4.3 contradicts itself on
 * whether the list is mandatory).
 *
 * The result keeps every item in wire order (`items`, unknown ids included) and decodes the
 * known ones into typed fields. `encodeResponse` writes `items` exactly; `encodeGixInfo` turns
 * typed fields into items for the simulator.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { CommandCodec } from '../codec.js';
import { PP, SPE, ppKsnTdesData, ppKsnTdesPin, ppTableVersion } from '../ids.js';
import { tlvsToBlocks } from '../tlv.js';
import { TlvFields, okResponse } from './basic-support.js';

const ID = 'GIX';
/** SPE_IDLIST is B..128: at most 64 ids. */
export const GIX_MAX_IDS = 64;

export interface GixRequest {
  /** PP_* ids wanted, in the order they should come back; absent (or empty) = all standard items. */
  readonly ids?: readonly number[];
}

export interface GixItem {
  readonly id: number;
  readonly value: Buffer;
}

export type DisplayKind = 'text' | 'monochrome' | 'color' | 'none' | 'unknown';

export interface PinpadCapabilities {
  /** PP_CAPAB as sent, e.g. "1200000000". */
  readonly raw: string;
  /** d1. */
  readonly contactless: boolean;
  /** d2: 0 text only, 1 monochrome graphic, 2 colour graphic, 9 none. */
  readonly display: DisplayKind;
  /** d3–d5, defined from Abecs 2.20 (ICC reader, magnetic tracks, SAM slots); "0" before. */
  readonly icc?: number;
  readonly magstripe?: number;
  readonly samSlots?: number;
}

export interface KernelVersions {
  readonly emv?: string;
  readonly contactless?: string;
  readonly mastercard?: string;
  readonly visa?: string;
  readonly amex?: string;
  readonly discover?: string;
  readonly pure?: string;
  readonly quickPass?: string;
}

export type KeySlotState = 'absent' | 'loaded' | 'unsupported' | 'unknown';

export interface KeyMap {
  /** 100 characters, one per slot 00–99: '0' absent, '1' loaded, '2' unsupported. */
  readonly raw: string;
  /** Slots whose key is loaded. */
  readonly loaded: number[];
}

export interface KeyMaps {
  readonly masterKeyPin?: KeyMap;
  readonly masterKeyData?: KeyMap;
  readonly dukptPin?: KeyMap;
  readonly dukptData?: KeyMap;
}

export type CommLink = 'serial' | 'bluetooth' | 'wifi' | 'otherWired' | 'otherWireless' | 'software' | 'unknown';

export interface GixInfo {
  readonly serialNumber?: string;
  readonly partNumber?: string;
  /** "name;memory", e.g. "PPC-930;192MB". */
  readonly model?: string;
  readonly manufacturer?: string;
  readonly capabilities?: PinpadCapabilities;
  readonly osVersion?: string;
  /** "2.12", "2.20". */
  readonly specVersion?: string;
  readonly managerVersion?: string;
  readonly appVersion?: string;
  readonly genVersion?: string;
  /** 2.20: supported contactless schemes, e.g. "2469B". */
  readonly ctlsCapabilities?: string;
  readonly kernelVersions?: KernelVersions;
  /** PP_DSPTXTSZ "LLCC". */
  readonly displayText?: { readonly lines: number; readonly columns: number };
  /** PP_DSPGRSZ "LLLLCCCC", pixels. */
  readonly displayGraphic?: { readonly height: number; readonly width: number };
  readonly mediaSupport?: { readonly raw: string; readonly png: boolean; readonly jpg: boolean; readonly gif: boolean };
  readonly keyMaps?: KeyMaps;
  /** DUKPT KSNs (hex) by slot, from PP_KSNTDESPnn / PP_KSNTDESDnn. */
  readonly dukptKsns?: {
    readonly pin: Readonly<Record<number, string>>;
    readonly data: Readonly<Record<number, string>>;
  };
  /** EMV table version by acquirer index (0 = global), from PP_TABVERnn. */
  readonly tableVersions?: Readonly<Record<number, string>>;
  /** PP_TLRMEM: free bytes for table records. */
  readonly tableMemoryFree?: number;
  /** PP_BATTINFO (2.20) as hex. */
  readonly batteryInfo?: string;
  /** PP_COMMINFO (2.20): how the PINPAD is connected. */
  readonly commInfo?: { readonly raw: string; readonly link: CommLink };
}

export type GixResult = GixInfo & { readonly items: readonly GixItem[] };

const TEXT_FIELDS = [
  ['serialNumber', PP.SERNUM],
  ['partNumber', PP.PARTNBR],
  ['model', PP.MODEL],
  ['manufacturer', PP.MNNAME],
  ['osVersion', PP.SOVER],
  ['specVersion', PP.SPECVER],
  ['managerVersion', PP.MANVERS],
  ['appVersion', PP.APPVERS],
  ['genVersion', PP.GENVERS],
  ['ctlsCapabilities', PP.CTLSCAPAB],
] as const;

const KERNELS = [
  ['emv', PP.KRNLVER],
  ['contactless', PP.CTLSVER],
  ['mastercard', PP.MCTLSVER],
  ['visa', PP.VCTLSVER],
  ['amex', PP.AECTLSVER],
  ['discover', PP.DPCTLSVER],
  ['pure', PP.PUREVER],
  ['quickPass', PP.QPCTLSVER],
] as const;

const KEY_MAPS = [
  ['masterKeyPin', PP.MKTDESP],
  ['masterKeyData', PP.MKTDESD],
  ['dukptPin', PP.DKPTTDESP],
  ['dukptData', PP.DKPTTDESD],
] as const;

const DISPLAY_KINDS: Readonly<Record<string, DisplayKind>> = {
  '0': 'text',
  '1': 'monochrome',
  '2': 'color',
  '9': 'none',
};
const COMM_LINKS: Readonly<Record<string, CommLink>> = {
  '0': 'serial',
  '1': 'bluetooth',
  '2': 'wifi',
  '7': 'otherWired',
  '8': 'otherWireless',
  '9': 'software',
};

function text(value: Buffer): string {
  return value.toString('latin1').replace(/ +$/, '');
}

function digit(raw: string, at: number): number | undefined {
  const ch = raw[at];
  return ch !== undefined && /[0-9]/.test(ch) ? Number(ch) : undefined;
}

function decodeCapabilities(raw: string): PinpadCapabilities {
  const icc = digit(raw, 2);
  const magstripe = digit(raw, 3);
  const samSlots = digit(raw, 4);
  return {
    raw,
    contactless: raw[0] === '1',
    display: DISPLAY_KINDS[raw[1] ?? ''] ?? 'unknown',
    ...(icc !== undefined ? { icc } : {}),
    ...(magstripe !== undefined ? { magstripe } : {}),
    ...(samSlots !== undefined ? { samSlots } : {}),
  };
}

export function decodeKeyMap(raw: string): KeyMap {
  const loaded: number[] = [];
  for (let slot = 0; slot < raw.length && slot < 100; slot++) if (raw[slot] === '1') loaded.push(slot);
  return { raw, loaded };
}

/** The state of one key slot in a PP_MKTDESP-style map. */
export function keySlotState(map: KeyMap, slot: number): KeySlotState {
  const ch = map.raw[slot];
  return ch === '0' ? 'absent' : ch === '1' ? 'loaded' : ch === '2' ? 'unsupported' : 'unknown';
}

/** Typed view of GIX items; the first item with an id wins, malformed values are left out. */
export function decodeGixInfo(items: readonly GixItem[]): GixInfo {
  const first = new Map<number, Buffer>();
  for (const item of items) if (!first.has(item.id)) first.set(item.id, item.value);
  const info: Record<string, unknown> = {};

  for (const [key, id] of TEXT_FIELDS) {
    const value = first.get(id);
    if (value !== undefined) info[key] = text(value);
  }
  const capab = first.get(PP.CAPAB);
  if (capab !== undefined) info.capabilities = decodeCapabilities(text(capab));

  const kernels: Record<string, string> = {};
  for (const [key, id] of KERNELS) {
    const value = first.get(id);
    if (value !== undefined) kernels[key] = text(value);
  }
  if (Object.keys(kernels).length > 0) info.kernelVersions = kernels;

  const txtsz = first.get(PP.DSPTXTSZ)?.toString('latin1');
  if (txtsz !== undefined && /^[0-9]{4}$/.test(txtsz)) {
    info.displayText = { lines: Number(txtsz.slice(0, 2)), columns: Number(txtsz.slice(2)) };
  }
  const grsz = first.get(PP.DSPGRSZ)?.toString('latin1');
  if (grsz !== undefined && /^[0-9]{8}$/.test(grsz)) {
    info.displayGraphic = { height: Number(grsz.slice(0, 4)), width: Number(grsz.slice(4)) };
  }
  const mfsup = first.get(PP.MFSUP);
  if (mfsup !== undefined) {
    const raw = text(mfsup);
    info.mediaSupport = { raw, png: raw[0] === '1', jpg: raw[1] === '1', gif: raw[2] === '1' };
  }

  const maps: Record<string, KeyMap> = {};
  for (const [key, id] of KEY_MAPS) {
    const value = first.get(id);
    if (value !== undefined) maps[key] = decodeKeyMap(value.toString('latin1'));
  }
  if (Object.keys(maps).length > 0) info.keyMaps = maps;

  const pin: Record<number, string> = {};
  const data: Record<number, string> = {};
  const tables: Record<number, string> = {};
  for (const [id, value] of first) {
    const slot = id & 0xff;
    if (slot > 99) continue;
    if (id === ppKsnTdesPin(slot)) pin[slot] = value.toString('hex').toUpperCase();
    else if (id === ppKsnTdesData(slot)) data[slot] = value.toString('hex').toUpperCase();
    else if (id === ppTableVersion(slot)) tables[slot] = text(value);
  }
  if (Object.keys(pin).length > 0 || Object.keys(data).length > 0) info.dukptKsns = { pin, data };
  if (Object.keys(tables).length > 0) info.tableVersions = tables;

  const tlrmem = first.get(PP.TLRMEM);
  if (tlrmem !== undefined && tlrmem.length === 4) info.tableMemoryFree = tlrmem.readUInt32BE(0);
  const battery = first.get(PP.BATTINFO);
  if (battery !== undefined) info.batteryInfo = battery.toString('hex').toUpperCase();
  const comm = first.get(PP.COMMINFO);
  if (comm !== undefined) {
    const raw = comm.toString('latin1');
    info.commInfo = { raw, link: COMM_LINKS[raw[0] ?? ''] ?? 'unknown' };
  }
  return info;
}

function latin1Item(id: number, value: string): GixItem {
  return { id, value: Buffer.from(value, 'latin1') };
}

function hexItem(id: number, name: string, hex: string): GixItem {
  if (!/^(?:[0-9A-Fa-f]{2})*$/.test(hex))
    throw new InvalidArgumentError(`${name} must be an even number of hex digits.`);
  return { id, value: Buffer.from(hex, 'hex') };
}

function fixedDigits(name: string, value: number, width: number): string {
  const max = 10 ** width - 1;
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new InvalidArgumentError(`${name} must be an integer from 0 to ${max}, got ${value}.`);
  }
  return String(value).padStart(width, '0');
}

/** Items for typed fields, in ascending id order (what a PINPAD sends for a bare GIX). */
export function encodeGixInfo(info: GixInfo): GixItem[] {
  const items: GixItem[] = [];
  for (const [key, id] of TEXT_FIELDS) {
    const value = info[key];
    if (value !== undefined) items.push(latin1Item(id, value));
  }
  if (info.capabilities) items.push(latin1Item(PP.CAPAB, info.capabilities.raw));
  for (const [key, id] of KERNELS) {
    const value = info.kernelVersions?.[key];
    if (value !== undefined) items.push(latin1Item(id, value));
  }
  if (info.displayText) {
    const { lines, columns } = info.displayText;
    items.push(latin1Item(PP.DSPTXTSZ, fixedDigits('Text lines', lines, 2) + fixedDigits('Text columns', columns, 2)));
  }
  if (info.displayGraphic) {
    const { height, width } = info.displayGraphic;
    items.push(
      latin1Item(PP.DSPGRSZ, fixedDigits('Graphic height', height, 4) + fixedDigits('Graphic width', width, 4)),
    );
  }
  if (info.mediaSupport) items.push(latin1Item(PP.MFSUP, info.mediaSupport.raw));
  for (const [key, id] of KEY_MAPS) {
    const map = info.keyMaps?.[key];
    if (map) items.push(latin1Item(id, map.raw));
  }
  if (info.tableMemoryFree !== undefined) {
    const free = info.tableMemoryFree;
    if (!Number.isInteger(free) || free < 0 || free > 0xffffffff) {
      throw new InvalidArgumentError(`PP_TLRMEM must be an integer from 0 to 4294967295, got ${free}.`);
    }
    const value = Buffer.alloc(4);
    value.writeUInt32BE(info.tableMemoryFree, 0);
    items.push({ id: PP.TLRMEM, value });
  }
  if (info.batteryInfo !== undefined) items.push(hexItem(PP.BATTINFO, 'PP_BATTINFO', info.batteryInfo));
  if (info.commInfo) items.push(latin1Item(PP.COMMINFO, info.commInfo.raw));
  const slots = (record: Readonly<Record<number, string>> | undefined): [number, string][] =>
    Object.entries(record ?? {}).map(([slot, value]) => [Number(slot), value]);
  for (const [slot, ksn] of slots(info.dukptKsns?.pin)) items.push(hexItem(ppKsnTdesPin(slot), 'KSN', ksn));
  for (const [slot, ksn] of slots(info.dukptKsns?.data)) items.push(hexItem(ppKsnTdesData(slot), 'KSN', ksn));
  for (const [acquirer, version] of slots(info.tableVersions))
    items.push(latin1Item(ppTableVersion(acquirer), version));
  return items;
}

/** A GIX result from items: the typed view plus the items themselves. */
export function gixResult(items: readonly GixItem[]): GixResult {
  return { ...decodeGixInfo(items), items };
}

export const gixCommand: CommandCodec<GixRequest, GixResult> = {
  id: ID,
  blocking: false,

  encodeRequest(req) {
    const ids = req.ids ?? [];
    if (ids.length === 0) return { id: ID, blocks: [Buffer.alloc(0)] };
    if (ids.length > GIX_MAX_IDS) {
      throw new InvalidArgumentError(`GIX asks for at most ${GIX_MAX_IDS} items at once; got ${ids.length}.`);
    }
    const list = Buffer.alloc(ids.length * 2);
    ids.forEach((id, index) => {
      if (!Number.isInteger(id) || id < 0 || id > 0xffff)
        throw new InvalidArgumentError(`GIX item id ${id} is out of range.`);
      list.writeUInt16BE(id, index * 2);
    });
    return { id: ID, blocks: tlvsToBlocks([{ id: SPE.IDLIST, value: list }]) };
  },

  decodeRequest(cmd) {
    const f = TlvFields.command(cmd);
    const list = f.raw(SPE.IDLIST);
    if (list === undefined || list.length === 0) return {};
    if (list.length % 2 !== 0) throw f.error('SPE_IDLIST has an odd length');
    if (list.length > GIX_MAX_IDS * 2) throw f.error(`SPE_IDLIST lists more than ${GIX_MAX_IDS} ids`);
    const ids: number[] = [];
    for (let at = 0; at < list.length; at += 2) ids.push(list.readUInt16BE(at));
    return { ids };
  },

  encodeResponse(res) {
    return okResponse(ID, tlvsToBlocks(res.items));
  },

  decodeResponse(rsp) {
    const f = TlvFields.response(rsp);
    // Copies, so the result does not pin the whole packet buffer in memory.
    return gixResult(f.list.items.map((item) => ({ id: item.id, value: Buffer.from(item.value) })));
  },
};
